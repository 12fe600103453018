/**
 * README's cluster recipes run for real under GNU parallel (4 jobs), each result checked against one
 * single run over the same input: line mode fed block by block (`--pipe --block 1M -k`, one warmed
 * cache read by every job), line mode partitioned by host (`--pipe --shard 1`, one cache per job slot,
 * every robots.txt fetched once in all), and host shards (`--shard K/N --row-number`, also from the
 * indexed-job environment variables) put back in input order by `robots-audit merge`. The hosts are
 * played by a loopback server; commands get `--resolve '*=127.0.0.1' --allow-private` to reach it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MultiHostServer, ok, startMultiHostServer } from '../helpers/multi-host-server.js';
import { CLI } from '../helpers/run-cli.js';
import { tempDir } from '../pipeline/classify-data.js';

/** Whether `name --help`-like probing finds a program, without a shell. */
function onPath(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The built CLI's help text for `args` (empty when it fails). */
function help(args: string[]): string {
  try {
    return execFileSync(process.execPath, [CLI, ...args, '--help'], { encoding: 'utf8' });
  } catch {
    return '';
  }
}

const hasParallel = onPath('parallel');
const hasShards =
  hasParallel && /\bmerge\b/.test(help([])) && /--shard\b[\s\S]*--row-number/.test(help(['classify']));
const NO_PARALLEL = 'skipped: GNU parallel is not on PATH (apt-get install -y parallel)';
const NO_SHARDS = 'skipped: this build has no `classify --shard` / `robots-audit merge`';

const HOSTS = 40;
const LINES = 48_000;
const dir = tempDir('ra-recipes-');
let srv: MultiHostServer;
/** The network options every command of the test adds to reach the loopback server. */
const PIN = `--resolve '*=127.0.0.1' --allow-private --retries 0 --timeout 5`;

/** Runs a bash script in `dir` with `robots-audit` on PATH; resolves with its exit code and stderr. */
function sh(script: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const bin = path.join(dir, 'bin');
    const child = spawn('bash', ['-o', 'pipefail', '-c', script], {
      cwd: dir,
      env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const host = (k: number) => `h${k}.test`;
const read = (name: string) => readFileSync(path.join(dir, name), 'utf8');
const sortedLines = (text: string) => text.split('\n').sort();

/** crawl.csv: a header, then rows over HOSTS hosts, with blank lines and invalid rows among them. */
function writeCrawl(): void {
  const lines = ['host,url'];
  for (let i = 0; i < LINES; i++) {
    const k = (i * 7919) % HOSTS;
    if (i % 5000 === 4999) lines.push('');
    else if (i % 3001 === 3000) lines.push(`${host(k)},`);
    else if (i % 4001 === 4000) lines.push(`${host(k)},ftp://${host(k)}/file`);
    else {
      const part = i % 3 === 0 ? 'private' : 'public';
      lines.push(`${host(k)},${srv.origin(host(k))}/${part}/item-${i}?ref=${'r'.repeat(i % 40)}`);
    }
  }
  writeFileSync(path.join(dir, 'crawl.csv'), `${lines.join('\n')}\n`);
}

beforeAll(async () => {
  if (!hasParallel) return;
  srv = await startMultiHostServer();
  for (let k = 0; k < HOSTS; k++) {
    if (k % 10 === 9) srv.set(host(k), { kind: 'respond', status: 503 });
    else if (k % 5 === 4) srv.set(host(k), { kind: 'respond', status: 404 });
    else srv.set(host(k), ok(`User-agent: *\nDisallow: /private\nAllow: /private/item-${k}\n`));
  }
  mkdirSync(path.join(dir, 'bin'));
  const wrapper = path.join(dir, 'bin', 'robots-audit');
  writeFileSync(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(wrapper, 0o755);
  writeCrawl();
  // The single run every recipe is checked against, in line mode and with a header.
  const single = await sh(
    `tail -n +2 crawl.csv | robots-audit classify - --no-header --columns host,url --agent Googlebot --cache single.sqlite ${PIN} --quiet > single-lines.csv && ` +
      `robots-audit classify crawl.csv -o single.csv --summary single.json --agent Googlebot --cache single.sqlite --offline --quiet`,
  );
  expect(single.code, single.stderr).toBe(0);
}, 120_000);
afterAll(() => srv?.close());

describe.skipIf(!hasParallel)(
  `cluster recipes under GNU parallel${hasParallel ? '' : ` (${NO_PARALLEL})`}`,
  () => {
    it('line mode, host-partitioned (--pipe --shard 1, a cache per job slot): the sorted lines equal the single run, and each robots.txt is fetched once in all', async () => {
      srv.resetCounts();
      const r = await sh(
        `tail -n +2 crawl.csv | parallel --pipe --shard 1 --colsep , -j4 \\
        robots-audit classify - --no-header --columns host,url --agent Googlebot --cache slot-{%}.sqlite ${PIN} --quiet \\
        > by-host.csv`,
      );
      expect(r.code, r.stderr).toBe(0);
      const single = read('single-lines.csv');
      expect(sortedLines(read('by-host.csv'))).toEqual(sortedLines(single));
      for (let k = 0; k < HOSTS; k++) expect(srv.hits(host(k)), host(k)).toBe(1);
    });

    it('line mode in blocks (fetch once, then --pipe --block 1M -k --offline): the output equals the single run byte for byte', async () => {
      const r = await sh(
        `robots-audit fetch crawl.csv --cache robots.sqlite ${PIN} --quiet && \\
      tail -n +2 crawl.csv | parallel --pipe --block 1M -k -j4 \\
        robots-audit classify - --no-header --columns host,url --agent Googlebot --offline --cache robots.sqlite --quiet \\
        > in-order.csv`,
      );
      expect(r.code, r.stderr).toBe(0);
      // More than 3 blocks of 1 MiB: the jobs really split the input.
      expect(readFileSync(path.join(dir, 'crawl.csv')).length).toBeGreaterThan(3 << 20);
      expect(read('in-order.csv')).toBe(read('single-lines.csv'));
      expect(read('in-order.csv').split('\n')).toHaveLength(LINES + 1);
    });

    describe.skipIf(!hasShards)(`host shards and merge${hasShards ? '' : ` (${NO_SHARDS})`}`, () => {
      /** README's merge step over `<prefix>-*.csv` and `<prefix>-*.json`, checked against the single run. */
      const mergeAndCompare = async (prefix: string) => {
        const merged = await sh(
          `robots-audit merge ${prefix}-*.csv --drop-row-number -o ${prefix}.csv && ` +
            `robots-audit merge ${prefix}-*.json -o ${prefix}.json`,
        );
        expect(merged.code, merged.stderr).toBe(0);
        expect(read(`${prefix}.csv`)).toBe(read('single.csv'));
        const want = JSON.parse(read('single.json')) as Record<string, unknown>;
        const got = JSON.parse(read(`${prefix}.json`)) as Record<string, unknown>;
        for (const key of [
          'recordsRead',
          'rowsWritten',
          'blankLines',
          'invalidRows',
          'invalidByCode',
          'verdicts',
        ]) {
          expect(got[key], key).toEqual(want[key]);
        }
      };

      it('parallel … --shard {}/4 --row-number --threads 1 ::: 1 2 3 4, then merge: the output equals the single run byte for byte', async () => {
        srv.resetCounts();
        const r = await sh(
          `parallel robots-audit classify crawl.csv --shard {}/4 --row-number --agent Googlebot --threads 1 \\
            --cache cache-{}.sqlite -o part-{}.csv --summary part-{}.json ${PIN} --quiet ::: 1 2 3 4`,
        );
        expect(r.code, r.stderr).toBe(0);
        for (let k = 0; k < HOSTS; k++) expect(srv.hits(host(k)), host(k)).toBe(1);
        await mergeAndCompare('part');
      });

      it('line mode in host shards (--no-header --shard {}/4 --row-number), then merge --no-header: the single line-mode run byte for byte', async () => {
        const r = await sh(
          `parallel 'tail -n +2 crawl.csv | robots-audit classify - --no-header --columns host,url --shard {}/4 --row-number \\
            -o lines-{}.csv --agent Googlebot --cache single.sqlite --offline --quiet' ::: 1 2 3 4 && \\
          robots-audit merge --no-header lines-*.csv --drop-row-number -o lines.csv`,
        );
        expect(r.code, r.stderr).toBe(0);
        expect(read('lines.csv')).toBe(read('single-lines.csv'));
      });

      it('an indexed Job (JOB_COMPLETION_INDEX) and an array job (AWS_BATCH_JOB_ARRAY_INDEX/SIZE) shard the same way', async () => {
        const r = await sh(
          `pids=()
        for i in 0 1 2 3; do
          JOB_COMPLETION_INDEX=$i robots-audit classify crawl.csv --shards 4 --row-number -o k8s-$((i + 1)).csv \\
            --summary k8s-$((i + 1)).json --agent Googlebot --cache single.sqlite --offline --quiet & pids+=($!)
          AWS_BATCH_JOB_ARRAY_INDEX=$i AWS_BATCH_JOB_ARRAY_SIZE=4 robots-audit classify crawl.csv --row-number \\
            -o aws-$((i + 1)).csv --summary aws-$((i + 1)).json --agent Googlebot --cache single.sqlite --offline --quiet & pids+=($!)
        done
        for p in "\${pids[@]}"; do wait "$p" || exit 1; done`,
        );
        expect(r.code, r.stderr).toBe(0);
        await mergeAndCompare('k8s');
        await mergeAndCompare('aws');
      });
    });
  },
);
