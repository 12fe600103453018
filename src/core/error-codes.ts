/**
 * The catalog of robots-audit's own error codes, each with its meaning. `RobotsAuditError` takes only a
 * code listed here, so a new code cannot be thrown before it is catalogued (and documented: a test holds
 * README's "Error codes" tables to these lists). Strings only: every layer may import it.
 */

/** Codes of errors that end the call that raised them: thrown as `RobotsAuditError`, or posted as a failure. */
export const ERROR_CODES = Object.freeze({
  ERR_USAGE:
    'bad command-line use: unknown command or option, wrong arguments, a cache ORIGIN that is not one',
  ERR_INVALID_OPTION: 'an option is unknown, has a value of the wrong kind, or clashes with another option',
  ERR_INPUT:
    'the input cannot be read: no such file, a directory, no permission, a cut or corrupt gzip stream',
  ERR_NO_HEADER: 'the input is empty: there is no CSV header row',
  ERR_BAD_HEADER: 'the header row is not valid CSV, or is longer than 64 MiB',
  ERR_NO_URL_COLUMN: 'no column of the header row is the url column (`--url-column`)',
  ERR_NO_TIME_COLUMN: 'no column of the header row is the time column (`--at-column`)',
  ERR_NO_AGENT_COLUMN: 'no column of the header row is the agent column (`--agent-column`)',
  ERR_NO_VERDICT_COLUMN:
    'a verdicts file given to `report` has no `verdict` or `verdict:<agent>` column (not a classify output)',
  ERR_REPORT_JSON:
    'a file given to `report --merge` is not a report JSON, or was written by a newer robots-audit',
  ERR_ROWS_DIFFER:
    '`diff` pairing by position: the two files do not hold the same input rows in the same order (use `--key`)',
  ERR_AMBIGUOUS_COLUMN: 'the header row names the url or host column more than once (exactly or loosely)',
  ERR_RECORD_TOO_LONG: 'one input line is longer than 64 MiB',
  ERR_OUTPUT:
    'OUTPUT, the summary or an export cannot be written (the message says why: no space, no permission)',
  ERR_OUTPUT_CLOSED: "the reader of a pipe or FIFO output closed it before the run's end",
  ERR_ROBOTS_DIR: 'the `--robots-dir` directory does not exist',
  ERR_ROBOTS_FILE: "`check`'s `--robots` file cannot be read",
  ERR_CACHE_MISSING: 'no cache file where `--offline` or a `cache` command reads one',
  ERR_CACHE_OPEN:
    'the cache file cannot be opened as SQLite (not a database, no permission, locked too long)',
  ERR_CACHE_VERSION: 'the cache file was written by a newer robots-audit (a newer schema version)',
  ERR_CA_FILE: 'the `--ca-file` PEM file cannot be read',
  ERR_ABORTED: 'the run was stopped by its AbortSignal (the CLI: SIGINT or SIGTERM)',
  ERR_WORKER_MEMORY: 'a worker thread ran out of its heap limit',
  ERR_WORKER_FAILED: 'a worker thread failed between tasks',
  ERR_COORDINATOR_MEMORY: 'the coordinator thread of `classifyInThread` ran out of its heap limit',
  ERR_COORDINATOR: 'the coordinator thread of `classifyInThread` failed or ended without a result',
  ERR_NO_WORKER: 'the built worker file is missing (`npm run build`)',
  ERR_INTERNAL: 'an unexpected failure with no code of ours (the message keeps the original code)',
} as const);

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * Codes a policy gets that no fetch gave (see the fetch codes in pipeline/fetch/error-codes.ts): written
 * to `robots_status` of an unreachable origin, never thrown.
 */
export const POLICY_CODES = Object.freeze({
  ERR_ROBOTS_FILE: 'a `--robots-dir` file exists but cannot be read (a FIFO, a device, a directory)',
  ERR_PROVIDER: 'a custom PolicyProvider failed with an error that has no code (one with a code gives it)',
} as const);

export type PolicyCode = keyof typeof POLICY_CODES;

/** Codes of Node and undici errors that robots-audit recognises; it never produces them. */
export const FOREIGN_CODES = Object.freeze({
  EPIPE: 'Node: the reader of a pipe closed it',
  ECONNRESET: 'Node: the peer reset the connection',
  ERR_WORKER_OUT_OF_MEMORY: 'Node: a worker thread reached its resourceLimits',
  ERR_ASSERTION: 'Node: an assertion failed (undici asserts on response bytes its parser let through)',
  ERR_BROTLI_DECOMPRESSION_FAILED: 'Node: a brotli stream is corrupt',
  ERR_BUFFER_TOO_LARGE: 'Node: a zlib call would give more than its maxOutputLength',
  UND_ERR_SOCKET: 'undici: the socket failed or the response could not be read',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'undici: the body length differs from its Content-Length',
} as const);

export type ForeignCode = keyof typeof FOREIGN_CODES;

/** True when `code` is one of the library's error codes. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}
