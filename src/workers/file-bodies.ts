import type { Stats } from 'node:fs';

/** Files remembered at most; then the memory starts over (≈ 150 bytes each). */
const MAX_FILES = 32_768;

/** What a read of a file found, kept without its bytes, and the file's state then. */
interface KnownBody {
  sha256: string;
  truncated: boolean;
  dev: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/**
 * The bodies of `--robots-dir` files already read, by file identity (device and inode, same size and
 * times): many host names may link to one file, and an origin whose file was read before, and whose
 * rules are still compiled, needs a stat only, not an open, a read and a hash. A file rewritten in place
 * has a newer mtime or ctime, so it is read again.
 */
export class FileBodies {
  /** By inode number (a number key: no string per lookup); the device and the rest are checked. */
  private readonly byFile = new Map<number, KnownBody>();
  /**
   * Set by the worker: true when rules of this body are compiled, and then kept for the unit of work
   * in flight (the policy is installed with its sha256 only). Null: every file is read.
   */
  compiled: ((sha256: string) => boolean) | null = null;

  /** The known body of the file `st` describes, if its rules are compiled; undefined: read it. */
  reuse(st: Stats): KnownBody | undefined {
    if (this.compiled === null) return undefined;
    const known = this.byFile.get(st.ino);
    if (known === undefined || known.dev !== st.dev || known.size !== st.size) return undefined;
    if (known.mtimeMs !== st.mtimeMs || known.ctimeMs !== st.ctimeMs) return undefined;
    return this.compiled(known.sha256) ? known : undefined;
  }

  /** Remembers what the file `st` describes held. */
  learn(st: Stats, sha256: string, truncated: boolean): void {
    if (this.compiled === null) return;
    if (this.byFile.size >= MAX_FILES) this.byFile.clear();
    const { dev, size, mtimeMs, ctimeMs } = st;
    this.byFile.set(st.ino, { sha256, truncated, dev, size, mtimeMs, ctimeMs });
  }
}
