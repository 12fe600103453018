import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Argv, CommandModule, Options as YargsOption } from 'yargs';
import { RobotsAuditError } from '../core/errors.js';
import type { ArchiveInput, ImportProgress, ImportSummary } from '../pipeline/import/import-archives.js';
import { DEFAULTS, resolveOptions } from '../pipeline/options.js';
import { OutputSink } from '../pipeline/output/output-sink.js';
import { COMMAND_LINES } from './command-list.js';
import { unknownOptionCheck } from './did-you-mean.js';
import { EXIT, reportFatal, signalExitCode, stopOnSignals } from './exit.js';

/** `robots-audit import FILE... [--cache PATH]`: robots.txt history from WARC archives into the cache. */

const READ_CHUNK = 1024 * 1024;
const fmt = (n: number) => n.toLocaleString('en-US');

/** Every FILE opened before anything is imported: a missing or unreadable one stops the run unchanged. */
async function openArchives(files: string[]): Promise<ArchiveInput[]> {
  if (files.filter((f) => f === '-').length > 1) {
    throw new RobotsAuditError('ERR_USAGE', 'stdin (-) can be given only once');
  }
  const inputs: ArchiveInput[] = [];
  for (const file of files) {
    if (file === '-') {
      inputs.push({ name: '-', chunks: process.stdin });
      continue;
    }
    try {
      const st = await stat(file);
      if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a directory' : e.message;
      throw new RobotsAuditError('ERR_INPUT', `cannot read ${file}: ${why}`, { path: file, cause: e });
    }
    inputs.push({ name: basename(file), chunks: readChunks(file) });
  }
  return inputs;
}

async function* readChunks(file: string): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of createReadStream(file, { highWaterMark: READ_CHUNK })) yield chunk as Buffer;
  } catch (err) {
    throw new RobotsAuditError('ERR_INPUT', `cannot read ${file}: ${(err as Error).message}`, {
      path: file,
      cause: err,
    });
  }
}

/**
 * FILE arguments in order. yargs drops a lone `-` from a variadic positional, so when the command line
 * holds one, the positionals are read from it (skipping options and their values).
 */
function fileArgs(parsed: string[]): string[] {
  const raw = process.argv.slice(2);
  const at = raw.indexOf('import');
  if (at === -1 || !raw.includes('-')) return parsed.map(String);
  const files: string[] = [];
  for (let i = at + 1; i < raw.length; i++) {
    const token = raw[i]!;
    if (token === '--') continue;
    if (token.startsWith('--') && !token.includes('=')) {
      if (token === '--cache' || token === '--summary') i++;
      continue;
    }
    if (token === '-' || !token.startsWith('-')) files.push(token);
  }
  return files;
}

function progressLine(p: ImportProgress, started: number): string {
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (p.phase === 'rebuild') return `import: rebuilding versions · ${fmt(p.rebuilt)} origins · ${secs} s`;
  return (
    `import: file ${p.fileIndex + 1}/${p.files} ${p.file} · ${fmt(p.records)} records · ` +
    `${fmt(p.captures)} robots.txt captures · ${secs} s`
  );
}

