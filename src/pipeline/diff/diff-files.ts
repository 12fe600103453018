import { RobotsAuditError } from '../../core/errors.js';
import { quoteField } from '../../rows/csv-quote.js';
import { findColumn, shownColumn } from '../input/header.js';
import { openInput } from '../input/input-source.js';
import { OutputSink } from '../output/output-sink.js';
import { type AgentPair, selectAgents } from './agent-selection.js';
import { type DiffSummary, directionOf, FlipTally } from './flip-tally.js';
import { KeyMatcher, NEW, OLD, type Side } from './key-matcher.js';
import { siteOf } from './site.js';
import { ROW_AGENT, UNNAMED_AGENT } from './verdict-layout.js';
import { type RecordBatch, type VerdictHead, VerdictReader, type VerdictRow } from './verdict-reader.js';

/**
 * `robots-audit diff OLD NEW`: the rows whose verdict changed between two classify outputs of the same
 * input. Rows pair by position (their input columns must then be the same, row by row) or by a key
 * column; both files are read in step, and only flipped rows are written, one line per row and agent.
 */

export interface DiffOptions {
  old: string;
  new: string;
  /** Flipped rows (default `-`, stdout); `.gz` compresses; replaced atomically. */
  output?: string;
  summary?: string;
  /** Pair rows by this column instead of by position. */
  key?: string;
  /** Compare only these agents (each in both files). */
  agents?: string[];
  /** Any change of verdict is a flip, not only a change of `allowed`. */
  allVerdicts?: boolean;
  /** The files' delimiter (default: told from each header). */
  delimiter?: string;
  signal?: AbortSignal;
  /** Rows held in memory waiting for their key's partner before spilling to SQLite. */
  memoryRows?: number;
  /** Where key mode's temporary SQLite file goes (default: the system's temporary directory). */
  tempDir?: string;
  stdout?: NodeJS.WritableStream;
}

export const FLIP_COLUMNS = [
  'agent',
  'old_verdict',
  'new_verdict',
  'old_rule_line',
  'old_rule',
  'new_rule_line',
  'new_rule',
  'direction',
] as const;

/** Fixed cell slots of every row read; each compared agent's four cells follow. */
const ROW_NUMBER = 0;
const URL = 1;
const HOST = 2;
const AGENT = 3;
const KEY = 4;
const FIXED = 5;

/** Output text gathered before one write. */
const WRITE_CHARS = 64 << 10;

function rowsDiffer(record: number, why: string): RobotsAuditError {
  return new RobotsAuditError('ERR_ROWS_DIFFER', `rows differ at record ${record}: use --key COL (${why})`);
}

/** The column of `layout` that --key names: row_number, or one of the input columns. */
function keyColumn(head: VerdictHead, key: string, file: string): number {
  if (key === 'row_number' && head.layout.rowNumber >= 0) return head.layout.rowNumber;
  const { columns, inputStart, inputEnd } = head.layout;
  let i = -1;
  try {
    i = findColumn(columns.slice(inputStart, inputEnd), key);
  } catch {
    i = columns.slice(inputStart, inputEnd).indexOf(key);
  }
  if (i < 0) {
    const shown = columns.slice(0, inputEnd).slice(0, 10).map(shownColumn).join(', ');
    throw new RobotsAuditError(
      'ERR_INVALID_OPTION',
      `--key ${key}: ${file} has no such input column (it has ${shown})`,
      { option: 'key' },
    );
  }
  return i + inputStart;
}

function cellsWanted(head: VerdictHead, pairs: AgentPair[], side: 'old' | 'new', key: number): number[] {
  const l = head.layout;
  // Pairing by key writes NEW's rows: OLD's row number and site are not needed (nor kept waiting).
  const keyed = key >= 0 && side === 'old';
  const want = keyed ? [-1, -1, -1, l.agent, key] : [l.rowNumber, l.url, l.host, l.agent, key];
  for (const p of pairs) {
    const g = p[side];
    want.push(g.allowed, g.verdict, g.ruleLine, g.rule);
  }
  return want;
}

/** The row's key, taken out of its cells (a waiting row need not carry it twice). */
function keyOf(row: VerdictRow): string {
  const key = row.cells[KEY]!;
  row.cells[KEY] = '';
  return key;
}

