/**
 * WARC files written by GNU Wget itself (`--warc-file`, `--warc-dedup`), capturing robots.txt from a
 * real loopback server that plays several hosts (Wget reaches them through it as its HTTP proxy), then
 * imported and judged as of a time by the real CLI. Needs Debian's `wget`: `npm run test:tools`.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const run = promisify(execFile);

const BODIES: Record<string, string> = {
  'a.test': 'User-agent: *\nDisallow: /a\n',
  'b.test': 'User-agent: *\nDisallow: /b\n',
  'd.test': 'User-agent: *\nAllow: /d/ok\nDisallow: /d\n',
};

/** Each host's answer: chunked, gzip-encoded, a redirect to another host, 404, 503. */
const server = http.createServer((req, res) => {
  const host = (req.headers.host ?? '').replace(/:\d+$/, '');
  switch (host) {
    case 'a.test': {
      // No length: Node sends it chunked, in two chunks.
      res.writeHead(200, { 'content-type': 'text/plain' });
      const body = BODIES[host]!;
      res.write(body.slice(0, 10));
      res.end(body.slice(10));
      return;
    }
    case 'b.test': {
      const gz = gzipSync(BODIES[host]!);
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(gz.length) });
      res.end(gz);
      return;
    }
    case 'c.test':
      res.writeHead(301, { location: 'http://d.test/robots.txt' }).end();
      return;
    case 'd.test':
      res.end(BODIES[host]!);
      return;
    case 'f.test':
      res.writeHead(503).end('busy');
      return;
    default:
      res.writeHead(404).end('not found');
  }
});

let dir: string;
let proxy: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'ra-wget-'));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  proxy = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs Wget on `hosts`' robots.txt through the loopback server, writing `name`.warc.gz; `extra` first. */
async function wget(name: string, hosts: string[], extra: string[] = []): Promise<string> {
  const args = [
    ...extra,
    '--no-config',
    '-e',
    'use_proxy=on',
    '-e',
    `http_proxy=${proxy}`,
    '--tries=1',
    '--quiet',
    `--warc-file=${path.join(dir, name)}`,
    '-P',
    path.join(dir, `${name}-files`),
    ...hosts.map((h) => `http://${h}/robots.txt`),
  ];
  // Wget exits 8 when a server answered with an error status (the 404 and 503 here): still written.
  await run('wget', args).catch((err: { code?: number }) => {
    if (err.code !== 8) throw err;
  });
  return path.join(dir, `${name}.warc.gz`);
}

interface Exported {
  origin: string;
  outcome: string;
  status: number | null;
  finalUrl: string | null;
  body: string | null;
  source: string;
  validFrom: number;
}

async function exported(cache: string): Promise<Map<string, Exported[]>> {
  const r = await runCli(['cache', 'export', '--cache', cache]);
  expect(r.code).toBe(0);
  const out = new Map<string, Exported[]>();
  for (const line of r.stdout.trim().split('\n')) {
    const v = JSON.parse(line) as Exported;
    out.set(v.origin, [...(out.get(v.origin) ?? []), v]);
  }
  return out;
}

const text = (b64: string | null) => (b64 === null ? null : Buffer.from(b64, 'base64').toString());

