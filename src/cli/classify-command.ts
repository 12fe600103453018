import type { CommandModule } from 'yargs';

// PLACEHOLDER: replaced by the real command.
export const classifyCommand: CommandModule = {
  command: 'classify',
  describe: 'not built yet',
  handler: () => {
    throw new Error('not built yet');
  },
};
