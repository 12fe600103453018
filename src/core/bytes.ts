// Byte handling without node: imports. The engine works on a "binary string": one UTF-16 code unit per
// input byte (0–255), so V8 can scan it as a one-byte string while offsets stay byte offsets.

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false });
const CHUNK = 8192;

const NON_ASCII = /[^\x00-\x7f]/;

/** Node's Buffer counts UTF-8 bytes natively (SIMD); detected on the global, so the core imports nothing. */
const nodeBuffer = (globalThis as { Buffer?: { byteLength(s: string, encoding: 'utf8'): number } }).Buffer;
/** Below this length a regex test costs less than a native call. */
const SHORT_TEXT = 64;
/** Longest text checked through the scratch buffer (which then stays that large). */
const SCRATCH_MAX = 1 << 16;
const scratchBytes = { buffer: new Uint8Array(0) };

/** True when every code unit is below 0x80 (then, and only then, the UTF-8 length is the length). */
export function isAscii(s: string): boolean {
  if (s.length < SHORT_TEXT || (nodeBuffer === undefined && s.length > SCRATCH_MAX))
    return !NON_ASCII.test(s);
  if (nodeBuffer !== undefined) return nodeBuffer.byteLength(s, 'utf8') === s.length;
  // encodeInto stops when the buffer is full, and writes more bytes than it reads past any non-ASCII char.
  if (scratchBytes.buffer.length < s.length) scratchBytes.buffer = new Uint8Array(s.length);
  const { read, written } = encoder.encodeInto(s, scratchBytes.buffer);
  return read === s.length && written === s.length;
}

const NON_LATIN1 = /[^\x00-\xff]/;

/** True when every code unit fits one byte: V8 then stores the string one byte per char. */
export function isLatin1(s: string): boolean {
  return !NON_LATIN1.test(s);
}

/**
 * A copy of `s` that does not keep alive the string it was sliced from: V8 slices (13 chars or more)
 * point into their parent, so a short piece kept from a robots.txt body or a batch's text would hold
 * all of it. Shorter strings are never slices.
 */
export function ownString(s: string): string {
  return s.length < 13 ? s : ` ${s}`.slice(1);
}

/** Node's Buffer has a native latin1 decoder; detected on the value, so the core imports nothing. */
interface Latin1Sliceable extends Uint8Array {
  latin1Slice(start: number, end: number): string;
}

/** One char per byte (latin1 mapping, not windows-1252). */
export function bytesToBinary(bytes: Uint8Array): string {
  const fast = bytes as Latin1Sliceable;
  if (typeof fast.latin1Slice === 'function') return fast.latin1Slice(0, bytes.length);
  if (bytes.length <= CHUNK) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  let out = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return out;
}

/** The body as a binary string of its bytes; a string body stands for its UTF-8 encoding. */
export function toBinary(body: string | Uint8Array): string {
  if (typeof body === 'string') return isAscii(body) ? body : bytesToBinary(encoder.encode(body));
  if (body instanceof Uint8Array) return bytesToBinary(body);
  return '';
}

/** Decodes a binary string's bytes as UTF-8 (invalid sequences become U+FFFD). */
export function binaryToText(bin: string): string {
  if (isAscii(bin)) return bin;
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return decoder.decode(bytes);
}
