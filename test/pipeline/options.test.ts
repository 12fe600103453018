import { describe, expect, it } from 'vitest';
import { classify } from '../../src/pipeline/classify.js';
import { COMMAND_OPTIONS, type Command } from '../../src/pipeline/command-options.js';
import {
  DEFAULTS,
  type Options,
  resolveClassifyOptions,
  resolveOptions,
} from '../../src/pipeline/options.js';

type Case = [name: keyof Options, value: unknown, expected: unknown];

/** Each option: values it takes and what they resolve to. */
const VALID: Case[] = [
  ['agents', 'Googlebot', ['Googlebot']],
  ['agents', ['MyBot/2.1', ' GPTBot '], ['MyBot', 'GPTBot']],
  ['agents', 'Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)', ['GPTBot']],
  ['agents', 'Mozilla/5.0 (compatible; ZzzNewBot/3.1; +https://zzz.example/about)', ['ZzzNewBot']],
  ['agentColumn', 'user_agent', 'user_agent'],
  ['threads', '3', 3],
  ['threads', 256, 256],
  ['cache', 'c.sqlite', 'c.sqlite'],
  ['maxAge', '0', 0],
  ['maxAge', 86_400, 86_400],
  ['timeout', '0.5', 0.5],
  ['concurrency', 1, 1],
  ['retries', '10', 10],
  ['maxRetryAfter', 0, 0],
  ['maxBody', 512_000, 512_000],
  ['httpUserAgent', 'x/1', 'x/1'],
  ['resolve', 'a.example=127.0.0.1', ['a.example=127.0.0.1']],
  ['allowPrivate', 'true', true],
  ['caFile', 'ca.pem', 'ca.pem'],
  ['proxy', 'http://p:3128', 'http://p:3128'],
  ['offline', false, false],
  ['robotsDir', 'robots/', 'robots/'],
  ['delimiter', 'tab', '\t'],
  ['delimiter', '\\t', '\t'],
  ['delimiter', ';', ';'],
  ['urlColumn', 'page', 'page'],
  ['hostColumn', 'site', 'site'],
  ['scheme', 'http', 'http'],
  ['output', '-', '-'],
  ['evidence', true, true],
  ['shard', '2/4', { index: 2, count: 4 }],
  ['rowNumber', 'false', false],
  ['atColumn', 'time', 'time'],
  ['asOf', '2024-01-31T23:59:59Z', Date.UTC(2024, 0, 31, 23, 59, 59)],
  ['asOf', '1706745599', Date.UTC(2024, 0, 31, 23, 59, 59)],
  ['timeFormat', 'epoch-ms', 'epoch-ms'],
  ['grace', '90m', 5400],
  ['grace', 0, 0],
  ['maxHistoryAge', '7d', 604_800],
  ['summary', 's.json', 's.json'],
  ['progress', true, true],
  ['quiet', 'true', true],
  ['olderThan', '30', 30],
  ['json', true, true],
];

