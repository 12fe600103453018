// Text from the wild (site names, URLs, rule lines) goes through here before it reaches the page.

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Characters HTML forbids in text (C0/C1 controls other than tab, LF, CR and FF, and noncharacters) and lone
 * surrogates (which would not survive UTF-8 encoding) become U+FFFD.
 */
const UNPRINTABLE =
  /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F\uFDD0-\uFDEF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes text for an HTML text node or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(UNPRINTABLE, '\uFFFD').replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** A tagged template that escapes every interpolated value unless it is already `Html`. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type HtmlPart = Html | string | number | null | undefined | false | readonly HtmlPart[];

function partToHtml(part: HtmlPart): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.text;
  if (typeof part === 'number') return escapeHtml(String(part));
  if (typeof part === 'string') return escapeHtml(part);
  let out = '';
  for (const p of part) out += partToHtml(p);
  return out;
}

/** `html\`<td>${value}</td>\`` escapes `value`; nested `html` results and arrays of them pass through. */
export function html(strings: TemplateStringsArray, ...values: HtmlPart[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += partToHtml(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Marks text that is already HTML (markup built here, never from input). */
export function raw(text: string): Html {
  return new Html(text);
}

/** Joins parts into one `Html`. */
export function join(parts: readonly HtmlPart[], separator = ''): Html {
  return new Html(parts.map(partToHtml).join(separator));
}
