import type { CommandModule } from 'yargs';

// PLACEHOLDER: replaced by the real command.
export const cacheCommand: CommandModule = {
  command: 'cache',
  describe: 'not built yet',
  handler: () => {
    throw new Error('not built yet');
  },
};
