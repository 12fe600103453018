// Product tokens: how a crawler's agent and a group's user-agent value are compared.

/** ASCII-only lower case (absl::EqualsIgnoreCase folds ASCII only; `K` (Kelvin) must stay non-ASCII). */
export function asciiLower(s: string): string {
  let upper = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Past ASCII, only the A–Z runs may be lower-cased.
    if (c >= 128) return upper || /[A-Z]/.test(s) ? s.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : s;
    if (c >= 65 && c <= 90) upper = true;
  }
  // An ASCII string: toLowerCase changes A–Z only, in one native call.
  return upper ? s.toLowerCase() : s;
}

/** The crawler's product token: a `/version` suffix and surrounding whitespace dropped (`MyBot/2.1` → `MyBot`). */
export function normalizeAgent(agent: string): string {
  const slash = agent.indexOf('/');
  return (slash < 0 ? agent : agent.slice(0, slash)).trim();
}

/** How a crawler's agent is compared with groups' tokens: its product token in ASCII lower case. */
export function agentKey(agent: string): string {
  return asciiLower(normalizeAgent(agent));
}

function isTokenChar(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 95;
}

/** The reference's ExtractUserAgent: the leading run of [a-zA-Z_-] of a user-agent value. */
export function extractProductToken(value: string): string {
  const end = productTokenEnd(value, 0, value.length);
  return end === value.length ? value : value.slice(0, end);
}

/** Where the product token of the user-agent value `s[start, end)` ends. */
function productTokenEnd(s: string, start: number, end: number): number {
  let i = start;
  while (i < end && isTokenChar(s.charCodeAt(i))) i++;
  return i;
}

/**
 * The agent key among `keys` (ASCII lower case) that the product token of the user-agent value
 * `s[start, end)` is, or undefined; compared in place, so no token string is made.
 */
export function keyOfAgentValue(
  s: string,
  start: number,
  end: number,
  keys: readonly string[],
): string | undefined {
  const length = productTokenEnd(s, start, end) - start;
  for (const key of keys) {
    if (key.length !== length) continue;
    let j = 0;
    while (j < length) {
      const c = s.charCodeAt(start + j);
      // Token chars are ASCII letters, '-' and '_': only A–Z change when lower-cased.
      if ((c >= 65 && c <= 90 ? c + 32 : c) !== key.charCodeAt(j)) break;
      j++;
    }
    if (j === length) return key;
  }
  return undefined;
}

/** C isspace in the "C" locale. */
function isCSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** Google-specific: `*`, or `*` followed by whitespace and anything, names every crawler. */
export function isGlobalAgent(value: string): boolean {
  return isGlobalAgentAt(value, 0, value.length);
}

/** `isGlobalAgent` on the value `s[start, end)`. */
export function isGlobalAgentAt(s: string, start: number, end: number): boolean {
  return (
    end > start && s.charCodeAt(start) === 42 && (end - start === 1 || isCSpace(s.charCodeAt(start + 1)))
  );
}
