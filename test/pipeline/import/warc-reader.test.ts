/** readWarc over generated archives: checked against warcio, plain and gzip alike, and past damage. */
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WARCParser } from 'warcio';
import {
  BATCH_EVENTS,
  readWarc,
  readWarcBatches,
  type WarcEvent,
} from '../../../src/pipeline/import/warc-reader.js';
import { ccCapture, gz, httpResponse, revisit, warcinfo, warcRecord, wgetResponse } from './warc-fixtures.js';

async function* chunksOf(b: Buffer, size = 1000): AsyncGenerator<Buffer> {
  for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
}

async function events(b: Buffer, size?: number): Promise<WarcEvent[]> {
  const out: WarcEvent[] = [];
  for await (const e of readWarc(chunksOf(b, size), (h) => h.headers.get('warc-type') === 'response'))
    out.push(e);
  return out;
}

const summary = (es: WarcEvent[]) =>
  es.map((e) =>
    e.type === 'record'
      ? ['record', e.offset, e.head.headers.get('warc-target-uri'), e.content.length]
      : e.type === 'skipped'
        ? ['skipped', e.offset, e.warcType]
        : [e.type, e.offset, e.reason],
  );

const records = () => [
  warcinfo(),
  ...ccCapture('https://a.example/robots.txt', '2024-01-01T00:00:00Z', 200, 'User-agent: *\nDisallow: /\n'),
  revisit('https://a.example/robots.txt', '2024-02-01T00:00:00Z', { digest: 'sha1:AAAA' }),
  wgetResponse('http://b.example/robots.txt', '2024-01-01T00:00:00Z', httpResponse(404, [], 'no')),
];

describe('readWarc', () => {
  it('the generated archives are WARC as warcio reads them', async () => {
    const recs = records();
    for (const bytes of [Buffer.concat(recs), gz(recs)]) {
      const types: string[] = [];
      for await (const r of WARCParser.iterRecords(chunksOf(bytes))) {
        types.push(r.warcType ?? '');
        await r.readFully();
      }
      expect(types).toEqual(['warcinfo', 'request', 'response', 'metadata', 'revisit', 'response']);
    }
  });

  it('plain and per-record gzip give the same records, offsets at each record (plain) or member (gzip)', async () => {
    const recs = records();
    const plain = await events(Buffer.concat(recs));
    const members = recs.map((r) => gzipSync(r));
    const zipped = await events(Buffer.concat(members));
    const starts = (parts: Buffer[]) =>
      parts.map((_, i) => String(parts.slice(0, i).reduce((n, p) => n + p.length, 0)));
    expect(plain.map((e) => e.offset)).toEqual(starts(recs));
    expect(zipped.map((e) => e.offset)).toEqual(starts(members));
    expect(summary(plain).map(([type, , x]) => [type, x])).toEqual(
      summary(zipped).map(([type, , x]) => [type, x]),
    );
    expect(summary(plain).map(([type]) => type)).toEqual([
      'skipped',
      'skipped',
      'record',
      'skipped',
      'skipped',
      'record',
    ]);
  });

  it('a whole file in one gzip member is read record by record', async () => {
    const recs = records();
    const one = await events(gzipSync(Buffer.concat(recs)));
    expect(one.filter((e) => e.type === 'record')).toHaveLength(2);
    expect(one.map((e) => e.offset)[1]).toBe(`0+${recs[0]!.length}`);
  });

  it('a member larger than one inflate call is streamed, its content capped, and the next member read', async () => {
    const big = warcRecord({
      type: 'response',
      uri: 'http://big.example/robots.txt',
      date: '2024-01-01T00:00:00Z',
      content: Buffer.concat([httpResponse(200, []), randomBytes(9 * 1024 * 1024)]),
    });
    const after = wgetResponse(
      'http://next.example/robots.txt',
      '2024-01-01T00:00:00Z',
      httpResponse(200, [], 'ok'),
    );
    const es = await events(gz([big, after]), 64 * 1024);
    expect(es.map((e) => [e.type, e.type === 'record' ? e.cut : null])).toEqual([
      ['record', true],
      ['record', false],
    ]);
    expect(es[1]!.type === 'record' && es[1]!.head.headers.get('warc-target-uri')).toBe(
      '<http://next.example/robots.txt>',
    );
  });

  it('a corrupt member is skipped to the next member; a plain record with a wrong length to the next record', async () => {
    const [a, b, c] = [0, 1, 2].map((i) =>
      wgetResponse(`http://${i}.example/robots.txt`, '2024-01-01T00:00:00Z', httpResponse(200, [], 'x')),
    );
    const mb = gzipSync(b!);
    mb[mb.length - 12] ^= 0xff; // flips a deflate byte near the end: the member inflates wrong or fails its CRC
    const zipped = await events(Buffer.concat([gzipSync(a!), mb, gzipSync(c!)]));
    expect(zipped.map((e) => e.type)).toEqual(['record', 'malformed', 'record']);
    const wrong = Buffer.from(
      b!.toString('latin1').replace(/Content-Length: \d+/, 'Content-Length: 3'),
      'latin1',
    );
    const plain = await events(Buffer.concat([a!, wrong, c!]));
    expect(plain.map((e) => e.type)).toEqual(['record', 'malformed', 'record']);
  });

  it('records of members read together keep their own content, marked with what want said', async () => {
    const bodies = [0, 1, 2, 3, 4, 5].map((i) => `User-agent: *\nDisallow: /${i}/${'x'.repeat(i * 300)}\n`);
    const recs = bodies.map((body, i) =>
      wgetResponse(`http://${i}.example/robots.txt`, '2024-01-01T00:00:00Z', httpResponse(200, [], body)),
    );
    const batches: Array<Array<WarcEvent<string>>> = [];
    const want = (h: Parameters<Parameters<typeof readWarcBatches>[1]>[0]) =>
      h.headers.get('warc-target-uri');
    for await (const batch of readWarcBatches(chunksOf(gz(recs), 1 << 20), want)) batches.push(batch);
    // One chunk holds every member: their records come as one batch.
    expect(batches).toHaveLength(1);
    const records = batches.flat();
    expect(records.map((e) => (e.type === 'record' ? e.mark : e.type))).toEqual(
      bodies.map((_, i) => `<http://${i}.example/robots.txt>`),
    );
    expect(records.map((e) => (e.type === 'record' ? e.content.toString('latin1') : ''))).toEqual(
      recs.map((r) => r.toString('latin1').slice(r.indexOf('\r\n\r\n') + 4, -4)),
    );
  });

  it('members read together come in batches of at most BATCH_EVENTS events, in order', async () => {
    const recs = Array.from({ length: 100 }, (_, i) =>
      ccCapture(`https://${i}.example/robots.txt`, '2024-01-01T00:00:00Z', 200, `Disallow: /${i}\n`),
    ).flat();
    const batches: WarcEvent[][] = [];
    const want = (h: Parameters<Parameters<typeof readWarcBatches>[1]>[0]) =>
      h.headers.get('warc-type') === 'response';
    for await (const batch of readWarcBatches(chunksOf(gz(recs), 1 << 20), want)) batches.push(batch);
    expect(batches.map((b) => b.length)).toEqual([BATCH_EVENTS, BATCH_EVENTS, 300 - 2 * BATCH_EVENTS]);
    expect(summary(batches.flat())).toEqual(summary(await events(gz(recs), 1 << 20)));
  });
});
