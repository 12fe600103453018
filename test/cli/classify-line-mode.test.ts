/**
 * Line mode (`classify --no-header --columns host,url`), spawned for real: one output line per input
 * line whatever the lines hold, no header read or written, and answers streamed while the input is
 * still being written (a slow writer, a trickling writer), from a robots directory or a live server.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MultiHostServer, ok, startMultiHostServer } from '../helpers/multi-host-server.js';
import { CLI, runCli } from '../helpers/run-cli.js';
import { tempDir, writeRobots } from '../pipeline/classify-data.js';

const dir = tempDir('ra-line-mode-');
const robots = writeRobots(dir, {
  'a.example.txt': 'User-agent: *\nDisallow: /private\n',
  'b.example.txt': 'User-agent: *\nDisallow: /\n',
});
const lineMode = ['--no-header', '--columns', 'host,url'];
const fromDir = [...lineMode, '--robots-dir', robots, '--agent', 'Googlebot', '--quiet'];

/** Physical lines of a text: a last line without a line end counts, the empty text after a last one does not. */
function physicalLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Output records as arrays of fields (no header): [...input fields, allowed, verdict, line, rule, status, code]. */
function records(text: string): string[][] {
  return parse(text, { relax_column_count: true }) as string[][];
}

const verdictAndCode = (rec: string[]) => [rec[rec.length - 5], rec[rec.length - 1]];

/** Classifies `input` in line mode from the robots directory; the run must succeed. Returns stdout. */
async function classifyLines(input: string): Promise<string> {
  const r = await runCli(['classify', '-', ...fromDir], { input });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

describe('classify --no-header --columns: one output line per input line', () => {
  it('blank lines, quoted newlines, invalid rows and a last line without a line end each keep their line', async () => {
    const input = [
      'a.example,https://a.example/private/1',
      '',
      'a.example,"https://a.example/private/x,y',
      'still the same url"',
      'a.example',
      'a.example,http://a b/',
      'a.example,https://a.example/x,more',
      '',
      '',
      'a.example,/private/path-only',
      ',/nohost',
      'b.example,https://b.example/anything',
    ].join('\n');
    const stdout = await classifyLines(input);
    expect(physicalLines(stdout)).toHaveLength(physicalLines(input).length);
    expect(records(stdout).map(verdictAndCode)).toEqual([
      ['disallowed_explicit', ''],
      ['invalid_input', 'blank_line'],
      ['disallowed_explicit', ''],
      ['invalid_input', 'missing_url'],
      ['invalid_input', 'bad_url'],
      ['invalid_input', 'extra_fields'],
      ['invalid_input', 'blank_line'],
      ['invalid_input', 'blank_line'],
      ['disallowed_explicit', ''],
      ['invalid_input', 'path_without_host'],
      ['disallowed_explicit', ''],
    ]);
    // No header: the first output line is the first input line's answer.
    expect(stdout.startsWith('a.example,https://a.example/private/1,false,disallowed_explicit,2,')).toBe(
      true,
    );
    // A blank line is a row of empty fields, as wide as any other.
    expect(physicalLines(stdout)[1]).toBe(',,,invalid_input,,,,blank_line');
  });

  it('an unterminated quote is one malformed line, and the lines after it keep theirs', async () => {
    const input = 'a.example,"https://a.example/private/open\n\na.example,/private/z\n';
    const stdout = await classifyLines(input);
    expect(physicalLines(stdout)).toHaveLength(3);
    expect(records(stdout).map(verdictAndCode)).toEqual([
      ['invalid_input', 'malformed_record'],
      ['invalid_input', 'blank_line'],
      ['disallowed_explicit', ''],
    ]);
  });

  it('CRLF input is answered with CRLF lines, blank CRLF lines included', async () => {
    const input = 'a.example,/private/1\r\n\r\nb.example,/x\r\n';
    const stdout = await classifyLines(input);
    expect(stdout.split('\r\n')).toHaveLength(4);
    expect(stdout.replaceAll('\r\n', '')).not.toContain('\n');
    expect(records(stdout).map(verdictAndCode)).toEqual([
      ['disallowed_explicit', ''],
      ['invalid_input', 'blank_line'],
      ['disallowed_explicit', ''],
    ]);
  });

  it('a BOM is dropped, the columns may be in any order, and the delimiter option applies', async () => {
    const input = '\ufeff7\t/private/1\ta.example\n8\t/open\ta.example\n';
    const r = await runCli(
      [
        'classify',
        '-',
        '--no-header',
        '--columns',
        'id,URL,Host',
        '--delimiter',
        'tab',
        '--robots-dir',
        robots,
        '--agent',
        'Googlebot',
        '--quiet',
      ],
      { input },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      '7\t/private/1\ta.example\tfalse\tdisallowed_explicit\t2\tDisallow: /private\tfile\t\n' +
        '8\t/open\ta.example\ttrue\tallowed_implicit\t\t\tfile\t\n',
    );
  });

  it('an empty input is an empty output, not a missing header', async () => {
    expect(await classifyLines('')).toBe('');
  });

  it('files in and out (the coordinator in its own thread), with a summary that counts every line', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 30_000; i++)
      lines.push(i % 1000 === 0 ? '' : `a.example,/p${i % 2 ? 'rivate' : 'ublic'}/${i}`);
    const input = path.join(dir, 'lines.csv');
    writeFileSync(input, `${lines.join('\n')}\n`);
    const out = path.join(dir, 'lines-out.csv');
    const summary = path.join(dir, 'lines-summary.json');
    const r = await runCli(['classify', input, '-o', out, '--summary', summary, ...fromDir]);
    expect(r.code, r.stderr).toBe(0);
    const written = physicalLines(readFileSync(out, 'utf8'));
    expect(written).toHaveLength(30_000);
    expect(written.map((l, i) => l.startsWith(`${lines[i]},`))).not.toContain(false);
    const s = JSON.parse(readFileSync(summary, 'utf8')) as Record<string, unknown>;
    expect(s.recordsRead).toBe(30_000);
    expect(s.rowsWritten).toBe(30_000);
    expect(s.blankLines).toBe(0);
    expect(s.invalidByCode).toEqual({ blank_line: 30 });
  });
});

