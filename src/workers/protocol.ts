import type { MessagePort } from 'node:worker_threads';
import type { Shard } from '../rows/shard.js';
import type { PeerPorts } from './peer-links.js';

/**
 * Plain data crossing the thread boundary between the classify coordinator and its workers.
 * Nothing here may hold a function, an Error or a class instance.
 */

/**
 * parsed: a 2xx body to parse; unavailable: allow all (4xx, too many redirects, missing file);
 * unreachable: disallow all (429, 5xx, network failure); not_cached: `--offline` found nothing.
 */
export type PolicyOutcome = 'parsed' | 'unavailable' | 'unreachable' | 'not_cached';

/** Fixed for the whole run: given to every worker as Piscina workerData. */
export interface WorkerConfig {
  agents: string[];
  delimiter: string;
  /** Index of the url column; of the host column or -1. */
  urlIndex: number;
  hostIndex: number;
  /** Number of header columns. */
  columns: number;
  scheme: 'http' | 'https';
  /** Line end of the output (the input header's). */
  eol: string;
  /** Line mode (no header row): a blank line is a record, an `invalid_input` / `blank_line` row. */
  lineMode?: boolean;
  evidence: boolean;
  /** Estimated bytes of compiled rule sets a worker keeps (LRU by body sha256). */
  compiledBudget: number;
  /** Origins a worker remembers (LRU). */
  originBudget: number;
  /** `--robots-dir` as an absolute path: workers read the policy files themselves. Else null. */
  robotsDir: string | null;
  /** `--shard K/N`: only the rows of hosts in shard K are written and counted (absent: every row). */
  shard?: Shard | null;
  /** `--row-number`: each row starts with its 1-based record number in the whole input. */
  rowNumber?: boolean;
  /** As-of mode (the cache's history only, never a fetch), or absent. */
  asOf?: AsOfConfig | null;
  /** `--agent-column`: index of the column naming each row's crawler (absent or -1: none). */
  agentIndex?: number;
}

/** First task of every worker: who it is, and its ports (to the coordinator, to each other worker). */
export interface InitTask extends PeerPorts {
  kind: 'init';
  coordinator: MessagePort;
}

/** One batch of whole records, its bytes transferred. */
export interface BatchTask {
  kind: 'batch';
  buffer: ArrayBuffer;
  length: number;
  /** A recycled buffer to write the verdicts into when large enough (else the worker allocates). */
  output: ArrayBuffer | null;
  /** With `rowNumber`: the batch's place in the input (0, 1, 2, …), to ask for its first record number. */
  seq?: number;
  /** A shard's batch of kept records (see RecordPlaces): each record's index among the records it stands for. */
  ordinals?: Int32Array | null;
  /** Records of other shards dropped right before the batch (when `ordinals` is absent). */
  skip?: number;
}

/** Last task of every worker: report the counters not reported yet. */
export interface FlushTask {
  kind: 'flush';
}

export type WorkerTask = InitTask | BatchTask | FlushTask;

/** Worker → coordinator: the policies of these origins, please. */
export interface PolicyRequest {
  keys: string[];
  origins: { scheme: 'http' | 'https'; host: string; port: number }[];
  /** For origins adopted from their owner (which already counted them). */
  adopt?: boolean;
}

/**
 * Worker → coordinator with `rowNumber`: batch `seq` stands for `records` records (blank lines excluded,
 * rows of other shards included, those dropped before it was posted too); the answer is the number of
 * records in the batches before it.
 */
export interface RecordCount {
  kind: 'records';
  seq: number;
  records: number;
}

/** Policy files a worker read under `--robots-dir` since its last report (for the summary). */
export interface PolicyTally {
  resolved: number;
  /** By outcome. */
  parsed: number;
  unavailable: number;
  unreachable: number;
  /** By source: a file was there (read or not), or none. */
  file: number;
  missing: number;
  /** Milliseconds spent reading. */
  ms: number;
}

