import type { Options as YargsOption } from 'yargs';
import { DEFAULTS, type Options } from '../pipeline/options.js';
import { numberOption } from './numeric-option.js';

// Options classify and fetch share, apart from either command's code: declaring them loads no pipeline.

/** Options of every command that fetches (fetch, classify). */
export const NETWORK_OPTIONS: Record<string, YargsOption> = {
  cache: { type: 'string', describe: 'SQLite policy cache file (default .robots-audit-cache.sqlite)' },
  'max-age': numberOption('Seconds a cached policy stays fresh (at most 86400)', DEFAULTS.maxAge),
  timeout: numberOption('Seconds per request: connect, headers and body together', DEFAULTS.timeout),
  concurrency: numberOption('Fetches in flight at once', DEFAULTS.concurrency),
  retries: numberOption('Retries after a 429/5xx or a transient network failure', DEFAULTS.retries),
  'max-retry-after': numberOption('Longest Retry-After honoured, in seconds', DEFAULTS.maxRetryAfter),
  'max-body': numberOption('Decoded bytes of robots.txt kept (at least 512000)', DEFAULTS.maxBody),
  'http-user-agent': { type: 'string', describe: 'User-Agent header sent with each fetch' },
  resolve: {
    type: 'string',
    describe: 'HOST=ADDRESS: connect to ADDRESS for HOST (repeatable; * = every host)',
  },
  'allow-private': {
    type: 'boolean',
    describe: 'Allow loopback, private, link-local and metadata addresses',
  },
  'ca-file': { type: 'string', describe: 'PEM file of extra trusted CAs (the system ones stay trusted)' },
  proxy: { type: 'string', describe: 'HTTP(S) proxy URL (default: HTTPS_PROXY / HTTP_PROXY / NO_PROXY)' },
};

export const INPUT_OPTIONS: Record<string, YargsOption> = {
  delimiter: { type: 'string', describe: 'Field delimiter of the input CSV ("tab" for TSV)' },
  'url-column': { type: 'string', describe: 'Column holding the URL' },
  'host-column': { type: 'string', describe: 'Column holding the host (for path-only URLs)' },
  scheme: { type: 'string', describe: 'Scheme for path-only URLs: http or https' },
};

/** The Options fields those yargs options map to. */
export function networkAndInputOptions(
  argv: Record<string, unknown>,
): Partial<Record<keyof Options, unknown>> {
  return {
    cache: argv.cache,
    maxAge: argv['max-age'],
    timeout: argv.timeout,
    concurrency: argv.concurrency,
    retries: argv.retries,
    maxRetryAfter: argv['max-retry-after'],
    maxBody: argv['max-body'],
    httpUserAgent: argv['http-user-agent'],
    resolve: argv.resolve,
    allowPrivate: argv['allow-private'],
    caFile: argv['ca-file'],
    proxy: argv.proxy,
    delimiter: argv.delimiter,
    urlColumn: argv['url-column'],
    hostColumn: argv['host-column'],
    scheme: argv.scheme,
  };
}

/** `--shard K/N` and `--shards N`, for classify and fetch alike. */
export const SHARD_OPTIONS: Record<string, YargsOption> = {
  shard: {
    type: 'string',
    describe:
      'Keep only the rows whose host is in shard K of N (K/N, 1-based); else from JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX',
  },
  shards: numberOption('Shard count when the shard index comes from the environment'),
};