describe('classify --no-header / --columns: bad combinations are usage errors', () => {
  const bad: [string, string[], RegExp][] = [
    [
      '--no-header without --columns',
      ['--no-header'],
      /without a header row \(`--no-header`\), `--columns` must name/,
    ],
    ['--columns without --no-header', ['--columns', 'host,url'], /--columns.*without a header row/],
    [
      'columns without the url column',
      ['--no-header', '--columns', 'host,page'],
      /no column is the url column/,
    ],
    ['columns naming url twice', ['--no-header', '--columns', 'url,URL'], /`url` column more than once/],
  ];
  for (const [what, args, message] of bad) {
    it(`${what}: one line, exit 2`, async () => {
      const r = await runCli(['classify', '-', ...args, '--robots-dir', robots, '--agent', 'G'], {
        input: 'a.example,/x\n',
      });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    });
  }
});

/** A classify run whose stdin the test writes line by line, and whose stdout lines it waits for. */
class LiveRun {
  readonly child: ChildProcessWithoutNullStreams;
  private out = '';
  private err = '';
  private waiter: (() => void) | null = null;
  readonly closed: Promise<number | null>;

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [CLI, 'classify', '-', ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.on('data', (b: Buffer) => {
      this.out += b.toString();
      this.waiter?.();
    });
    this.child.stderr.on('data', (b: Buffer) => {
      this.err += b.toString();
    });
    this.child.stdin.on('error', () => {});
    this.closed = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }

  get lines(): string[] {
    return physicalLines(this.out);
  }

  get stderr(): string {
    return this.err;
  }

  write(text: string): void {
    this.child.stdin.write(text);
  }