export async function diffFiles(opts: DiffOptions): Promise<DiffSummary> {
  const t0 = performance.now();
  if (opts.old === '-' && opts.new === '-') {
    throw new RobotsAuditError('ERR_USAGE', 'OLD and NEW cannot both be - (stdin)');
  }
  const oldIn = await openInput(opts.old);
  let newIn: Awaited<ReturnType<typeof openInput>> | null = null;
  let sink: OutputSink | null = null;
  let matcher: KeyMatcher | null = null;
  try {
    newIn = await openInput(opts.new);
    const oldReader = new VerdictReader(opts.old, oldIn.chunks, opts.delimiter);
    const newReader = new VerdictReader(opts.new, newIn.chunks, opts.delimiter);
    const oldHead = await oldReader.open();
    const newHead = await newReader.open();
    const pairs = selectAgents(
      oldHead.layout.groups,
      newHead.layout.groups,
      { old: opts.old, new: opts.new },
      opts.agents,
    );
    const byKey = opts.key !== undefined;
    const oldKey = byKey ? keyColumn(oldHead, opts.key!, opts.old) : -1;
    const newKey = byKey ? keyColumn(newHead, opts.key!, opts.new) : -1;
    const oldInput = oldHead.rawColumns.slice(oldHead.layout.inputStart, oldHead.layout.inputEnd);
    const newInput = newHead.rawColumns.slice(newHead.layout.inputStart, newHead.layout.inputEnd);
    if (!byKey && oldInput.join('\n') !== newInput.join('\n')) {
      throw new RobotsAuditError(
        'ERR_ROWS_DIFFER',
        `the input columns differ (${opts.old}: ${oldInput.join(',')}; ${opts.new}: ${newInput.join(',')}): use --key COL`,
      );
    }
    oldReader.select(cellsWanted(oldHead, pairs, 'old', oldKey));
    newReader.select(cellsWanted(newHead, pairs, 'new', newKey));
    const bothNumbered = oldHead.layout.rowNumber >= 0 && newHead.layout.rowNumber >= 0;
    // Position mode keeps the row numbers either file has; key mode writes NEW's rows as they are.
    const numbered = newHead.layout.rowNumber >= 0 || (!byKey && oldHead.layout.rowNumber >= 0);

    const d = newHead.delimiter;
    const eol = newHead.eol;
    const tally = new FlipTally();
    sink = OutputSink.open(opts.output ?? '-', opts.stdout ? { stdout: opts.stdout as never } : {});
    let out = newHead.sep;
    out += [...(numbered ? ['row_number'] : []), ...newInput, ...FLIP_COLUMNS]
      .map((c, i) => (i < (numbered ? 1 : 0) + newInput.length ? quoteField(c, d) : c))
      .join(d);
    out += eol;
    const flush = async () => {
      if (out.length === 0) return;
      const bytes = Buffer.from(out, 'latin1');
      out = '';
      await sink!.write(bytes);
    };

    const compare = (o: VerdictRow, n: VerdictRow) => {
      tally.rowsCompared++;
      let flipped = false;
      for (let a = 0; a < pairs.length; a++) {
        const c = FIXED + 4 * a;
        const oa = o.cells[c]!;
        const na = n.cells[c]!;
        const ov = o.cells[c + 1]!;
        const nv = n.cells[c + 1]!;
        if (opts.allVerdicts ? ov === nv : oa === na) continue;
        flipped = true;
        const name = pairs[a]!.name;
        const agent =
          name === ROW_AGENT ? n.cells[AGENT] || o.cells[AGENT]! : name === UNNAMED_AGENT ? '' : name;
        const direction = directionOf(oa, na);
        tally.flip(agent, siteOf(n.cells[URL]!, n.cells[HOST]!), direction);
        const rn = numbered ? (n.cells[ROW_NUMBER] || o.cells[ROW_NUMBER]!) + d : '';
        out += `${rn}${n.input}${d}${quoteField(agent, d)}${d}${quoteField(ov, d)}${d}${quoteField(nv, d)}${d}${quoteField(o.cells[c + 2]!, d)}${d}${quoteField(o.cells[c + 3]!, d)}${d}${quoteField(n.cells[c + 2]!, d)}${d}${quoteField(n.cells[c + 3]!, d)}${d}${direction}${eol}`;
      }
      if (flipped) tally.rowsFlipped++;
    };

    const stopped = () => {
      if (opts.signal?.aborted) throw new RobotsAuditError('ERR_ABORTED', 'the diff was stopped');
    };

    // With the same header, a record identical in both files has the same key, cells and verdicts.
    const sameLayout =
      oldHead.delimiter === newHead.delimiter &&
      oldHead.rawColumns.join('\n') === newHead.rawColumns.join('\n');
    if (byKey) matcher = new KeyMatcher(compare, opts.memoryRows, opts.tempDir);
    const none: RecordBatch = { lines: [], fields: null, first: 1 };
    let ob: RecordBatch | null = none;
    let nb: RecordBatch | null = none;
    let oi = 0;
    let ni = 0;
    for (;;) {
      if (ob !== null && oi >= ob.lines.length) {
        stopped();
        ob = await oldReader.batch();
        oi = 0;
        if (ob !== null) tally.rowsOld += ob.lines.length;
      }
      if (nb !== null && ni >= nb.lines.length) {
        nb = await newReader.batch();
        ni = 0;
        if (nb !== null) tally.rowsNew += nb.lines.length;
      }
      if (ob === null && nb === null) break;
      if (matcher !== null) {
        if (ob === null || nb === null) {
          // One file is longer: its remaining rows pair with rows already waiting, or stay alone.
          const [reader, b, side]: [VerdictReader, RecordBatch, Side] =
            ob === null ? [newReader, nb!, NEW] : [oldReader, ob, OLD];
          for (let i = side === OLD ? oi : ni; i < b.lines.length; i++) {
            const r = reader.row(b, i);
            matcher.add(side, keyOf(r), r);
          }
          if (side === OLD) oi = b.lines.length;
          else ni = b.lines.length;
        } else {
          const oldLines = ob.lines;
          const newLines = nb.lines;
          const end = Math.min(oldLines.length - oi, newLines.length - ni);
          for (let k = 0; k < end; k++, oi++, ni++) {
            if (sameLayout && oldLines[oi] === newLines[ni] && matcher.idle) {
              tally.rowsCompared++;
              continue;
            }
            const o = oldReader.row(ob, oi);
            matcher.add(OLD, keyOf(o), o);
            const n = newReader.row(nb, ni);
            matcher.add(NEW, keyOf(n), n);
          }
        }
      } else {
        if (ob === null || nb === null) {
          const record = tally.rowsCompared + 1;
          const [ended, rows] = ob === null ? [opts.old, tally.rowsOld] : [opts.new, tally.rowsNew];
          throw rowsDiffer(record, `${ended} ends after ${rows} rows`);
        }
        const oldLines = ob.lines;
        const newLines = nb.lines;
        const end = Math.min(oldLines.length - oi, newLines.length - ni);
        for (let k = 0; k < end; k++, oi++, ni++) {
          // The same record in both files: same input, same verdicts, nothing to split.
          if (sameLayout && oldLines[oi] === newLines[ni]) {
            tally.rowsCompared++;
            continue;
          }
          const o = oldReader.row(ob, oi);
          const n = newReader.row(nb, ni);
          if (o.input !== n.input || (bothNumbered && o.cells[ROW_NUMBER] !== n.cells[ROW_NUMBER])) {
            throw rowsDiffer(
              n.record,
              `${opts.old} and ${opts.new} are not the same input in the same order`,
            );
          }
          compare(o, n);
        }
      }
      // Written at every batch however little: flip lines are cut from the batch's text and hold it.
      await flush();
    }
    if (matcher !== null) {
      await matcher.finish(async () => {
        stopped();
        if (out.length > WRITE_CHARS) await flush();
      });
      tally.onlyInOld = matcher.only[OLD];
      tally.onlyInNew = matcher.only[NEW];
    }
    await flush();
    await sink.finish();
    const summary = tally.summary(
      {
        old: opts.old,
        new: opts.new,
        matching: byKey ? 'key' : 'position',
        key: opts.key ?? null,
        compared: opts.allVerdicts ? 'verdict' : 'allowed',
        agents: pairs.filter((p) => p.name !== ROW_AGENT).map((p) => p.name),
        rowAgent: pairs.some((p) => p.name === ROW_AGENT),
      },
      performance.now() - t0,
    );
    if (opts.summary !== undefined) {
      await OutputSink.writeWhole(
        opts.summary,
        Buffer.from(`${JSON.stringify(summary, null, 2)}\n`),
        'summary',
      );
    }
    await sink.publish();
    return summary;
  } catch (err) {
    await sink?.abort();
    throw err;
  } finally {
    matcher?.close();
    oldIn.close();
    newIn?.close();
  }
}
