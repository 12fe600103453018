import type { ReportModel } from '../report-model.js';
import { emptyNote, type Section } from './section.js';

/** robots.txt versions first seen in the window, their rule-level diff, and the verdict flips they caused. */
export function changesSection(model: ReportModel): Section {
  if (model.changes === null) {
    return {
      id: 'changes',
      title: 'Changes',
      body: emptyNote('No cache given: changes need robots.txt history (--cache).'),
    };
  }
  return { id: 'changes', title: 'Changes', body: emptyNote('Changes are not in this report.') };
}
