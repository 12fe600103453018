import { type Html, type HtmlPart, html } from './html-escape.js';

/** A page section: an `<h2>` that the table of contents links to, and its body. */
export interface Section {
  id: string;
  title: string;
  body: HtmlPart;
}

export function renderSection(s: Section): Html {
  return html`<section id="${s.id}" aria-labelledby="${s.id}-title"><h2 id="${s.id}-title">${s.title}</h2>${s.body}</section>`;
}

/** The one line an empty section shows instead of its tables. */
export function emptyNote(text: HtmlPart): Html {
  return html`<p class="empty">${text}</p>`;
}

/** Wraps a wide table so it scrolls on screen and prints whole. */
export function tableWrap(table: Html): Html {
  return html`<div class="table-wrap">${table}</div>`;
}

/** Example URLs as a list (each escaped; shown as text, never as links: they come from the wild). */
export function exampleList(urls: readonly string[]): Html | string {
  if (urls.length === 0) return '';
  return html`<ul class="examples">${urls.map((u) => html`<li class="url">${u}</li>`)}</ul>`;
}
