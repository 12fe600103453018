import type { TopList } from '../report-model.js';
import { type Html, html } from './html-escape.js';
import { formatCount } from './report-format.js';

/** How many entries of a top list the page shows. */
export function shown<T>(list: TopList<T>): TopList<T>['entries'] {
  return list.entries.slice(0, Math.max(0, list.show));
}

/** One line under a top list: how many of how many are shown, and whether the counts are exact. */
export function topListNote<T>(list: TopList<T>, noun: string): Html {
  const n = Math.min(list.entries.length, Math.max(0, list.show));
  const of = list.exact ? formatCount(list.distinct) : `about ${formatCount(list.distinct)}`;
  if (list.exact) {
    return html`<p class="note">Top ${formatCount(n)} of ${of} ${noun}; counts are exact.</p>`;
  }
  return html`<p class="note">Top ${formatCount(n)} of ${of} ${noun}; counts are at least those shown (each may be low by up to ${formatCount(list.dropBound)}), and ${noun} with at most ${formatCount(list.dropBound)} may be missing.</p>`;
}
