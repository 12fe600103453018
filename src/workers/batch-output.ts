import { OTHER_SHARD } from '../rows/shard.js';
import { agentPart, graceCell, tailPart, V_INVALID_INPUT } from '../rows/verdict-format.js';
import type { BatchRows } from './batch-rows.js';
import { matchRow } from './match-row.js';
import type { OriginStore } from './origin-store.js';
import type { PeerBatch } from './peer-routing.js';
import type { WorkerConfig } from './protocol.js';
import type { RowAgents } from './row-agent.js';
import { RowStats } from './row-stats.js';
import type { TextPieces } from './text-pieces.js';
import { bytesText } from './verdict-texts.js';

/** The verdict columns of an invalid row, per error code (latin1 text of UTF-8 bytes). */
export class InvalidSuffixes {
  private readonly cache = new Map<string, string>();

  constructor(private readonly config: WorkerConfig) {}

  get(code: string): string {
    let s = this.cache.get(code);
    if (s === undefined) {
      const { agents, delimiter: d, evidence, eol } = this.config;
      const asOf = this.config.asOf != null;
      let text = '';
      for (let a = 0; a < agents.length; a++) {
        text += d + agentPart(V_INVALID_INPUT, 0, '', d) + (asOf ? graceCell(V_INVALID_INPUT, d) : '');
      }
      const version = asOf ? { from: '', source: '' } : undefined;
      const ev = evidence ? { robotsUrl: '', fetchedAt: '', sha256: '', truncated: '', version } : null;
      s = bytesText(`${text}${d}${tailPart('', code, ev, d)}${eol}`);
      this.cache.set(code, s);
    }
    return s;
  }
}

/**
 * Pass 2 of a batch: every record (verbatim, padded or rewritten) followed by its verdict columns,
 * in input order, as latin1 text pieces; and the batch's verdict counts. A shard skips the rows of
 * other shards' hosts, and the invalid rows unless `keepInvalid`; `firstNumber` > 0 starts each row
 * with its record number (the batch's first record is `firstNumber`). `rowAgents` (`--agent-column`):
 * each row's `agent` column and its own agent's columns come before the other agents'.
 */
export function writeRows(
  rows: BatchRows,
  peers: PeerBatch,
  store: OriginStore,
  config: WorkerConfig,
  invalid: InvalidSuffixes,
  pieces: TextPieces,
  firstNumber = 0,
  keepInvalid = true,
  rowAgents: RowAgents | null = null,
): RowStats {
  const nAgents = config.agents.length;
  const d = config.delimiter;
  const stats = new RowStats(nAgents);
  const text = rows.text;
  const hasRewrites = rows.rewrites.size > 0;
  const classes = new Uint8Array(nAgents);
  const asOf = config.asOf != null;
  for (let i = 0; i < rows.count; i++) {
    const owner = rows.owners[i]!;
    const code = rows.codes[i];
    if (owner === OTHER_SHARD || (code !== null && !keepInvalid)) continue;
    stats.written++;
    if (firstNumber > 0) pieces.push(`${firstNumber + rows.ordinal(i)}${d}`);
    const rewrite = hasRewrites ? rows.rewrites.get(i) : undefined;
    if (rewrite !== undefined) pieces.push(rewrite);
    else {
      pieces.push(text.slice(rows.starts[i]!, rows.outEnds[i]!));
      if (rows.pads[i]! > 0) pieces.push(d.repeat(rows.pads[i]!));
    }
    if (code !== null) {
      if (rowAgents !== null) pieces.push(rowAgents.invalidText(rows.agents[i]));
      pieces.push(invalid.get(code));
      stats.invalidRow(rows.ordinal(i), code);
      continue;
    }
    if (owner >= 0) {
      const k = rows.foreignPos[i]!;
      pieces.push(peers.text(owner, k));
      stats.addClasses(peers.classes(owner), k * nAgents);
      continue;
    }
    const time = asOf ? rows.times[i]! : Number.NaN;
    if (rowAgents !== null) {
      pieces.push(rowAgents.judgedText(rows.entries[i]!, rows.paths[i]!, rows.agents[i], time));
    }
    const view = asOf ? rows.views[i]! : null;
    pieces.push(matchRow(store, rows.entries[i]!, rows.paths[i]!, nAgents, classes, 0, time, view));
    stats.addClasses(classes, 0);
  }
  return stats;
}
