import type { CommandModule } from 'yargs';

// PLACEHOLDER: replaced by the real command.
export const checkCommand: CommandModule = {
  command: 'check',
  describe: 'not built yet',
  handler: () => {
    throw new Error('not built yet');
  },
};
