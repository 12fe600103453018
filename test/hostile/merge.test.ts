/**
 * `robots-audit merge` against inputs that never end or never come, and a merge killed half-way: each
 * ends with one line (or its signal's exit), and OUTPUT is the previous file or the whole merge.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/run-cli.js';
import { tempDir } from '../pipeline/classify-data.js';

const dir = tempDir('ra-merge-hostile-');
const at = (name: string) => path.join(dir, name);
const PREVIOUS = 'previous merge\n';
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Shard k of 3 of a run of `rows` rows of ~300 bytes. */
function shardFile(name: string, k: number, rows: number): string {
  const lines = ['row_number,host,url,verdict'];
  for (let n = k; n <= rows; n += 3)
    lines.push(`${n},h${n % 31}.example,/${'q'.repeat(280)}/${n},allowed_implicit`);
  writeFileSync(at(name), `${lines.join('\n')}\n`);
  return at(name);
}

const temporaries = (name: string) => readdirSync(dir).filter((n) => n.startsWith(`.${name}.`));

describe('merge: hostile inputs and kills', () => {
  it('a row file that is /dev/zero (a line without end) stops at 64 MiB with one line, exit 3', async () => {
    const r = await runCli(['merge', '/dev/zero', '-o', at('zero.csv')]);
    expect(r).toMatchObject({ code: 3, stderr: 'robots-audit: /dev/zero line 1: longer than 64 MiB\n' });
    expect(readdirSync(dir).filter((n) => n.includes('zero.csv'))).toEqual([]);
  });

  it('SIGINT ends a merge still waiting for a FIFO writer: exit 130, no OUTPUT written', async () => {
    const one = shardFile('fifo-1.csv', 1, 30);
    const fifo = at('never.fifo');
    execFileSync('mkfifo', [fifo]);
    writeFileSync(at('fifo-out.csv'), PREVIOUS);
    const child = spawn(process.execPath, [CLI, 'merge', one, fifo, '-o', at('fifo-out.csv')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => {
      stderr += b;
    });
    // Signal once the run has the FIFO open (its stop handler is installed before): it then waits to read.
    const hasOpen = () => {
      try {
        return readdirSync(`/proc/${child.pid}/fd`).some((fd) => {
          try {
            return readlinkSync(`/proc/${child.pid}/fd/${fd}`) === fifo;
          } catch {
            return false;
          }
        });
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 1000 && !hasOpen(); i++) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGINT');
    // A run that ignores the stop would wait for a writer for ever: end it so the test can report.
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    const [code] = (await once(child, 'close')) as [number | null];
    clearTimeout(timer);
    expect(code).toBe(130);
    expect(stderr).toBe('robots-audit: stopped by SIGINT; no output file was written\n');
    expect(readFileSync(at('fifo-out.csv'), 'utf8')).toBe(PREVIOUS);
    expect(temporaries('fifo-out.csv')).toEqual([]);
  }, 15_000);

  it('SIGKILL half-way leaves the previous OUTPUT, never a cut merge; the next merge removes the temporary and completes', async () => {
    const files = [1, 2, 3].map((k) => shardFile(`kill-${k}.csv`, k, 150_000));
    writeFileSync(at('killed.csv'), PREVIOUS);
    const child = spawn(process.execPath, [CLI, 'merge', ...files, '-o', at('killed.csv')], {
      stdio: 'ignore',
    });
    // Kill once the temporary file beside OUTPUT has grown: the merge is under way.
    for (let i = 0; i < 400; i++) {
      const temp = temporaries('killed.csv')[0];
      if (temp !== undefined && readFileSync(at(temp)).length > 1 << 20) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill('SIGKILL');
    await once(child, 'close');
    expect(readFileSync(at('killed.csv'), 'utf8')).toBe(PREVIOUS);
    expect(temporaries('killed.csv')).toHaveLength(1);
    const r = await runCli(['merge', ...files, '-o', at('killed.csv')]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(temporaries('killed.csv')).toEqual([]);
    const out = readFileSync(at('killed.csv'), 'utf8');
    expect(
      out.endsWith(`\n150000,h${150_000 % 31}.example,/${'q'.repeat(280)}/150000,allowed_implicit\n`),
    ).toBe(true);
  }, 30_000);
});
