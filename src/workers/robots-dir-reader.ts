// `--robots-dir`: one origin's robots.txt file, read where it is needed. The workers read the files of
// the origins they own themselves (no round trip through the coordinator per origin); the pipeline's
// directory provider wraps the same reader, so both give the same answers.

import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PolicyCode } from '../core/error-codes.js';
import { keyOf, type Origin } from '../rows/row-url.js';
import { readCapped } from './capped-file.js';
import { DirNames } from './dir-names.js';
import { FileBodies } from './file-bodies.js';
import type { PolicyRequest, PolicyTally, WirePolicy } from './protocol.js';

// `check --robots` reads its file with the same cap, through the pipeline's directory provider.
export { readFileCapped } from './capped-file.js';

/**
 * The file of an origin: `<host>.txt` for the scheme's default port, `<host>_<port>.txt` otherwise
 * (host in its ASCII/punycode form, IPv6 literals with their brackets); http and https share it. A
 * fully qualified name's trailing dot (`example.com.`, the same DNS name) is left out of the file name.
 */
export function robotsFileName(origin: Origin): string {
  const def = origin.scheme === 'https' ? 443 : 80;
  const host = origin.host.endsWith('.') ? origin.host.slice(0, -1) : origin.host;
  return origin.port === def ? `${host}.txt` : `${host}_${origin.port}.txt`;
}

/**
 * True when the directory surely holds no file for the origin (`readRobotsFile` would say "missing"),
 * found without building the file name; false: read it to know.
 */
export function surelyNoFile(scheme: 'http' | 'https', host: string, port: number, names: DirNames): boolean {
  if (host.includes('/') || host.includes('\\') || host.includes('\0')) return true;
  const len = host.endsWith('.') ? host.length - 1 : host.length;
  const suffix = port === (scheme === 'https' ? 443 : 80) ? '.txt' : `_${port}.txt`;
  return !names.mayHoldJoined(host, len, suffix);
}

/** Hosts come from untrusted input: never let one name a path outside the directory. */
function safeName(name: string): boolean {
  return !name.includes('/') && !name.includes('\\') && !name.includes('\0');
}

/**
 * What the directory says about an origin: a file to use whole, no file (no robots.txt: allow all), or
 * a file that exists but cannot be read (unreachable: disallow all).
 */
export type DirRead =
  /** `body` is null when `bodies` knew the file and its rules are compiled: the sha256 names them. */
  | { kind: 'file'; file: string; body: Buffer | null; sha256: string; truncated: boolean }
  | { kind: 'missing' }
  | { kind: 'unreadable'; file: string };

const MISSING: DirRead = Object.freeze({ kind: 'missing' });

/**
 * Reads an origin's file in `root` (an absolute directory path): its first 500 KiB, as of a fetched
 * body. Only a regular file (or a link to one) is read: a FIFO would block the worker, a device may
 * never end; either is unreadable (disallow all), like a directory. Never throws. `names`: the
 * directory's listing, which answers "missing" without a stat for a name it does not hold.
 */
