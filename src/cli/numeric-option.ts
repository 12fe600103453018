import type { Options as YargsOption } from 'yargs';

/**
 * A numeric option: `--help` shows it as a number with its default, but it is parsed as the text
 * typed, so resolveOptions names that text in its error (`got "soon"`) and refuses '' rather than
 * reading it as 0. The default itself stays with resolveOptions (DEFAULTS), the one place it is set.
 */
export function numberOption(describe: string, byDefault?: number | string): YargsOption {
  const option: YargsOption = { type: 'number', string: true, describe };
  if (byDefault !== undefined) option.defaultDescription = String(byDefault);
  return option;
}
