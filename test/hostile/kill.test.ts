/**
 * SIGKILL and SIGTERM at seeded-random moments of a live classify that writes OUTPUT and its SQLite
 * cache: OUTPUT is the previous file or the complete one (never a truncated file at its name), SIGTERM
 * leaves no temporary file, the cache passes integrity_check, and the next run completes from it.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/run-cli.js';
import { tempDir } from '../pipeline/classify-data.js';
import { useServerAndTempDir } from '../pipeline/fetch/harness.js';

const env = useServerAndTempDir();
const HOSTS = 120;
const ROWS_PER_HOST = 60;
const PREVIOUS = 'previous run\n';

/** mulberry32: the same kill moments on every run of the suite. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function integrity(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.pragma('integrity_check', { simple: true }) as string;
  } finally {
    db.close();
  }
}

/** The input (hosts interleaved, so the output window waits on fetches) and the live options. */
function setUp(dir: string) {
  for (let h = 0; h < HOSTS; h++) {
    env.srv.set(`k${h}.test`, { kind: 'respond', body: `User-agent: *\nDisallow: /d${h}\n`, delayMs: 15 });
  }
  const lines = ['host,url'];
  for (let i = 0; i < ROWS_PER_HOST; i++) {
    for (let h = 0; h < HOSTS; h++) lines.push(`k${h}.test,${env.srv.origin(`k${h}.test`)}/d${i % 3}/${i}`);
  }
  const input = path.join(dir, 'in.csv');
  writeFileSync(input, `${lines.join('\n')}\n`);
  const cache = path.join(dir, 'cache.sqlite');
  // --max-age 0: every run fetches again and writes the cache while it classifies.
  const live = ['--cache', cache, '--resolve', '*=127.0.0.1', '--allow-private', '--retries', '0'];
  return { input, cache, live: [...live, '--max-age', '0', '--concurrency', '8', '--agent', 'x', '--quiet'] };
}

describe('killed mid-run', () => {
  const dir = tempDir('ra-kill-');
  let job: ReturnType<typeof setUp>;
  let complete = '';
  let runMs = 0;
  beforeAll(async () => {
    job = setUp(dir);
    const t0 = performance.now();
    const first = await runCli(['classify', job.input, '-o', path.join(dir, 'ref.csv'), ...job.live]);
    runMs = performance.now() - t0;
    expect([first.code, first.stderr]).toEqual([0, '']);
    complete = readFileSync(path.join(dir, 'ref.csv'), 'utf8');
    expect(complete.split('\n')).toHaveLength(HOSTS * ROWS_PER_HOST + 2);
  });

  for (const [signal, seed] of [
    ['SIGKILL', 0x5eed1],
    ['SIGTERM', 0x5eed2],
  ] as const) {
    it(`${signal} at random moments: OUTPUT previous or complete, cache intact, next run completes`, async () => {
      const { input, cache, live } = job;
      const outDir = tempDir('ra-kill-out-');
      const out = path.join(outDir, 'v.csv');
      writeFileSync(out, PREVIOUS);
      const summary = path.join(outDir, 's.json');
      const outputs = ['-o', out, '--summary', summary];
      const random = seeded(seed);
      const stale = new Set<string>();
      for (let run = 0; run < 5; run++) {
        const child = spawn(process.execPath, [CLI, 'classify', input, ...outputs, ...live], {
          stdio: 'ignore',
        });
        let exited = false;
        const ended = new Promise<[number | null, string | null]>((resolve) =>
          child.on('close', (c, s) => {
            exited = true;
            resolve([c, s]);
          }),
        );
        // Once the run is writing (its temporary exists), anywhere up to the rest of a whole run.
        const writing = () => readdirSync(outDir).some((f) => f.endsWith('.tmp') && !stale.has(f));
        while (!exited && !writing()) await new Promise((r) => setTimeout(r, 10));
        await new Promise((r) => setTimeout(r, random() * runMs * 0.6));
        child.kill(signal);
        const [code, by] = await ended;
        const at = `run ${run}: exit ${code}, signal ${by}`;
        // Whatever a SIGKILL left is not this run's: the next run must not wait for it.
        for (const f of readdirSync(outDir)) if (f.endsWith('.tmp')) stale.add(f);
        const now = readFileSync(out, 'utf8');
        expect(now === PREVIOUS || now === complete, `${at}: OUTPUT neither previous nor complete`).toBe(
          true,
        );
        // Finished before the signal (0), or stopped as documented (143 after SIGTERM).
        if (code !== 0)
          expect(signal === 'SIGTERM' ? code : by, at).toBe(signal === 'SIGTERM' ? 143 : signal);
        // A summary, once there, is whole.
        if (existsSync(summary)) {
          expect(JSON.parse(readFileSync(summary, 'utf8')).rowsWritten, at).toBe(HOSTS * ROWS_PER_HOST);
        }
        // Neither OUTPUT's nor the summary's temporary is left.
        if (signal === 'SIGTERM')
          expect(
            readdirSync(outDir).filter((f) => f.endsWith('.tmp')),
            at,
          ).toEqual([]);
        if (existsSync(cache)) expect(integrity(cache), at).toBe('ok');
      }

      const again = await runCli(['classify', input, ...outputs, ...live]);
      expect([again.code, again.stderr]).toEqual([0, '']);
      expect(readFileSync(out, 'utf8')).toBe(complete);
      // Temporaries a SIGKILL left behind are removed by the next run.
      expect(readdirSync(outDir).sort()).toEqual(['s.json', 'v.csv']);
      const offline = await runCli([
        'classify',
        input,
        '--cache',
        cache,
        '--offline',
        '--agent',
        'x',
        '--quiet',
      ]);
      expect(offline.code).toBe(0);
      expect(offline.stdout).toBe(complete);
      expect(integrity(cache)).toBe('ok');
    });
  }
});
