/**
 * One read path: the origin (or row code) each record of a messy log yields to record-origins.ts and to
 * `fetch`'s warmCache is the one classify judges it by, record by record, whatever the encoding, line
 * ends, delimiter, column options, line mode or shard.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { classify } from '../../../src/pipeline/classify.js';
import type { LivePolicyProvider } from '../../../src/pipeline/fetch/live-policy-provider.js';
import { warmCache } from '../../../src/pipeline/fetch/warm-cache.js';
import { openInput } from '../../../src/pipeline/input/input-source.js';
import { readRecordOrigins } from '../../../src/pipeline/input/record-origins.js';
import { originKey } from '../../../src/pipeline/policy/policy.js';
import { usedAfterGc } from '../../helpers/heap.js';
import { tempDir } from '../classify-data.js';

const dir = tempDir('ra-record-origins-');
const emptyRobots = path.join(dir, 'robots');
mkdirSync(emptyRobots);

/** Records after their id; `§` is the delimiter, `¶` a line break inside a quoted field. */
const RECORDS = [
  'a.example§https://a.example/x',
  '§"https://q.example/a,b§c"',
  '§"https://n.example/line1¶line2"',
  'b.example§/path?q=1',
  '§/nohost',
  'bücher.example§/x',
  '§https://BÜCHER.example/y',
  'a.example',
  'a.example§https://c.example/x§more',
  'a.example§https://d.example/x§§',
  '§mailto:x@y.example',
  '§ ',
  'a.example§""',
  '"e.example"x§https://e.example/relaxed',
  'a.example§"https://f.example/x"y',
  '§http://[::1]:8080/v6',
  '§http://a b/',
  'g.example:8443§/p',
  '"h.example"§"/quoted/path"§',
  '§https://i.example/x"y"',
  'a.example§"https://j.example/unterminated',
  'k.example§/after-the-unclosed-quote',
  '§www.l.example/schemeless',
  'a.example§https://m.example/x',
];

/** The messy log with `eol` line ends and delimiter `d`: blank lines between and after records. */
function log(d: string, eol: string, header = `id${d}host${d}url`): string {
  const lines = RECORDS.map((r, i) => `${i + 1}${d}${r.replaceAll('§', d).replaceAll('¶', eol)}`);
  const body = [...lines.slice(0, 3), '', ...lines.slice(3, 12), '', '', ...lines.slice(12)].join(eol);
  return `${header === '' ? '' : `${header}${eol}`}${body}${eol}${eol}`;
}

function file(name: string, bytes: string | Buffer): string {
  const p = path.join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

const INPUTS: Record<string, string> = {
  'BOM, CRLF': file('crlf.csv', `\ufeff${log(',', '\r\n')}`),
  'LF, no BOM': file('lf.csv', log(',', '\n')),
  'CR-only line ends': file('cr.csv', log(',', '\r')),
  'Excel sep=; line after a BOM': file('sep.csv', `\ufeffsep=;\r\n${log(';', '\r\n')}`),
  'UTF-16 LE with its BOM': file(
    'utf16.csv',
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(log(',', '\r\n'), 'utf16le')]),
  ),
  gzip: file('log.csv.gz', gzipSync(`\ufeff${log(',', '\n')}`)),
};

interface ReadOpts {
  delimiter?: string;
  urlColumn?: string;
  hostColumn?: string;
  header?: boolean;
  columns?: string[];
}

const DEFAULTS = { delimiter: ',', urlColumn: 'url', hostColumn: 'host', scheme: 'https' as const };

/** What classify made of each record: its origin (from robots_url), or its row code. */
async function classified(input: string, opts: ReadOpts, shard?: string): Promise<string[]> {
  const output = path.join(dir, `out-${Math.random().toString(36).slice(2)}.csv`);
  await classify({
    input,
    output,
    agents: ['a'],
    robotsDir: emptyRobots,
    evidence: true,
    rowNumber: true,
    threads: 1,
    quiet: true,
    shard,
    ...opts,
  });
  const text = readFileSync(output);
  const first = text.toString('latin1', 0, 7) === 'sep=;\r\n' ? 7 : 0;
  const rows = parse(text.subarray(first), {
    delimiter: first > 0 ? ';' : (opts.delimiter ?? ','),
    relax_column_count: true,
    bom: true,
  }) as string[][];
  const body = opts.header === false ? rows : rows.slice(1);
  // Line mode writes no header: the verdict columns are the last 10 (evidence on).
  return body.map((r) => {
    const [, verdict, , , , code, robotsUrl] = r.slice(-10);
    return verdict === 'invalid_input' ? code! : robotsUrl!.slice(0, -'/robots.txt'.length);
  });
}

