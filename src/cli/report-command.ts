import type { CommandModule } from 'yargs';
import { EXIT } from './exit.js';

/** Placeholder until the command is built: refuses with one line. */
export const reportCommand: CommandModule = {
  command: 'report',
  describe: '(not built yet)',
  handler: () => {
    process.stderr.write('robots-audit: report is not built yet\n');
    process.exitCode = EXIT.usage;
  },
};
