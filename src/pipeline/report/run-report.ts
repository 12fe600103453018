import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { RobotsAuditError } from '../../core/errors.js';
import { OutputSink } from '../output/output-sink.js';
import { mergeAccess } from './access-section.js';
import { buildReport } from './build-report.js';
import { mergeChanges } from './changes-section.js';
import { renderReportHtml } from './html/render-report.js';
import { asReport, mergeReports, type SectionMerge } from './merge-reports.js';
import { openPolicySections } from './policy-sections.js';
import type { ReportModel } from './report-model.js';
import type { ReportCommandOptions } from './report-options.js';

export interface RunReportOptions extends ReportCommandOptions {
  /** Agents of interest for the access section: the major crawlers, then `--agent`. */
  agentsOfInterest: string[];
  signal?: AbortSignal;
  now?: Date;
}

const SECTION_MERGE: SectionMerge = { access: mergeAccess, changes: mergeChanges };

async function readReport(file: string): Promise<ReportModel> {
  let text: string;
  try {
    text = file === '-' ? readFileSync(0, 'utf8') : await readFile(file, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a directory' : e.message;
    throw new RobotsAuditError('ERR_INPUT', `cannot read ${file}: ${why}`, { path: file, cause: e });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RobotsAuditError('ERR_REPORT_JSON', `${file}: not JSON (a report JSON made by report --json)`, {
      path: file,
    });
  }
  return asReport(value, file);
}

/** Writes `text` to `file` atomically (`-`: stdout). */
async function writeText(file: string, text: string, label: string): Promise<void> {
  if (file === '-') {
    const sink = OutputSink.open('-', { label });
    await sink.write(Buffer.from(text));
    await sink.commit();
    return;
  }
  await OutputSink.writeWhole(file, Buffer.from(text), label);
}

/** Sets how many entries of each top list the page shows. */
function showTop(model: ReportModel, top: number): void {
  model.options.top = top;
  for (const list of [model.violations.bySite, model.violations.byAgent, model.violations.byRule])
    list.show = top;
  model.outcomes.problemSites.show = top;
}

/** `robots-audit report`: the report of verdicts files (or of report JSON files merged), written out. */
export async function runReport(opts: RunReportOptions): Promise<ReportModel> {
  let model: ReportModel;
  if (opts.merge) {
    let merged: ReportModel | null = null;
    for (const file of opts.files) {
      const r = await readReport(file);
      merged = merged === null ? r : mergeReports(merged, r, SECTION_MERGE);
    }
    model = merged!;
    if (opts.topGiven) showTop(model, opts.top);
  } else {
    const sections = openPolicySections(
      { cache: opts.cache, robotsDir: opts.robotsDir, since: opts.since, atColumn: opts.atColumn },
      opts.agentsOfInterest,
      opts.now,
    );
    model = await buildReport({
      files: opts.files,
      delimiter: opts.delimiter,
      urlColumn: opts.urlColumn,
      hostColumn: opts.hostColumn,
      ...(opts.atColumn === undefined ? {} : { atColumn: opts.atColumn }),
      ...(opts.agents.length > 0 ? { unnamedAgent: opts.agents[0]! } : {}),
      reportOptions: {
        since: opts.cache === undefined ? null : new Date(opts.since).toISOString(),
        agentsOfInterest: opts.agentsOfInterest,
        policySource: opts.cache !== undefined ? 'cache' : opts.robotsDir !== undefined ? 'robots-dir' : null,
      },
      tally: { show: opts.top },
      ...(sections === null ? {} : { sections }),
      ...(opts.signal === undefined ? {} : { signal: opts.signal }),
      ...(opts.now === undefined ? {} : { now: opts.now }),
    });
  }
  if (opts.json !== undefined)
    await writeText(opts.json, `${JSON.stringify(model, null, 1)}\n`, 'report JSON');
  if (opts.output !== undefined) await writeText(opts.output, renderReportHtml(model), 'report');
  return model;
}
