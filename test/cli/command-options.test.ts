import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { CACHE_SUBCOMMANDS, cacheCommand } from '../../src/cli/cache-command.js';
import { checkCommand } from '../../src/cli/check-command.js';
import { classifyCommand } from '../../src/cli/classify-command.js';
import { fetchCommand } from '../../src/cli/fetch-command.js';
import { importCommand } from '../../src/cli/import-command.js';
import { COMMAND_OPTIONS, type Command } from '../../src/pipeline/command-options.js';
import { DEFAULTS } from '../../src/pipeline/options.js';

type Declares = { getOptions(): { key: Record<string, unknown> } };
/** Any command module: only its builder is read. */
type Module = { builder?: unknown };

/** The names a command's builder declares on a fresh parser (its own options, not its parents'). */
function declared(command: Module): string[] {
  const builder = command.builder as unknown as (y: unknown) => Declares;
  return Object.keys(builder(yargs([])).getOptions().key);
}

/** A command-line name as the option it sets (`--agent` sets `agents`), or undefined when it sets none. */
function optionOf(flag: string): string | undefined {
  const name = flag === 'agent' ? 'agents' : flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return Object.hasOwn(DEFAULTS, name) ? name : undefined;
}

const sub = (word: string) => CACHE_SUBCOMMANDS.find((c) => String(c.command).split(' ')[0] === word)!;

/** Each command of the table and the yargs commands declaring its options (a cache command and its parent). */
const CLI: [Command, Module[]][] = [
  ['classify', [classifyCommand]],
  ['check', [checkCommand]],
  ['fetch', [fetchCommand]],
  ['import', [importCommand]],
  ['cache stats', [cacheCommand, sub('stats')]],
  ['cache show', [cacheCommand, sub('show')]],
  ['cache export', [cacheCommand, sub('export')]],
  ['cache prune', [cacheCommand, sub('prune')]],
];

describe('COMMAND_OPTIONS and the command line', () => {
  it('has a command line for every command of the table', () => {
    expect(CLI.map((c) => c[0])).toEqual(Object.keys(COMMAND_OPTIONS));
  });

  it.each(CLI)('%s takes exactly the options its command line declares', (command, modules) => {
    const options = modules.flatMap(declared).flatMap((flag) => optionOf(flag) ?? []);
    expect([...new Set(options)].sort()).toEqual([...COMMAND_OPTIONS[command]].sort());
  });
});
