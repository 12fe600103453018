import type { Header } from '../input/header.js';
import {
  type AccessSection,
  type ChangesSection,
  REPORT_SCHEMA,
  REPORT_VERSION,
  type ReportModel,
  type ReportOptions,
} from './report-model.js';
import { ReportTally, type RowHooks, type TallyOptions } from './report-tally.js';
import { verdictLayout } from './verdict-columns.js';
import { readVerdicts } from './verdict-reader.js';

export interface BuildOptions {
  files: readonly string[];
  delimiter?: string;
  urlColumn?: string;
  hostColumn?: string;
  atColumn?: string;
  /** Agent of a file with one unsuffixed verdict column (classify with one `--agent`). */
  unnamedAgent?: string;
  /** What `options` of the report say (agents of interest, since, policy source). */
  reportOptions?: Partial<ReportOptions>;
  tally?: Partial<TallyOptions>;
  /** The policy-based sections: fed every row, asked for their section at the end. */
  sections?: PolicySections;
  signal?: AbortSignal;
  /** The report's time (tests fix it). */
  now?: Date;
}

export interface PolicySections {
  hooks: RowHooks;
  /** `dataAgents`: agents of the data to judge besides the agents of interest. */
  access(dataAgents?: readonly string[]): AccessSection | null;
  changes(): ChangesSection | null;
}

/** The agent named for a verdict column that names none. */
export const UNNAMED_AGENT = 'unnamed';

/** Reads every verdicts file, in order, into one report. */
export async function buildReport(opts: BuildOptions): Promise<ReportModel> {
  const atColumn = opts.atColumn ?? null;
  const tally = new ReportTally({ ...opts.tally, atColumn }, opts.sections?.hooks ?? {});
  const read = {
    delimiter: opts.delimiter ?? ',',
    urlColumn: opts.urlColumn ?? 'url',
    hostColumn: opts.hostColumn ?? 'host',
    ...(opts.signal === undefined ? {} : { signal: opts.signal }),
  };
  for (const file of opts.files) {
    await readVerdicts(file, read, (header: Header) => {
      const layout = verdictLayout(file === '-' ? 'stdin' : file, header.columns, {
        urlColumn: read.urlColumn,
        hostColumn: read.hostColumn,
        atColumn: opts.atColumn,
        unnamedAgent: opts.unnamedAgent ?? UNNAMED_AGENT,
      });
      return { width: layout.last + 1, sink: tally.file(file, layout) };
    });
  }
  const o = opts.reportOptions ?? {};
  const headline = tally.headline();
  return {
    schema: REPORT_SCHEMA,
    version: REPORT_VERSION,
    generatedAt: (opts.now ?? new Date()).toISOString(),
    mergedReports: 1,
    inputs: tally.inputs,
    options: {
      atColumn,
      since: o.since ?? null,
      top: opts.tally?.show ?? o.top ?? 20,
      agentsOfInterest: o.agentsOfInterest ?? [],
      policySource: o.policySource ?? null,
    },
    headline,
    violations: tally.violations(),
    outcomes: tally.outcomes(),
    access: opts.sections?.access(dataAgents(headline)) ?? null,
    changes: opts.sections?.changes() ?? null,
    overTime: tally.overTime(),
  };
}

/** Agents of the data the access section judges besides the agents of interest: those with most rows. */
export const DATA_AGENTS_JUDGED = 20;

function dataAgents(h: ReportModel['headline']): string[] {
  const rows = (a: string) => Object.values(h.verdicts[a] ?? {}).reduce((x, y) => x + y, 0);
  return h.agents
    .filter((a) => a !== UNNAMED_AGENT)
    .sort((a, b) => rows(b) - rows(a) || (a < b ? -1 : 1))
    .slice(0, DATA_AGENTS_JUDGED);
}
