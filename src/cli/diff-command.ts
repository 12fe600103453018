import type { CommandModule } from 'yargs';
import { EXIT } from './exit.js';

/** Placeholder until the command is built: refuses with one line. */
export const diffCommand: CommandModule = {
  command: 'diff',
  describe: '(not built yet)',
  handler: () => {
    process.stderr.write('robots-audit: diff is not built yet\n');
    process.exitCode = EXIT.usage;
  },
};
