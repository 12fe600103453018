import { RobotsAuditError } from '../core/errors.js';

/** A value as option messages show it: `"x" (string)`, `3 (number)`, `["a"] (array)`, `null`. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return `${JSON.stringify(value)} (string)`;
  if (Array.isArray(value)) return `${JSON.stringify(value)} (array)`;
  if (value === null) return 'null';
  return `${String(value)} (${typeof value})`;
}

/** ``Invalid option `threads`: expected an integer ≥ 1, got "x" (string)``: the one wording of every command. */
export function invalidOption(name: string, expected: string, value: unknown): RobotsAuditError {
  return new RobotsAuditError(
    'ERR_INVALID_OPTION',
    `Invalid option \`${name}\`: expected ${expected}, got ${describeValue(value)}`,
    { option: name },
  );
}

/** ``Invalid options: `a` and `b` cannot be used together``. */
export function optionsClash(a: string, b: string): RobotsAuditError {
  return new RobotsAuditError(
    'ERR_INVALID_OPTION',
    `Invalid options: \`${a}\` and \`${b}\` cannot be used together`,
    {
      option: a,
    },
  );
}
