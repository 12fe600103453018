/**
 * `robots-audit classify --shard K/N` and `--row-number`, through the real CLI: N shards over one input
 * split its rows and origins exactly, and their rows sorted by row_number are the unsharded run's.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassifySummary } from '../../src/pipeline/figures/summary.js';
import { shardOf } from '../../src/rows/shard.js';
import { type MultiHostServer, ok, startMultiHostServer } from '../helpers/multi-host-server.js';
import { CLI, runCli } from '../helpers/run-cli.js';
import { tempDir, writeRobots } from '../pipeline/classify-data.js';

const dir = tempDir('ra-shard-');
const robots = writeRobots(dir, {
  'h1.example.txt': 'User-agent: *\nDisallow: /private\n',
  'h2.example.txt': 'User-agent: *\nDisallow: /\n',
  'h3.example_8080.txt': 'User-agent: Googlebot\nAllow: /\nUser-agent: *\nDisallow: /\n',
  'xn--bcher-kva.example.txt': 'User-agent: *\nDisallow: /caf%C3%A9\n',
  'h7.example.txt': 'User-agent: *\nAllow: /public\nDisallow: /\n',
});
/** No array-job variables from the environment the tests run in. */
const NO_ENV = { JOB_COMPLETION_INDEX: '', AWS_BATCH_JOB_ARRAY_INDEX: '', AWS_BATCH_JOB_ARRAY_SIZE: '' };

/** Over 64 KiB (several batches): many hosts in many spellings, invalid rows, quoted newlines, blank lines. */
function crawl(): string {
  const lines = ['host,url,note'];
  const odd = [
    'h1.example,https://H1.EXAMPLE./private/a,upper case and a trailing dot',
    'h3.example,http://h3.example:8080/x,port',
    'bücher.example,https://bücher.example/café,IDN',
    'xn--bcher-kva.example,https://xn--bcher-kva.example/caf%C3%A9,punycode',
    'h2.example,/relative?q=1,path with host column',
    'h4.example,https://h5.example/mismatch,host mismatch',
    ',https://user:pw@h6.example:443/p,userinfo and default port',
    'h1.example,,missing url',
    'h1.example,ftp://h1.example/,unsupported scheme',
    'h1.example,https://a b/,bad url',
    ',/p,path without host',
    'h2.example,https://h2.example/x,extra,fields',
    'h7.example,https://h7.example/public/1,"quoted\nnewline, twice\n"',
    'h8.example,"https://h8.example/q?a=1,2",quoted url',
    '',
  ];
  for (let i = 0; i < 2600; i++) {
    if (i % 200 === 17) lines.push(...odd);
    lines.push(`h${i % 97}.example,https://h${i % 97}.example/page/${i}?x=${i % 7},row ${i}`);
    if (i % 500 === 3) lines.push('');
  }
  // An unterminated quote, and no other quote within 32 lines: one malformed_record row.
  lines.push('h9.example,"https://h9.example/never-closed,x');
  for (let i = 0; i < 40; i++) lines.push(`h${i}.example,http://h${i}.example/tail/${i},tail`);
  return `${lines.join('\n')}\n`;
}

const input = path.join(dir, 'crawl.csv');

async function classify(
  name: string,
  extra: string[],
  env: Record<string, string> = {},
): Promise<{ out: string; summary: ClassifySummary }> {
  const out = path.join(dir, `${name}.csv`);
  const summary = path.join(dir, `${name}.json`);
  const args = `classify ${input} --robots-dir ${robots} --agent Googlebot --agent GPTBot --row-number`;
  const threads = extra.includes('--threads') ? [] : ['--threads', '2'];
  const r = await runCli(
    [...args.split(' '), ...threads, '-o', out, '--summary', summary, '--quiet', ...extra],
    {
      env: { ...NO_ENV, ...env },
    },
  );
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return {
    out: readFileSync(out, 'utf8'),
    summary: JSON.parse(readFileSync(summary, 'utf8')) as ClassifySummary,
  };
}

/** Data records of an output: row_number and the record's exact text. */
function records(out: string): { n: number; raw: string; fields: string[] }[] {
  const all = parse(out, { raw: true, relax_column_count: true }) as unknown as {
    record: string[];
    raw: string;
  }[];
  return all.slice(1).map(({ record, raw }) => ({ n: Number(record[0]), raw, fields: record }));
}

