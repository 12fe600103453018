import type { Stats } from 'node:fs';

/** Files remembered at most; then the memory starts over (≈ 80 bytes each). */
const MAX_FILES = 32_768;
/** Numbers kept per file in `numbers`: device, size, mtimeMs, ctimeMs. */
const FIELDS = 4;
/** Files the first `numbers` array has room for; it doubles as needed. */
const INITIAL_FILES = 1024;

/** What a read of a file found, kept without its bytes. */
export interface KnownBody {
  sha256: string;
  truncated: boolean;
}

/**
 * The bodies of `--robots-dir` files already read, by file identity (device and inode, same size and
 * times): many host names may link to one file, and an origin whose file was read before, and whose
 * rules are still compiled, needs a stat only, not an open, a read and a hash. A file rewritten in place
 * has a newer mtime or ctime, so it is read again. A file's state is four numbers in one typed array, not
 * an object with a boxed number per field (≈ 130 bytes more per file: 2.3 MiB for 18k files).
 */
export class FileBodies {
  /** By inode number (a number key: no string per lookup): the file's index; the device and the rest are checked. */
  private readonly byFile = new Map<number, number>();
  /** Per index: the FIELDS numbers of the file's state when it was read. */
  private numbers = new Float64Array(INITIAL_FILES * FIELDS);
  private readonly sha256s: string[] = [];
  private readonly truncated: boolean[] = [];
  /**
   * Set by the worker: true when rules of this body are compiled, and then kept for the unit of work
   * in flight (the policy is installed with its sha256 only). Null: every file is read.
   */
  compiled: ((sha256: string) => boolean) | null = null;

  /** The known body of the file `st` describes, if its rules are compiled; undefined: read it. */
  reuse(st: Stats): KnownBody | undefined {
    if (this.compiled === null) return undefined;
    const i = this.byFile.get(st.ino);
    if (i === undefined) return undefined;
    const n = this.numbers;
    const at = i * FIELDS;
    if (n[at] !== st.dev || n[at + 1] !== st.size) return undefined;
    if (n[at + 2] !== st.mtimeMs || n[at + 3] !== st.ctimeMs) return undefined;
    const sha256 = this.sha256s[i]!;
    return this.compiled(sha256) ? { sha256, truncated: this.truncated[i]! } : undefined;
  }

  /** Remembers what the file `st` describes held. */
  learn(st: Stats, sha256: string, truncated: boolean): void {
    if (this.compiled === null) return;
    if (this.byFile.size >= MAX_FILES) {
      this.byFile.clear();
      this.sha256s.length = 0;
      this.truncated.length = 0;
    }
    // A file read again keeps its index: indexes stay below MAX_FILES.
    const i = this.byFile.get(st.ino) ?? this.sha256s.length;
    if ((i + 1) * FIELDS > this.numbers.length) {
      const grown = new Float64Array(this.numbers.length * 2);
      grown.set(this.numbers);
      this.numbers = grown;
    }
    const at = i * FIELDS;
    this.numbers[at] = st.dev;
    this.numbers[at + 1] = st.size;
    this.numbers[at + 2] = st.mtimeMs;
    this.numbers[at + 3] = st.ctimeMs;
    this.sha256s[i] = sha256;
    this.truncated[i] = truncated;
    this.byFile.set(st.ino, i);
  }
}
