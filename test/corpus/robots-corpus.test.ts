// Sweep over the shared corpus (../shared/corpus, present in CI): every robots.txt parses within a
// generous time bound, and the compiled fast path agrees with the deliberately simple reference model
// (test/helpers/reference-matcher.ts) on paths built from each file's own rules and on real crawl URLs;
// a later version that appends groups to a real file decides, layered on the file's rules, as alone.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AppendedRules } from '../../src/core/appended-rules.js';
import { compileRobotsTxt, compileVersions, parseRobotsTxt, pathFromUrl } from '../../src/core/index.js';
import type { Decision } from '../../src/core/types.js';
import { referenceMatcher } from '../helpers/reference-matcher.js';

const corpus = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));
const hasCorpus = existsSync(join(corpus, 'robots'));

/** Parse + compile of one file, however large (the 3.7 MB edge file included), in this many ms. */
const PARSE_BOUND_MS = 10_000;
const RULES_SAMPLED = 16;
const FALLBACK_AGENT = 'ZzzUnknownBot';

const RULE_LINE = /^\s*(?:dis)?allow\s*:?\s*([^#\s]+)/i;
const USER_AGENT_LINE = /^\s*user-?agent\s*:?\s*([A-Za-z_-]+)/i;

/** Non-ASCII chars as upper-case %XX of their UTF-8 bytes: the form a crawler sends. */
function percentEncode(s: string): string {
  return s.replace(/[^\x00-\x7f]/gu, (c) => encodeURIComponent(c).toUpperCase());
}

/** Paths built from a file's own rule values: prefixes, wildcards filled in, variants around them. */
function pathsFor(text: string): string[] {
  const values: string[] = [];
  const agents = new Set<string>();
  for (const line of text.split(/\r\n|\r|\n/)) {
    const rule = RULE_LINE.exec(line);
    if (rule) values.push(rule[1]!);
    const ua = USER_AGENT_LINE.exec(line);
    if (ua) agents.add(ua[1]!);
  }
  const step = Math.max(1, Math.floor(values.length / RULES_SAMPLED));
  const paths = new Set(['/', '/index.html', '/robots.txt', '/search?q=1']);
  for (let i = 0; i < values.length; i += step) {
    const v = values[i]!;
    const base = v.startsWith('/') ? v : `/${v}`;
    const star = base.indexOf('*');
    const literal = (star < 0 ? base : base.slice(0, star)).replace(/\$$/, '');
    const filled = base.replace(/\$$/, '').replaceAll('*', 'x/y');
    for (const p of [literal, filled, `${filled}/z?a=1`, `${literal.slice(0, -1)}`, percentEncode(filled)]) {
      paths.add(p.startsWith('/') ? p : `/${p}`);
    }
  }
  return [...paths];
}

function firstNamedAgent(text: string): string | undefined {
  for (const line of text.split(/\r\n|\r|\n/)) {
    const ua = USER_AGENT_LINE.exec(line);
    if (ua) return ua[1];
  }
  return undefined;
}

/** Each PAIRS.tsv host with a robots.txt in the corpus: the file's bytes and the host's crawl URLs. */
function* pairs(): Generator<{ host: string; robotsFile: string; bytes: Buffer; urls: string[] }> {
  const rows = readFileSync(join(corpus, 'urls', 'PAIRS.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  for (const row of rows) {
    const [host, urlsFile, , robotsFile] = row.split('\t');
    if (!robotsFile || robotsFile === '-') continue;
    const bytes = readFileSync(join(corpus, 'robots', robotsFile));
    const urls = readFileSync(join(corpus, 'urls', urlsFile!), 'utf8')
      .split('\n')
      .filter(Boolean);
    yield { host: host!, robotsFile, bytes, urls };
  }
}

interface Mismatch {
  file: string;
  agent: string;
  path: string;
  fast: Decision;
  reference: Decision;
}

function sweep(dir: string): {
  files: number;
  checks: number;
  explicit: number;
  mismatches: Mismatch[];
  slow: string[];
} {
  const mismatches: Mismatch[] = [];
  const slow: string[] = [];
  let files = 0;
  let checks = 0;
  let explicit = 0;
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.txt')) continue;
    const bytes = readFileSync(join(dir, file));
    const t0 = performance.now();
    const robots = parseRobotsTxt(bytes);
    robots.compile('Googlebot');
    const ms = performance.now() - t0;
    if (ms > PARSE_BOUND_MS) slow.push(`${file}: ${ms.toFixed(0)} ms`);
    files++;
    const text = bytes.toString('latin1');
    const paths = pathsFor(text);
    const agents = new Set(['Googlebot', FALLBACK_AGENT, firstNamedAgent(text) ?? 'Bingbot']);
    for (const agent of agents) {
      const fast = robots.compile(agent);
      const reference = referenceMatcher(bytes, agent);
      for (const path of paths) {
        checks++;
        const a = fast.checkPath(path);
        const b = reference(path);
        if (a.line > 0) explicit++;
        if (a.line !== b.line || a.verdict !== b.verdict || a.rule !== b.rule) {
          mismatches.push({ file, agent, path, fast: a, reference: b });
        }
      }
    }
  }
  return { files, checks, explicit, mismatches, slow };
}

describe.skipIf(!hasCorpus)('robots.txt corpus sweep (../shared/corpus)', () => {
  for (const sub of ['robots-edge', 'robots']) {
    it(`${sub}/: every file parses in time and matches the reference model on its own rules`, () => {
      const { files, checks, explicit, mismatches, slow } = sweep(join(corpus, sub));
      expect(files).toBeGreaterThan(sub === 'robots' ? 20_000 : 50);
      expect(checks).toBeGreaterThan(files);
      // The paths come from the files' own rules, so many checks must be decided by a rule.
      expect(explicit).toBeGreaterThan(checks / 10);
      expect(slow).toEqual([]);
      expect(mismatches.slice(0, 5)).toEqual([]);
    });
  }

  it('urls/PAIRS.tsv: real crawl URLs against their host robots.txt, fast path vs reference', () => {
    const mismatches: Mismatch[] = [];
    let checks = 0;
    let disallowed = 0;
    for (const { host, robotsFile, bytes, urls } of pairs()) {
      const robots = parseRobotsTxt(bytes);
      for (const agent of ['Googlebot', 'Bingbot', 'GPTBot', FALLBACK_AGENT]) {
        const fast = robots.compile(agent);
        const reference = referenceMatcher(bytes, agent);
        for (const url of urls) {
          checks++;
          const a = fast.check(url);
          const b = reference(pathFromUrl(url));
          if (!a.allowed) disallowed++;
          if (a.line !== b.line || a.verdict !== b.verdict || a.rule !== b.rule) {
            mismatches.push({ file: `${host} ${robotsFile}`, agent, path: url, fast: a, reference: b });
          }
        }
      }
    }
    expect(checks).toBeGreaterThan(400_000);
    expect(disallowed).toBeGreaterThan(0);
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it('urls/PAIRS.tsv: each file with lines added above or groups appended, layered on its compiled rules, decides as compiled alone', () => {
    // Changes a site makes over time: a `*` group added, a crawler's group, empty rules, wildcards.
    const appended = [
      '\nUser-agent: *\nDisallow: /search\n',
      'User-agent: *\nAllow: /\nDisallow: /a\n',
      '\nUser-agent: Googlebot\nDisallow: /private\nAllow: /private/index.html\n',
      '\nUser-agent: *\nAllow:\nDisallow: /\n',
      '\nUser-agent: *\nDisallow:\n',
      '\nuser-agent: GPTBot\nDisallow: /\n',
      '\nUser-agent: *\nDisallow: /*.php$\nAllow: /*?\n',
    ];
    // Lines added above the file's own: a dated comment, a crawler's group put on top.
    const above = ['', '# updated 2024-05-01\n', 'User-agent: GPTBot\nDisallow: /\n\n'];
    const changes = above.flatMap((head) => ['', ...appended].map((tail) => [head, tail] as const));
    const agents = ['Googlebot', 'Bingbot', 'GPTBot'];
    const extra = ['/search', '/a', '/private/index.html', '/x.php', '/x.php?y', '/robots.txt', '/'];
    const mismatches: unknown[] = [];
    let checks = 0;
    let layered = 0;
    let viewed = 0;
    for (const { host, bytes, urls } of pairs()) {
      const paths = [...urls.slice(0, 40).map(pathFromUrl), ...pathsFor(bytes.toString('latin1')), ...extra];
      for (const [head, tail] of changes) {
        const later = Buffer.concat([Buffer.from(head), bytes, Buffer.from(tail)]);
        const [first, next] = compileVersions([bytes, later], agents);
        const alone = compileRobotsTxt(later, agents);
        for (let a = 0; a < agents.length; a++) {
          if (next![a] !== first![a] && next![a]!.constructor !== alone[a]!.constructor) layered++;
          // The earlier version read in the later one's ranks (one entry serves both as of a time).
          const r = next![a]!;
          const view = r instanceof AppendedRules && first!.includes(r.shared) ? r.baseRanks() : undefined;
          if (view !== undefined) viewed++;
          for (const path of paths) {
            checks++;
            const x = r.checkPath(path);
            const y = alone[a]!.checkPath(path);
            if (x.line !== y.line || x.verdict !== y.verdict || x.rule !== y.rule)
              mismatches.push({ host, head, tail, agent: agents[a], path, layered: x, alone: y });
            if (view === undefined) continue;
            const v = view.checkPath(path);
            const w = first![a]!.checkPath(path);
            if (v.line !== w.line || v.verdict !== w.verdict || v.rule !== w.rule)
              mismatches.push({ host, head, tail, agent: agents[a], path, view: v, earlier: w });
          }
        }
      }
    }
    expect(checks).toBeGreaterThan(2_000_000);
    expect(layered).toBeGreaterThan(20_000);
    expect(viewed).toBeGreaterThan(10_000);
    expect(mismatches.slice(0, 5)).toEqual([]);
  });
});