/** The host a valid row of the test input is judged under (its URL's, or the host column's for a path). */
const hostOf = (host: string, url: string) =>
  new URL(url.startsWith('/') ? `https://${host}${url}` : url).hostname;

const headerOf = (out: string) => out.slice(0, out.indexOf('\n') + 1);

function addUp(parts: ClassifySummary[]) {
  const sum = (f: (s: ClassifySummary) => number) => parts.reduce((a, s) => a + f(s), 0);
  const byKey = (f: (s: ClassifySummary) => Record<string, number>) => {
    const out: Record<string, number> = {};
    for (const s of parts) for (const [k, v] of Object.entries(f(s))) out[k] = (out[k] ?? 0) + v;
    return Object.fromEntries(Object.entries(out).filter(([, v]) => v > 0));
  };
  return {
    recordsRead: sum((s) => s.recordsRead),
    rowsWritten: sum((s) => s.rowsWritten),
    blankLines: sum((s) => s.blankLines),
    invalidRows: sum((s) => s.invalidRows),
    hostMismatch: sum((s) => s.hostMismatch),
    resolved: sum((s) => s.origins.resolved),
    invalidByCode: byKey((s) => s.invalidByCode),
    googlebot: byKey((s) => s.verdicts.Googlebot!),
    gptbot: byKey((s) => s.verdicts.GPTBot!),
    byOutcome: byKey((s) => s.origins.byOutcome),
  };
}

let single: { out: string; summary: ClassifySummary };

beforeAll(async () => {
  writeFileSync(input, crawl());
  single = await classify('single', []);
}, 60_000);

describe('classify --row-number', () => {
  it('starts every row with its record number in the whole input, the numbering of invalidExamples', () => {
    expect(headerOf(single.out)).toBe(
      'row_number,host,url,note,allowed:Googlebot,verdict:Googlebot,rule_line:Googlebot,rule:Googlebot,allowed:GPTBot,verdict:GPTBot,rule_line:GPTBot,rule:GPTBot,robots_status,error_code\n',
    );
    const rows = records(single.out);
    expect(rows.length).toBe(single.summary.recordsRead);
    expect(rows.map((r) => r.n)).toEqual(rows.map((_, i) => i + 1));
    // Plain decimal, never quoted.
    for (const r of rows) expect(r.raw.startsWith(`${r.n},`)).toBe(true);
    expect(single.summary.invalidExamples.length).toBeGreaterThan(3);
    for (const ex of single.summary.invalidExamples) {
      const row = rows[ex.record - 1]!;
      expect(row.fields.at(-1), `record ${ex.record}`).toBe(ex.code);
    }
    expect(single.summary.shard).toBeNull();
  });

  it('numbers stay those of the whole input when a trickling pipe cuts it into many small batches', async () => {
    const args = ['classify', '-', '--robots-dir', robots, '--agent', 'Googlebot', '--threads', '2'];
    const child = spawn(process.execPath, [CLI, ...args, '--row-number', '--shard', '1/2', '--quiet'], {
      env: { ...process.env, ...NO_ENV },
    });
    let stdout = '';
    child.stdout.on('data', (b: Buffer) => {
      stdout += b.toString();
    });
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.write('host,url\n');
    const urls: string[] = [];
    for (let chunk = 0; chunk < 12; chunk++) {
      const part: string[] = [];
      for (let i = 0; i < 5; i++) {
        const n = urls.length;
        urls.push(`https://h${n}.example/${n}`);
        part.push(`h${n}.example,${urls[n]}`);
      }
      if (chunk % 3 === 0) part.push(''); // a blank line: not a record, not numbered
      child.stdin.write(`${part.join('\n')}\n`);
      // Past the 100 ms records wait for their batch to fill: each chunk is a batch of its own.
      await new Promise((r) => setTimeout(r, 150));
    }
    child.stdin.end();
    expect(await closed).toBe(0);
    const rows = parse(stdout, { columns: true }) as Record<string, string>[];
    const want = urls.flatMap((u, i) => (shardOf(new URL(u).hostname, 2) === 1 ? [[String(i + 1), u]] : []));
    expect(want.length).toBeGreaterThan(10);
    expect(rows.map((r) => [r.row_number, r.url])).toEqual(want);
  });
});

