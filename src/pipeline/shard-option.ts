import { RobotsAuditError } from '../core/errors.js';
import type { Shard } from '../rows/shard.js';
import { describeValue } from './option-error.js';

/** More shards than this is a typo, not a plan. */
export const MAX_SHARDS = 1_000_000;

/** Environment variables of array jobs that give this run's 0-based index, in the order they are read. */
export const SHARD_INDEX_VARIABLES = ['JOB_COMPLETION_INDEX', 'AWS_BATCH_JOB_ARRAY_INDEX'] as const;
/** AWS Batch's array size: the shard count when `--shards` is not given. */
export const SHARD_COUNT_VARIABLE = 'AWS_BATCH_JOB_ARRAY_SIZE';

const K_OF_N = /^\s*(\d+)\s*\/\s*(\d+)\s*$/;

const describe = describeValue;

function invalidShard(value: unknown): RobotsAuditError {
  return new RobotsAuditError(
    'ERR_INVALID_OPTION',
    `Invalid option \`shard\`: expected K/N with 1 ≤ K ≤ N, got ${describe(value)}`,
    { option: 'shard' },
  );
}

/** `shard`: `"K/N"` (the CLI's text) or `{ index: K, count: N }`, with 1 ≤ K ≤ N. */
export function parseShard(value: unknown): Shard {
  let index: number;
  let count: number;
  if (typeof value === 'string') {
    const m = K_OF_N.exec(value);
    if (m === null) throw invalidShard(value);
    index = Number(m[1]);
    count = Number(m[2]);
  } else if (typeof value === 'object' && value !== null) {
    ({ index, count } = value as Shard);
  } else throw invalidShard(value);
  const ok =
    Number.isInteger(index) && Number.isInteger(count) && index >= 1 && index <= count && count <= MAX_SHARDS;
  if (!ok) throw invalidShard(value);
  return { index, count };
}

/** A whole number from 0 to max in an environment variable, or a fatal error naming it. */
function envInteger(name: string, value: string, min: number, why: string): number {
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > MAX_SHARDS) {
    throw new RobotsAuditError(
      'ERR_INVALID_OPTION',
      `Invalid environment variable ${name}: expected ${why}, got ${JSON.stringify(value)}`,
      { option: 'shard' },
    );
  }
  return n;
}

/**
 * The shard a run takes (`shard` option of `classify`): `--shard K/N` when given; else from an array
 * job's environment, JOB_COMPLETION_INDEX (Kubernetes indexed Job) or AWS_BATCH_JOB_ARRAY_INDEX
 * (0-based, so K = index + 1), with N from `--shards N` or AWS_BATCH_JOB_ARRAY_SIZE; else none.
 */
export function shardFromEnvironment(
  shard: unknown,
  shards: unknown,
  env: Record<string, string | undefined>,
): Shard | undefined {
  const count =
    shards === undefined
      ? undefined
      : typeof shards === 'number' || (typeof shards === 'string' && /^\s*\d+\s*$/.test(shards))
        ? Number(shards)
        : Number.NaN;
  if (count !== undefined && (!Number.isInteger(count) || count < 1 || count > MAX_SHARDS)) {
    throw new RobotsAuditError(
      'ERR_INVALID_OPTION',
      `Invalid option \`shards\`: expected an integer from 1 to ${MAX_SHARDS}, got ${describe(shards)}`,
      { option: 'shards' },
    );
  }
  if (shard !== undefined) {
    const s = parseShard(shard);
    if (count !== undefined && count !== s.count) {
      throw new RobotsAuditError(
        'ERR_INVALID_OPTION',
        `Invalid options: \`shard\` ${s.index}/${s.count} and \`shards\` ${count} give different shard counts`,
        { option: 'shards' },
      );
    }
    return s;
  }
  const set = SHARD_INDEX_VARIABLES.filter((name) => (env[name] ?? '') !== '');
  if (set.length === 0) {
    if (count === undefined) return undefined;
    throw new RobotsAuditError(
      'ERR_INVALID_OPTION',
      `Invalid option \`shards\`: it gives the shard count when ${SHARD_INDEX_VARIABLES.join(' or ')} gives the index, and neither is set (use --shard K/N)`,
      { option: 'shards' },
    );
  }
  const indexes = set.map((name) => envInteger(name, env[name]!, 0, 'an integer ≥ 0 (a 0-based index)'));
  if (indexes.some((i) => i !== indexes[0])) {
    throw new RobotsAuditError(
      'ERR_INVALID_OPTION',
      `Invalid environment: ${set.map((name, k) => `${name}=${indexes[k]}`).join(' and ')} disagree (use --shard K/N)`,
      { option: 'shard' },
    );
  }
  const name = set[0]!;
  const index = indexes[0]!;
  const sizeText = env[SHARD_COUNT_VARIABLE];
  const n =
    count ??
    (sizeText !== undefined && sizeText !== ''
      ? envInteger(SHARD_COUNT_VARIABLE, sizeText, 1, `an integer from 1 to ${MAX_SHARDS} (the shard count)`)
      : undefined);
  if (n === undefined) {
    throw new RobotsAuditError(
      'ERR_INVALID_OPTION',
      `${name}=${index} gives the shard index: give the shard count with --shards N (or ${SHARD_COUNT_VARIABLE})`,
      { option: 'shards' },
    );
  }
  if (index >= n) {
    const from = count !== undefined ? `--shards ${n}` : `${SHARD_COUNT_VARIABLE}=${n}`;
    throw new RobotsAuditError(
      'ERR_INVALID_OPTION',
      `Invalid environment variable ${name}: expected an index below the shard count (${from}), got ${JSON.stringify(env[name])}`,
      { option: 'shard' },
    );
  }
  return { index: index + 1, count: n };
}