describe('import of WARC files written by GNU Wget', () => {
  it('reads chunked and gzip payloads as sent, follows a captured redirect, and judges rows by each capture', async () => {
    const before = Date.now() - 1000;
    const warc = await wget('crawl', ['a.test', 'b.test', 'c.test', 'e.test', 'f.test']);
    const cache = path.join(dir, 'crawl.sqlite');
    const r = await runCli(['import', warc, '--cache', cache]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('parsed 3, unavailable 1, unreachable 1, redirect 1, revisit 0');
    expect(r.stderr).toContain('redirects    resolved 1, unresolved 0');
    const vs = await exported(cache);
    expect([...vs.keys()].sort()).toEqual(
      ['a.test', 'b.test', 'c.test', 'd.test', 'e.test', 'f.test'].map((h) => `http://${h}`),
    );
    for (const h of ['a.test', 'b.test', 'd.test']) {
      const [v] = vs.get(`http://${h}`)!;
      expect(v).toMatchObject({ outcome: 'parsed', status: 200 });
      expect(text(v!.body)).toBe(BODIES[h]);
      expect(v!.source).toMatch(/^warc:crawl\.warc\.gz@\d+$/);
      // Wget's WARC-Date: when it fetched, to the second.
      expect(v!.validFrom).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      expect(v!.validFrom).toBeLessThanOrEqual(Date.now());
    }
    expect(vs.get('http://c.test')![0]).toMatchObject({
      outcome: 'parsed',
      finalUrl: 'http://d.test/robots.txt',
    });
    expect(text(vs.get('http://c.test')![0]!.body)).toBe(BODIES['d.test']);
    expect(vs.get('http://e.test')![0]).toMatchObject({ outcome: 'unavailable', status: 404 });
    expect(vs.get('http://f.test')![0]).toMatchObject({ outcome: 'unreachable', status: 503 });

    const after = new Date(Date.now() + 3_600_000).toISOString();
    const earlier = new Date(before - 86_400_000).toISOString();
    const log = [
      'time,host,url',
      `${after},a.test,http://a.test/a/x`,
      `${after},a.test,http://a.test/b`,
      `${after},b.test,http://b.test/b/x`,
      `${after},c.test,http://c.test/d/x`,
      `${after},c.test,http://c.test/d/ok`,
      `${after},e.test,http://e.test/x`,
      `${after},f.test,http://f.test/x`,
      `${earlier},a.test,http://a.test/a/x`,
    ];
    const input = path.join(dir, 'log.csv');
    writeFileSync(input, `${log.join('\n')}\n`);
    const c = await runCli([
      'classify',
      input,
      '--cache',
      cache,
      '--at-column',
      'time',
      '--agent',
      'Googlebot',
      '--quiet',
    ]);
    expect(c.stderr).toBe('');
    expect(c.code).toBe(0);
    expect(c.stdout.trimEnd().split('\n').slice(1)).toEqual([
      `${log[1]},false,disallowed_explicit,2,Disallow: /a,false,200,`,
      `${log[2]},true,allowed_implicit,,,,200,`,
      `${log[3]},false,disallowed_explicit,2,Disallow: /b,false,200,`,
      `${log[4]},false,disallowed_explicit,3,Disallow: /d,false,200,`,
      `${log[5]},true,allowed_explicit,2,Allow: /d/ok,,200,`,
      `${log[6]},true,allowed_unavailable,,,,404,`,
      `${log[7]},false,disallowed_unreachable,,,false,503,`,
      `${log[8]},,no_history,,,,,before_first_version`,
    ]);
  });

  it('resolves the revisit records of a deduplicating crawl, in whichever order the files are imported', async () => {
    const first = await wget('first', ['a.test', 'd.test'], ['--warc-cdx']);
    // A second later, so that the revisits are versions' later captures, not the same instant.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await wget(
      'second',
      ['a.test', 'd.test'],
      [`--warc-dedup=${path.join(dir, 'first.cdx')}`],
    );
    const results = [];
    for (const [name, files] of [
      ['forward', [first, second]],
      ['backward', [second, first]],
    ] as const) {
      const cache = path.join(dir, `${name}.sqlite`);
      const r = await runCli(['import', ...files, '--cache', cache]);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('revisits     resolved 2, unresolved 0');
      const vs = await exported(cache);
      for (const h of ['a.test', 'd.test']) {
        // Two identical captures: one version, its body the first capture's.
        const list = vs.get(`http://${h}`)!;
        expect(list).toHaveLength(1);
        expect(text(list[0]!.body)).toBe(BODIES[h]);
      }
      results.push(JSON.stringify([...vs]));
    }
    expect(results[1]).toBe(results[0]);
  });
});
