/**
 * Hostile INPUTs fed to the real CLI (classify with a small --robots-dir): cells that break URLs and
 * CSV, and files that are no CSV at all or never end. Every record gets one output row, in input order,
 * with the documented error_code; an input that cannot be read is one clear line and exit 3.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { classify as classifyLib } from '../../src/pipeline/classify.js';
import { CLI, type CliResult, runCli } from '../helpers/run-cli.js';
import { tempDir, writeRobots } from '../pipeline/classify-data.js';

const dir = tempDir('ra-hostile-in-');
const robots = writeRobots(dir, {
  'a.example.txt': 'User-agent: *\nDisallow: /private\n',
  'a.example_8080.txt': 'User-agent: *\nDisallow: /port\n',
  'xn--bcher-kva.example.txt': 'User-agent: *\nDisallow: /idn\n',
  '[::1].txt': 'User-agent: *\nDisallow: /v6\n',
});
const HEADER = 'host,url,allowed,verdict,rule_line,rule,robots_status,error_code';
let serial = 0;

/** Runs classify on `input` (a path) into a fresh output; returns the run and the output, if any. */
async function classify(input: string, stdin?: Buffer, ...more: string[]) {
  const out = path.join(dir, `out-${++serial}`);
  mkdirSync(out);
  const output = path.join(out, 'verdicts.csv');
  const run = await runCli(
    [
      'classify',
      input,
      '--robots-dir',
      robots,
      '--agent',
      'G',
      '--quiet',
      '--threads',
      '1',
      '-o',
      output,
      ...more,
    ],
    { input: stdin, timeoutMs: 25_000 },
  );
  const written = existsSync(output) ? readFileSync(output, 'utf8') : null;
  return { run, written, leftovers: readdirSync(out).filter((f) => f !== 'verdicts.csv') };
}

