import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toWire } from '../../src/pipeline/policy/policy-broker.js';
import { createDirPolicyProvider } from '../../src/pipeline/policy/robots-dir-provider.js';
import { keyOf, type Origin } from '../../src/rows/row-url.js';
import {
  DirPolicySource,
  dirWirePolicy,
  fileHref,
  readRobotsFile,
} from '../../src/workers/robots-dir-reader.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ra-dir-reader-'));
writeFileSync(path.join(dir, 'a.example.txt'), 'User-agent: *\nDisallow: /a\n');
writeFileSync(path.join(dir, 'a.example_8080.txt'), 'User-agent: *\nDisallow: /port\n');
writeFileSync(path.join(dir, '[::1].txt'), 'User-agent: *\n');
writeFileSync(path.join(dir, 'big.example.txt'), 'Disallow: /x\n'.repeat(50_000));
mkdirSync(path.join(dir, 'dir.example.txt'));

const origins: Origin[] = [
  { scheme: 'https', host: 'a.example', port: 443 },
  { scheme: 'http', host: 'a.example', port: 80 },
  { scheme: 'http', host: 'a.example', port: 8080 },
  { scheme: 'https', host: '[::1]', port: 443 },
  { scheme: 'https', host: 'none.example', port: 443 },
  { scheme: 'https', host: 'none.example', port: 8443 },
  { scheme: 'https', host: 'dir.example', port: 443 },
  { scheme: 'https', host: '..', port: 443 },
  { scheme: 'https', host: 'a/b', port: 443 },
  { scheme: 'https', host: 'big.example', port: 443 },
];

describe('robots-dir reader (the workers read policy files themselves)', () => {
  it('gives each origin the policy the coordinator would have sent for it', async () => {
    const provider = createDirPolicyProvider(dir);
    for (const o of origins) {
      const key = keyOf(o);
      const policy = await provider.get(o);
      const viaCoordinator = toWire(key, policy);
      const inWorker = dirWirePolicy(key, o, readRobotsFile(dir, o), policy.fetchedAt);
      expect(inWorker, key).toEqual(viaCoordinator);
    }
  });

  it('covers each kind of answer', () => {
    const kinds = origins.map((o) => readRobotsFile(dir, o).kind);
    expect(kinds).toEqual([
      'file',
      'file',
      'file',
      'file',
      'missing',
      'missing',
      'unreadable',
      'missing',
      'missing',
      'file',
    ]);
  });

  it('keeps the first 500 KiB of a larger file and marks it truncated, as the coordinator would', () => {
    const o = { scheme: 'https', host: 'big.example', port: 443 } as const;
    const read = readRobotsFile(dir, o);
    expect(read).toMatchObject({ kind: 'file', truncated: true });
    expect(read.kind === 'file' && read.body?.length).toBe(500 * 1024);
    expect(dirWirePolicy(keyOf(o), o, read, 0).truncated).toBe(true);
    expect(dirWirePolicy('k', origins[0]!, readRobotsFile(dir, origins[0]!), 0).truncated).toBe(false);
  });

  it("reads a fully qualified name's file without its trailing dot (the same DNS name)", () => {
    const dotted = readRobotsFile(dir, { scheme: 'https', host: 'a.example.', port: 443 });
    const plain = readRobotsFile(dir, { scheme: 'https', host: 'a.example', port: 443 });
    expect(dotted.kind).toBe('file');
    expect(dotted).toEqual(plain);
    expect(readRobotsFile(dir, { scheme: 'http', host: 'a.example.', port: 8080 })).toEqual(
      readRobotsFile(dir, { scheme: 'http', host: 'a.example', port: 8080 }),
    );
  });

  it('counts what it read for the summary, but not origins adopted from their owner', () => {
    const source = new DirPolicySource(dir);
    expect(source.take()).toBeNull();
    const pick = [origins[0]!, origins[4]!, origins[6]!];
    const keys = pick.map(keyOf);
    const got = source.fetch({ keys, origins: pick });
    expect(got.map((p) => [p.key, p.outcome, p.status])).toEqual([
      ['https://a.example', 'parsed', 'file'],
      ['https://none.example', 'unavailable', 'missing'],
      ['https://dir.example', 'unreachable', 'ERR_ROBOTS_FILE'],
    ]);
    source.fetch({ keys, origins: pick, adopt: true });
    const t = source.take();
    expect(t).toMatchObject({ resolved: 3, parsed: 1, unavailable: 1, unreachable: 1, file: 2, missing: 1 });
    expect(t!.ms).toBeGreaterThanOrEqual(0);
    expect(source.take()).toBeNull();
  });

  it('answers from its listing as it would from the files, and reads a file added during the run', () => {
    const own = mkdtempSync(path.join(tmpdir(), 'ra-dir-listing-'));
    for (const name of ['a.example.txt', 'a.example_8080.txt', '[::1].txt']) {
      writeFileSync(path.join(own, name), 'User-agent: *\nDisallow: /a\n');
    }
    mkdirSync(path.join(own, 'dir.example.txt'));
    const source = new DirPolicySource(own);
    const keys = origins.map(keyOf);
    const wire = (p: { fetchedAt: string }) => ({ ...p, fetchedAt: '' });
    const direct = origins.map((o, i) => wire(dirWirePolicy(keys[i]!, o, readRobotsFile(own, o), 0)));
    expect(source.fetch({ keys, origins }).map(wire)).toEqual(direct);
    const late = { scheme: 'https', host: 'late.example', port: 443 } as const;
    expect(source.fetch({ keys: [keyOf(late)], origins: [late] })[0]!.outcome).toBe('unavailable');
    writeFileSync(path.join(own, 'late.example.txt'), 'User-agent: *\nDisallow: /\n');
    expect(source.fetch({ keys: [keyOf(late)], origins: [late] })[0]!.outcome).toBe('parsed');
  });

  it('says an origin surely has no file exactly when a read would find none, counting it as one', () => {
    const source = new DirPolicySource(dir);
    for (const o of origins) {
      const read = readRobotsFile(dir, o);
      // "Surely none" is never wrong; and with no name colliding in this listing it is always said.
      expect(source.missing(o.scheme, o.host, o.port), `${o.host}:${o.port}`).toBe(read.kind === 'missing');
    }
    const none = origins.filter((o) => readRobotsFile(dir, o).kind === 'missing').length;
    expect(source.take()).toMatchObject({ resolved: none, unavailable: none, missing: none, file: 0 });
    expect(source.missing('https', 'A.EXAMPLE.', 443)).toBe(false);
    expect(source.missing('https', 'none.example.', 443)).toBe(true);
  });

  it('sees a file added during the run within its refresh interval', async () => {
    const own = mkdtempSync(path.join(tmpdir(), 'ra-dir-missing-'));
    const source = new DirPolicySource(own);
    expect(source.missing('https', 'late.example', 443)).toBe(true);
    writeFileSync(path.join(own, 'late.example.txt'), 'User-agent: *\nDisallow: /\n');
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(source.missing('https', 'late.example', 443)).toBe(false);
  });
});

describe('fileHref', () => {
  it('is the file URL Node makes, for plain names and for names that need escaping', () => {
    const names = [
      'a.example.txt',
      '[::1].txt',
      'a b.txt',
      'caf%C3%A9.txt',
      'x#y.txt',
      'q?.txt',
      '.hidden.txt',
    ];
    for (const root of [dir, '/', '/tmp/with space', '/tmp/a/../b']) {
      for (const name of names) {
        const file = path.join(root, name);
        expect(fileHref(file), file).toBe(pathToFileURL(file).href);
      }
    }
  });
});
