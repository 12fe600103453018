/**
 * Quotes one CSV field the way csv-stringify does with its defaults: wrap in `"` (doubling inner
 * quotes) when the field holds the delimiter, a quote, CR or LF; otherwise write it as is.
 */
export function quoteField(value: string, delimiter: string): string {
  let needs = false;
  let hasQuote = false;
  const d = delimiter.charCodeAt(0);
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 34) {
      hasQuote = true;
      needs = true;
      break;
    }
    if (c === d || c === 10 || c === 13) needs = true;
  }
  if (!needs) return value;
  return `"${hasQuote ? value.replaceAll('"', '""') : value}"`;
}

/** A whole record: fields quoted as needed and joined by the delimiter (no line end). */
export function formatRecord(fields: readonly string[], delimiter: string): string {
  let out = '';
  for (let i = 0; i < fields.length; i++) {
    if (i > 0) out += delimiter;
    out += quoteField(fields[i]!, delimiter);
  }
  return out;
}
