// Loaded with `node --import` into a CLI under test (and, through execArgv, into its worker threads): adds
// one line to $COUNT_THREADS_FILE for every worker thread any thread of the process starts.
import { appendFileSync } from 'node:fs';

const file = process.env.COUNT_THREADS_FILE;
if (file) process.on('worker', () => appendFileSync(file, 'started\n'));
