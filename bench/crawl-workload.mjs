// The make-crawl workload the classify benchmarks share: the command line's numeric options, and the
// workload directory (crawl.csv + robots/), built once under bench/out/ with ../shared/bench/make-crawl.mjs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const CLI = path.join(here, '..', 'dist', 'cli', 'main.js');
const makeCrawl = path.join(here, '..', '..', 'shared', 'bench', 'make-crawl.mjs');

/** `--name VALUE` from the command line as given, or `def`. */
export function stringArg(name, def) {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  return i < 0 || args[i + 1] === undefined ? def : args[i + 1];
}

/** `--name N` from the command line as a number, or `def`. */
export function numericArg(name, def) {
  const value = stringArg(name, undefined);
  return value === undefined ? def : Number(value);
}

/**
 * The workload's directory, built when missing. Exits when make-crawl is absent (0: the benchmark is
 * skipped) or the CLI is not built (1).
 */
export function crawlWorkload(bench, rows, hosts) {
  if (!existsSync(makeCrawl)) {
    console.log(`${bench} bench skipped: ../shared/bench/make-crawl.mjs is not present`);
    process.exit(0);
  }
  if (!existsSync(CLI)) {
    console.error('build first: npm run build');
    process.exit(1);
  }
  const dir = path.join(here, 'out', `classify-${rows}-${hosts}`);
  if (!existsSync(path.join(dir, 'crawl.csv'))) {
    console.error(`building the workload (${rows} rows, ${hosts} hosts) in ${dir} …`);
    const argv = [makeCrawl, '--out', dir, '--rows', String(rows), '--hosts', String(hosts)];
    if (spawnSync(process.execPath, argv, { stdio: 'inherit' }).status !== 0) process.exit(1);
  }
  return dir;
}