/** Each option: values it refuses, and the exact message. */
const INVALID: [name: keyof Options, value: unknown, message: string][] = [
  ['agents', '/2.1', 'Invalid option `agents`: expected a non-empty product token, got "/2.1" (string)'],
  ['agents', [''], 'Invalid option `agents`: expected a non-empty string, got "" (string)'],
  [
    'agents',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Invalid option `agents`: "Mozilla/5.0 (Windows NT 10.0; Win64; x64…" is a browser User-Agent, not a crawler\'s product token',
  ],
  ['agentColumn', '', 'Invalid option `agentColumn`: expected a non-empty string, got "" (string)'],
  ['threads', 'x', 'Invalid option `threads`: expected an integer from 1 to 256, got "x" (string)'],
  ['threads', 0, 'Invalid option `threads`: expected an integer from 1 to 256, got 0 (number)'],
  ['threads', 1.5, 'Invalid option `threads`: expected an integer from 1 to 256, got 1.5 (number)'],
  ['maxAge', 86_401, 'Invalid option `maxAge`: expected an integer from 0 to 86400, got 86401 (number)'],
  ['timeout', '0', 'Invalid option `timeout`: expected a number > 0 and ≤ 3600, got "0" (string)'],
  ['retries', 11, 'Invalid option `retries`: expected an integer from 0 to 10, got 11 (number)'],
  [
    'maxBody',
    1000,
    'Invalid option `maxBody`: expected an integer from 512000 to 1073741824, got 1000 (number)',
  ],
  ['resolve', 'a.example', 'Invalid option `resolve`: expected HOST=ADDRESS, got "a.example" (string)'],
  ['allowPrivate', 'yes', 'Invalid option `allowPrivate`: expected true or false, got "yes" (string)'],
  ['cache', '', 'Invalid option `cache`: expected a non-empty string, got "" (string)'],
  [
    'delimiter',
    '"',
    'Invalid option `delimiter`: expected one ASCII character other than a quote or line end (or "tab"), got "\\"" (string)',
  ],
  [
    'delimiter',
    ';;',
    'Invalid option `delimiter`: expected one ASCII character other than a quote or line end (or "tab"), got ";;" (string)',
  ],
  [
    'delimiter',
    '§',
    'Invalid option `delimiter`: expected one ASCII character other than a quote or line end (or "tab"), got "§" (string)',
  ],
  ['scheme', 'ftp', 'Invalid option `scheme`: expected "http" or "https", got "ftp" (string)'],
  [
    'asOf',
    'last tuesday',
    'Invalid option `asOf`: expected a time (RFC 3339, epoch seconds, …), got "last tuesday" (string)',
  ],
  ['timeFormat', 'iso', 'Invalid option `timeFormat`: expected auto, epoch-s, epoch-ms, got "iso" (string)'],
  [
    'grace',
    '1 day',
    'Invalid option `grace`: expected a duration (seconds, or a number with s, m, h, d or w: "24h"), got "1 day" (string)',
  ],
  ['olderThan', -1, 'Invalid option `olderThan`: expected an integer from 0 to 36500, got -1 (number)'],
];

function message(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    expect((err as { code?: string }).code).toBe('ERR_INVALID_OPTION');
    return (err as Error).message;
  }
  throw new Error('expected resolveOptions to refuse the value');
}

describe('resolveOptions', () => {
  it('has a default for every option, and returns the defaults when given nothing', () => {
    expect(resolveOptions()).toEqual(DEFAULTS);
    expect(Object.isFrozen(DEFAULTS)).toBe(true);
  });

  it.each(VALID)('takes %s = %j', (name, value, expected) => {
    expect(resolveOptions({ [name]: value })[name]).toEqual(expected);
  });

  it.each(INVALID)('refuses %s = %j with its message', (name, value, expected) => {
    expect(message(() => resolveOptions({ [name]: value }))).toBe(expected);
  });

  it('is checked for every option it knows (a table row each)', () => {
    const tested = new Set([...VALID.map((c) => c[0]), ...INVALID.map((c) => c[0])]);
    const untested = Object.keys(DEFAULTS).filter(
      (k) => !tested.has(k as keyof Options) && !['columns', 'header'].includes(k),
    );
    expect(untested).toEqual([]);
  });

  it('refuses unknown names and options that cannot go together', () => {
    expect(message(() => resolveOptions({ agnets: ['x'] } as never))).toBe('Unknown option `agnets`');
    expect(message(() => resolveOptions({ offline: true, robotsDir: 'r' }))).toBe(
      'Invalid options: `offline` and `robotsDir` cannot be used together',
    );
    expect(message(() => resolveOptions({ atColumn: 't', asOf: '2024-01-01' }))).toBe(
      'Invalid options: `atColumn` and `asOf` cannot be used together',
    );
    expect(message(() => resolveOptions({ asOf: '2024-01-01', robotsDir: 'r' }))).toBe(
      'Invalid options: `asOf` and `robotsDir` cannot be used together',
    );
  });

  it('asks classify for a crawler to judge for: an agent or an agent column', () => {
    expect(message(() => resolveClassifyOptions({}))).toBe(
      'Invalid option `agents`: give at least one agent (or `agentColumn`)',
    );
    expect(resolveClassifyOptions({ agents: 'Googlebot' }).agents).toEqual(['Googlebot']);
    expect(resolveClassifyOptions({ agentColumn: 'ua' }).agentColumn).toBe('ua');
  });
});