describe('classify --shard K/N', () => {
  for (const n of [1, 3, 8]) {
    it(`${n} shard(s): the rows sorted by row_number are the single run's, and the counters add up`, async () => {
      const parts: { out: string; summary: ClassifySummary }[] = [];
      // Many shards run with one worker each (quicker to start); the others with two, as the single run.
      const threads = n > 4 ? ['--threads', '1'] : [];
      for (let k = 1; k <= n; k++)
        parts.push(await classify(`shard-${k}-of-${n}`, ['--shard', `${k}/${n}`, ...threads]));
      const rows = parts.flatMap((p) => records(p.out));
      rows.sort((a, b) => a.n - b.n);
      for (const p of parts) expect(headerOf(p.out)).toBe(headerOf(single.out));
      expect(headerOf(single.out) + rows.map((r) => r.raw).join('')).toBe(single.out);
      // Every shard writes its rows in input order, and holds the hosts that hash to it.
      parts.forEach((p, k) => {
        const own = records(p.out);
        expect(own.map((r) => r.n)).toEqual([...own.map((r) => r.n)].sort((a, b) => a - b));
        for (const r of own) {
          if (r.fields.at(-1) !== '') expect(k, `invalid row ${r.n}`).toBe(0);
          else expect(shardOf(hostOf(r.fields[1]!, r.fields[2]!), n), `row ${r.n}`).toBe(k + 1);
        }
        expect(p.summary.shard).toEqual({ index: k + 1, count: n, key: 'fnv1a32(host) mod N' });
        expect(p.summary.recordsRead).toBe(own.length);
        expect(p.summary.rowsWritten).toBe(own.length);
      });
      expect(addUp(parts.map((p) => p.summary))).toEqual(addUp([single.summary]));
      expect(parts[0]!.summary.invalidExamples).toEqual(single.summary.invalidExamples);
      if (n > 1) expect(parts.filter((p) => p.summary.rowsWritten > 0).length).toBe(n);
    }, 60_000);
  }

  it('takes the shard from JOB_COMPLETION_INDEX with --shards, or from AWS Batch’s index and size', async () => {
    const byOption = await classify('opt-2-of-3', ['--shard', '2/3']);
    const k8s = await classify('k8s-1', ['--shards', '3'], { JOB_COMPLETION_INDEX: '1' });
    expect(k8s.out).toBe(byOption.out);
    expect(k8s.summary.shard).toEqual(byOption.summary.shard);
    const aws = await classify('aws-1', [], {
      AWS_BATCH_JOB_ARRAY_INDEX: '1',
      AWS_BATCH_JOB_ARRAY_SIZE: '3',
    });
    expect(aws.out).toBe(byOption.out);
    // --shard wins over the environment.
    const both = await classify('both', ['--shard', '2/3'], { JOB_COMPLETION_INDEX: '0' });
    expect(both.out).toBe(byOption.out);
  }, 60_000);

  // Every refusal is covered in test/pipeline/shard-option.test.ts; these check the CLI's answer.
  const refused: [string, string[], Record<string, string>, string][] = [
    [
      '--shard 4/3',
      ['--shard', '4/3'],
      {},
      'robots-audit: Invalid option `shard`: expected K/N with 1 ≤ K ≤ N, got "4/3" (string)\n',
    ],
    [
      'JOB_COMPLETION_INDEX=abc',
      ['--shards', '3'],
      { JOB_COMPLETION_INDEX: 'abc' },
      'robots-audit: Invalid environment variable JOB_COMPLETION_INDEX: expected an integer ≥ 0 (a 0-based index), got "abc"\n',
    ],
    [
      'AWS_BATCH_JOB_ARRAY_INDEX=0 with no count',
      [],
      { AWS_BATCH_JOB_ARRAY_INDEX: '0' },
      'robots-audit: AWS_BATCH_JOB_ARRAY_INDEX=0 gives the shard index: give the shard count with --shards N (or AWS_BATCH_JOB_ARRAY_SIZE)\n',
    ],
  ];
  for (const [name, args, env, message] of refused) {
    it(`refuses ${name} with one line naming it (exit 2)`, async () => {
      const r = await runCli(['classify', input, '--robots-dir', robots, '--agent', 'Googlebot', ...args], {
        env: { ...NO_ENV, ...env },
      });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(message);
    });
  }
});

