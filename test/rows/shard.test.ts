import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveRowUrl } from '../../src/rows/row-url.js';
import { hostHash, plainUrlHostHash, shardOf } from '../../src/rows/shard.js';
import { type Affinity, BatchClassifier, type PolicyFetcher } from '../../src/workers/batch-classifier.js';
import { config, dirFetcher, ROBOTS, robotsDir } from '../workers/classify-fixtures.js';

const dir = robotsDir(ROBOTS);

/** Hosts as crawl logs write them: plain, IDN, punycode, digits and hyphens, an IPv4 and an IPv6 literal. */
const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,6}[a-z0-9])?$/).filter((l) => !/^xn--|^..--/.test(l));
const host = fc.oneof(
  fc
    .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom('com', 'example', 'co.uk'))
    .map(([ls, tld]) => `${ls.join('.')}.${tld}`),
  fc.constantFrom('bücher.example', 'xn--bcher-kva.example', 'münchen.de', 'ÖBB.at', '127.0.0.1', '[::1]'),
);

/** Ways of spelling one host in a URL that all name it (case, trailing dot, IDN/punycode). */
function spellings(h: string): string[] {
  const out = [h, h.toUpperCase()];
  if (!h.startsWith('[') && !/^\d/.test(h)) out.push(`${h}.`, `${h.toUpperCase()}.`);
  return out;
}

/** URL forms of a row judged under host h, with default ports, both schemes, paths, a host column. */
function forms(h: string, path: string): { url: string; hostColumn?: string }[] {
  const out: { url: string; hostColumn?: string }[] = [];
  for (const spelled of spellings(h)) {
    out.push(
      { url: `http://${spelled}${path}` },
      { url: `https://${spelled}${path}` },
      { url: `HTTPS://${spelled}:443${path}` },
      { url: `http://${spelled}:80${path}` },
      { url: `http://${spelled}:8080${path}` },
      { url: `https://user:pw@${spelled}${path}` },
      { url: `//${spelled}${path}` },
      { url: path, hostColumn: spelled },
      { url: `https://${spelled}${path}`, hostColumn: 'other.example' },
    );
  }
  return out;
}

const path = fc.constantFrom('/', '/a?b=1', '/x/y#frag', '/café', '?q', '#f');

