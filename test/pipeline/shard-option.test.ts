import { describe, expect, it } from 'vitest';
import { hasCode } from '../../src/core/errors.js';
import { resolveOptions } from '../../src/pipeline/options.js';
import { parseShard, shardFromEnvironment } from '../../src/pipeline/shard-option.js';

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    expect(hasCode(err, 'ERR_INVALID_OPTION')).toBe(true);
    return (err as Error).message;
  }
  throw new Error('not refused');
}

describe('the shard option', () => {
  it('reads K/N, 1 ≤ K ≤ N, as text or as { index, count }', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
    expect(parseShard({ index: 3, count: 3 })).toEqual({ index: 3, count: 3 });
    expect(resolveOptions({ shard: '8/8' }).shard).toEqual({ index: 8, count: 8 });
    expect(resolveOptions({}).shard).toBeUndefined();
    expect(resolveOptions({ rowNumber: true }).rowNumber).toBe(true);
  });

  it('refuses anything else with one line naming the option and the value', () => {
    expect(refusal(() => resolveOptions({ shard: '4/3' }))).toBe(
      'Invalid option `shard`: expected K/N with 1 ≤ K ≤ N, got "4/3" (string)',
    );
    for (const bad of ['0/3', '2', '1/0', '-1/3', '1.5/3', 'a/b', '', '1/3/5', '1/2000000'])
      expect(
        refusal(() => parseShard(bad)),
        bad,
      ).toBe(`Invalid option \`shard\`: expected K/N with 1 ≤ K ≤ N, got ${JSON.stringify(bad)} (string)`);
    expect(refusal(() => parseShard({ index: 0, count: 2 }))).toContain('expected K/N with 1 ≤ K ≤ N');
    expect(refusal(() => parseShard(3))).toBe(
      'Invalid option `shard`: expected K/N with 1 ≤ K ≤ N, got 3 (number)',
    );
    expect(refusal(() => resolveOptions({ rowNumber: 'yes' }))).toBe(
      'Invalid option `rowNumber`: expected true or false, got "yes" (string)',
    );
  });
});

describe('the shard from an array job’s environment', () => {
  it('takes --shard first, then JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX (0-based) with a count', () => {
    expect(shardFromEnvironment(undefined, undefined, {})).toBeUndefined();
    expect(shardFromEnvironment('2/3', undefined, { JOB_COMPLETION_INDEX: '0' })).toEqual({
      index: 2,
      count: 3,
    });
    expect(shardFromEnvironment('2/3', '3', {})).toEqual({ index: 2, count: 3 });
    expect(shardFromEnvironment(undefined, '3', { JOB_COMPLETION_INDEX: '0' })).toEqual({
      index: 1,
      count: 3,
    });
    expect(shardFromEnvironment(undefined, 4, { JOB_COMPLETION_INDEX: '3' })).toEqual({ index: 4, count: 4 });
    expect(
      shardFromEnvironment(undefined, undefined, {
        AWS_BATCH_JOB_ARRAY_INDEX: '4',
        AWS_BATCH_JOB_ARRAY_SIZE: '5',
      }),
    ).toEqual({ index: 5, count: 5 });
    // --shards wins over the array size; an empty variable is an unset one.
    expect(
      shardFromEnvironment(undefined, '2', { AWS_BATCH_JOB_ARRAY_INDEX: '1', AWS_BATCH_JOB_ARRAY_SIZE: '9' }),
    ).toEqual({ index: 2, count: 2 });
    expect(shardFromEnvironment(undefined, undefined, { JOB_COMPLETION_INDEX: '' })).toBeUndefined();
    // Both set and agreeing.
    expect(
      shardFromEnvironment(undefined, '3', { JOB_COMPLETION_INDEX: '2', AWS_BATCH_JOB_ARRAY_INDEX: '2' }),
    ).toEqual({ index: 3, count: 3 });
  });

  it('refuses bad values with one line naming the variable or option', () => {
    const cases: [unknown, unknown, Record<string, string>, string][] = [
      [
        undefined,
        '3',
        { JOB_COMPLETION_INDEX: 'abc' },
        'Invalid environment variable JOB_COMPLETION_INDEX: expected an integer ≥ 0 (a 0-based index), got "abc"',
      ],
      [
        undefined,
        '3',
        { JOB_COMPLETION_INDEX: '-1' },
        'Invalid environment variable JOB_COMPLETION_INDEX: expected an integer ≥ 0 (a 0-based index), got "-1"',
      ],
      [
        undefined,
        '3',
        { JOB_COMPLETION_INDEX: '3' },
        'Invalid environment variable JOB_COMPLETION_INDEX: expected an index below the shard count (--shards 3), got "3"',
      ],
      [
        undefined,
        undefined,
        { AWS_BATCH_JOB_ARRAY_INDEX: '5', AWS_BATCH_JOB_ARRAY_SIZE: '5' },
        'Invalid environment variable AWS_BATCH_JOB_ARRAY_INDEX: expected an index below the shard count (AWS_BATCH_JOB_ARRAY_SIZE=5), got "5"',
      ],
      [
        undefined,
        undefined,
        { AWS_BATCH_JOB_ARRAY_INDEX: '0', AWS_BATCH_JOB_ARRAY_SIZE: '0' },
        'Invalid environment variable AWS_BATCH_JOB_ARRAY_SIZE: expected an integer from 1 to 1000000 (the shard count), got "0"',
      ],
      [
        undefined,
        undefined,
        { JOB_COMPLETION_INDEX: '0' },
        'JOB_COMPLETION_INDEX=0 gives the shard index: give the shard count with --shards N (or AWS_BATCH_JOB_ARRAY_SIZE)',
      ],
      [
        undefined,
        '3',
        {},
        'Invalid option `shards`: it gives the shard count when JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX gives the index, and neither is set (use --shard K/N)',
      ],
      [
        undefined,
        'x',
        { JOB_COMPLETION_INDEX: '0' },
        'Invalid option `shards`: expected an integer from 1 to 1000000, got "x" (string)',
      ],
      [
        undefined,
        '0',
        { JOB_COMPLETION_INDEX: '0' },
        'Invalid option `shards`: expected an integer from 1 to 1000000, got "0" (string)',
      ],
      ['1/3', '4', {}, 'Invalid options: `shard` 1/3 and `shards` 4 give different shard counts'],
      [
        undefined,
        '3',
        { JOB_COMPLETION_INDEX: '0', AWS_BATCH_JOB_ARRAY_INDEX: '1' },
        'Invalid environment: JOB_COMPLETION_INDEX=0 and AWS_BATCH_JOB_ARRAY_INDEX=1 disagree (use --shard K/N)',
      ],
    ];
    for (const [shard, shards, env, message] of cases)
      expect(
        refusal(() => shardFromEnvironment(shard, shards, env)),
        JSON.stringify(env),
      ).toBe(message);
  });
});
