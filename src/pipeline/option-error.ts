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

/** ``Unknown option `agnets` ``: a name that is no option of any command. */
export function unknownOption(name: string): RobotsAuditError {
  return new RobotsAuditError('ERR_INVALID_OPTION', `Unknown option \`${name}\``, { option: name });
}

/** ``Invalid option `olderThan`: does not apply to `classify` (only to `cache prune`)``. */
export function optionNotFor(name: string, command: string, commands: readonly string[]): RobotsAuditError {
  const where = commands.map((c) => `\`${c}\``).join(', ');
  return new RobotsAuditError(
    'ERR_INVALID_OPTION',
    `Invalid option \`${name}\`: does not apply to \`${command}\` (only to ${where})`,
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
