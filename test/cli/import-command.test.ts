/** `robots-audit import` spawned for real on WARC files built like the ones archivers write. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { sha256, type TempDir, tempDir } from '../pipeline/fetch/harness.js';
import {
  ccCapture,
  chunked,
  gz,
  httpResponse,
  payloadDigest,
  revisit,
  warcinfo,
  warcRecord,
  wgetResponse,
} from '../pipeline/import/warc-fixtures.js';

let tmp: TempDir;
let cache: string;
beforeEach(() => {
  tmp = tempDir();
  cache = join(tmp.dir, 'cache.sqlite');
});
afterEach(() => tmp.cleanup());

const A = 'User-agent: *\nDisallow: /a\n';
const B = 'User-agent: *\nDisallow: /b\n';

function file(name: string, bytes: Buffer): string {
  const path = join(tmp.dir, name);
  writeFileSync(path, bytes);
  return path;
}

async function importFiles(paths: string[], extra: string[] = []) {
  return runCli(['import', ...paths, '--cache', cache, ...extra]);
}

interface VersionJson {
  origin: string;
  outcome: string;
  status: number | null;
  errorCode: string | null;
  sha256: string | null;
  validFrom: number;
  validTo: number | null;
  fetchedAt: number;
  truncated: boolean;
  finalUrl: string | null;
  source: string;
  body: string | null;
}

async function exported(): Promise<VersionJson[]> {
  const r = await runCli(['cache', 'export', '--cache', cache]);
  expect(r.code).toBe(0);
  return r.stdout
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

const of = (vs: VersionJson[], origin: string) => vs.filter((v) => v.origin === origin);
const t = (iso: string) => Date.parse(iso);

describe('import: Common Crawl robots.txt captures', () => {
  it('each origin gets its versions: identical consecutive captures are one version, a change starts the next', async () => {
    const warc = gz([
      warcinfo(),
      ...ccCapture('https://a.example/robots.txt', '2024-01-01T00:00:00Z', 200, A),
      ...ccCapture('http://a.example/robots.txt', '2024-01-01T00:00:05Z', 404, 'not here'),
      ...ccCapture('https://a.example/robots.txt', '2024-02-01T00:00:00Z', 200, A),
      ...ccCapture('https://a.example/robots.txt', '2024-03-01T00:00:00Z', 200, B),
    ]);
    const r = await importFiles([file('cc.warc.gz', warc)]);
    expect(r.stderr).toContain('captures     4 (4 new, 0 already stored): parsed 3, unavailable 1');
    expect(r.stderr).toContain('skipped      9 records (request 4, metadata 4, warcinfo 1)');
    expect(r.code).toBe(0);
    const vs = await exported();
    const https = of(vs, 'https://a.example');
    expect(https.map((v) => [v.outcome, v.sha256, v.validFrom, v.validTo, v.fetchedAt])).toEqual([
      ['parsed', sha256(A), t('2024-01-01T00:00:00Z'), t('2024-03-01T00:00:00Z'), t('2024-02-01T00:00:00Z')],
      ['parsed', sha256(B), t('2024-03-01T00:00:00Z'), null, t('2024-03-01T00:00:00Z')],
    ]);
    expect(Buffer.from(https[1]!.body!, 'base64').toString()).toBe(B);
    expect(https[0]!.source).toMatch(/^warc:cc\.warc\.gz@\d+$/);
    expect(of(vs, 'http://a.example')).toMatchObject([{ outcome: 'unavailable', status: 404, body: null }]);
  });

  it('the source offset of a capture is the byte offset of its gzip member in the file', async () => {
    const members = [
      warcinfo(),
      ...ccCapture('https://o.example/robots.txt', '2024-01-01T00:00:00Z', 200, A),
    ].map((r) => gzipSync(r));
    await importFiles([file('o.warc.gz', Buffer.concat(members))]);
    const [v] = await exported();
    expect(v!.source).toBe(`warc:o.warc.gz@${members[0]!.length + members[1]!.length}`);
  });

  it('4xx is unavailable, 429 and 5xx unreachable, as a live fetch maps them', async () => {
    const warc = gz([
      ...ccCapture('https://g.example/robots.txt', '2024-01-01T00:00:00Z', 410),
      ...ccCapture('https://r.example/robots.txt', '2024-01-01T00:00:00Z', 429),
      ...ccCapture('https://d.example/robots.txt', '2024-01-01T00:00:00Z', 503),
    ]);
    expect((await importFiles([file('s.warc.gz', warc)])).code).toBe(0);
    const vs = await exported();
    expect(vs.map((v) => [v.origin, v.outcome, v.status])).toEqual([
      ['https://d.example', 'unreachable', 503],
      ['https://g.example', 'unavailable', 410],
      ['https://r.example', 'unreachable', 429],
    ]);
  });

  it('X-Crawler-Content-Encoding means the payload is already decoded: it is not decoded again', async () => {
    // A robots.txt whose text happens to start with gzip's magic bytes would be corrupt if gunzipped.
    const body = Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.from('\nUser-agent: *\nDisallow: /\n')]);
    await importFiles([
      file('x.warc.gz', gz(ccCapture('https://x.example/robots.txt', '2024-01-01T00:00:00Z', 200, body))),
    ]);
    const [v] = await exported();
    expect(v).toMatchObject({ outcome: 'parsed', sha256: sha256(body) });
  });
});

describe('import: wire payloads (wget, Heritrix)', () => {
  it('Transfer-Encoding: chunked and Content-Encoding: gzip are decoded', async () => {
    const gzBody = gzipSync(Buffer.from(B));
    const warc = Buffer.concat([
      wgetResponse(
        'http://w.example/robots.txt',
        '2024-01-01T00:00:00Z',
        httpResponse(200, [['Transfer-Encoding', 'chunked']], chunked(A, 7)),
      ),
      wgetResponse(
        'https://w.example/robots.txt',
        '2024-01-01T00:00:00Z',
        httpResponse(
          200,
          [
            ['Content-Encoding', 'gzip'],
            ['Transfer-Encoding', 'chunked'],
          ],
          chunked(gzBody, 10),
        ),
      ),
    ]);
    const r = await importFiles([file('wget.warc', warc)]);
    expect(r.code).toBe(0);
    const vs = await exported();
    expect(vs.map((v) => [v.origin, v.sha256, v.truncated])).toEqual([
      ['http://w.example', sha256(A), false],
      ['https://w.example', sha256(B), false],
    ]);
  });

  it('a corrupt gzip body is unreachable ERR_CONTENT_DECODING, an unknown coding ERR_UNSUPPORTED_ENCODING', async () => {
    const warc = Buffer.concat([
      wgetResponse(
        'http://c.example/robots.txt',
        '2024-01-01T00:00:00Z',
        httpResponse(200, [['Content-Encoding', 'gzip']], 'not gzip at all'),
      ),
      wgetResponse(
        'http://u.example/robots.txt',
        '2024-01-01T00:00:00Z',
        httpResponse(200, [['Content-Encoding', 'zstd']], 'xx'),
      ),
    ]);
    await importFiles([file('enc.warc', warc)]);
    const vs = await exported();
    expect(vs.map((v) => [v.origin, v.outcome, v.errorCode])).toEqual([
      ['http://c.example', 'unreachable', 'ERR_CONTENT_DECODING'],
      ['http://u.example', 'unreachable', 'ERR_UNSUPPORTED_ENCODING'],
    ]);
  });

  it('WARC-Truncated marks the policy truncated; a body over 500 KiB keeps its first 500 KiB, truncated', async () => {
    const big = `User-agent: *\n${'Disallow: /x\n'.repeat(50_000)}`;
    const warc = gz([
      warcRecord({
        type: 'response',
        uri: 'http://t.example/robots.txt',
        date: '2024-01-01T00:00:00Z',
        headers: { 'WARC-Truncated': 'length' },
        content: httpResponse(200, [['Content-Length', '99999']], A),
      }),
      wgetResponse('http://big.example/robots.txt', '2024-01-01T00:00:00Z', httpResponse(200, [], big)),
    ]);
    await importFiles([file('trunc.warc.gz', warc)]);
    const vs = await exported();
    expect(of(vs, 'http://t.example')).toMatchObject([{ truncated: true, sha256: sha256(A) }]);
    const b = of(vs, 'http://big.example')[0]!;
    expect(b.truncated).toBe(true);
    expect(Buffer.from(b.body!, 'base64').equals(Buffer.from(big).subarray(0, 512_000))).toBe(true);
  });
});

describe('import: revisits', () => {
  it('a revisit takes the content of the earlier capture with its payload digest; one whose original is missing is counted, with why', async () => {
    const warc = gz([
      wgetResponse(
        'http://v.example/robots.txt',
        '2024-01-01T00:00:00Z',
        httpResponse(200, [], A),
        payloadDigest(A),
      ),
      wgetResponse('http://v.example/robots.txt', '2024-02-01T00:00:00Z', httpResponse(200, [], B)),
      revisit('http://v.example/robots.txt', '2024-03-01T00:00:00Z', { digest: payloadDigest(A) }),
      revisit('http://lost.example/robots.txt', '2024-03-01T00:00:00Z', { digest: payloadDigest('gone') }),
    ]);
    const summaryPath = join(tmp.dir, 'summary.json');
    const r = await importFiles([file('rv.warc.gz', warc)], ['--summary', summaryPath]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('revisits     resolved 1, unresolved 1');
    const summary = JSON.parse(readFileSync(summaryPath, 'utf8'));
    expect(summary.rebuild.unresolvedExamples).toEqual([
      {
        source: expect.stringMatching(/^warc:rv\.warc\.gz@\d+$/),
        reason: `no earlier capture with payload digest ${payloadDigest('gone')}`,
      },
    ]);
    const vs = await exported();
    expect(of(vs, 'http://v.example').map((v) => [v.sha256, v.validFrom])).toEqual([
      [sha256(A), t('2024-01-01T00:00:00Z')],
      [sha256(B), t('2024-02-01T00:00:00Z')],
      [sha256(A), t('2024-03-01T00:00:00Z')],
    ]);
    expect(of(vs, 'http://lost.example')).toEqual([]);
  });

  it('a revisit imported before its original resolves once the original is imported', async () => {
    const original = file(
      'orig.warc.gz',
      gz([
        wgetResponse(
          'http://late.example/robots.txt',
          '2024-01-01T00:00:00Z',
          httpResponse(200, [], A),
          payloadDigest(A),
        ),
      ]),
    );
    const rv = file(
      'rv.warc.gz',
      gz([revisit('http://late.example/robots.txt', '2024-05-01T00:00:00Z', { digest: payloadDigest(A) })]),
    );
    expect((await importFiles([rv])).stderr).toContain('unresolved 1');
    expect((await importFiles([original])).stderr).toContain('revisits     resolved 1, unresolved 0');
    expect((await exported()).map((v) => [v.sha256, v.validFrom, v.fetchedAt])).toEqual([
      [sha256(A), t('2024-01-01T00:00:00Z'), t('2024-05-01T00:00:00Z')],
    ]);
  });
});

describe('import: redirects', () => {
  it('a 3xx resolves to its target captured within the hour, through a chain; else ERR_REDIRECT_UNRESOLVED with the 3xx status', async () => {
    const warc = gz([
      ...ccCapture('http://r.example/robots.txt', '2024-01-01T00:00:00Z', 301, '', [
        ['Location', 'https://r.example/robots.txt'],
      ]),
      ...ccCapture('https://r.example/robots.txt', '2024-01-01T00:10:00Z', 302, '', [
        ['Location', '/robots-new.txt'],
      ]),
      ...ccCapture('https://r.example/robots-new.txt', '2024-01-01T00:20:00Z', 200, B),
      ...ccCapture('http://far.example/robots.txt', '2024-01-01T00:00:00Z', 301, '', [
        ['Location', 'https://far.example/robots.txt'],
      ]),
      ...ccCapture('https://far.example/robots.txt', '2024-01-01T02:00:00Z', 200, A),
      ...ccCapture('http://bad.example/robots.txt', '2024-01-01T00:00:00Z', 302, '', [
        ['Location', 'ftp://x/'],
      ]),
    ]);
    const r = await importFiles([file('redir.warc.gz', warc)]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('redirects    resolved 2, unresolved 1');
    const vs = await exported();
    expect(of(vs, 'http://r.example')).toMatchObject([
      { outcome: 'parsed', status: 200, sha256: sha256(B), finalUrl: 'https://r.example/robots-new.txt' },
    ]);
    expect(of(vs, 'https://r.example')).toMatchObject([{ outcome: 'parsed', sha256: sha256(B) }]);
    expect(of(vs, 'http://far.example')).toMatchObject([
      { outcome: 'unavailable', status: 301, errorCode: 'ERR_REDIRECT_UNRESOLVED', sha256: null },
    ]);
    expect(of(vs, 'http://bad.example')).toMatchObject([
      { outcome: 'unavailable', status: 302, errorCode: 'ERR_REDIRECT_INVALID' },
    ]);
  });

  it('more than 5 hops is ERR_TOO_MANY_REDIRECTS, a loop ERR_REDIRECT_LOOP', async () => {
    const hops = [0, 1, 2, 3, 4, 5, 6].flatMap((i) =>
      ccCapture(`http://h.example/robots${i === 0 ? '' : i}.txt`, `2024-01-01T00:0${i}:00Z`, 301, '', [
        ['Location', `/robots${i + 1}.txt`],
      ]),
    );
    const loop = [
      ...ccCapture('http://l.example/robots.txt', '2024-01-01T00:00:00Z', 301, '', [
        ['Location', '/robots2.txt'],
      ]),
      ...ccCapture('http://l.example/robots2.txt', '2024-01-01T00:00:01Z', 301, '', [
        ['Location', '/robots.txt'],
      ]),
    ];
    await importFiles([file('hops.warc.gz', gz([...hops, ...loop]))]);
    const vs = await exported();
    expect(of(vs, 'http://h.example')).toMatchObject([
      { errorCode: 'ERR_TOO_MANY_REDIRECTS', outcome: 'unavailable' },
    ]);
    expect(of(vs, 'http://l.example')).toMatchObject([
      { errorCode: 'ERR_REDIRECT_LOOP', outcome: 'unavailable' },
    ]);
  });
});

describe('import: malformed input', () => {
  it('a bad header, a wrong Content-Length and a cut gzip member are counted with their offsets; the records after them are read', async () => {
    const good1 = gzipSync(
      wgetResponse('http://m1.example/robots.txt', '2024-01-01T00:00:00Z', httpResponse(200, [], A)),
    );
    const badHeader = gzipSync(Buffer.from('WARZ/1.0\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n'));
    const badLength = gzipSync(
      warcRecord({
        type: 'response',
        uri: 'http://x.example/robots.txt',
        date: '2024-01-01T00:00:00Z',
        content: httpResponse(200, [], A),
        lengthOverride: '5',
      }),
    );
    const cut = gzipSync(
      wgetResponse('http://cut.example/robots.txt', '2024-01-01T00:00:00Z', httpResponse(200, [], B)),
    );
    const good2 = gzipSync(
      wgetResponse('http://m2.example/robots.txt', '2024-01-01T00:00:00Z', httpResponse(200, [], B)),
    );
    const parts = [good1, badHeader, badLength, cut.subarray(0, cut.length - 20), good2];
    const summaryPath = join(tmp.dir, 's.json');
    const r = await importFiles([file('bad.warc.gz', Buffer.concat(parts))], ['--summary', summaryPath]);
    expect(r.code).toBe(0);
    const s = JSON.parse(readFileSync(summaryPath, 'utf8'));
    const offset = (i: number) => String(parts.slice(0, i).reduce((n, p) => n + p.length, 0));
    expect(s.malformed.examples).toEqual([
      { file: 'bad.warc.gz', offset: offset(1), reason: 'bad header' },
      {
        file: 'bad.warc.gz',
        offset: offset(2),
        reason: 'bad Content-Length (no blank line after the content)',
      },
      { file: 'bad.warc.gz', offset: offset(3), reason: 'corrupt or cut gzip member' },
    ]);
    expect((await exported()).map((v) => v.origin)).toEqual(['http://m1.example', 'http://m2.example']);
  });

  it('a file cut inside its last gzip member: what came before is imported, one line names where reading stopped, exit 3', async () => {
    const whole = gz([
      wgetResponse('http://k.example/robots.txt', '2024-01-01T00:00:00Z', httpResponse(200, [], A)),
    ]);
    const last = gzipSync(
      wgetResponse('http://k2.example/robots.txt', '2024-01-01T00:00:00Z', httpResponse(200, [], B)),
    );
    const r = await importFiles([file('cut.warc.gz', Buffer.concat([whole, last.subarray(0, 30)]))]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      `robots-audit: cut.warc.gz: reading stopped at byte ${whole.length}: gzip member cut short\n`,
    );
    expect((await exported()).map((v) => v.origin)).toEqual(['http://k.example']);
  });

  it('a missing file is one line and exit 3, and nothing is imported from the other files', async () => {
    const good = file(
      'ok.warc.gz',
      gz(ccCapture('https://ok.example/robots.txt', '2024-01-01T00:00:00Z', 200, A)),
    );
    const r = await importFiles([good, join(tmp.dir, 'missing.warc.gz')]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(`robots-audit: cannot read ${join(tmp.dir, 'missing.warc.gz')}: no such file\n`);
    expect(existsSync(cache)).toBe(false);
  });

  it('a file that is not a WARC stops with one line and exit 3', async () => {
    const r = await importFiles([file('x.csv', Buffer.from('host,url\na,b\n'))]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('robots-audit: x.csv: reading stopped at byte 0: not a WARC file');
  });
});

describe('import: idempotent, in any order', () => {
  const one = () =>
    gz([
      ...ccCapture('https://i.example/robots.txt', '2024-01-01T00:00:00Z', 200, A),
      ...ccCapture('https://i.example/robots.txt', '2024-03-01T00:00:00Z', 200, A),
      ...ccCapture('http://i.example/robots.txt', '2024-01-01T00:00:00Z', 301, '', [
        ['Location', 'https://i.example/robots.txt'],
      ]),
    ]);
  const two = () =>
    gz([
      ...ccCapture('https://i.example/robots.txt', '2024-02-01T00:00:00Z', 200, B),
      revisit('https://i.example/robots.txt', '2024-04-01T00:00:00Z', { digest: payloadDigest(B) }),
      ...ccCapture('https://j.example/robots.txt', '2024-02-01T00:00:00Z', 503),
    ]);

  it('the same file twice, and two files in either order, give the same cache export', async () => {
    const f1 = file('one.warc.gz', one());
    const f2 = file('two.warc.gz', two());
    await importFiles([f1, f2]);
    const forward = await exported();
    expect(of(forward, 'https://i.example').map((v) => v.sha256)).toEqual([
      sha256(A),
      sha256(B),
      sha256(A),
      sha256(B),
    ]);
    const again = await importFiles([f1, f2]);
    expect(again.stderr).toContain('(0 new, 6 already stored)');
    expect(await exported()).toEqual(forward);

    cache = join(tmp.dir, 'reverse.sqlite');
    await importFiles([f2]);
    await importFiles([f1]);
    expect(await exported()).toEqual(forward);
  });

  it('stdin (-) is read like a file', async () => {
    const r = await runCli(['import', '-', '--cache', cache], { input: one() });
    expect(r.code).toBe(0);
    expect((await exported())[0]!.source).toMatch(/^warc:-@\d+$/);
  });
});

describe('cache show: sources and --at', () => {
  beforeEach(async () => {
    await importFiles([
      file(
        'h.warc.gz',
        gz([
          ...ccCapture('https://s.example/robots.txt', '2024-01-01T00:00:00Z', 200, A),
          ...ccCapture('https://s.example/robots.txt', '2024-03-01T00:00:00Z', 200, B),
        ]),
      ),
    ]);
  });

  const show = (...extra: string[]) =>
    runCli(['cache', 'show', 'https://s.example', '--cache', cache, ...extra]);

  it('each version names its source', async () => {
    const r = await show();
    expect(r.stdout.match(/source warc:h\.warc\.gz@\d+/g)).toHaveLength(2);
  });

  it('--at TIME prints the version in force at TIME, and says so before the first', async () => {
    const mid = await show('--at', '2024-02-15T12:00:00Z');
    expect(mid.code).toBe(0);
    expect(mid.stdout).toContain('https://s.example at 2024-02-15T12:00:00.000Z:');
    expect(mid.stdout).toContain('| Disallow: /a');
    expect(mid.stdout).not.toContain('Disallow: /b');
    const edge = await show('--at', '2024-03-01T00:00:00Z', '--json');
    expect(JSON.parse(edge.stdout).version.sha256).toBe(sha256(B));
    const before = await show('--at', '2023-12-31T23:59:59Z');
    expect(before).toMatchObject({
      code: 1,
      stdout:
        'https://s.example: no version in force at 2023-12-31T23:59:59.000Z (the first is from 2024-01-01T00:00:00.000Z)\n',
    });
    // Any form a row's time takes: an access-log time, epoch seconds.
    const clf = await show('--at', '[15/Feb/2024:13:00:00 +0100]', '--json');
    expect(JSON.parse(clf.stdout).at).toBe('2024-02-15T12:00:00.000Z');
    const epoch = await show('--at', String(Date.UTC(2024, 2, 1) / 1000), '--json');
    expect(JSON.parse(epoch.stdout).version.sha256).toBe(sha256(B));
    for (const text of ['yesterday', '2024-02-30T00:00:00Z']) {
      const bad = await show('--at', text);
      expect(bad.code, text).toBe(2);
      expect(bad.stderr).toContain(`Not a time: ${JSON.stringify(text)}`);
    }
  });
});
