// Pattern normalisation the way the reference's MaybeEscapePattern does it: bytes ≥ 0x80 become %XX
// (upper-case hex) and existing %xx escapes are upper-cased; everything else is kept as is.

const HEX = '0123456789ABCDEF';

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

function upper(c: number): number {
  return c >= 97 && c <= 122 ? c - 32 : c;
}

/** Escapes a binary-string value (one char per byte). The result is pure ASCII. */
export function escapePattern(bin: string): string {
  let needed = false;
  for (let i = 0; i < bin.length; i++) {
    const c = bin.charCodeAt(i);
    if (c === 37 && isHex(bin.charCodeAt(i + 1)) && isHex(bin.charCodeAt(i + 2))) {
      const a = bin.charCodeAt(i + 1);
      const b = bin.charCodeAt(i + 2);
      if (a >= 97 || b >= 97) needed = true;
      i += 2;
    } else if (c >= 0x80) {
      needed = true;
    }
    if (needed) break;
  }
  if (!needed) return bin;
  let out = '';
  for (let i = 0; i < bin.length; i++) {
    const c = bin.charCodeAt(i);
    if (c === 37 && isHex(bin.charCodeAt(i + 1)) && isHex(bin.charCodeAt(i + 2))) {
      out += `%${String.fromCharCode(upper(bin.charCodeAt(i + 1)), upper(bin.charCodeAt(i + 2)))}`;
      i += 2;
    } else if (c >= 0x80) {
      out += `%${HEX[c >> 4]}${HEX[c & 15]}`;
    } else {
      out += bin[i];
    }
  }
  return out;
}
