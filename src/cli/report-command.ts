import type { Argv, CommandModule, Options as YargsOption } from 'yargs';
import { MAJOR_CRAWLERS } from '../core/crawler-registry.js';
import type { ReportModel } from '../pipeline/report/report-model.js';
import { resolveReportOptions } from '../pipeline/report/report-options.js';
import { runReport } from '../pipeline/report/run-report.js';
import { COMMAND_LINES } from './command-list.js';
import { unknownOptionCheck } from './did-you-mean.js';
import { EXIT, failedOrStopped, inputPath, stopOnSignals } from './exit.js';
import { numberOption } from './numeric-option.js';

interface ReportArgs {
  files?: string[];
  [key: string]: unknown;
}

const REPORT_OPTIONS: Record<string, YargsOption> = {
  output: { alias: 'o', type: 'string', describe: 'The report as one HTML page' },
  json: { type: 'string', describe: 'The report as JSON (for --merge; - = stdout)' },
  merge: { type: 'boolean', describe: 'FILEs are report JSON files (of host shards): merge them into one' },
  cache: { type: 'string', describe: 'Policy cache for the crawler-access and changes sections' },
  'robots-dir': { type: 'string', describe: 'Read DIR/<host>.txt for the crawler-access section' },
  since: {
    type: 'string',
    describe:
      'Changes section: versions first seen since this time, this long ago (24h), or a report JSON was made (default: the --json file being replaced, else 24h)',
  },
  agent: {
    type: 'string',
    array: true,
    describe:
      'Agent of interest, added to the major crawlers (repeatable); the first names a file’s lone unsuffixed verdict column',
  },
  'at-column': { type: 'string', describe: 'Time column of the rows: violations per day' },
  'url-column': { type: 'string', describe: 'URL column (default url)' },
  'host-column': { type: 'string', describe: 'Host column (default host)' },
  delimiter: { type: 'string', describe: 'Field delimiter of the files ("tab"; default , or a sep= line)' },
  top: numberOption('Entries shown per top list', 20),
  quiet: { type: 'boolean', describe: 'No summary line on stderr' },
};

function summaryLine(m: ReportModel, opts: { output?: string; json?: string }): string {
  const to = [opts.output, opts.json].filter((f) => f !== undefined).join(' and ');
  const bad = m.headline.badRows > 0 ? ` (${m.headline.badRows} unreadable)` : '';
  const agents = m.headline.agents.length;
  return `report: ${m.headline.rows} rows${bad}, ${m.headline.sites} sites, ${agents} agent${agents === 1 ? '' : 's'}, ${m.violations.total} violations → ${to}\n`;
}

/** yargs drops a lone `-` (stdin) from a list of positionals: the files typed, with stdin if it was. */
function filesTyped(argv: ReportArgs): string[] {
  const files = (argv.files ?? []).map(inputPath);
  const words = process.argv.slice(process.argv.indexOf('report') + 1);
  const valued = new Set(
    Object.entries(REPORT_OPTIONS)
      .filter(([, o]) => o.type !== 'boolean')
      .flatMap(([name, o]) => [`--${name}`, ...(o.alias === undefined ? [] : [`-${String(o.alias)}`])]),
  );
  const typed = words.filter((w, i) => w === '-' && !valued.has(words[i - 1] ?? ''));
  const kept = files.filter((f) => f === '-').length;
  return [...files, ...typed.slice(kept)];
}

async function run(argv: ReportArgs): Promise<number> {
  const stop = stopOnSignals();
  try {
    const opts = resolveReportOptions({
      files: filesTyped(argv),
      // yargs hands a lone `-` (stdout) over as ''.
      output: argv.output === '' ? '-' : argv.output,
      json: argv.json === '' ? '-' : argv.json,
      merge: argv.merge,
      cache: argv.cache,
      robotsDir: argv['robots-dir'],
      since: argv.since,
      agent: argv.agent,
      atColumn: argv['at-column'],
      urlColumn: argv['url-column'],
      hostColumn: argv['host-column'],
      delimiter: argv.delimiter,
      top: argv.top,
      quiet: argv.quiet,
    });
    const model = await runReport({
      ...opts,
      agentsOfInterest: [...new Set([...MAJOR_CRAWLERS, ...opts.agents])],
      signal: stop.signal,
    });
    if (!opts.quiet) process.stderr.write(summaryLine(model, opts));
    return EXIT.ok;
  } catch (err) {
    return failedOrStopped(err, stop, 'no report was written');
  } finally {
    stop.dispose();
  }
}

export const reportCommand: CommandModule<object, ReportArgs> = {
  ...COMMAND_LINES.report,
  builder: (yargs: Argv) =>
    yargs
      .positional('files', {
        type: 'string',
        array: true,
        describe: 'Verdicts files (classify outputs), or report JSON files with --merge',
      })
      .options(REPORT_OPTIONS)
      .middleware(unknownOptionCheck([REPORT_OPTIONS], ['files']), true)
      .example([
        ['$0 report verdicts.csv.gz -o report.html --json report.json', ''],
        ['$0 report verdicts.csv --cache cache.sqlite --since 24h -o report.html', ''],
        ['$0 report --merge shard-*.json -o all.html --json all.json', ''],
      ]) as unknown as Argv<ReportArgs>,
  handler: async (argv) => {
    process.exitCode = await run(argv);
  },
};