describe('classify --shard with live fetching', () => {
  let srv: MultiHostServer;
  const hosts = Array.from({ length: 24 }, (_, i) => `s${i}.test`);
  beforeAll(async () => {
    srv = await startMultiHostServer();
    for (const h of hosts) srv.set(h, ok(`User-agent: *\nDisallow: /${h}\n`));
  });
  afterAll(() => srv.close());

  it('fetches each origin’s robots.txt once in all, from the one shard its host hashes to', async () => {
    const lines = ['url'];
    for (let i = 0; i < 600; i++) lines.push(`${srv.origin(hosts[i % hosts.length]!)}/p${i}`);
    const n = 3;
    const seen = new Map<string, number>();
    for (let k = 1; k <= n; k++) {
      srv.resetCounts();
      const r = await runCli(
        [
          'classify',
          '-',
          '--cache',
          path.join(dir, `live-${k}.sqlite`),
          '--resolve',
          '*=127.0.0.1',
          '--allow-private',
          '--retries',
          '0',
          '--agent',
          'Googlebot',
          '--shard',
          `${k}/${n}`,
          '--quiet',
        ],
        { input: `${lines.join('\n')}\n`, env: NO_ENV },
      );
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      for (const h of hosts) {
        const hits = srv.hits(h);
        expect(hits, `${h} in shard ${k}`).toBe(shardOf(h, n) === k ? 1 : 0);
        seen.set(h, (seen.get(h) ?? 0) + hits);
      }
      const rows = parse(r.stdout, { columns: true }) as Record<string, string>[];
      expect(rows.length).toBe(lines.slice(1).filter((u) => shardOf(new URL(u).hostname, n) === k).length);
    }
    expect([...seen.values()]).toEqual(hosts.map(() => 1));
  }, 60_000);

  it('fetch --shard K/N warms only the origins of its hosts, which classify --shard K/N then judges offline', async () => {
    const lines = ['url'];
    for (let i = 0; i < 240; i++) lines.push(`${srv.origin(hosts[i % hosts.length]!)}/q${i}`);
    const urls = lines.slice(1);
    // Rows with no origin are shard 1's bad rows, and the other shards' rows.
    lines.push('not a url', 'ftp://files.test/x');
    const input = `${lines.join('\n')}\n`;
    const n = 3;
    let badRows = 0;
    const net = ['--resolve', '*=127.0.0.1', '--allow-private', '--retries', '0'];
    for (let k = 1; k <= n; k++) {
      srv.resetCounts();
      const cache = path.join(dir, `warm-${k}.sqlite`);
      const summary = path.join(dir, `warm-${k}.json`);
      const fetched = await runCli(
        ['fetch', '-', '--cache', cache, ...net, '--shard', `${k}/${n}`, '--quiet', '--summary', summary],
        { input, env: NO_ENV },
      );
      expect(fetched.stderr).toBe('');
      expect(fetched.code).toBe(0);
      const mine = hosts.filter((h) => shardOf(h, n) === k);
      for (const h of hosts) expect(srv.hits(h), `${h} in shard ${k}`).toBe(mine.includes(h) ? 1 : 0);
      const s = JSON.parse(readFileSync(summary, 'utf8'));
      expect(s.origins).toBe(mine.length);
      expect(s.otherShardRows).toBe(
        urls.filter((u) => shardOf(new URL(u).hostname, n) !== k).length + (k === 1 ? 0 : 2),
      );
      expect(s.badRows).toBe(k === 1 ? 2 : 0);
      badRows += s.badRows;
      // Offline from the shard's own cache: every row of the shard has its policy (none not_cached).
      const judged = await runCli(
        [
          'classify',
          '-',
          '--offline',
          '--cache',
          cache,
          '--agent',
          'Googlebot',
          '--shard',
          `${k}/${n}`,
          '--quiet',
        ],
        { input, env: NO_ENV },
      );
      expect(judged.code).toBe(0);
      const rows = parse(judged.stdout, { columns: true }) as Record<string, string>[];
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.filter((r) => r.verdict === 'not_cached')).toEqual([]);
      // classify writes the invalid rows in shard 1's output only.
      expect(rows.filter((r) => r.verdict === 'invalid_input')).toHaveLength(k === 1 ? 2 : 0);
    }
    expect(badRows).toBe(2);
  }, 60_000);
});
