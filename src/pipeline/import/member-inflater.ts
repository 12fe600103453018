import { constants, crc32, InflateRaw, inflateRawSync } from 'node:zlib';

/**
 * Inflates gzip members one at a time into one reused output buffer. `inflateRawSync` builds a new zlib
 * stream (and its 32 KiB window) per call, which costs more than inflating a few-KiB WARC record itself;
 * here one raw-inflate handle is reset between members. The handle is zlib's own binding behind its
 * stream class: where a Node build does not expose it, each member falls back to `inflateRawSync`.
 */

export type Inflated =
  | {
      ok: true;
      /** The member's inflated bytes: a view of the reused buffer, valid until the next `inflate`. */
      out: Buffer;
      /** Bytes of the member in the input: header, deflate data and trailer. */
      length: number;
    }
  | { ok: false; reason: 'more' | 'large' | 'corrupt' };

/** The parts of zlib's binding handle used here (present in Node 18 to 22). */
interface RawHandle {
  writeSync(
    flush: number,
    input: Buffer,
    inOffset: number,
    inLength: number,
    output: Buffer,
    outOffset: number,
    outLength: number,
  ): void;
  reset(): void;
}

interface EngineInternals {
  _handle?: RawHandle;
  _writeState?: Uint32Array;
}

/** A raw-inflate handle and its [output left, input left] state, or null where Node hides them. */
function openHandle(): { engine: InflateRaw; handle: RawHandle; state: Uint32Array } | null {
  const engine = new InflateRaw();
  // A corrupt member fails the stream; its error event is seen through `engine.errored`, not thrown.
  engine.on('error', () => {});
  const { _handle: handle, _writeState: state } = engine as unknown as EngineInternals;
  if (
    typeof handle?.writeSync !== 'function' ||
    typeof handle.reset !== 'function' ||
    !(state instanceof Uint32Array) ||
    state.length < 2
  ) {
    engine.destroy();
    return null;
  }
  return { engine, handle, state };
}

export class MemberInflater {
  private readonly out: Buffer;
  private current: ReturnType<typeof openHandle> | undefined;

  /** `limit`: most bytes a member may inflate to before it is `large`. */
  constructor(private readonly limit: number) {
    this.out = Buffer.allocUnsafe(limit + 1);
  }

  /** Inflates the member at the start of `v`, whose gzip header is `headerLength` bytes. */
  inflate(v: Buffer, headerLength: number): Inflated {
    if (this.current === undefined) this.current = openHandle();
    const h = this.current;
    if (h === null) return this.inflateEach(v, headerLength);
    h.handle.reset();
    const inLength = v.length - headerLength;
    h.handle.writeSync(constants.Z_SYNC_FLUSH, v, headerLength, inLength, this.out, 0, this.out.length);
    if (h.engine.errored !== null || h.engine.destroyed) {
      this.current = undefined;
      return { ok: false, reason: 'corrupt' };
    }
    const [outLeft, inLeft] = h.state as unknown as [number, number];
    // Output full: more than `limit` bytes (the buffer holds one more than that).
    if (outLeft === 0) return { ok: false, reason: 'large' };
    // Input used up with room left for output: the deflate data goes on past what is buffered.
    if (inLeft === 0) return { ok: false, reason: 'more' };
    const size = this.out.length - outLeft;
    const length = headerLength + (inLength - inLeft) + 8;
    if (length > v.length) return { ok: false, reason: 'more' };
    return this.checked(v, this.out.subarray(0, size), length);
  }

  /** The fallback: one `inflateRawSync` call per member. */
  private inflateEach(v: Buffer, headerLength: number): Inflated {
    try {
      const r = inflateRawSync(v.subarray(headerLength), {
        info: true,
        maxOutputLength: this.limit,
        // Most records are a few KiB: the default 16 KiB output chunk would make each cost 16 KiB of garbage.
        chunkSize: 4096,
      }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
      const length = headerLength + r.engine.bytesWritten + 8;
      if (length > v.length) return { ok: false, reason: 'more' };
      return this.checked(v, r.buffer, length);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'Z_BUF_ERROR') return { ok: false, reason: 'more' };
      if (code === 'ERR_BUFFER_TOO_LARGE') return { ok: false, reason: 'large' };
      return { ok: false, reason: 'corrupt' };
    }
  }

  /** The member's trailer (CRC-32 and size of the inflated bytes) checked against `out`. */
  private checked(v: Buffer, out: Buffer, length: number): Inflated {
    const crc = v.readUInt32LE(length - 8);
    const size = v.readUInt32LE(length - 4);
    if (size !== out.length >>> 0 || crc !== crc32(out)) return { ok: false, reason: 'corrupt' };
    return { ok: true, out, length };
  }
}
