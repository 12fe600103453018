import { randomBytes } from 'node:crypto';
import { lstatSync, readdirSync, readlinkSync, realpathSync, unlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * Where a file the run writes (OUTPUT, the summary) really goes. `atomic`: a regular file, or nothing
 * yet, at `path` (symlinks followed to their last target, in its real directory), written to a
 * temporary file beside it and renamed over it. `direct` (and `fifo`): a device, a FIFO, or another process's
 * descriptor link: written through, as the shell's `>>` would (there is no file to replace, and
 * replacing one would take the name away from the device). `fd`: /dev/stdout, /dev/fd/N,
 * /proc/self/fd/N: this process's descriptor, written as it was opened.
 */
export type OutputTarget =
  | { kind: 'atomic'; path: string }
  | { kind: 'direct'; path: string }
  /** A FIFO: written through once a reader has it open. */
  | { kind: 'fifo'; path: string }
  /** One of this process's descriptors (a socket, which has no path to open, included). */
  | { kind: 'fd'; fd: number };

/** Linux follows at most 40 links in one lookup. */
const MAX_LINKS = 40;
/** Links the kernel resolves to an open file of a process, whatever their text says. */
const FD_LINK = /^\/(?:proc\/([^/]+)|dev)\/fd\/(\d+)$/;

/** The target of a descriptor link: this process's descriptor itself, or another process's file. */
function fdTarget(p: string, m: RegExpExecArray): OutputTarget {
  const owner = m[1];
  const own = owner === undefined || owner === 'self' || owner === String(process.pid);
  return own ? { kind: 'fd', fd: Number(m[2]) } : { kind: 'direct', path: p };
}

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/** `p` with its directory resolved through any symlinks, when that directory exists. */
function inRealDir(p: string): string {
  try {
    return path.join(realpathSync(path.dirname(p)), path.basename(p));
  } catch {
    return p;
  }
}

export function resolveOutputTarget(file: string): OutputTarget {
  let p = path.resolve(file);
  for (let hops = 0; ; hops++) {
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(p);
    } catch (err) {
      const code = errno(err);
      if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'atomic', path: inRealDir(p) };
      throw err;
    }
    if (!st.isSymbolicLink()) {
      return { kind: st.isFile() ? 'atomic' : st.isFIFO() ? 'fifo' : 'direct', path: inRealDir(p) };
    }
    const fd = FD_LINK.exec(p);
    if (fd !== null) return fdTarget(p, fd);
    if (hops >= MAX_LINKS) {
      throw Object.assign(new Error(`too many levels of symbolic links: ${file}`), { code: 'ELOOP' });
    }
    // A relative link is read from the directory the link really is in.
    p = path.resolve(path.dirname(inRealDir(p)), readlinkSync(p));
  }
}

/** A fresh temporary name beside `target`: `.<name>.<pid>.<random hex>.tmp`. */
export function tempPathFor(target: string): string {
  const hex = randomBytes(4).toString('hex');
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${hex}.tmp`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return errno(err) !== 'ESRCH';
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Removes temporary files beside `target` left by runs that were killed before they could (their
 * process no longer exists). A temporary of a live process, which may be a concurrent run, stays.
 * Returns the names removed.
 */
export function removeStaleTemps(target: string): string[] {
  const dir = path.dirname(target);
  const pattern = new RegExp(`^\\.${escapeRegExp(path.basename(target))}\\.(\\d+)\\.[0-9a-f]+\\.tmp$`);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1] ?? Number.NaN);
    if (!(pid > 0) || pid === process.pid || alive(pid)) continue;
    try {
      unlinkSync(path.join(dir, name));
      removed.push(name);
    } catch {
      // Gone already (another run cleaned it), or not ours to remove: either way nothing to do.
    }
  }
  return removed;
}