  /** Resolves once `n` whole output lines have arrived; fails after a generous time. */
  async waitForLines(n: number, timeoutMs = 20_000): Promise<void> {
    const whole = () => this.out.split('\n').length - 1 >= n;
    if (whole()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        reject(
          new Error(`waited for ${n} output lines; got ${JSON.stringify(this.out)} (stderr ${this.err})`),
        );
      }, timeoutMs);
      this.waiter = () => {
        if (!whole()) return;
        clearTimeout(timer);
        this.waiter = null;
        resolve();
      };
    });
  }

  /** True once `n` whole output lines have arrived. */
  has(n: number): boolean {
    return this.out.split('\n').length - 1 >= n;
  }

  async end(): Promise<number | null> {
    this.child.stdin.end();
    return this.closed;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('classify --no-header answers a slow writer line by line (stdout a pipe)', () => {
  it('with --robots-dir: each line is answered before the next is written', async () => {
    const run = new LiveRun(fromDir);
    try {
      const lines = [
        'a.example,/private/1',
        '',
        'b.example,/x',
        'a.example,"/private/q',
        'r"',
        'a.example,/ok',
      ];
      // The quoted record spans two input lines: its answer (two output lines) comes once both are in.
      const answered = [1, 2, 3, 3, 5, 6];
      for (let i = 0; i < lines.length; i++) {
        run.write(`${lines[i]}\n`);
        if (answered[i]! > (answered[i - 1] ?? 0)) await run.waitForLines(answered[i]!);
        expect(run.lines.length).toBe(answered[i]);
      }
      expect(await run.end()).toBe(0);
      expect(records(run.lines.map((l) => `${l}\n`).join('')).map(verdictAndCode)).toEqual([
        ['disallowed_explicit', ''],
        ['invalid_input', 'blank_line'],
        ['disallowed_explicit', ''],
        ['disallowed_explicit', ''],
        ['allowed_implicit', ''],
      ]);
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it('a writer that never pauses (a line every 20 ms) is answered before 64 KiB of lines are in', async () => {
    // Records waited for 100 ms of silence or a full 64 KiB batch: a steady trickle got no answer.
    const run = new LiveRun(fromDir);
    try {
      const line = `a.example,/private/${'x'.repeat(180)}\n`;
      // A first line answered: the run is up, and what follows is timed by the writer alone.
      run.write(line);
      await run.waitForLines(1);
      let written = line.length;
      while (!run.has(2) && written + line.length < 60 * 1024) {
        run.write(line);
        written += line.length;
        await sleep(20);
      }
      expect(run.has(2), `no answer after ${written} bytes written without a pause`).toBe(true);
      expect(await run.end()).toBe(0);
      expect(run.lines).toHaveLength(written / line.length);
    } finally {
      run.child.kill('SIGKILL');
    }
  });
});

describe('classify --no-header with live fetching from a loopback server', () => {
  let srv: MultiHostServer;
  beforeAll(async () => {
    srv = await startMultiHostServer();
    srv.set('rules.test', ok('User-agent: *\nDisallow: /private\n'));
    srv.set('slow.test', {
      kind: 'respond',
      status: 200,
      body: 'User-agent: *\nDisallow: /\n',
      delayMs: 300,
    });
  });
  afterAll(() => srv.close());
  const live = () => [
    ...lineMode,
    '--cache',
    path.join(dir, 'live-cache.sqlite'),
    '--resolve',
    '*=127.0.0.1',
    '--allow-private',
    '--retries',
    '0',
    '--timeout',
    '5',
    '--agent',
    'Googlebot',
    '--quiet',
  ];

  it('answers each line as its policy arrives, before the next line is written', async () => {
    const run = new LiveRun(live());
    try {
      const lines = [
        `rules.test,${srv.origin('rules.test')}/private/a`,
        `slow.test,${srv.origin('slow.test')}/x`,
        '',
        `rules.test,${srv.origin('rules.test')}/public`,
      ];
      for (let i = 0; i < lines.length; i++) {
        run.write(`${lines[i]}\n`);
        await run.waitForLines(i + 1);
      }
      expect(await run.end()).toBe(0);
      expect(records(run.lines.map((l) => `${l}\n`).join('')).map(verdictAndCode)).toEqual([
        ['disallowed_explicit', ''],
        ['disallowed_explicit', ''],
        ['invalid_input', 'blank_line'],
        ['allowed_implicit', ''],
      ]);
      expect(srv.hits('rules.test')).toBe(1);
      expect(srv.hits('slow.test')).toBe(1);
    } finally {
      run.child.kill('SIGKILL');
    }
  });
});