/** The same, as record-origins.ts reads it. */
async function read(input: string, opts: ReadOpts): Promise<string[]> {
  const out: string[] = [];
  const source = await openInput(input);
  for await (const batch of readRecordOrigins(source.chunks, { ...DEFAULTS, ...opts })) {
    for (const r of batch) out.push(r.ok ? r.key : r.code);
  }
  source.close();
  return out;
}

/** What fetch's warmCache asks for and counts, with a provider that records the origins asked. */
async function warmed(input: string, opts: ReadOpts, shard?: { index: number; count: number }) {
  const asked: string[] = [];
  const provider = {
    get: async (o: Parameters<LivePolicyProvider['get']>[0]) => {
      asked.push(originKey(o));
      return undefined;
    },
    stats: () => ({}),
  } as unknown as LivePolicyProvider;
  const source = await openInput(input);
  const s = await warmCache(source.chunks, { ...DEFAULTS, ...opts, concurrency: 4, shard }, provider);
  source.close();
  return { asked, rows: s.rows, badRows: s.badRows, badRowCodes: s.badRowCodes, otherShard: s.otherShard };
}

function tally(outcomes: string[]): Record<string, number> {
  const t: Record<string, number> = {};
  for (const o of outcomes) if (!o.includes('://')) t[o] = (t[o] ?? 0) + 1;
  return t;
}

const distinct = (outcomes: string[]) => [...new Set(outcomes.filter((o) => o.includes('://')))];

describe('record-origins: each record yields what classify judges it by', () => {
  for (const [name, input] of Object.entries(INPUTS)) {
    it(`${name}: the reader and fetch see classify's origins and row codes, record by record`, async () => {
      const want = await classified(input, {});
      // The log is as messy as meant: every kind of row code, and quoted records that are valid rows.
      expect(tally(want)).toEqual({
        missing_url: 3,
        extra_fields: 1,
        malformed_record: 1,
        unsupported_scheme: 1,
        path_without_host: 1,
        bad_url: 2,
      });
      expect(want).toContain('https://q.example');
      expect(want).toContain('https://n.example');
      expect(want).toContain('https://xn--bcher-kva.example');
      expect(want).toContain('https://k.example');
      expect(await read(input, {})).toEqual(want);
      const w = await warmed(input, {});
      expect(w.asked).toEqual(distinct(want));
      expect([w.rows, w.badRows, w.badRowCodes]).toEqual([
        want.length,
        want.filter((o) => !o.includes('://')).length,
        tally(want),
      ]);
    });
  }

  it('--delimiter tab, --url-column and --host-column', async () => {
    const input = file('tab.tsv', log('\t', '\n', 'id\tsite\tpage'));
    const opts = { delimiter: '\t', urlColumn: 'page', hostColumn: 'site' };
    const want = await classified(input, opts);
    expect(want).toContain('https://b.example');
    expect(await read(input, opts)).toEqual(want);
    expect((await warmed(input, opts)).badRowCodes).toEqual(tally(want));
  });

  it('line mode (--no-header --columns): blank lines are records too', async () => {
    const input = file('lines.csv', log(',', '\r\n', ''));
    const opts = { header: false, columns: ['id', 'host', 'url'] };
    const want = await classified(input, opts);
    expect(tally(want).blank_line).toBe(4);
    expect(await read(input, opts)).toEqual(want);
    expect((await warmed(input, opts)).asked).toEqual(distinct(want));
  });

  it('--shard K/N: fetch warms exactly the origins classify --shard K/N judges', async () => {
    const input = INPUTS['BOM, CRLF']!;
    const all = new Set<string>();
    for (let k = 1; k <= 3; k++) {
      const want = distinct(await classified(input, {}, `${k}/3`));
      const w = await warmed(input, {}, { index: k, count: 3 });
      expect(w.asked).toEqual(want);
      for (const o of want) all.add(o);
    }
    expect([...all].sort()).toEqual(distinct(await read(input, {})).sort());
  });
});

describe('record-origins: memory', () => {
  it('the origins kept from a batch do not keep its text alive', async () => {
    const filler = `filler.example,https://filler.example/${'p'.repeat(60)}\n`.repeat(700);
    const batches = 800;
    async function* log(): AsyncGenerator<Buffer> {
      yield Buffer.from('host,url\n');
      for (let i = 0; i < batches; i++) {
        yield Buffer.from(`${filler}new-host-${i}.example,https://new-host-${i}.example/x\n`);
      }
    }
    const before = usedAfterGc();
    const seen = new Map<string, unknown>();
    for await (const batch of readRecordOrigins(log(), DEFAULTS)) {
      for (const r of batch) if (r.ok && !seen.has(r.key)) seen.set(r.key, r.origin);
    }
    expect(seen.size).toBe(batches + 1);
    // 800 new origins, one in each of ~800 batches of 64 KiB: kept slices would pin ~50 MB of text.
    expect(usedAfterGc() - before).toBeLessThan(8 << 20);
  });
});