/** Whether process `pid` has `file` open (Linux /proc). */
function holdsOpen(pid: number, file: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === file;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** The run failed as it should: exit 3, one line matching `message`, no output and no temporary left. */
function expectFatal(r: Awaited<ReturnType<typeof classify>>, message: RegExp): void {
  expect(r.run.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.run.stderr.trim()).toMatch(message);
  expect([r.run.code, r.run.signal, r.written, r.leftovers]).toEqual([3, null, null, []]);
}

/** Cells written byte for byte (one char per byte), not as UTF-8: invalid and overlong sequences. */
const RAW = new Set(['invalid-utf8', 'overlong-utf8']);

/** [id, host, url, verdict, error_code]: one record each, in this order. */
const CELLS: [string, string, string, string, string][] = [
  ['nul-in-url', 'a.example', 'https://a.example/private\0x', 'disallowed_explicit', ''],
  ['nul-in-host', 'a.ex\0ample', '/private', 'invalid_input', 'bad_host'],
  ['lone-cr-in-url', 'a.example', 'https://a.example/pri\rvate', 'allowed_implicit', ''],
  ['newline-in-quotes', 'a.example', '"https://a.example/private\nx"', 'disallowed_explicit', ''],
  ['quote-in-unquoted-field', 'a.example', 'https://a.example/pri"vate', 'allowed_implicit', ''],
  ['space-in-path', 'a.example', 'https://a.example/private path', 'disallowed_explicit', ''],
  ['space-in-host', 'a.example', 'https://a .example/private', 'invalid_input', 'bad_url'],
  ['tab-in-path', 'a.example', 'https://a.example/\tprivate', 'allowed_implicit', ''],
  ['controls-in-path', 'a.example', 'https://a.example/private\x01\x7f', 'disallowed_explicit', ''],
  ['idn', 'bücher.example', 'https://bücher.example/idn', 'disallowed_explicit', ''],
  ['punycode', 'xn--bcher-kva.example', 'https://xn--bcher-kva.example/idn', 'disallowed_explicit', ''],
  ['bad-punycode', '', 'https://xn--a.example/x', 'invalid_input', 'bad_url'],
  ['percent-zz', 'a.example', 'https://a.example/private%zz', 'disallowed_explicit', ''],
  ['percent-alone', 'a.example', 'https://a.example/%', 'allowed_implicit', ''],
  ['percent-in-host', '', 'https://a%zz.example/x', 'invalid_input', 'bad_url'],
  ['ipv6-url', '', 'http://[::1]/v6', 'disallowed_explicit', ''],
  ['ipv6-host-column', '[::1]', '/v6', 'disallowed_explicit', ''],
  ['ipv6-host-unbracketed', '::1', '/v6', 'disallowed_explicit', ''],
  ['ipv6-unclosed', '', 'http://[::1/x', 'invalid_input', 'bad_url'],
  ['userinfo', '', 'https://u:p@a.example/private', 'disallowed_explicit', ''],
  ['userinfo-two-at', '', 'https://u@p@a.example/private', 'disallowed_explicit', ''],
  ['javascript-url', 'a.example', 'javascript:alert(1)', 'invalid_input', 'unsupported_scheme'],
  ['data-url', 'a.example', '"data:text/html,<b>x</b>"', 'invalid_input', 'unsupported_scheme'],
  ['file-url', 'a.example', 'file:///etc/passwd', 'invalid_input', 'unsupported_scheme'],
  ['empty-host', '', '/private', 'invalid_input', 'path_without_host'],
  ['host-with-port', 'a.example:8080', '/port', 'disallowed_explicit', ''],
  ['host-with-port-0', 'a.example:0', '/x', 'invalid_input', 'bad_host'],
  ['url-with-port-0', '', 'http://a.example:0/x', 'invalid_input', 'bad_url'],
  ['url-with-port-65536', '', 'http://a.example:65536/x', 'invalid_input', 'bad_url'],
  ['url-with-port-not-a-number', '', 'http://a.example:8o/x', 'invalid_input', 'bad_url'],
  ['one-slash-after-scheme', '', 'https:/a.example/private', 'invalid_input', 'bad_url'],
  ['backslash-after-host', '', 'https://a.example\\private', 'invalid_input', 'bad_url'],
  ['host-mismatch', 'other.example', 'https://a.example/private', 'disallowed_explicit', ''],
  ['bom-in-a-cell', 'a.example', '\ufeffhttps://a.example/private', 'invalid_input', 'bad_url'],
  ['invalid-utf8', 'a.example', 'https://a.example/private\xff\xfe', 'disallowed_explicit', ''],
  ['overlong-utf8', 'a.example', 'https://a.example/\xc0\xafprivate', 'allowed_implicit', ''],
  ['extra-fields', 'a.example', 'https://a.example/x,more', 'invalid_input', 'extra_fields'],
  ['empty-url', 'a.example', '', 'invalid_input', 'missing_url'],
  ['one-mib-url', 'a.example', `https://a.example/private/${'x'.repeat(1 << 20)}`, 'disallowed_explicit', ''],
  [
    '100k-empty-columns',
    'a.example',
    `https://a.example/private${','.repeat(100_000)}`,
    'disallowed_explicit',
    '',
  ],
  [
    '100k-full-columns',
    'a.example',
    `https://a.example/x${',y'.repeat(100_000)}`,
    'invalid_input',
    'extra_fields',
  ],
  // No quote closes it within 32 line breaks (the blank lines below): this line alone is malformed.
  ['unbalanced-quote', 'a.example', '"https://a.example/private', 'invalid_input', 'malformed_record'],
];
const LAST: [string, string, string, string, string] = [
  'after-100k-blank-lines',
  'a.example',
  'https://a.example/private',
  'disallowed_explicit',
  '',
];

describe('hostile cells: one row each, in order, with the documented error_code', () => {
  let rows: string[][] = [];
  let summary: Record<string, unknown> = {};
  let run: CliResult;

  beforeAll(async () => {
    const bytes = Buffer.concat([
      Buffer.from('id,host,url\n'),
      ...CELLS.map(([id, host, url]) =>
        Buffer.from(`${id},${host},${url}\n`, RAW.has(id) ? 'latin1' : 'utf8'),
      ),
      Buffer.from('\n'.repeat(100_000)),
      Buffer.from(`${LAST.slice(0, 3).join(',')}\n`),
    ]);
    const input = path.join(dir, 'cells.csv');
    writeFileSync(input, bytes);
    const r = await classify(input, undefined, '--summary', path.join(dir, 'cells.json'));
    run = r.run;
    rows = parse(r.written ?? '', { relax_column_count: true }) as string[][];
    summary = JSON.parse(readFileSync(path.join(dir, 'cells.json'), 'utf8'));
  });

  it('the run completes with every record written once, blank lines counted, the mismatch counted', () => {
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(rows[0]!.join(',')).toBe(`id,${HEADER}`);
    // A malformed record's raw line is its first column (README), so its id is that line's first field.
    expect(rows.slice(1).map((r) => r[0]!.split(',')[0])).toEqual([...CELLS, LAST].map(([id]) => id));
    expect(rows.at(-2)![0]).toBe('unbalanced-quote,a.example,"https://a.example/private');
    expect(rows.slice(1).every((r) => r.length === 9)).toBe(true);
    expect(summary).toMatchObject({ recordsRead: CELLS.length + 1, rowsWritten: CELLS.length + 1 });
    expect(summary).toMatchObject({ blankLines: 100_000, hostMismatch: 1 });
  });

  it.each([...CELLS, LAST].map((c, i) => [c[0], i, c[3], c[4]] as const))(
    'a cell %s gets its verdict and error_code',
    (_id, i, verdict, code) => {
      const row = rows[i + 1]!;
      expect([row[4], row[8]]).toEqual([verdict, code]);
    },
  );
});

/** A stream that never ends: `head`, then 64 KiB chunks of `fill` for as long as it is read; counts what it gave. */
function endless(head: string, fill: number) {
  const counter = { given: 0 };
  const chunk = Buffer.alloc(64 << 10, fill);
  const stream = Readable.from(
    (function* () {
      counter.given += head.length;
      yield Buffer.from(head);
      for (;;) {
        counter.given += chunk.length;
        yield chunk;
      }
    })(),
  );
  return { stream, counter };
}

describe('inputs that never end stop at the 64 MiB line limit, having read little more (a 70 MiB field took 53 s)', () => {
  // What the library may have read ahead when it stops: its own chunks and a stream's buffer.
  const slack = 4 << 20;
  it.each([
    ['a header line', '', 0x61, /header row is longer than 64 MiB/],
    ['a quoted field', 'host,url\na.example,/private\na.example,"', 0x61, /line is longer than 64 MiB/],
  ])('%s', async (_what, head, fill, message) => {
    const { stream, counter } = endless(head, fill);
    const output = path.join(dir, `endless-${++serial}.csv`);
    const run = classifyLib({ input: stream, output, agents: ['G'], robotsDir: robots, threads: 1 });
    await expect(run).rejects.toThrow(message);
    expect(counter.given).toBeLessThan((64 << 20) + slack);
    expect(existsSync(output)).toBe(false);
  });
});

describe('hostile files: read, or one clear line and exit 3', () => {
  const file = (name: string, bytes: Buffer | string) => {
    const p = path.join(dir, name);
    writeFileSync(p, bytes);
    return p;
  };
  const csv = 'host,url\na.example,/private\na.example,/ok\n';
  const rowsOf = (written: string | null) =>
    written
      ?.split('\n')
      .slice(1, -1)
      .map((l) => l.split(',')[3]);

  it('a gzip file cut mid-stream is one line saying so, not a short output that looks complete', async () => {
    const big = `host,url\n${'a.example,/private/x\n'.repeat(50_000)}`;
    const gz = gzipSync(big);
    expectFatal(await classify(file('cut.csv.gz', gz.subarray(0, gz.length >> 1))), /gzip data ends early/);
  });

  it('a gzip file with trailing garbage is one line saying so', async () => {
    const gz = Buffer.concat([gzipSync(csv), Buffer.from('garbage\n')]);
    expectFatal(await classify(file('trailing.csv.gz', gz)), /followed by bytes that are not gzip/);
  });

  it('a gzip file of two members is read whole', async () => {
    const r = await classify(file('two.csv.gz', Buffer.concat([gzipSync(csv), gzipSync('a.example,/x\n')])));
    expect(rowsOf(r.written)).toEqual(['disallowed_explicit', 'allowed_implicit', 'allowed_implicit']);
  });

  it.each([
    ['an empty file', 'empty.csv', ''],
    ['100k blank lines and nothing else', 'blank.csv', '\n'.repeat(100_000)],
  ])('%s is one line: no header', async (_what, name, bytes) => {
    expectFatal(await classify(file(name, bytes)), /the input is empty: expected a CSV header row/);
  });

  it('/dev/null as INPUT is one line: no header', async () => {
    expectFatal(await classify('/dev/null'), /the input is empty/);
  });

  it.each([
    ['with', 'host,url\n'],
    ['without', 'host,url'],
  ])('a header only, %s line end, is an output of the header only', async (_with, bytes) => {
    const r = await classify(file(`header-${_with}.csv`, bytes));
    expect([r.run.code, r.written]).toEqual([0, `${HEADER}\n`]);
  });

  it('a directory as INPUT is one line', async () => {
    expectFatal(await classify(dir), /cannot read the input .*: is a directory$/);
  });

  it('a nonexistent INPUT is one line', async () => {
    expectFatal(
      await classify(path.join(dir, 'nope.csv')),
      /cannot read the input .*nope\.csv: no such file$/,
    );
  });

  it('/dev/zero as INPUT ends with the line-length error at 64 MiB (it re-read the header per chunk: 112 s)', async () => {
    expectFatal(await classify('/dev/zero'), /the header row is longer than 64 MiB/);
  });

  it('fetch with /dev/zero as INPUT ends with the line-length error (it read forever)', async () => {
    const cache = path.join(dir, 'zero.sqlite');
    const r = await runCli(['fetch', '/dev/zero', '--cache', cache, '--quiet'], { timeoutMs: 25_000 });
    expect([r.code, r.signal, r.stderr]).toEqual([
      3,
      null,
      'robots-audit: a single input line is longer than 64 MiB; is this a CSV file?\n',
    ]);
  });

  it('UTF-16 without a BOM is one line that says what it looks like', async () => {
    const r = await classify(file('utf16.csv', Buffer.from(csv, 'utf16le')));
    expectFatal(r, /no `url` column .*\(UTF-16 without a BOM\? save it as UTF-8\)$/);
  });

  it('a second header with a BOM in the middle of the file is a row like any other (bad_url)', async () => {
    const r = await classify(file('bom-mid.csv', `\ufeff${csv}\ufeffhost,url\na.example,/x\n`));
    expect(
      r.written
        ?.split('\n')
        .slice(1, -1)
        .map((l) => l.split(',').at(-1)),
    ).toEqual(['', '', 'bad_url', '']);
  });

  it('a 100k-column header is read, and its url column found', async () => {
    const wide = `${Array.from({ length: 100_000 }, (_, i) => `c${i}`).join(',')},url\n`;
    const r = await classify(file('wide.csv', `${wide}${','.repeat(100_000)}https://a.example/private\n`));
    expect(r.run.code).toBe(0);
    expect(r.written?.split('\n')[1]?.split(',').slice(100_001, 100_004)).toEqual([
      'false',
      'disallowed_explicit',
      '2',
    ]);
  });

  it.each([
    ['classify', 'url,URL,url', /the `url` column more than once \(columns 1, 2 and 3/],
    ['fetch', 'host,Host,url', /the `host` column more than once \(columns 1 and 2/],
  ])(
    '%s with a header %s naming a column twice is one line (the first was used silently)',
    async (command, header, message) => {
      const input = file(`dup-${command}.csv`, `${header}\na,b,c\n`);
      if (command === 'classify') expectFatal(await classify(input), message);
      else {
        const fetch = await runCli(['fetch', input, '--cache', path.join(dir, 'dup.sqlite'), '--quiet']);
        expect([fetch.code, fetch.stderr.trim().split('\n').length]).toEqual([3, 1]);
        expect(fetch.stderr.trim()).toMatch(message);
      }
    },
  );

  it('a FIFO as INPUT is read as its writer writes it', async () => {
    const fifo = path.join(dir, 'in.fifo');
    spawnSync('mkfifo', [fifo]);
    const run = classify(fifo);
    await writeFile(fifo, csv);
    const r = await run;
    expect(rowsOf(r.written)).toEqual(['disallowed_explicit', 'allowed_implicit']);
  });

  it('a FIFO as INPUT that no writer opens still ends on SIGTERM (a blocked open() held the exit)', async () => {
    const fifo = path.join(dir, 'lonely.fifo');
    spawnSync('mkfifo', [fifo]);
    const out = path.join(dir, `out-${++serial}`);
    mkdirSync(out);
    const child = spawn(
      process.execPath,
      [CLI, 'classify', fifo, '--robots-dir', robots, '--agent', 'G', '-o', path.join(out, 'v.csv')],
      { stdio: 'ignore' },
    );
    const ended = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Stopped once it holds the FIFO open (its signal handlers are in place by then), or after 5 s: a
    // blocking open() never returns, so it never shows.
    for (let waited = 0; waited < 5000 && !holdsOpen(child.pid!, fifo); waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const code = await ended;
    clearTimeout(killer);
    expect(code).toBe(143);
    expect(readdirSync(out)).toEqual([]);
  });
});
