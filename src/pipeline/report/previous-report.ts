import { readFileSync, statSync } from 'node:fs';
import { REPORT_SCHEMA } from './report-model.js';

/** Report JSON files larger than this are not read for their time (reports stay a few MiB). */
const MAX_BYTES = 64 * 1024 * 1024;

/**
 * The time a report JSON file was made (`generatedAt`, epoch ms), or undefined when `path` is not a regular
 * file holding a report JSON: the start of the next report's changes window, so that a nightly run that
 * writes over last night's report covers exactly the time since.
 */
export function previousReportTime(path: string): number | undefined {
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size > MAX_BYTES) return undefined;
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof value !== 'object' || value === null) return undefined;
    const { schema, generatedAt } = value as { schema?: unknown; generatedAt?: unknown };
    if (schema !== REPORT_SCHEMA || typeof generatedAt !== 'string') return undefined;
    const t = Date.parse(generatedAt);
    return Number.isNaN(t) ? undefined : t;
  } catch {
    return undefined;
  }
}