/** Coordinator → worker: one per requested key, same order. */
export interface WirePolicy {
  key: string;
  outcome: PolicyOutcome;
  /** Text of the robots_status column. */
  status: string;
  /** Body to parse when outcome is parsed. */
  body: Uint8Array | null;
  sha256: string | null;
  /** Evidence: final robots URL (or file URL), fetched-at ISO time, truncated flag. */
  robotsUrl: string;
  fetchedAt: string;
  truncated: boolean;
  /** As-of runs: the origin's stored versions, oldest first (empty: none stored; the fields above unused). */
  history?: WireVersion[];
}

/** One stored version of an origin's policy, for as-of runs. */
export interface WireVersion extends WirePolicy {
  /** When it was first seen, and last seen before it changed or until now (epoch ms). */
  validFrom: number;
  lastSeen: number;
  /** Where it came from: `fetch`, `revalidate`, or an archive (`warc:<file>@<offset>`). */
  source: string;
  /** The version's error code (a redirect that could not be resolved, …), or ''. */
  errorCode: string;
}

/** `--as-of` / `--at-column`: each row judged under the version in force at its time. */
export interface AsOfConfig {
  /** Index of the time column, or -1 when every row is judged at `fixedTime`. */
  timeIndex: number;
  fixedTime: number;
  timeFormat: 'auto' | 'epoch-s' | 'epoch-ms';
  /** RFC 9309's cache allowance: a disallow within this long of a version that allowed is marked grace. */
  graceMs: number;
  /** A version last seen longer than this before the row's time is not evidence (Infinity: no limit). */
  maxAgeMs: number;
}

/** Per-batch figures, merged by the coordinator into the summary. */
/** Age of the version in force, by upper bound in days (the last bucket: older). */
export const AGE_BUCKET_DAYS = [1, 7, 30, 365] as const;

/** As-of figures of a batch. */
export interface AsOfStats {
  /** Rows judged under a stored version, and `no_history` rows by reason. */
  judged: number;
  noHistory: Record<string, number>;
  /** Rows judged, by the age of the version in force (AGE_BUCKET_DAYS; the last: older). */
  ages: number[];
  /** Per agent: disallowed rows a version in force within the grace allowed. */
  grace: number[];
}

export interface BatchStats {
  /** Rows written (this shard's). */
  records: number;
  /** Records read, rows of other shards included: what record numbers count. */
  inputRecords: number;
  blankLines: number;
  hostMismatch: number;
  /** [code, rows] */
  invalid: [string, number][];
  /** Per agent, rows by verdict index (see VERDICTS). */
  verdicts: number[][];
  /** [agent index, or the indexes of agents with the same count, origin key, disallowed rows] */
  disallowedHosts: [number | number[], string, number][];
  /**
   * [agent index or indexes (agents that decide alike), origin key, rule line, rule, rows, whether the rule
   * allows] for explicit decisions (an empty `Disallow:` allows).
   */
  rules: [number | number[], string, number, string, number, boolean][];
  /** First invalid rows of the batch: [record index among the records the batch stands for, code]. */
  invalidExamples: [number, string][];
  /** Milliseconds the worker spent working on the batch, and waiting for policies. */
  workMs: number;
  policyWaitMs: number;
  /** Rule sets parsed and compiled by the worker since its previous report. */
  compiles: number;
  /** Policy files read since the previous report (`--robots-dir`), or null. */
  policies: PolicyTally | null;
  /** As-of runs only. */
  asOf?: AsOfStats;
  /** `--agent-column` runs only: the row agent's verdicts by token. */
  rowAgents?: RowAgentStats;
}

/** Agents beyond a batch's own counters are counted under this token. */
export const OTHER_TOKEN = '(other)';

/** A batch's counts for the row agent: [token, known, rows by ROW_AGENT_VERDICTS]. */
export interface RowAgentStats {
  tokens: [string, boolean, number[]][];
  /** Rows whose agent cell could not be read (a malformed record, or one with extra fields). */
  unread: number;
}

export interface BatchResult {
  output: ArrayBuffer;
  length: number;
  /** The task's input buffer, handed back for reuse. */
  input: ArrayBuffer;
  stats: BatchStats;
}
