// Product tokens: how a crawler's agent and a group's user-agent value are compared.

/** ASCII-only lower case (absl::EqualsIgnoreCase folds ASCII only; `K` (Kelvin) must stay non-ASCII). */
export function asciiLower(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
  }
  return s;
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
  let end = 0;
  while (end < value.length && isTokenChar(value.charCodeAt(end))) end++;
  return end === value.length ? value : value.slice(0, end);
}

/** C isspace in the "C" locale. */
function isCSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** Google-specific: `*`, or `*` followed by whitespace and anything, names every crawler. */
export function isGlobalAgent(value: string): boolean {
  return (
    value.length >= 1 && value.charCodeAt(0) === 42 && (value.length === 1 || isCSpace(value.charCodeAt(1)))
  );
}