/** Each command: an option it takes (value, resolved), and one it does not take with the exact message. */
const PER_COMMAND: [command: Command, takes: Case, refuses: keyof Options, message: string][] = [
  [
    'classify',
    ['threads', '3', 3],
    'olderThan',
    'Invalid option `olderThan`: does not apply to `classify` (only to `cache prune`)',
  ],
  [
    'check',
    ['agents', 'Googlebot', ['Googlebot']],
    'threads',
    'Invalid option `threads`: does not apply to `check` (only to `classify`)',
  ],
  [
    'fetch',
    ['concurrency', '8', 8],
    'offline',
    'Invalid option `offline`: does not apply to `fetch` (only to `classify`)',
  ],
  [
    'import',
    ['summary', 's.json', 's.json'],
    'maxBody',
    'Invalid option `maxBody`: does not apply to `import` (only to `classify`, `fetch`)',
  ],
  [
    'cache stats',
    ['maxAge', '60', 60],
    'output',
    'Invalid option `output`: does not apply to `cache stats` (only to `classify`, `cache export`)',
  ],
  [
    'cache show',
    ['json', 'true', true],
    'maxAge',
    'Invalid option `maxAge`: does not apply to `cache show` (only to `classify`, `fetch`, `cache stats`)',
  ],
  [
    'cache export',
    ['output', 'x.jsonl', 'x.jsonl'],
    'json',
    'Invalid option `json`: does not apply to `cache export` (only to `cache stats`, `cache show`, `cache prune`)',
  ],
  [
    'cache prune',
    ['olderThan', '30', 30],
    'summary',
    'Invalid option `summary`: does not apply to `cache prune` (only to `classify`, `fetch`, `import`)',
  ],
];

describe('resolveOptions for one command', () => {
  it('has a row for every command of the table', () => {
    expect(PER_COMMAND.map((c) => c[0])).toEqual(Object.keys(COMMAND_OPTIONS));
  });

  it.each(PER_COMMAND)('%s takes %j', (command, [name, value, expected]) => {
    expect(resolveOptions({ [name]: value }, command)[name as never]).toEqual(expected);
  });

  it.each(PER_COMMAND)('%s refuses %j, %j, with its message', (command, _takes, name, expected) => {
    expect(message(() => resolveOptions({ [name]: DEFAULTS[name] }, command))).toBe(expected);
    // Named with no value, the option is still not the command's.
    expect(message(() => resolveOptions({ [name]: undefined }, command))).toBe(expected);
  });

  it.each(Object.keys(COMMAND_OPTIONS) as Command[])(
    '%s gets its own options, with their defaults',
    (command) => {
      const resolved = resolveOptions({}, command);
      expect(Object.keys(resolved)).toEqual([...COMMAND_OPTIONS[command]]);
      for (const name of COMMAND_OPTIONS[command]) expect(resolved[name as never]).toEqual(DEFAULTS[name]);
    },
  );

  it('names every option in some command, and only options', () => {
    const listed = Object.values(COMMAND_OPTIONS).flat() as string[];
    expect(Object.keys(DEFAULTS).filter((name) => !listed.includes(name))).toEqual([]);
    expect(listed.filter((name) => !Object.hasOwn(DEFAULTS, name))).toEqual([]);
    for (const names of Object.values(COMMAND_OPTIONS)) expect(new Set(names).size).toBe(names.length);
  });

  it('keeps the message for unknown names, and the checks across options', () => {
    expect(message(() => resolveOptions({ agnets: ['x'] } as never, 'classify'))).toBe(
      'Unknown option `agnets`',
    );
    expect(message(() => resolveOptions({ header: false }, 'fetch'))).toMatch(/`--columns` must name/);
    expect(message(() => resolveOptions({ offline: true, robotsDir: 'r' }, 'classify'))).toBe(
      'Invalid options: `offline` and `robotsDir` cannot be used together',
    );
  });

  it("refuses, in the library's classify, an option of another command", async () => {
    const params = { input: 'crawl.csv', agents: ['Googlebot'], olderThan: 3 } as Parameters<
      typeof classify
    >[0];
    await expect(classify(params)).rejects.toMatchObject({
      code: 'ERR_INVALID_OPTION',
      message: 'Invalid option `olderThan`: does not apply to `classify` (only to `cache prune`)',
    });
    expect(message(() => resolveClassifyOptions({ agents: 'Googlebot', json: true }))).toBe(
      'Invalid option `json`: does not apply to `classify` (only to `cache stats`, `cache show`, `cache prune`)',
    );
  });
});
