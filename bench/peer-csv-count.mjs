#!/usr/bin/env node
// The peer for reading a verdicts file: csv-parse over the whole file, every record parsed into fields and
// counted (what any CSV-based report must at least do). Prints the record count.
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';

let records = 0;
const parser = createReadStream(process.argv[2]).pipe(
  parse({ relax_column_count: true, relax_quotes: true }),
);
for await (const _record of parser) records++;
console.log(records);
