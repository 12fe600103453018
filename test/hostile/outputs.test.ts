/**
 * OUTPUT and --summary (and fetch --summary, cache export -o) at paths that are not plain files: FIFOs,
 * character devices, /dev/fd links, symlinks (chains, dangling), a full disk; stale temporary files.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/run-cli.js';
import { charDevice, readThenClose, throughFifo } from '../helpers/special-files.js';
import { tempDir, writeRobots } from '../pipeline/classify-data.js';
import { useServerAndTempDir } from '../pipeline/fetch/harness.js';

const dir = tempDir('ra-hostile-out-');
const robots = writeRobots(dir, { 'a.example.txt': 'User-agent: *\nDisallow: /private\n' });
const input = path.join(dir, 'in.csv');
writeFileSync(input, 'host,url\na.example,https://a.example/private\na.example,https://a.example/ok\n');
const EXPECTED =
  'host,url,allowed,verdict,rule_line,rule,robots_status,error_code\n' +
  'a.example,https://a.example/private,false,disallowed_explicit,2,Disallow: /private,file,\n' +
  'a.example,https://a.example/ok,true,allowed_implicit,,,file,\n';

const small = [input, '--robots-dir', robots, '--agent', 'x', '--quiet'];
const classifyTo = (output: string, ...more: string[]) =>
  runCli(['classify', ...small, '-o', output, ...more]);

const temps = (d: string) => readdirSync(d).filter((f) => f.endsWith('.tmp'));

describe('OUTPUT that is not a regular file', () => {
  it('an OUTPUT that is a FIFO is written through, not replaced', async () => {
    const d = tempDir('ra-fifo-out-');
    const fifo = path.join(d, 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    const { run, read } = await throughFifo(fifo, ['cat'], ...small);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(read).toBe(EXPECTED);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(d)).toEqual(['out.fifo']);
  });

  it('SIGTERM while a FIFO OUTPUT waits for its reader ends the run; the FIFO stays', async () => {
    const d = tempDir('ra-fifo-noreader-');
    const fifo = path.join(d, 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    const child = spawn(process.execPath, [CLI, 'classify', ...small, '-o', fifo], { stdio: 'ignore' });
    const ended = new Promise<[number | null, string | null]>((resolve) =>
      child.on('close', (c, s) => resolve([c, s])),
    );
    await new Promise((r) => setTimeout(r, 1000));
    child.kill('SIGTERM');
    // A process stuck in open() would need this; ending by itself is the point.
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const [code, by] = await ended;
    clearTimeout(timer);
    // 143 once it listens for signals; a SIGTERM during start-up ends it as the default action does.
    expect(code === 143 || by === 'SIGTERM', `exit ${code}, signal ${by}`).toBe(true);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(d)).toEqual(['out.fifo']);
  });

  it('an OUTPUT that is a character device is written through, not replaced', async () => {
    const d = tempDir('ra-dev-out-');
    const dev = charDevice(d, 'null');
    const before = statSync(dev);
    const r = await classifyTo(dev);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const after = lstatSync(dev);
    expect(after.isCharacterDevice()).toBe(true);
    expect([after.ino, after.rdev]).toEqual([before.ino, before.rdev]);
    expect(temps(path.dirname(dev))).toEqual([]);
  });

  for (const fd1 of ['/dev/fd/1', '/proc/self/fd/1']) {
    it(`an OUTPUT of ${fd1} writes to the process's stdout (a socket here), not to a file`, async () => {
      const r = await classifyTo(fd1);
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toBe(EXPECTED);
    });
  }

  it('an OUTPUT of /dev/fd/1 on a stdout that is a file appended to (>>) keeps what was there', async () => {
    const d = tempDir('ra-fd-file-');
    const log = path.join(d, 'log.csv');
    writeFileSync(log, 'before\n');
    execFileSync('sh', [
      '-c',
      `"$0" "$@" >> "${log}"`,
      process.execPath,
      CLI,
      'classify',
      ...small,
      '-o',
      '/dev/fd/1',
    ]);
    expect(readFileSync(log, 'utf8')).toBe(`before\n${EXPECTED}`);
    expect(readdirSync(d)).toEqual(['log.csv']);
  });

  it('an OUTPUT on a full disk (/dev/full) ends with one clear line and exit 3, device intact', async () => {
    const d = tempDir('ra-full-');
    const full = charDevice(d, 'full');
    const r = await classifyTo(full);
    expect([r.code, r.stderr]).toEqual([
      3,
      `robots-audit: cannot write the output ${full}: no space left on device\n`,
    ]);
    expect(lstatSync(full).isCharacterDevice()).toBe(true);
    expect(temps(path.dirname(full))).toEqual([]);
  });
});

describe('OUTPUT that is a symlink', () => {
  it('an OUTPUT that is a symlink stays a link; the file it points to gets the rows', async () => {
    const d = tempDir('ra-link-');
    const target = path.join(d, 'real.csv');
    writeFileSync(target, 'old\n');
    const link = path.join(d, 'out.csv');
    symlinkSync('real.csv', link);
    const r = await classifyTo(link);
    expect(r.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('real.csv');
    expect(readFileSync(target, 'utf8')).toBe(EXPECTED);
    expect(temps(d)).toEqual([]);
  });

  it('a chain of symlinks across directories: the final file is replaced beside itself, every link stays', async () => {
    const a = tempDir('ra-chain-a-');
    const b = tempDir('ra-chain-b-');
    mkdirSync(path.join(b, 'sub'));
    const target = path.join(b, 'sub', 'final.csv');
    writeFileSync(target, 'old\n');
    symlinkSync('sub/final.csv', path.join(b, 'hop.csv'));
    const link = path.join(a, 'out.csv');
    symlinkSync(path.join(b, 'hop.csv'), link);
    const r = await classifyTo(link);
    expect(r.code).toBe(0);
    expect(readlinkSync(link)).toBe(path.join(b, 'hop.csv'));
    expect(readlinkSync(path.join(b, 'hop.csv'))).toBe('sub/final.csv');
    expect(readFileSync(target, 'utf8')).toBe(EXPECTED);
    expect([temps(a), temps(b), temps(path.join(b, 'sub'))]).toEqual([[], [], []]);
  });

  it('a symlink to a missing file: the file is created where the link points, the link stays', async () => {
    const d = tempDir('ra-dangling-');
    mkdirSync(path.join(d, 'sub'));
    const link = path.join(d, 'out.csv');
    symlinkSync('sub/new.csv', link);
    const r = await classifyTo(link);
    expect(r.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(path.join(d, 'sub', 'new.csv'), 'utf8')).toBe(EXPECTED);
    expect([temps(d), temps(path.join(d, 'sub'))]).toEqual([[], []]);
  });
});

describe('--summary written safely', () => {
  const summaryOf = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { rowsWritten: number };

  it('a --summary that is a symlink stays a link; its target gets the JSON', async () => {
    const d = tempDir('ra-sum-link-');
    writeFileSync(path.join(d, 'real.json'), '{}');
    symlinkSync('real.json', path.join(d, 's.json'));
    const r = await classifyTo(path.join(d, 'out.csv'), '--summary', path.join(d, 's.json'));
    expect(r.code).toBe(0);
    expect(lstatSync(path.join(d, 's.json')).isSymbolicLink()).toBe(true);
    expect(summaryOf(path.join(d, 'real.json')).rowsWritten).toBe(2);
    expect(temps(d)).toEqual([]);
  });

  it('a --summary that is a FIFO is written through, not replaced', async () => {
    const d = tempDir('ra-sum-fifo-');
    const fifo = path.join(d, 's.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'ignore'] });
    let read = '';
    reader.stdout.on('data', (b: Buffer) => {
      read += b.toString();
    });
    const readerDone = new Promise((resolve) => reader.on('close', resolve));
    const r = await classifyTo(path.join(d, 'out.csv'), '--summary', fifo);
    const timer = setTimeout(() => reader.kill('SIGKILL'), 2000);
    await readerDone;
    clearTimeout(timer);
    expect(r.code).toBe(0);
    expect((JSON.parse(read) as { rowsWritten: number }).rowsWritten).toBe(2);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('a --summary that is a character device is written through, not replaced', async () => {
    const d = tempDir('ra-sum-dev-');
    const dev = charDevice(d, 'null');
    const r = await classifyTo(path.join(d, 'out.csv'), '--summary', dev);
    expect(r.code).toBe(0);
    expect(lstatSync(dev).isCharacterDevice()).toBe(true);
    expect(readFileSync(path.join(d, 'out.csv'), 'utf8')).toBe(EXPECTED);
  });

  it('a --summary that cannot be written: OUTPUT is not committed, one clear line, exit 3', async () => {
    const d = tempDir('ra-sum-fail-');
    const out = path.join(d, 'out.csv');
    writeFileSync(out, 'previous\n');
    const summary = path.join(d, 'no-such-dir', 's.json');
    const r = await classifyTo(out, '--summary', summary);
    expect([r.code, r.stderr]).toEqual([
      3,
      `robots-audit: cannot write the summary ${summary}: no such directory\n`,
    ]);
    expect(readFileSync(out, 'utf8')).toBe('previous\n');
    expect(readdirSync(d)).toEqual(['out.csv']);
  });

  it('a --summary that is a directory: OUTPUT is not committed, the directory stays', async () => {
    const d = tempDir('ra-sum-dir-');
    const out = path.join(d, 'out.csv');
    mkdirSync(path.join(d, 's.json'));
    const r = await classifyTo(out, '--summary', path.join(d, 's.json'));
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^robots-audit: cannot write the summary .*s\.json: is a directory\n$/);
    expect(existsSync(out)).toBe(false);
    expect(statSync(path.join(d, 's.json')).isDirectory()).toBe(true);
  });
});

describe('stale temporary files', () => {
  it('temporaries of dead runs beside OUTPUT and --summary are removed; a live run’s are kept', async () => {
    const d = tempDir('ra-stale-');
    // A pid that certainly belonged to a process that has ended.
    const child = spawn(process.execPath, ['-e', '0']);
    const dead = child.pid!;
    await new Promise((r) => child.on('exit', r));
    const names = {
      deadOut: `.out.csv.${dead}.0a1b2c3d.tmp`,
      deadSummary: `.s.json.${dead}.deadbeef.tmp`,
      liveOut: `.out.csv.${process.pid}.12345678.tmp`,
      otherFile: `.other.csv.${dead}.0a1b2c3d.tmp`,
      notATemp: `.out.csv.${dead}.0a1b2c3d.tmp.keep`,
    };
    for (const n of Object.values(names)) writeFileSync(path.join(d, n), 'partial');
    const r = await classifyTo(path.join(d, 'out.csv'), '--summary', path.join(d, 's.json'));
    expect(r.code).toBe(0);
    expect(readdirSync(d).sort()).toEqual(
      [names.liveOut, names.otherFile, names.notATemp, 'out.csv', 's.json'].sort(),
    );
  });
});

describe('fetch --summary and cache export -o', () => {
  const cacheDir = tempDir('ra-export-');
  const cache = path.join(cacheDir, 'c.sqlite');
  const srvEnv = useServerAndTempDir();
  beforeAll(async () => {
    // Bodies big enough that an export is far larger than a pipe's buffer.
    const hosts = Array.from({ length: 40 }, (_, i) => `big${i}.test`);
    for (const h of hosts) srvEnv.srv.set(h, { kind: 'large', bytes: 200_000 });
    const r = await runCli(
      ['fetch', '-', '--cache', cache, '--resolve', '*=127.0.0.1', '--allow-private', '--quiet'],
      { input: `url\n${hosts.map((h) => `${srvEnv.srv.origin(h)}/`).join('\n')}\n` },
    );
    expect([r.code, r.stderr]).toEqual([0, '']);
  });

  it('a fetch --summary that is a symlink stays a link; one that cannot be written is one clear line', async () => {
    const d = tempDir('ra-fetch-sum-');
    writeFileSync(path.join(d, 'real.json'), '{}');
    symlinkSync('real.json', path.join(d, 's.json'));
    const fetch = (summary: string) =>
      runCli(['fetch', '-', '--cache', cache, '--quiet', '--summary', summary], { input: 'url\n' });
    expect((await fetch(path.join(d, 's.json'))).code).toBe(0);
    expect(readlinkSync(path.join(d, 's.json'))).toBe('real.json');
    expect(JSON.parse(readFileSync(path.join(d, 'real.json'), 'utf8')).command).toBe('fetch');
    const missing = path.join(d, 'nodir', 's.json');
    expect(await fetch(missing)).toMatchObject({
      code: 3,
      stderr: `robots-audit: cannot write the summary ${missing}: no such directory\n`,
    });
    expect(temps(d)).toEqual([]);
  });

  it('a cache export -o that is a symlink stays a link, and a full disk is one clear line', async () => {
    const d = tempDir('ra-export-out-');
    writeFileSync(path.join(d, 'real.jsonl'), 'old\n');
    symlinkSync('real.jsonl', path.join(d, 'e.jsonl'));
    const r = await runCli(['cache', 'export', '--cache', cache, '-o', path.join(d, 'e.jsonl')]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(readlinkSync(path.join(d, 'e.jsonl'))).toBe('real.jsonl');
    expect(readFileSync(path.join(d, 'real.jsonl'), 'utf8').split('\n')).toHaveLength(41);
    const full = charDevice(d, 'full');
    expect(await runCli(['cache', 'export', '--cache', cache, '-o', full])).toMatchObject({
      code: 3,
      stderr: `robots-audit: cannot write the export ${full}: no space left on device\n`,
    });
    expect(lstatSync(full).isCharacterDevice()).toBe(true);
    expect(temps(d)).toEqual([]);
  });

  it('a cache export whose stdout reader leaves ends quietly with exit 141', async () => {
    const r = await readThenClose(['cache', 'export', '--cache', cache], (read) => read.length > 0);
    expect([r.ended, r.stderr]).toEqual([[141, null], '']);
  });
});