describe('shardOf', () => {
  it('is FNV-1a 32-bit of the host, modulo N, plus 1 (the FNV test vectors)', () => {
    expect(hostHash('')).toBe(2166136261);
    expect(hostHash('a')).toBe(0xe40c292c);
    expect(hostHash('foobar')).toBe(0xbf9cf968);
    expect(shardOf('foobar', 2 ** 32)).toBe(0xbf9cf968 + 1);
    expect(shardOf('foobar', 7)).toBe((0xbf9cf968 % 7) + 1);
    expect(shardOf('anything', 1)).toBe(1);
  });

  it('hashes the canonical host: lower case, punycode, no trailing dot', () => {
    expect(hostHash('Example.COM.')).toBe(hostHash('example.com'));
    expect(hostHash('bücher.example')).toBe(hostHash('xn--bcher-kva.example'));
    expect(hostHash('BÜCHER.example.')).toBe(hostHash('xn--bcher-kva.example'));
  });

  it('gives every spelling of a host, in every URL form and scheme, the shard of its canonical host', () => {
    fc.assert(
      fc.property(host, path, fc.integer({ min: 2, max: 64 }), (h, p, n) => {
        const canonical = resolveRowUrl(`https://${h}/`, undefined, 'https');
        expect(canonical.ok).toBe(true);
        if (!canonical.ok) return;
        const want = shardOf(canonical.origin.host, n);
        for (const f of forms(h, p.startsWith('/') ? p : `/${p}`)) {
          const r = resolveRowUrl(f.url, f.hostColumn, 'https');
          expect(r.ok, f.url).toBe(true);
          if (r.ok) expect(shardOf(r.origin.host, n), `${f.url} (${r.origin.host})`).toBe(want);
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** URL text close to the plain form, with the characters that change what its host is. */
const plainUrl = fc
  .tuple(fc.constantFrom('http://', 'https://'), host, fc.constantFrom('', '/', '/p?q', '#f', '?x'))
  .map(([s, h, tail]) => `${s}${h}${tail}`);
const oddUrl = fc
  .tuple(
    fc.constantFrom('http://', 'https://', 'HTTP://', 'http:/', 'http:///', 'ftp://', ' http://', 'https:'),
    fc.array(
      fc.constantFrom(
        'a',
        'b',
        'z',
        'Q',
        '0',
        '9',
        '.',
        '-',
        '_',
        'xn--',
        'ü',
        '@',
        ':',
        ':80',
        ':0',
        '\\',
        ' ',
        '%41',
        '[',
        ']',
        '\t',
      ),
      { maxLength: 12 },
    ),
    fc.constantFrom('', '/', '/p', '?q', '#f', ' ', ':8080/', '@h.example/', '.'),
  )
  .map(([s, h, tail]) => `${s}${h.join('')}${tail}`);
const urlText = fc.oneof(plainUrl, oddUrl);

describe('plainUrlHostHash', () => {
  it('answers only for URLs whose resolution is that very host, and -1 otherwise', () => {
    let answered = 0;
    fc.assert(
      fc.property(urlText, fc.constantFrom('', 'x,', 'pre,'), (url, before) => {
        // Read in place, as from a batch: the field starts after other bytes and ends before a delimiter.
        const bytes = Buffer.from(`${before}${url},next`);
        const start = Buffer.byteLength(before);
        const h = plainUrlHostHash(bytes, start, start + Buffer.byteLength(url));
        if (h < 0) return;
        answered++;
        const r = resolveRowUrl(url, 'other.example', 'https');
        expect(r.ok, url).toBe(true);
        if (r.ok) expect(h, `${url} → ${r.origin.host}`).toBe(hostHash(r.origin.host));
      }),
      { numRuns: 5000 },
    );
    expect(answered).toBeGreaterThan(100);
  });

  const fast = (url: string) => plainUrlHostHash(Buffer.from(url), 0, Buffer.byteLength(url));

  it('answers for the common forms', () => {
    expect(fast('https://www.Example.com/a?b')).toBe(hostHash('www.example.com'));
    expect(fast('http://a-b_c.example')).toBe(hostHash('a-b_c.example'));
    for (const odd of [
      'http://a.example./',
      'http://a.example:80/',
      'http://xn--bcher-kva.example/',
      'http://1.2.3.4/',
      'http://bücher.example/',
    ])
      expect(fast(odd), odd).toBe(-1);
  });
});

describe('a shard in the worker', () => {
  const input = [
    'a.example,https://a.example/private/x',
    'b.example,https://b.example/y',
    'c.example,https://c.example:8080/port/1',
    'x,/p',
    'bücher.example,https://bücher.example/café',
    ',',
    'a.example,"https://a.example/q,1"',
    'B.EXAMPLE,HTTPS://B.EXAMPLE./z',
    'z.example,ftp://z.example/',
    '',
    'a.example,https://a.example/g-only',
  ].join('\n');

  /** Policies fetched, by origin key, through the real robots-dir broker. */
  function counting() {
    const { fetch } = dirFetcher(dir);
    const asked: string[] = [];
    const f: PolicyFetcher = (req) => {
      asked.push(...req.keys);
      return fetch(req);
    };
    return { f, asked };
  }

  it('writes only its hosts’ rows, the rows with no host in shard 1 only, and fetches only its origins', async () => {
    const solo = new BatchClassifier(config());
    const all = counting();
    const want = await solo.classify(Buffer.from(input), all.f);
    const wantLines = want.output.toString('latin1').split('\n').slice(0, -1);
    for (const n of [2, 3, 5]) {
      const got: string[][] = [];
      const asked: string[] = [];
      let records = 0;
      let blank = 0;
      for (let k = 1; k <= n; k++) {
        const c = counting();
        const shard = new BatchClassifier(config({ shard: { index: k, count: n } }));
        const r = await shard.classify(Buffer.from(input), c.f);
        got.push(r.output.toString('latin1').split('\n').slice(0, -1));
        for (const key of c.asked) {
          expect(shardOf(new URL(key).hostname, n), `${key} asked by shard ${k}/${n}`).toBe(k);
          asked.push(key);
        }
        expect(r.stats.records).toBe(got[k - 1]!.length);
        expect(r.stats.inputRecords).toBe(wantLines.length);
        records += r.stats.records;
        blank += r.stats.blankLines;
      }
      expect(records).toBe(wantLines.length);
      expect(blank).toBe(want.stats.blankLines);
      expect([...asked].sort()).toEqual([...all.asked].sort());
      // Each shard's rows are in input order, and together they are the unsharded output.
      for (const lines of got) expect(lines).toEqual(wantLines.filter((l) => lines.includes(l)));
      expect(got.flat().sort()).toEqual([...wantLines].sort());
      const invalid = wantLines.filter((l) => l.includes('invalid_input'));
      expect(invalid.length).toBeGreaterThan(0);
      for (const l of invalid) expect(got[0]).toContain(l);
    }
  });

  it('spreads a shard’s origins over all workers (hosts of one shard share their hash modulo N)', async () => {
    const hosts = Array.from({ length: 400 }, (_, i) => `h${i}.example`);
    const lines = hosts.map((h) => `${h},https://${h}/x`).join('\n');
    for (const n of [2, 4]) {
      const { fetch } = dirFetcher(dir);
      const workers: BatchClassifier[] = [];
      // Origins each worker fetches: the ones it owns.
      const owned = [0, 0];
      const fetchFor =
        (w: number): PolicyFetcher =>
        (req) => {
          owned[w]! += req.keys.length;
          return fetch(req);
        };
      const affinity = (self: number): Affinity => ({
        self,
        threads: 2,
        ask: (owner, req) => workers[owner]!.answer(structuredClone(req), fetchFor(owner)),
      });
      const shard = { index: 1, count: n };
      workers.push(
        new BatchClassifier(config({ shard }), affinity(0)),
        new BatchClassifier(config({ shard }), affinity(1)),
      );
      await workers[0]!.classify(Buffer.from(lines), fetchFor(0));
      await workers[1]!.classify(Buffer.from(lines), fetchFor(1));
      const mine = hosts.filter((h) => shardOf(h, n) === 1).length;
      expect(owned[0]! + owned[1]!, `${n} shards`).toBe(mine);
      expect(Math.min(...owned), `${n} shards: ${owned}`).toBeGreaterThan(mine / 4);
    }
  });
});
