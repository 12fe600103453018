import type { Arguments, Options as YargsOption } from 'yargs';
import { RobotsAuditError } from '../core/errors.js';

/**
 * Mistyped commands and options: one usage line naming what was typed and the nearest known name.
 * The checks run as yargs middleware before validation, so `--agnet G` is named for what it is rather
 * than reported as a missing `--agent`.
 */

/** Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  // Three rows of the optimal-string-alignment table: two back are needed for swaps.
  let back2: number[] = [];
  let back1 = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(back1[j]! + 1, row[j - 1]! + 1, back1[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, back2[j - 2]! + 1);
      row.push(d);
    }
    back2 = back1;
    back1 = row;
  }
  return back1[b.length]!;
}

/** `robotDir` → `robot-dir`: a camelCase spelling is compared in the dashed form names are listed in. */
const dashed = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** The known name nearest to `word`, if a third of its letters or fewer differ (the first of equals). */
export function closestName(word: string, names: readonly string[]): string | undefined {
  const typed = dashed(word);
  const limit = Math.floor(typed.length / 3);
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const name of names) {
    const d = editDistance(typed, name);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

function usageError(message: string, option?: string): RobotsAuditError {
  return new RobotsAuditError('ERR_USAGE', message, option === undefined ? {} : { option });
}

const flag = (name: string) => (name.length === 1 ? `-${name}` : `--${name}`);
const camel = (name: string) => name.replace(/-+([^-])/g, (_, c: string) => c.toUpperCase());

/** Options yargs itself adds to every command. */
const BUILT_IN = ['help', 'version'];

/**
 * Middleware that stops a command given an option it does not declare. `options` are all the option
 * records the command declares (its parents' included), `positionals` the names of its positionals.
 */
export function unknownOptionCheck(
  options: readonly Record<string, YargsOption>[],
  positionals: readonly string[] = [],
): (argv: Arguments) => void {
  const names = [...BUILT_IN];
  for (const record of options) {
    for (const [name, spec] of Object.entries(record)) {
      names.push(name);
      if (spec.alias !== undefined) names.push(...(Array.isArray(spec.alias) ? spec.alias : [spec.alias]));
    }
  }
  const known = new Set(['_', '$0', ...positionals, ...names, ...names.map(camel)]);
  return (argv) => {
    const unknown = Object.keys(argv).filter((k) => !known.has(k));
    if (unknown.length === 0) return;
    // yargs adds a camelCase copy of every dashed name: name the spelling that was typed.
    const typed = unknown.find((k) => !unknown.some((u) => u !== k && camel(u) === k))!;
    const near = typed.length > 1 ? closestName(typed, names) : undefined;
    throw usageError(
      near === undefined
        ? `Unknown option ${flag(typed)} (see --help)`
        : `Unknown option ${flag(typed)}. Did you mean ${flag(near)}?`,
      typed,
    );
  };
}

/**
 * Middleware that stops a command line whose command word at `depth` (0 = the first) is none of
 * `commands`; `parents` are the command words before it, named in the message.
 */
export function unknownCommandCheck(
  commands: readonly string[],
  parents: readonly string[] = [],
): (argv: Arguments) => void {
  const depth = parents.length;
  return (argv) => {
    const word = argv._[depth];
    if (word === undefined || commands.includes(String(word))) return;
    const near = closestName(String(word), commands);
    const full = (w: string) => [...parents, w].join(' ');
    throw usageError(
      near === undefined
        ? `Unknown command "${full(String(word))}" (see --help)`
        : `Unknown command "${full(String(word))}". Did you mean "${full(near)}"?`,
    );
  };
}
