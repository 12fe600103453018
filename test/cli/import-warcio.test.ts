/**
 * `robots-audit import` on WARC/1.1 files written by warcio.js, the library Browsertrix writes its WARCs
 * with, in Browsertrix's conventions: microsecond WARC-Dates, sha256 digests, payloads stored decoded with
 * the headers that said how they were sent renamed (`x-orig-content-encoding`, `x-orig-transfer-encoding`),
 * and revisit records naming the capture they repeat.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WARCRecord, WARCSerializer } from 'warcio';
import { runCli } from '../helpers/run-cli.js';
import { sha256, type TempDir, tempDir } from '../pipeline/fetch/harness.js';

let tmp: TempDir;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

const A = 'User-agent: *\nDisallow: /a\n';
const B = 'User-agent: *\nDisallow: /b\n';
const REVISIT_PROFILE = 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest';

function payloadDigest(body: string): string {
  return `sha256:${createHash('sha256').update(body).digest('hex')}`;
}

/** A gzip member per record, as Browsertrix writes them. */
async function warcFile(name: string, records: WARCRecord[]): Promise<string> {
  const parts: Buffer[] = [];
  const info = WARCRecord.createWARCInfo(
    { filename: name, warcVersion: 'WARC/1.1' },
    { software: 'warcio.js' },
  );
  for (const r of [info, ...records])
    parts.push(Buffer.from(await WARCSerializer.serialize(r, { gzip: true })));
  const path = join(tmp.dir, name);
  writeFileSync(path, Buffer.concat(parts));
  return path;
}

/** A response stored decoded, its Content-Encoding and Transfer-Encoding renamed as Browsertrix does. */
function decodedResponse(url: string, date: string, status: number, body: string): WARCRecord {
  return WARCRecord.create(
    {
      url,
      date,
      type: 'response',
      warcVersion: 'WARC/1.1',
      statusline: `HTTP/1.1 ${status} ${status === 200 ? 'OK' : 'Not Found'}`,
      httpHeaders: {
        'Content-Type': 'text/plain',
        'x-orig-content-encoding': 'gzip',
        'x-orig-transfer-encoding': 'chunked',
      },
      warcHeaders: { 'WARC-Payload-Digest': payloadDigest(body) },
    },
    [Buffer.from(body)],
  );
}

function revisitOf(url: string, date: string, refersToDate: string, body: string): WARCRecord {
  return WARCRecord.create(
    {
      url,
      date,
      type: 'revisit',
      warcVersion: 'WARC/1.1',
      refersToUrl: url,
      refersToDate,
      statusline: 'HTTP/1.1 200 OK',
      httpHeaders: { 'Content-Type': 'text/plain' },
      warcHeaders: { 'WARC-Payload-Digest': payloadDigest(body), 'WARC-Profile': REVISIT_PROFILE },
    },
    [],
  );
}

async function exported(cache: string) {
  const r = await runCli(['cache', 'export', '--cache', cache]);
  expect(r.code).toBe(0);
  return r.stdout
    .trim()
    .split('\n')
    .map(
      (l) =>
        JSON.parse(l) as {
          origin: string;
          outcome: string;
          status: number;
          sha256: string | null;
          validFrom: number;
          fetchedAt: number;
        },
    );
}

describe('import: WARC/1.1 written by warcio.js (Browsertrix)', () => {
  it('takes a decoded payload as stored, reads microsecond dates, and resolves revisits to the capture they name', async () => {
    const first = await warcFile('crawl-1.warc.gz', [
      decodedResponse('https://a.example/robots.txt', '2024-01-31T23:59:59.123456Z', 200, A),
      decodedResponse('https://b.example/robots.txt', '2024-02-01T00:00:00.5Z', 404, 'gone'),
    ]);
    const second = await warcFile('crawl-2.warc.gz', [
      revisitOf(
        'https://a.example/robots.txt',
        '2024-02-10T08:00:00.000001Z',
        '2024-01-31T23:59:59.123456Z',
        A,
      ),
      decodedResponse('https://a.example/robots.txt', '2024-02-20T08:00:00.25Z', 200, B),
    ]);
    const cache = join(tmp.dir, 'c.sqlite');
    // The revisit's file first: it is resolved once its original is imported.
    const r = await runCli(['import', second, first, '--cache', cache]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('revisits     resolved 1, unresolved 0');
    const vs = await exported(cache);
    const at = (iso: string) => Date.parse(iso);
    expect(vs.map((v) => [v.origin, v.outcome, v.status, v.sha256, v.validFrom, v.fetchedAt])).toEqual([
      // First seen at the capture, last seen at the revisit.
      [
        'https://a.example',
        'parsed',
        200,
        sha256(A),
        at('2024-01-31T23:59:59.123Z'),
        at('2024-02-10T08:00:00Z'),
      ],
      [
        'https://a.example',
        'parsed',
        200,
        sha256(B),
        at('2024-02-20T08:00:00.25Z'),
        at('2024-02-20T08:00:00.25Z'),
      ],
      [
        'https://b.example',
        'unavailable',
        404,
        null,
        at('2024-02-01T00:00:00.5Z'),
        at('2024-02-01T00:00:00.5Z'),
      ],
    ]);
  });
});
