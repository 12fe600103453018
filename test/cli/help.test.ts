import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

/** `--help` of a command with its line wrapping undone (yargs wraps to the terminal's width). */
async function helpOf(...command: string[]): Promise<string> {
  const r = await runCli([...command, '--help']);
  expect(r.code).toBe(0);
  return r.stdout.replace(/\s+/g, ' ');
}

describe('--help of each command', () => {
  it.each([
    [
      ['classify'],
      [
        'robots-audit classify crawl.csv --agent Googlebot -o verdicts.csv',
        'robots-audit classify crawl.csv.gz --agent Bingbot --robots-dir robots/',
        'cat crawl.csv | robots-audit classify - --agent Googlebot --offline',
      ],
    ],
    [
      ['check'],
      [
        'robots-audit check --robots robots.txt --agent Googlebot /cart /search?q=1',
        'robots-audit check --robots robots.txt --agent Bingbot https://a.test/x',
      ],
    ],
    [
      ['fetch'],
      [
        'robots-audit fetch crawl.csv --concurrency 64 --timeout 5',
        'zcat crawl.csv.gz | robots-audit fetch - --summary fetch.json',
        'robots-audit fetch crawl.csv --cache shared.sqlite --max-age 3600',
      ],
    ],
    [
      ['cache'],
      [
        'robots-audit cache stats --cache crawl.sqlite',
        'robots-audit cache show example.com --json',
        'robots-audit cache prune --older-than 30',
      ],
    ],
  ])('%j shows its examples, each on a line of its own', async (command, examples) => {
    const r = await runCli([...command, '--help']);
    const lines = r.stdout.split('\n').map((l) => l.trim());
    const from = lines.indexOf('Examples:');
    expect(from).toBeGreaterThan(0);
    expect(lines.slice(from + 1, from + 1 + examples.length)).toEqual(examples);
  });

  it.each([
    [
      ['classify'],
      '--timeout Seconds per request: connect, headers and body together [number] [default: 15]',
    ],
    [
      ['classify'],
      '--max-body Decoded bytes of robots.txt kept (at least 512000) [number] [default: 512000]',
    ],
    [['fetch'], '--concurrency Fetches in flight at once [number] [default: 256]'],
    [['fetch'], '--retries Retries after a 429/5xx or a transient network failure [number] [default: 2]'],
    [['cache', 'stats'], '--max-age Seconds a policy counts as fresh [number] [default: 86400]'],
    [['cache', 'prune'], '--older-than Age in days [number] [required]'],
  ])('%j shows a numeric option as a number: %s', async (command, line) => {
    expect(await helpOf(...command)).toContain(line);
  });

  it('classify --threads shows its default as the number of cores', async () => {
    expect(await helpOf('classify')).toMatch(/--threads [^[]*\[number\] \[default: [1-9][0-9]* \(cores\)\]/);
  });

  it('numeric options still answer with what was typed when it is not a number', async () => {
    const r = await runCli(['fetch', '-', '--retries', 'many']);
    expect(r.stderr).toBe(
      'robots-audit: Invalid option `retries`: expected an integer from 0 to 10, got "many" (string)\n',
    );
    expect(r.code).toBe(2);
  });
});
