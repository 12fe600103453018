import { parse } from 'csv-parse/sync';

/** A record csv-parse read; `strict` when it is valid RFC 4180 as written (else it is rewritten on output). */
export interface ParsedRecord {
  fields: string[];
  strict: boolean;
}

/**
 * csv-parse is the authority for every record that contains a quote. Records are parsed together
 * (one parser per batch, not per record: the per-call set-up dominates otherwise), strictly; if that
 * does not yield exactly one record per input, each is parsed alone: strictly, else with relax_quotes
 * (a quote inside an unquoted field, or text after a closing quote, is kept as text). null: csv-parse
 * rejects the record even then.
 */
export function parseQuotedRecords(records: readonly string[], delimiter: string): (ParsedRecord | null)[] {
  if (records.length === 0) return [];
  const joint = tryParse(records.join('\n'), delimiter, false);
  if (joint !== null && joint.length === records.length)
    return joint.map((fields) => ({ fields, strict: true }));
  return records.map((r) => {
    const strict = tryParse(r, delimiter, false);
    if (strict !== null && strict.length === 1) return { fields: strict[0]!, strict: true };
    const relaxed = tryParse(r, delimiter, true);
    return relaxed !== null && relaxed.length === 1 ? { fields: relaxed[0]!, strict: false } : null;
  });
}

function tryParse(text: string, delimiter: string, relax: boolean): string[][] | null {
  try {
    return parse(text, {
      delimiter,
      record_delimiter: '\n',
      relax_quotes: relax,
      relax_column_count: true,
      skip_empty_lines: false,
    }) as string[][];
  } catch {
    return null;
  }
}

/** A field read as latin1 (one char per byte), decoded as the UTF-8 it holds. */
export function utf8Of(field: string | undefined): string | undefined {
  if (field === undefined || !/[^\x00-\x7f]/.test(field)) return field;
  return Buffer.from(field, 'latin1').toString('utf8');
}
