#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { hasCode } from '../core/errors.js';
import { cacheCommand } from './cache-command.js';
import { checkCommand } from './check-command.js';
import { classifyCommand } from './classify-command.js';
import { unknownCommandCheck, unknownOptionCheck } from './did-you-mean.js';
import { diffCommand } from './diff-command.js';
import { EXIT, quietOnClosedStdout, reportFatal } from './exit.js';
import { fetchCommand } from './fetch-command.js';
import { importCommand } from './import-command.js';
import { mergeCommand } from './merge-command.js';
import { reportCommand } from './report-command.js';

const commandCheck = unknownCommandCheck(
  [
    classifyCommand,
    checkCommand,
    fetchCommand,
    cacheCommand,
    mergeCommand,
    importCommand,
    reportCommand,
    diffCommand,
  ].map((c) => String(c.command).split(' ')[0]!),
);
const topOptionCheck = unknownOptionCheck([]);

quietOnClosedStdout();
try {
  // Each command sets process.exitCode itself; yargs only parses and dispatches.
  const cli = yargs(hideBin(process.argv));
  skipHelpCache(cli);
  await cli
    .scriptName('robots-audit')
    .command(classifyCommand)
    .command(checkCommand)
    .command(fetchCommand)
    .command(cacheCommand)
    .command(importCommand)
    .command(mergeCommand)
    .command(reportCommand)
    .command(diffCommand)
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
