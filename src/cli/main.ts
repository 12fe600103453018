#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import type { Argv } from 'yargs';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { hasCode } from '../core/errors.js';
import { COMMAND_LINES, COMMAND_LOADERS, COMMAND_NAMES, commandsIn } from './command-list.js';
import { unknownCommandCheck, unknownOptionCheck } from './did-you-mean.js';
import { EXIT, quietOnClosedStdout, reportFatal } from './exit.js';

// Worker threads compile their hot code on their own thread: Node 20 aborts the process
// (NodePlatform::ForIsolate) when a worker ends while V8 compiles its code on a background thread,
// as a run does whose reader leaves early. Measured: no more CPU or wall time (1M rows, two workers).
setFlagsFromString('--no-concurrent-recompilation');

const commandCheck = unknownCommandCheck(COMMAND_NAMES);
const topOptionCheck = unknownOptionCheck([]);

/**
 * Every command, in help order: the ones the command line names as loaded, the others as their usage
 * line only (enough for the top-level help and for yargs to tell commands apart).
 */
async function withCommands(cli: Argv): Promise<Argv> {
  const words = hideBin(process.argv);
  const named = new Set(commandsIn(words));
  const loaded = new Map(
    await Promise.all([...named].map(async (name) => [name, await COMMAND_LOADERS[name]()] as const)),
  );
  for (const name of COMMAND_NAMES) {
    const real = loaded.get(name);
    if (real !== undefined) cli.command(real);
    else cli.command(COMMAND_LINES[name].command, COMMAND_LINES[name].describe);
  }
  return cli;
}

quietOnClosedStdout();
try {
  // Each command sets process.exitCode itself; yargs only parses and dispatches.
  const cli = yargs(hideBin(process.argv));
  skipHelpCache(cli);
  await (await withCommands(cli.scriptName('robots-audit')))
    .middleware((argv) => {
      commandCheck(argv);
      if (argv._.length === 0) topOptionCheck(argv);
    }, true)
    .demandCommand(1, 'Give a command: classify, check, fetch, cache, import, merge, report or diff')
    .strict()
    .help()
    .version()
    .fail((msg, err) => {
      const line = (msg ?? err?.message ?? 'bad arguments').split('\n')[0];
      process.stderr.write(`robots-audit: ${line} (see --help)\n`);
      process.exit(EXIT.usage);
    })
    .parseAsync();
} catch (err) {
  // The typo checks run as middleware, whose errors yargs passes through instead of to fail().
  if (!hasCode(err, 'ERR_USAGE')) throw err;
  process.exitCode = reportFatal(err);
}

/**
 * yargs renders a command's whole help text as its handler starts, in case a later failure shows it
 * (≈ 0.25 s of CPU for classify's ~40 options, on every run). Failures here print one line and never
 * the help, and `--help` renders it when asked: the cached copy is not needed.
 */
function skipHelpCache(cli: object): void {
  const internal = (
    cli as { getInternalMethods?: () => { getUsageInstance(): { cacheHelpMessage(): void } } }
  ).getInternalMethods;
  if (typeof internal !== 'function') return;
  internal.call(cli).getUsageInstance().cacheHelpMessage = () => {};
}
