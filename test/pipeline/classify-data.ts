import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** robots.txt files of the messy-log fixture, by file name (IDN hosts in punycode, ports as _PORT). */
export const MESSY_ROBOTS: Record<string, string> = {
  'a.example.txt':
    'User-agent: *\nDisallow: /private\nDisallow: /caf%C3%A9\n\nUser-agent: GPTBot\nDisallow: /\n',
  'xn--bcher-kva.example.txt': 'User-agent: *\nDisallow: /verboten\n',
  'p.example_8080.txt': 'User-agent: *\nDisallow: /\n',
  '[::1].txt': 'User-agent: *\nDisallow: /v6\n',
  '127.0.0.1_8081.txt': 'User-agent: *\nDisallow: /ip\n',
};

/**
 * A crawl log with every kind of messy row, one `id` per record so order can be checked. Returns the
 * bytes and the expected (verdict for `*`, error_code) per id. Records: BOM, CRLF, IDN, upper case,
 * ports, IPv6, percent-encoded and raw non-ASCII paths, quoted URLs with commas and quotes, a 10 KB
 * URL, blank lines, short and long rows, an unterminated quote that must not swallow what follows.
 */
export function messyLog(): { bytes: Buffer; expected: [string, string][] } {
  const long = `https://a.example/${'x'.repeat(10_000)}`;
  const rows: [string, string, string][] = [
    // [record text after the id, verdict, error_code]
    ['a.example,https://a.example/private/1', 'disallowed_explicit', ''],
    ['A.EXAMPLE,HTTPS://A.EXAMPLE/Private/1', 'allowed_implicit', ''],
    ['bücher.example,https://bücher.example/verboten/x', 'disallowed_explicit', ''],
    ['xn--bcher-kva.example,https://BÜCHER.example/ok', 'allowed_implicit', ''],
    ['p.example:8080,http://p.example:8080/x', 'disallowed_explicit', ''],
    ['p.example,http://p.example/x', 'allowed_unavailable', ''],
    ['[::1],http://[::1]/v6/a', 'disallowed_explicit', ''],
    ['127.0.0.1:8081,http://127.0.0.1:8081/ip', 'disallowed_explicit', ''],
    ['a.example,https://a.example/caf%C3%A9/menu', 'disallowed_explicit', ''],
    ['a.example,https://a.example/café/menu', 'allowed_implicit', ''],
    ['a.example,"https://a.example/private/x,y=""z"""', 'disallowed_explicit', ''],
    [`a.example,${long}`, 'allowed_implicit', ''],
    ['a.example,/private/path-only', 'disallowed_explicit', ''],
    ['a.example', 'invalid_input', 'missing_url'],
    ['a.example,https://a.example/x,more', 'invalid_input', 'extra_fields'],
    ['a.example,"https://a.example/unterminated', 'invalid_input', 'malformed_record'],
    ['other.example,https://a.example/private/2', 'disallowed_explicit', ''],
    ['a.example,mailto:x@a.example', 'invalid_input', 'unsupported_scheme'],
    ['a.example,http://a b/', 'invalid_input', 'bad_url'],
    [',/nohost', 'invalid_input', 'path_without_host'],
    // Scheme-less URLs: read as https:// + url when the host column names the host, or it is clearly one.
    ['a.example,A.example/private/3', 'disallowed_explicit', ''],
    [',a.example/private/4?x', 'disallowed_explicit', ''],
    ['a.example,index.html', 'invalid_input', 'bad_url'],
  ];
  const lines = rows.map(([text], i) => `${i},${text}`);
  // Blank lines between records are not records.
  const body = `\ufeffid,host,url\r\n${lines.slice(0, 5).join('\r\n')}\r\n\r\n${lines.slice(5).join('\r\n')}\r\n\r\n`;
  return { bytes: Buffer.from(body), expected: rows.map(([, v, c]) => [v, c]) };
}

export function tempDir(prefix = 'ra-classify-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export function writeRobots(dir: string, files: Record<string, string>): string {
  const robots = path.join(dir, 'robots');
  mkdirSync(robots, { recursive: true });
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(robots, name), body);
  return robots;
}

/**
 * A run to stop: an input of `rows` records of a.example, an output in a fresh empty directory, and a
 * signal aborted with 'SIGINT' after `afterMs`. `leftNothing()` is true when that directory is empty.
 */
export function abortCase(
  dir: string,
  rows: number,
  afterMs = 150,
): { input: string; output: string; signal: AbortSignal; leftNothing: () => boolean } {
  const input = path.join(dir, `big-${rows}.csv`);
  const lines = ['host,url'];
  for (let i = 0; i < rows; i++) lines.push(`a.example,https://a.example/p/${i}`);
  writeFileSync(input, `${lines.join('\n')}\n`);
  const out = tempDir('ra-abort-');
  const ac = new AbortController();
  setTimeout(() => ac.abort('SIGINT'), afterMs);
  return {
    input,
    output: path.join(out, 'v.csv'),
    signal: ac.signal,
    leftNothing: () => readdirSync(out).length === 0,
  };
}