export function readRobotsFile(root: string, origin: Origin, names?: DirNames, bodies?: FileBodies): DirRead {
  const name = robotsFileName(origin);
  if (!safeName(name) || names?.mayHold(name) === false) return MISSING;
  const file = path.join(root, name);
  // Synchronous on purpose: one small file read costs ~20 µs, far less than a round trip through
  // the libuv thread pool (open, fstat, read, close).
  let st: Stats | undefined;
  try {
    st = statSync(file, { throwIfNoEntry: false });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR' || code === 'ENAMETOOLONG') return MISSING;
    return { kind: 'unreadable', file };
  }
  if (st === undefined) return MISSING;
  if (!st.isFile()) return { kind: 'unreadable', file };
  const known = bodies?.reuse(st);
  if (known !== undefined)
    return { kind: 'file', file, body: null, sha256: known.sha256, truncated: known.truncated };
  let fd = -1;
  try {
    // Non-blocking, and checked again once open: the name may have been swapped for a FIFO since.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const opened = fstatSync(fd);
    if (!opened.isFile()) return { kind: 'unreadable', file };
    const { body, truncated } = readCapped(fd, opened.size);
    const sha256 = createHash('sha256').update(body).digest('hex');
    bodies?.learn(opened, sha256, truncated);
    return { kind: 'file', file, body, truncated, sha256 };
  } catch {
    return { kind: 'unreadable', file };
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

/** The error code of a file that exists but cannot be read. */
export const ERR_ROBOTS_FILE: PolicyCode = 'ERR_ROBOTS_FILE';

/** What a read means as a policy: the fields the pipeline's directory provider and the wire share. */
export interface DirPolicy {
  outcome: 'parsed' | 'unavailable' | 'unreachable';
  source: 'file' | 'missing';
  errorCode: string | null;
  /** The file's URL; null when there is none. */
  finalUrl: string | null;
  body: Buffer | null;
  sha256: string | null;
  /** Only the file's first 500 KiB are kept. */
  truncated: boolean;
}

/** How stale the directory listing may get while origins are looked up without a request (ms). */
const REFRESH_MS = 50;

/** One instance: on a frontier of distinct hosts nearly every origin has no file. */
const MISSING_POLICY: DirPolicy = Object.freeze({
  outcome: 'unavailable',
  source: 'missing',
  errorCode: null,
  finalUrl: null,
  body: null,
  sha256: null,
  truncated: false,
});

/** An absolute POSIX path of plain segments (none starting with a dot): its file URL needs no escaping. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)+$/;

/** `pathToFileURL(file).href`, without building a URL for the plain paths most files have (≈ 7 µs each). */
export function fileHref(file: string): string {
  return path.sep === '/' && PLAIN_PATH.test(file) ? `file://${file}` : pathToFileURL(file).href;
}

export function dirPolicy(read: DirRead): DirPolicy {
  if (read.kind === 'missing') return MISSING_POLICY;
  const finalUrl = fileHref(read.file);
  if (read.kind === 'unreadable') {
    return {
      outcome: 'unreachable',
      source: 'file',
      errorCode: ERR_ROBOTS_FILE,
      finalUrl,
      body: null,
      sha256: null,
      truncated: false,
    };
  }
  return {
    outcome: 'parsed',
    source: 'file',
    errorCode: null,
    finalUrl,
    body: read.body,
    sha256: read.sha256,
    truncated: read.truncated,
  };
}

/** A directory policy as the coordinator would send it (the pipeline's `toWire`: status is the code or source). */
function wireOf(key: string, originKey: string, p: DirPolicy, fetchedAt: string): WirePolicy {
  return {
    key,
    outcome: p.outcome,
    status: p.errorCode ?? p.source,
    body: p.body,
    sha256: p.sha256,
    robotsUrl: p.finalUrl ?? `${originKey}/robots.txt`,
    fetchedAt,
    truncated: p.truncated,
  };
}

/** The policy of a read, as the coordinator would send it. */
export function dirWirePolicy(key: string, origin: Origin, read: DirRead, fetchedAt: number): WirePolicy {
  return wireOf(key, keyOf(origin), dirPolicy(read), new Date(fetchedAt).toISOString());
}

export function emptyTally(): PolicyTally {
  return { resolved: 0, parsed: 0, unavailable: 0, unreachable: 0, file: 0, missing: 0, ms: 0 };
}

/**
 * A worker's policy source under `--robots-dir`: answers its policy requests from the files, and
 * counts the reads for the summary (reported with the next batch result). Rows a worker adopts from
 * the owner of their origin are read again but not counted: the owner counted them.
 */
export class DirPolicySource {
  private tally = emptyTally();
  private readonly names: DirNames;
  /** Files read before: a link to one needs no read while its rules are compiled. */
  readonly bodies = new FileBodies();
  /** When the listing was last checked for changes (performance.now()). */
  private refreshedAt = 0;
  readonly missingStatus = MISSING_POLICY.source;

  constructor(private readonly root: string) {
    this.names = new DirNames(root);
  }

  fetch(req: PolicyRequest): WirePolicy[] {
    const t0 = performance.now();
    const at = new Date().toISOString();
    this.refresh();
    const t = req.adopt === true ? null : this.tally;
    const out = req.origins.map((o, i) => {
      const p = dirPolicy(readRobotsFile(this.root, o, this.names, this.bodies));
      if (t !== null) {
        t.resolved++;
        t[p.outcome]++;
        t[p.source]++;
      }
      // A request's keys are its origins' keys.
      return wireOf(req.keys[i]!, req.keys[i]!, p, at);
    });
    if (t !== null) t.ms += performance.now() - t0;
    return out;
  }

  private refresh(): void {
    this.names.refresh();
    this.refreshedAt = performance.now();
  }

  /**
   * True (and counted as a read of a missing file) when the directory surely has no file for the
   * origin: its policy is then "no robots.txt" without a request, a read or a policy object. The
   * listing is checked for changes as often as a batch asks for policies.
   */
  missing(scheme: 'http' | 'https', host: string, port: number): boolean {
    if (performance.now() - this.refreshedAt > REFRESH_MS) this.refresh();
    if (!surelyNoFile(scheme, host, port, this.names)) return false;
    const t = this.tally;
    t.resolved++;
    t.unavailable++;
    t.missing++;
    return true;
  }

  /** The reads counted since the last call, or null when there were none. */
  take(): PolicyTally | null {
    if (this.tally.resolved === 0) return null;
    const t = this.tally;
    this.tally = emptyTally();
    return t;
  }
}
