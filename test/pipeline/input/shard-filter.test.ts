import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Batcher } from '../../../src/pipeline/input/batcher.js';
import { type ShardBatch, ShardFilter } from '../../../src/pipeline/input/shard-filter.js';
import { RecordNumbering } from '../../../src/pipeline/output/record-numbering.js';
import type { Shard } from '../../../src/rows/shard.js';
import { shardOf } from '../../../src/rows/shard.js';
import { BatchClassifier } from '../../../src/workers/batch-classifier.js';
import type { RecordPlaces } from '../../../src/workers/batch-rows.js';
import { config, dirFetcher, ROBOTS, robotsDir } from '../../workers/classify-fixtures.js';

const dir = robotsDir(ROBOTS);

/** One input line, and the host of a plain absolute URL (`https://host/…`, lower case) when it has one. */
interface Line {
  text: string;
  plainHost: string | null;
}

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,5}[a-z0-9]$/).filter((l) => !l.includes('--'));
const host = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 2 }), fc.constantFrom('example', 'com', 'co.uk'))
  .map(([ls, tld]) => `${ls.join('.')}.${tld}`);
const plainLine = fc
  .tuple(host, fc.constantFrom('http', 'https'), fc.constantFrom('/', '/a?b=1', '/x#f', ''), fc.nat(99))
  .map(([h, s, p, n]): Line => ({ text: `${h},${s}://${h}${p},n${n}`, plainHost: h }));
/** Lines the reading thread must leave to the workers: other URL forms, invalid rows, quotes, blanks. */
const otherLine = fc
  .tuple(
    host,
    fc.constantFrom(
      (h: string) => `${h},https://${h.toUpperCase()}./x,upper case, trailing dot`,
      (h: string) => `${h},HTTPS://${h}/x,n`,
      (h: string) => `${h},http://${h}:8080/x,port`,
      (h: string) => `${h},https://user@${h}/x,userinfo`,
      (h: string) => `${h},/path?q,path only`,
      (h: string) => `${h},https://bücher.example/café,IDN`,
      (h: string) => `${h},https://xn--bcher-kva.example/,punycode`,
      (h: string) => `${h},http://10.0.0.1/x,IPv4`,
      (h: string) => `${h},https://${h}/x,n,extra`,
      (h: string) => `${h},https://${h}/x,n,,`,
      (h: string) => `${h},,missing url`,
      (h: string) => `${h}`,
      (h: string) => `${h},"https://${h}/a,b",quoted url`,
      (h: string) => `${h},https://${h}/q,"a\nquoted newline"`,
      (h: string) => `${h},"https://${h}/never-closed,n`,
      (h: string) => `${h},https://${h}/a"b,literal quote`,
      () => '',
      () => '\r',
    ),
  )
  .map(([h, f]): Line => ({ text: f(h), plainHost: null }));
const line = fc.oneof({ weight: 4, arbitrary: plainLine }, { weight: 1, arbitrary: otherLine });

const input = fc
  .record({
    lines: fc.array(line, { minLength: 1, maxLength: 60 }),
    crlf: fc.boolean(),
    lastLf: fc.boolean(),
  })
  .map(({ lines, crlf, lastLf }) => {
    const eol = crlf ? '\r\n' : '\n';
    return { lines, text: lines.map((l) => l.text).join(eol) + (lastLf ? eol : '') };
  });

/** The input cut into batches as a run cuts it (a small target: many batches, runs cut to fit). */
function batchesOf(text: string, target: number): { batcher: Batcher; batches: Buffer[] } {
  const batcher = new Batcher(44, target);
  const bytes = Buffer.from(text);
  const batches: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 37) batches.push(...batcher.push(bytes.subarray(i, i + 37)));
  batches.push(...batcher.end());
  return { batcher, batches };
}

