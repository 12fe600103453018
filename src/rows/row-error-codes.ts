/**
 * The catalog of row error codes: why a record is an `invalid_input` row (its `error_code` column), or,
 * for `bad_csv`, why `report` skipped a record of a verdicts file. A row code never stops a run. Stable strings: never rename one.
 */
export const ROW_ERROR_CODES = Object.freeze({
  missing_url: 'the url field is empty, or the record has no url column',
  bad_url: 'the URL cannot be parsed (WHATWG URL rejects it), or scheme-less text is not clearly a host',
  unsupported_scheme: 'a scheme other than http or https (`ftp:`, `mailto:`, …)',
  path_without_host: 'a path, and no host column value to take its origin from',
  bad_host: 'a path, and a host column value that names no valid host',
  malformed_record: 'an unterminated quote that does not close within 32 line breaks and 64 KiB',
  extra_fields: 'more fields than the header row, not all of them empty',
  blank_line: 'line mode only (`--no-header`): an empty line, a row so that output lines match input lines',
  bad_time: 'as-of mode (`--at-column`): the time cell is empty or not a time in a documented form',
  bad_csv: '`report` only: a record of a verdicts file that csv-parse cannot read, skipped and counted',
} as const);

export type RowCode = keyof typeof ROW_ERROR_CODES;
