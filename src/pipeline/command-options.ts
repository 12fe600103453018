import type { Options } from './options.js';

/** What the live policy source reads (createLivePolicyProvider): classify and fetch both fetch. */
const FETCHING = [
  'cache',
  'maxAge',
  'timeout',
  'concurrency',
  'retries',
  'maxRetryAfter',
  'maxBody',
  'httpUserAgent',
  'resolve',
  'allowPrivate',
  'caFile',
  'proxy',
] as const;

/** How a CSV of URLs is read and which of its rows are kept (classify and fetch read the same input). */
const INPUT = ['delimiter', 'urlColumn', 'hostColumn', 'scheme', 'header', 'columns', 'shard'] as const;

/** A long run's progress line and summary. */
const RUN = ['progress', 'quiet', 'summary'] as const;

/**
 * The options each command takes: what its CLI command passes to `resolveOptions` and its code reads.
 * `report`, `diff`, `merge` and `cache merge` check options of their own and take none of these.
 */
export const COMMAND_OPTIONS = {
  classify: [
    ...FETCHING,
    ...INPUT,
    ...RUN,
    'agents',
    'agentColumn',
    'threads',
    'offline',
    'robotsDir',
    'output',
    'evidence',
    'rowNumber',
    'atColumn',
    'asOf',
    'timeFormat',
    'grace',
    'maxHistoryAge',
  ],
  check: ['agents'],
  fetch: [...FETCHING, ...INPUT, ...RUN],
  import: ['cache', ...RUN],
  'cache stats': ['cache', 'maxAge', 'json'],
  'cache show': ['cache', 'json'],
  'cache export': ['cache', 'output'],
  'cache prune': ['cache', 'olderThan', 'json'],
} as const satisfies Record<string, readonly (keyof Options)[]>;

export type Command = keyof typeof COMMAND_OPTIONS;

/** The options of one command, e.g. `CommandOptions<'fetch'>`. */
export type CommandOptions<C extends Command> = Pick<Options, (typeof COMMAND_OPTIONS)[C][number]>;

export type ClassifyOptions = CommandOptions<'classify'>;
export type FetchOptions = CommandOptions<'fetch'>;
/** What the live policy source reads of the options. */
export type FetchingOptions = Pick<Options, (typeof FETCHING)[number]>;

/** The commands that take `name`, in table order (for the message refusing it elsewhere). */
export function commandsTaking(name: string): Command[] {
  return (Object.keys(COMMAND_OPTIONS) as Command[]).filter((c) =>
    (COMMAND_OPTIONS[c] as readonly string[]).includes(name),
  );
}