/** The worker's output and counters for batches posted in order, numbered as a run numbers them. */
async function judge(
  shard: Shard,
  lineMode: boolean,
  posted: { bytes: Buffer; places?: RecordPlaces }[],
): Promise<{ output: string; rows: number; blank: number; examples: number[] }> {
  const worker = new BatchClassifier(config({ shard, rowNumber: true, lineMode, columns: 3 }));
  const { fetch } = dirFetcher(dir);
  const numbering = new RecordNumbering();
  let output = '';
  let rows = 0;
  let blank = 0;
  let before = 0;
  const examples: number[] = [];
  for (const [seq, p] of posted.entries()) {
    const base = (records: number) => numbering.report({ kind: 'records', seq, records });
    const r = await worker.classify(Buffer.from(p.bytes), fetch, null, base, p.places);
    output += r.output.toString('latin1');
    rows += r.stats.records;
    blank += r.stats.blankLines;
    for (const [i] of r.stats.invalidExamples) examples.push(before + i + 1);
    before += r.stats.inputRecords;
  }
  return { output, rows, blank, examples };
}

describe('ShardFilter', () => {
  it('drops exactly the plain rows of other shards; the workers then write what they write unfiltered', async () => {
    await fc.assert(
      fc.asyncProperty(
        input,
        fc.integer({ min: 2, max: 4 }),
        fc.nat(3),
        fc.boolean(),
        fc.integer({ min: 40, max: 400 }),
        async ({ lines, text }, count, k, lineMode, target) => {
          const shard = { index: (k % count) + 1, count };
          const whole = batchesOf(text, target).batches.map((b) => ({ bytes: Buffer.from(b) }));
          const want = await judge(shard, lineMode, whole);

          const { batcher, batches } = batchesOf(text, target);
          const cfg = { shard, delimiter: ',', urlIndex: 1, columns: 3, lineMode };
          const filter = new ShardFilter(cfg, batcher.pool, target);
          const sifted: ShardBatch[] = [];
          for (const b of batches)
            for (const s of filter.push(b)) sifted.push({ ...s, bytes: Buffer.from(s.bytes) });
          sifted.push(...filter.flush());
          const got = await judge(
            shard,
            lineMode,
            sifted.map((s) => ({ bytes: s.bytes, places: s })),
          );
          expect(got).toEqual(want);

          // Only the plain rows of other shards were dropped (each counted once, so a line kept twice shows).
          const postedText = sifted.map((s) => s.bytes.toString()).join('');
          const others = lines.filter(
            (l) => l.plainHost !== null && shardOf(l.plainHost, count) !== shard.index,
          );
          const postedLines = postedText.split(/\r?\n/).filter((l) => l !== '' && l !== '\r');
          const inputLines = text.split(/\r?\n/).filter((l) => l !== '' && l !== '\r');
          // An unclosed quote swallows the lines after it, or makes its batch pass whole: fewer dropped.
          if (text.includes('never-closed'))
            expect(postedLines.length).toBeGreaterThanOrEqual(inputLines.length - others.length);
          else expect(postedLines.length).toBe(inputLines.length - others.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('numbers kept records in the whole input, across batches that drop everything', async () => {
    // Hosts of shard 2 of 2 only, then one of shard 1: every batch before the last is dropped whole.
    const hosts = Array.from({ length: 400 }, (_, i) => `h${i}.example`);
    const theirs = hosts.filter((h) => shardOf(h, 2) === 2);
    const mine = hosts.find((h) => shardOf(h, 2) === 1)!;
    const text = `${theirs.map((h) => `${h},https://${h}/x,n`).join('\n')}\n\n${mine},https://${mine}/y,n\n`;
    const { batcher, batches } = batchesOf(text, 256);
    expect(batches.length).toBeGreaterThan(20);
    const filter = new ShardFilter(
      { shard: { index: 1, count: 2 }, delimiter: ',', urlIndex: 1, columns: 3, lineMode: false },
      batcher.pool,
      256,
    );
    const sifted = batches.flatMap((b) => filter.push(b));
    sifted.push(...filter.flush());
    // The blank line (shard 1's, not a record) and the one row of shard 1, in one batch.
    expect(sifted.map((s) => s.bytes.toString())).toEqual([`\n${mine},https://${mine}/y,n\n`]);
    expect(Array.from(sifted[0]!.ordinals!)).toEqual([theirs.length]);
    const got = await judge({ index: 1, count: 2 }, false, [{ bytes: sifted[0]!.bytes, places: sifted[0]! }]);
    expect(got.output.split(',')[0]).toBe(String(theirs.length + 1));
    expect(got.blank).toBe(1);
  });
});
