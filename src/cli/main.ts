#!/usr/bin/env node
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { cacheCommand } from './cache-command.js';
import { checkCommand } from './check-command.js';
import { classifyCommand } from './classify-command.js';
import { EXIT, quietOnClosedStdout } from './exit.js';
import { fetchCommand } from './fetch-command.js';

quietOnClosedStdout();
// Each command sets process.exitCode itself; yargs only parses and dispatches.
await yargs(hideBin(process.argv))
  .scriptName('robots-audit')
  .command(classifyCommand)
  .command(checkCommand)
  .command(fetchCommand)
  .command(cacheCommand)
  .demandCommand(1, 'Give a command: classify, check, fetch or cache')
  .strict()
  .help()
  .version()
  .fail((msg, err) => {
    const line = (msg ?? err?.message ?? 'bad arguments').split('\n')[0];
    process.stderr.write(`robots-audit: ${line} (see --help)\n`);
    process.exit(EXIT.usage);
  })
  .parseAsync();
