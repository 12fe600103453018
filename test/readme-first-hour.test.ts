/**
 * README's "Audit your crawl log" recipe, run line by line as a user would (`robots-audit` is the built CLI),
 * in a copy of the sample: the sample line as written; the live line against the local multi-host server
 * (every host pinned to 127.0.0.1), then the same log from the cache alone; the grep; the report. A command
 * README shows that the CLI no longer takes fails here.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MultiHostServer, ok, startMultiHostServer } from './helpers/multi-host-server.js';
import { runCli } from './helpers/run-cli.js';
import { tempDir } from './pipeline/classify-data.js';

const root = path.resolve(import.meta.dirname, '..');
const pinned = ['--resolve', '*=127.0.0.1', '--allow-private', '--retries', '0', '--timeout', '3'];

/** The shell lines of the first ```sh block after `heading`, comments cut. */
function recipe(readme: string, heading: string): string[] {
  const from = readme.indexOf(heading);
  expect(from).toBeGreaterThanOrEqual(0);
  const start = readme.indexOf('```sh\n', from) + '```sh\n'.length;
  const end = readme.indexOf('\n```', start);
  return readme
    .slice(start, end)
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line !== '');
}

let srv: MultiHostServer;
const dir = tempDir('ra-first-hour-');

beforeAll(async () => {
  srv = await startMultiHostServer();
  srv.set('shop.test', ok('User-agent: *\nDisallow: /private\n'));
  srv.set('news.test', ok('User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /\n'));
  cpSync(path.join(root, 'data', 'sample'), path.join(dir, 'data', 'sample'), { recursive: true });
  const rows = ['host,url'];
  for (const p of ['/private/a', '/public/b', '/private/c'])
    rows.push(`shop.test,${srv.origin('shop.test')}${p}`);
  rows.push(`news.test,${srv.origin('news.test')}/today`);
  writeFileSync(path.join(dir, 'crawl.csv'), `${rows.join('\n')}\n`);
});
afterAll(() => srv.close());

const lines = (file: string) => readFileSync(path.join(dir, file), 'utf8').trimEnd().split('\n');

describe("README's first-hour recipe", () => {
  it('runs as written: the sample, a live run, the same from the cache, the disallowed rows, the report', async () => {
    const steps = recipe(readFileSync(path.join(root, 'README.md'), 'utf8'), '### Audit your crawl log');
    expect(steps).toHaveLength(5);
    let live: string | null = null;
    for (const step of steps) {
      if (!step.startsWith('robots-audit ')) {
        const sh = spawnSync('sh', ['-c', step], { cwd: dir, encoding: 'utf8' });
        expect(sh.status, step).toBe(0);
        const found = sh.stdout.trimEnd().split('\n');
        expect(found).toEqual(
          [expect.stringContaining('/private/a,false,disallowed_explicit,2,Disallow: /private')].concat([
            expect.stringContaining('/private/c,false,disallowed_explicit,2,Disallow: /private'),
          ]),
        );
        continue;
      }
      const args = step.slice('robots-audit '.length).split(/\s+/);
      const isLive = args[0] === 'classify' && !args.includes('--robots-dir') && !args.includes('--offline');
      const r = await runCli(isLive ? [...args, ...pinned] : args, { cwd: dir });
      expect(r.code, `${step}\n${r.stderr}`).toBe(0);
      if (args.includes('--robots-dir')) {
        // The sample: one output row per input record, the header first.
        const input = readFileSync(path.join(dir, 'data', 'sample', 'crawl.csv'), 'utf8')
          .trimEnd()
          .split('\n');
        expect(lines('verdicts.csv')).toHaveLength(input.length);
      } else if (isLive) {
        expect(lines('verdicts.csv')).toHaveLength(5);
        expect(JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')).rowsWritten).toBe(4);
        expect(srv.hits('shop.test') + srv.hits('news.test')).toBe(2);
        live = readFileSync(path.join(dir, 'verdicts.csv'), 'utf8');
      } else if (args.includes('--offline')) {
        // From the cache the live run filled: the same verdicts, no request.
        expect(readFileSync(path.join(dir, 'verdicts.csv'), 'utf8')).toBe(live);
        expect(srv.hits('shop.test') + srv.hits('news.test')).toBe(2);
      } else if (args[0] === 'report') {
        expect(existsSync(path.join(dir, 'report.html'))).toBe(true);
        expect(statSync(path.join(dir, 'report.html')).size).toBeGreaterThan(1000);
      }
    }
    expect(live).not.toBeNull();
  });
});
