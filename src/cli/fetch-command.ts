import type { CommandModule } from 'yargs';

// PLACEHOLDER: replaced by the real command.
export const fetchCommand: CommandModule = {
  command: 'fetch',
  describe: 'not built yet',
  handler: () => {
    throw new Error('not built yet');
  },
};