function summaryText(s: ImportSummary): string {
  const o = s.captures.byOutcome;
  const rate = s.elapsedMs > 0 ? Math.round((s.captures.total * 1000) / s.elapsedMs) : 0;
  const counts = (m: Record<string, number>) =>
    Object.entries(m)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${fmt(v)}`)
      .join(', ');
  const r = s.rebuild;
  const lines = [
    `robots-audit import: ${fmt(s.files)} file${s.files === 1 ? '' : 's'}, ${fmt(s.records)} records in ` +
      `${(s.elapsedMs / 1000).toFixed(1)} s (${fmt(rate)} captures/s)`,
    `  captures     ${fmt(s.captures.total)} (${fmt(s.captures.new)} new, ${fmt(s.captures.alreadyStored)} already stored): ` +
      `parsed ${fmt(o.parsed)}, unavailable ${fmt(o.unavailable)}, unreachable ${fmt(o.unreachable)}, ` +
      `redirect ${fmt(o.redirect)}, revisit ${fmt(o.revisit)}`,
    `  versions     ${fmt(r.versions)} over ${fmt(r.origins)} origins rebuilt`,
    `  revisits     resolved ${fmt(r.revisitsResolved)}, unresolved ${fmt(r.revisitsUnresolved)}` +
      (r.revisitsUnresolved > 0 ? ` (${counts(r.unresolvedReasons)})` : ''),
    `  redirects    resolved ${fmt(r.redirectsResolved)}, unresolved ${fmt(r.redirectsUnresolved)}`,
    `  skipped      ${fmt(s.skipped.total)} records` +
      (s.skipped.total > 0 ? ` (${counts(s.skipped.byType)})` : '') +
      (s.redirectTargets > 0 ? `; ${fmt(s.redirectTargets)} kept as redirect targets` : ''),
  ];
  if (s.malformed.total > 0) {
    const shown = s.malformed.examples.slice(0, 5).map((m) => `${m.file}@${m.offset}: ${m.reason}`);
    lines.push(
      `  malformed    ${fmt(s.malformed.total)} records (${shown.join('; ')}${s.malformed.total > 5 ? '; …' : ''})`,
    );
  }
  for (const f of s.stopped) lines.push(`  stopped      ${f.file} at byte ${f.offset}: ${f.reason}`);
  return `${lines.join('\n')}\n`;
}

interface ImportArgs {
  files: string[];
  cache?: string;
  progress?: boolean;
  quiet?: boolean;
  summary?: string;
  [key: string]: unknown;
}

async function run(argv: ImportArgs): Promise<number> {
  const stop = stopOnSignals();
  try {
    const options = resolveOptions(
      { cache: argv.cache, progress: argv.progress, quiet: argv.quiet, summary: argv.summary },
      'import',
    );
    const files = fileArgs(argv.files ?? []);
    const inputs = await openArchives(files);
    const { importArchives } = await import('../pipeline/import/import-archives.js');
    const started = Date.now();
    const tty = process.stderr.isTTY === true;
    const showProgress = !options.quiet && (tty || options.progress);
    let lastLine = 0;
    const summary = await importArchives(inputs, {
      cache: options.cache,
      maxBody: DEFAULTS.maxBody,
      signal: stop.signal,
      onProgress: (p) => {
        if (!showProgress || Date.now() - lastLine < (tty ? 100 : 1000)) return;
        lastLine = Date.now();
        process.stderr.write(tty ? `\r${progressLine(p, started)}\x1b[K` : `${progressLine(p, started)}\n`);
      },
    });
    if (showProgress && tty) process.stderr.write('\r\x1b[K');
    if (!options.quiet) process.stderr.write(summaryText(summary));
    if (options.summary !== undefined) {
      const json = `${JSON.stringify({ command: 'import', ...summary }, null, 2)}\n`;
      await OutputSink.writeWhole(options.summary, Buffer.from(json), 'summary');
    }
    for (const f of summary.stopped) {
      process.stderr.write(`robots-audit: ${f.file}: reading stopped at byte ${f.offset}: ${f.reason}\n`);
    }
    return summary.stopped.length > 0 ? EXIT.fatal : EXIT.ok;
  } catch (err) {
    const stoppedBy = stop.stoppedBy();
    return stoppedBy === null ? reportFatal(err) : signalExitCode(stoppedBy);
  } finally {
    stop.dispose();
  }
}

const IMPORT_OPTIONS: Record<string, YargsOption> = {
  cache: { type: 'string', describe: 'SQLite policy cache file (default .robots-audit-cache.sqlite)' },
  progress: { type: 'boolean', describe: 'Show the progress line even when stderr is not a terminal' },
  quiet: { type: 'boolean', describe: 'No progress line and no summary' },
  summary: { type: 'string', describe: 'Also write the summary as JSON to this file' },
};

export const importCommand: CommandModule<object, ImportArgs> = {
  ...COMMAND_LINES.import,
  builder: (yargs: Argv) =>
    yargs
      .positional('files', { type: 'string', array: true, describe: 'WARC files (.warc or .warc.gz), or -' })
      .options(IMPORT_OPTIONS)
      .middleware(unknownOptionCheck([IMPORT_OPTIONS], ['files']), true)
      .example([
        ['$0 import CC-MAIN-*-robotstxt.warc.gz --cache history.sqlite', ''],
        ['zcat crawl.warc.gz | $0 import - --summary import.json', ''],
      ]) as unknown as Argv<ImportArgs>,
  handler: async (argv) => {
    process.exitCode = await run(argv);
  },
};
