import type { ReportModel } from '../report-model.js';
import { emptyNote, type Section } from './section.js';

/** Crawler access per site and agent of interest. */
export function accessSection(model: ReportModel): Section {
  if (model.access === null) {
    return {
      id: 'access',
      title: 'Crawler access',
      body: emptyNote(
        'No policy source given: crawler access needs the robots.txt files (--cache or --robots-dir).',
      ),
    };
  }
  return { id: 'access', title: 'Crawler access', body: emptyNote('Crawler access is not in this report.') };
}
