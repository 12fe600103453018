import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppendedRules } from '../../src/core/appended-rules.js';
import { BaseRanks } from '../../src/core/base-ranks.js';
import { V_ALLOWED_EXPLICIT } from '../../src/rows/verdict-format.js';
import { matchRow } from '../../src/workers/match-row.js';
import { OriginStore } from '../../src/workers/origin-store.js';
import type { WirePolicy } from '../../src/workers/protocol.js';
import { DirPolicySource } from '../../src/workers/robots-dir-reader.js';
import { usedAfterGc } from '../helpers/heap.js';
import { asOfConfig, config, historyPolicy, judgeAt, parsedPolicy } from './classify-fixtures.js';

function policy(body: string): WirePolicy {
  return parsedPolicy(body, 'https://a-rather-long-host-name.example');
}

/** As of a time, by the first column, no grace and no age limit. */
const AS_OF = asOfConfig();

/** A change reverted: the third version brings the first one's body back. */
const REVERTED = [
  'User-agent: *\nDisallow: /a\n',
  'User-agent: *\nDisallow: /b\n',
  'User-agent: *\nDisallow: /a\n',
];

/** An as-of origin's policy whose versions have these bodies, 100 ms apart (each body sent). */
function historyOf(bodies: string[]): WirePolicy {
  return historyPolicy(bodies, 'https://a-rather-long-host-name.example');
}

describe('OriginStore', () => {
  it('judges with the installed policy and finds the origin by an equal host', () => {
    const store = new OriginStore(config());
    const batch = `x,https://a-rather-long-host-name.example/${'p'.repeat(300_000)}`;
    const host = batch.slice(10, 10 + 'a-rather-long-host-name.example'.length);
    const e = store.install(policy('User-agent: *\nDisallow: /p\n'), { scheme: 'https', host, port: 443 }, 1);
    expect(e.host).toBe('a-rather-long-host-name.example');
    expect(store.find('https', 'a-rather-long-host-name.example', 443, 2)).toBe(e);
    expect(store.full(e, e.slot!.rules![0]!.decide('/p'))).toBe(
      ',false,disallowed_explicit,2,Disallow: /p,200,\n',
    );
  });

  it('gives the verdict text of every rule, low and high ranks alike, the same on every call', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `Disallow: /p${i}/`);
    const body = `User-agent: *\n${lines.join('\n')}\n`;
    const one = new OriginStore(config());
    const e = one.install(policy(body), { scheme: 'https', host: 'one.example', port: 443 }, 1);
    const two = new OriginStore(config({ agents: ['Googlebot', 'OtherBot'] }));
    const f = two.install(policy(body), { scheme: 'https', host: 'two.example', port: 443 }, 1);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 40; i++) {
        const rank = e.slot!.rules![0]!.decide(`/p${i}/x`);
        const part = `,false,disallowed_explicit,${i + 2},Disallow: /p${i}/`;
        expect(one.full(e, rank)).toBe(`${part},200,\n`);
        for (let a = 0; a < 2; a++) expect(two.part(f, a, f.slot!.rules![a]!.decide(`/p${i}/x`))).toBe(part);
      }
      expect(one.full(e, -1)).toBe(',true,allowed_implicit,,,200,\n');
      expect(two.part(f, 1, -1)).toBe(',true,allowed_implicit,,');
    }
  });

  it('does not keep alive the batch texts the hosts of its origins were sliced from', () => {
    const store = new OriginStore(config());
    const base = usedAfterGc();
    for (let i = 0; i < 40; i++) {
      const name = `host-number-${i}.example`;
      const batch = `0123456789${name},${Buffer.alloc(512 * 1024, 97 + (i % 26)).toString('latin1')}`;
      const host = batch.slice(10, 10 + name.length); // a V8 sliced string: points into the whole batch
      store.install(policy(`User-agent: *\nDisallow: /${i}\n`), { scheme: 'https', host, port: 443 }, 1);
    }
    expect(store.originCount).toBe(40);
    expect(usedAfterGc() - base).toBeLessThan(4 * 1024 * 1024);
  });

  it('gives the versions of an as-of origin its names, one set of disallowed-row counters, and one rule counter per body', () => {
    const store = new OriginStore(config({ asOf: AS_OF }));
    const p = historyOf(REVERTED);
    const e = store.install(p, { scheme: 'https', host: 'a-rather-long-host-name.example', port: 443 }, 1);
    const versions = e.history!.versions;
    expect(versions).toHaveLength(3);
    for (const v of versions) {
      expect(v.key).toBe(e.key);
      expect(v.host).toBe(e.host);
      expect(v.disallowed).toBe(versions[0]!.disallowed);
    }
    const classes = new Uint8Array(1);
    matchRow(store, versions[0]!, '/a', 1, classes, 0, 10);
    matchRow(store, versions[1]!, '/b', 1, classes, 0, 110);
    // Two versions judged rows of the origin: its disallowed rows are reported once, with both counted.
    const dirty = store.drainDirty();
    expect(dirty).toEqual([versions[0], versions[1]]);
    expect(versions[0]!.disallowed).toEqual([2]);
    // Versions with one body count their rule hits together; the others apart.
    expect(versions[2]!.ruleHits).toBe(versions[0]!.ruleHits);
    expect(versions[1]!.ruleHits).not.toBe(versions[0]!.ruleHits);
    matchRow(store, versions[2]!, '/a', 1, classes, 0, 210);
    expect(store.drainDirty()).toEqual([versions[2]]);
    expect([...versions[0]!.ruleHits[0]!.drain()]).toEqual([[0, 2]]);
  });

  it('with evidence columns, gives each version its own entry, and versions with one body one rule counter', () => {
    const store = new OriginStore(config({ asOf: AS_OF, evidence: true }));
    const p = historyOf(REVERTED);
    const e = store.install(p, { scheme: 'https', host: 'x.example', port: 443 }, 1);
    const [v0, v1, v2] = e.history!.versions;
    // Each version's evidence names its own capture time: three entries, three tails.
    expect(new Set([v0, v1, v2]).size).toBe(3);
    expect(v2!.tail).not.toBe(v0!.tail);
    expect(v2!.slot).toBe(v0!.slot);
    expect(v2!.ruleHits).toBe(v0!.ruleHits);
    expect(v1!.ruleHits).not.toBe(v0!.ruleHits);
  });

  it('gives versions that serve one body one entry, which still looks back from the version in force for the grace', () => {
    const store = new OriginStore(config({ asOf: { ...AS_OF, graceMs: 50 } }));
    const p = historyOf(REVERTED);
    const e = store.install(p, { scheme: 'https', host: 'a-rather-long-host-name.example', port: 443 }, 1);
    const [v0, v1, v2] = e.history!.versions;
    expect(v2).toBe(v0);
    expect(v1).not.toBe(v0);
    const pick = { reason: null, ageMs: 0, rules: null };
    const classes = new Uint8Array(1);
    // At 210 the third version is in force; the second, which allowed /a, was replaced 10 ms before.
    expect(store.pick(e, 210, 2, pick)).toBe(v2);
    expect(matchRow(store, v2!, '/a', 1, classes, 0, 210)).toBe(
      ',false,disallowed_explicit,2,Disallow: /a,true,200,\n',
    );
    expect(matchRow(store, v2!, '/a', 1, classes, 0, 260)).toBe(
      ',false,disallowed_explicit,2,Disallow: /a,false,200,\n',
    );
    // Under the first version itself nothing earlier was in force.
    expect(matchRow(store, v0!, '/a', 1, classes, 0, 10)).toBe(
      ',false,disallowed_explicit,2,Disallow: /a,false,200,\n',
    );
  });

  it('compiles only what a version appended to an earlier one, and judges both through one entry', () => {
    const store = new OriginStore(config({ asOf: { ...AS_OF, graceMs: 50 } }));
    const base = `User-agent: *\n${Array.from({ length: 60 }, (_, i) => `Disallow: /p${i}/`).join('\n')}\n`;
    const p = historyOf([
      base,
      `${base}User-agent: *\nDisallow: /search\nAllow: /p7/ok\n`,
      `${base}User-agent: GPTBot\nDisallow: /\n`,
    ]);
    const e = store.install(p, { scheme: 'https', host: 'a-rather-long-host-name.example', port: 443 }, 1);
    // The versions the layered one stands on (the first, and the third: another crawler's group only)
    // are judged through its entry, by its ranks: one entry, one set of texts and counters. That entry
    // stands for the origin too (a row's pick finds the entry it judges by already loaded), and picks from
    // its span (HistorySpans), the versions seen through other rules a bit each: it keeps no history.
    expect(e.spanAt).toBeGreaterThanOrEqual(0);
    expect(e.history).toBeNull();
    expect(e.slot!.rules![0]).toBeInstanceOf(AppendedRules);
    // The layered rules count what they add, and go when the rules they stand on go.
    const layered = e.slot!;
    const own = layered.bases![0]!;
    expect(layered.cost).toBeLessThan(own.cost / 2);
    expect(layered.bases).toHaveLength(1);
    const seen = e.view![0] as BaseRanks;
    expect(seen).toBeInstanceOf(BaseRanks);
    expect([e.spanN, e.viewMask, e.viewBase, e.viewNb, e.viewFallback]).toEqual([
      3,
      0b101,
      seen.base,
      seen.nb,
      seen.fallback,
    ]);
    const judge = (path: string, t: number) => judgeAt(store, e, path, t, 1);
    expect(judge('/searching', 160)).toBe(',false,disallowed_explicit,63,Disallow: /search,false,200,\n');
    expect(judge('/p7/x', 160)).toBe(',false,disallowed_explicit,9,Disallow: /p7/,false,200,\n');
    expect(judge('/searching', 10)).toBe(',true,allowed_implicit,,,,200,\n');
    expect(judge('/p7/x', 10)).toBe(',false,disallowed_explicit,9,Disallow: /p7/,false,200,\n');
    // Within the grace after the change at 100, the first version allowed it.
    expect(judge('/searching', 120)).toBe(',false,disallowed_explicit,63,Disallow: /search,true,200,\n');
    expect(judge('/searching', 210)).toBe(',true,allowed_implicit,,,,200,\n');
    // Back to the first rules at 200: the second version, within the grace, allowed it.
    expect(judge('/p7/ok', 160)).toBe(',true,allowed_explicit,64,Allow: /p7/ok,,200,\n');
    expect(judge('/p7/ok', 210)).toBe(',false,disallowed_explicit,9,Disallow: /p7/,true,200,\n');
    expect(judge('/p7/ok', 260)).toBe(',false,disallowed_explicit,9,Disallow: /p7/,false,200,\n');
    // Rule counters are the entry's: a rule counted under either version is one counter.
    expect(e.ruleHits).toHaveLength(1);
  });

  it('judges versions with no rules through the entry of a version with rules, before and after it', () => {
    const store = new OriginStore(config({ asOf: { ...AS_OF, graceMs: 50 } }));
    // Rules added to a file that had none, then taken out again (as AI-crawler blocks often are).
    const none = "It's secret\n";
    const e = store.install(
      historyOf([none, `${none}\nUser-agent: *\nDisallow: /search\n`, 'User-agent: *\ncrawl-delay: 5']),
      { scheme: 'https', host: 'a-rather-long-host-name.example', port: 443 },
      1,
    );
    // One entry judges every version (see above): a span, no history.
    expect(e.history).toBeNull();
    expect([e.spanN, e.viewMask, e.viewBase]).toEqual([3, 0b101, null]);
    const judge = (path: string, t: number) => judgeAt(store, e, path, t, 1);
    expect(judge('/searching', 10)).toBe(',true,allowed_implicit,,,,200,\n');
    expect(judge('/searching', 160)).toBe(',false,disallowed_explicit,4,Disallow: /search,false,200,\n');
    // Within the grace after the rules came at 100, the file without them allowed it.
    expect(judge('/searching', 120)).toBe(',false,disallowed_explicit,4,Disallow: /search,true,200,\n');
    expect(judge('/searching', 210)).toBe(',true,allowed_implicit,,,,200,\n');
    expect(judge('/other', 160)).toBe(',true,allowed_implicit,,,,200,\n');
  });

  it('judges an earlier version through the later one’s entry when its empty Disallow decides', () => {
    const store = new OriginStore(config({ asOf: AS_OF }));
    const base = 'User-agent: *\nDisallow: /private/\nDisallow:\n';
    const p = historyOf([base, `${base}User-agent: *\nDisallow: /search\n`]);
    const e = store.install(p, { scheme: 'https', host: 'empty.example', port: 443 }, 1);
    expect(e.viewBase).not.toBeNull();
    const judge = (path: string, t: number) => judgeAt(store, e, path, t, 1);
    // No pattern matches: the empty Disallow (line 3) decides under either version, and allows.
    expect(judge('/open', 10)).toBe(',true,allowed_explicit,3,Disallow: ,,200,\n');
    expect(judge('/open', 110)).toBe(',true,allowed_explicit,3,Disallow: ,,200,\n');
    expect(judge('/search', 10)).toBe(',true,allowed_explicit,3,Disallow: ,,200,\n');
    expect(judge('/search', 110)).toBe(',false,disallowed_explicit,5,Disallow: /search,false,200,\n');
    expect(judge('/private/x', 10)).toBe(',false,disallowed_explicit,2,Disallow: /private/,false,200,\n');
    // The row's class (what the summary counts) is the text's too.
    const classes = new Uint8Array(1);
    const pick = { reason: null, ageMs: 0, rules: null };
    const v = store.pick(e, 10, 2, pick)!;
    matchRow(store, v, '/open', 1, classes, 0, 10, pick.rules);
    expect(classes[0]).toBe(V_ALLOWED_EXPLICIT);
  });

  it('judges several agents through one entry when each agent’s rules are the same or appended to', () => {
    const store = new OriginStore(
      config({ asOf: { ...AS_OF, graceMs: 50 }, agents: ['Googlebot', 'GPTBot'] }),
    );
    const base = 'User-agent: Googlebot\nDisallow: /x\n\nUser-agent: *\nDisallow: /a\n';
    const p = historyOf([base, `${base}User-agent: *\nDisallow: /b\n`, base]);
    const e = store.install(p, { scheme: 'https', host: 'x.example', port: 443 }, 1);
    // One entry judges every version: a span, no history.
    expect([e.spanN, e.history]).toEqual([3, null]);
    const judge = (path: string, t: number) => judgeAt(store, e, path, t, 2);
    const implicit = ',true,allowed_implicit,,,';
    expect(judge('/b', 10)).toBe(`${implicit}${implicit},200,\n`);
    expect(judge('/b', 160)).toBe(`${implicit},false,disallowed_explicit,7,Disallow: /b,false,200,\n`);
    expect(judge('/b', 120)).toBe(`${implicit},false,disallowed_explicit,7,Disallow: /b,true,200,\n`);
    expect(judge('/b', 210)).toBe(`${implicit}${implicit},200,\n`);
    expect(judge('/a', 10)).toBe(`${implicit},false,disallowed_explicit,5,Disallow: /a,false,200,\n`);
    expect(judge('/x', 160)).toBe(`,false,disallowed_explicit,2,Disallow: /x,false${implicit},200,\n`);
  });

  it('judges the rule for paths no pattern matches through the shared entry, or keeps entries apart when it differs', () => {
    const store = new OriginStore(config({ asOf: AS_OF }));
    const host = { scheme: 'https' as const, host: 'x.example', port: 443 };
    const base = 'User-agent: *\nDisallow:\nDisallow: /p\n';
    const shared = store.install(
      historyOf([base, `${base}User-agent: *\nAllow: /q\nDisallow: /q/r\n`]),
      host,
      1,
    );
    // One entry judges both versions: a span, no history.
    expect([shared.spanN, shared.history]).toEqual([2, null]);
    const judge = (e: typeof shared, path: string, t: number) => judgeAt(store, e, path, t, 1);
    expect(judge(shared, '/x', 10)).toBe(',true,allowed_explicit,2,Disallow: ,,200,\n');
    expect(judge(shared, '/q/r', 10)).toBe(',true,allowed_explicit,2,Disallow: ,,200,\n');
    expect(judge(shared, '/q/r', 110)).toBe(',false,disallowed_explicit,6,Disallow: /q/r,false,200,\n');
    expect(judge(shared, '/x', 110)).toBe(',true,allowed_explicit,2,Disallow: ,,200,\n');
    // An empty Allow appended is the later version's rule for such paths, not the earlier's empty Disallow.
    const other = { ...host, host: 'y.example' };
    const apart = store.install(historyOf([base, `${base}User-agent: *\nAllow:\n`]), other, 1);
    const [b0, b1] = apart.history!.versions;
    expect(b0).not.toBe(b1);
    expect(apart.history!.views).toBeNull();
    expect(apart).not.toBe(b0);
    expect(apart).not.toBe(b1);
    expect(judge(apart, '/x', 10)).toBe(',true,allowed_explicit,2,Disallow: ,,200,\n');
    expect(judge(apart, '/x', 110)).toBe(',true,allowed_explicit,5,Allow: ,,200,\n');
  });

  it('holds one rule set and one entry for versions that differ only where no agent’s rules see it', () => {
    const store = new OriginStore(config({ asOf: AS_OF, agents: ['Googlebot', 'OtherBot'] }));
    const rules = 'User-agent: *\nDisallow: /a\nAllow: /a/b\n';
    // Forty captures of a file stamped with its build time, and one that adds a group for another crawler.
    const bodies = Array.from({ length: 40 }, (_, i) => `${rules}# built ${i}\n`);
    bodies.push(`${rules}# built 40\nUser-agent: GPTBot\nDisallow: /\n`);
    const e = store.install(historyOf(bodies), { scheme: 'https', host: 'x.example', port: 443 }, 1);
    const versions = e.history!.versions;
    expect(new Set(versions).size).toBe(1);
    expect(store.compiledCount).toBe(1);
    // Each version still judges as a compile of its own body would, for every agent.
    const classes = new Uint8Array(2);
    expect(matchRow(store, versions[40]!, '/a/c', 2, classes, 0, 4000)).toBe(
      ',false,disallowed_explicit,2,Disallow: /a,false,false,disallowed_explicit,2,Disallow: /a,false,200,\n',
    );
    // A change one agent's rules see is a rule set of its own.
    const f = store.install(
      historyOf([...bodies, `${rules}User-agent: OtherBot\nDisallow: /\n`]),
      { scheme: 'https', host: 'y.example', port: 443 },
      2,
    );
    const last = f.history!.versions.at(-1)!;
    expect(last).not.toBe(f.history!.versions[0]);
    expect(f.history!.versions[39]).toBe(f.history!.versions[0]);
    expect(store.compiledCount).toBe(2);
    expect(matchRow(store, last, '/z', 2, classes, 0, 4100)).toBe(
      ',true,allowed_implicit,,,,false,disallowed_explicit,5,Disallow: /,false,200,\n',
    );
    // Evicting the rule set forgets every body filed under it.
    expect(store.holdCompiled(e.history!.versions[0]!.slot!.sha)).toBe(true);
  });

  it('keeps every version of an as-of origin another unit installed until the unit that finds it picks', () => {
    const budget = 2 << 20;
    const store = new OriginStore(config({ asOf: AS_OF, compiledBudget: budget }));
    // ≈ 0.5 MiB compiled each (distinct wildcard rules): four fit in the budget.
    const body = (i: number) =>
      `User-agent: *\n${Array.from({ length: 4000 }, (_, k) => `Disallow: /${i}-${k}/*.p`).join('\n')}\n`;
    const x = { scheme: 'https' as const, host: 'x.example', port: 443 };
    const p = historyOf([body(1), body(2), body(3)]);
    // Unit 1 installs the origin and ends; unit 2 finds it, then installs others before its rows pick.
    store.protectFrom = 1;
    store.install(p, x, 1);
    store.protectFrom = 2;
    const e = store.findOrInstall(p, x, 2);
    for (let i = 10; i < 16; i++) {
      const host = `big-${i}.example`;
      store.install(parsedPolicy(body(i), `https://${host}`), { scheme: 'https', host, port: 443 }, 2);
    }
    const pick = { reason: null, ageMs: 0, rules: null };
    for (const t of [10, 110, 210]) {
      const v = store.pick(e, t, 2, pick);
      expect(v).toBe(e.history!.versions[Math.floor(t / 100)]);
      expect(v!.slot!.rules).not.toBeNull();
    }
  });

  it('stays within its origin budget when every origin has counters to report', () => {
    const store = new OriginStore(config({ originBudget: 100 }));
    for (let stamp = 1; stamp <= 30; stamp++) {
      store.protectFrom = stamp;
      for (let i = 0; i < 10; i++) {
        const e = install(store, `h${stamp}-${i}.example`, stamp);
        store.touch(e);
      }
    }
    expect(store.originCount).toBeLessThanOrEqual(100);
    // Evicted entries still report their counters.
    expect(store.drainDirty()).toHaveLength(300);
  });

  it('forgets an origin once its compiled rules are evicted, so that no entry keeps them alive', () => {
    const budget = 2 << 20;
    const store = new OriginStore(config({ compiledBudget: budget }));
    // ≈ 0.5 MiB compiled each (distinct wildcard rules): four fit in the budget, not forty.
    const body = (i: number) =>
      `User-agent: *\n${Array.from({ length: 4000 }, (_, k) => `Disallow: /${i}-${k}/*.p`).join('\n')}\n`;
    const base = usedAfterGc();
    for (let i = 1; i <= 40; i++) {
      store.protectFrom = i;
      const host = `big-${i}.example`;
      store.install(parsedPolicy(body(i), `https://${host}`), { scheme: 'https', host, port: 443 }, i);
    }
    expect(store.compiledCount).toBeLessThan(10);
    // The origins of evicted rules are gone at once, not at their next row (which may never come).
    expect(store.originCount).toBe(store.compiledCount);
    expect(usedAfterGc() - base).toBeLessThan(4 * budget);
  });

  it('does not rescan its origins on every install while batches in flight hold most of them', () => {
    const store = new OriginStore(config({ originBudget: 100 }));
    store.protectFrom = 1;
    for (let i = 0; i < 400; i++) install(store, `h${i}.example`, 1);
    expect(store.originCount).toBe(400);
    // Each pass that frees nothing waits for a quarter of the budget more: not 300 passes.
    expect(store.evictionPasses).toBeLessThanOrEqual(13);
    store.protectFrom = 2;
    install(store, 'after.example', 2);
    expect(store.originCount).toBeLessThanOrEqual(100);
  });

  it('sends no origin to the report when its rows had nothing to count', () => {
    const store = new OriginStore(config());
    const e = install(store, 'quiet.example', 1, 'unavailable');
    expect(matchRow(store, e, '/', 1, new Uint8Array(1), 0)).toBe(',true,allowed_unavailable,,,missing,\n');
    expect(store.drainDirty()).toHaveLength(0);
  });

  it('remembers origins without a robots.txt in its compact table, with no entry of their own', () => {
    const store = new OriginStore(config({ originBudget: 100 }));
    const base = usedAfterGc();
    for (let i = 0; i < 100_000; i++) install(store, `no-file-${i}.example`, 1, 'unavailable');
    expect(store.originCount).toBe(0);
    expect(store.evictionPasses).toBe(0);
    // Far less than an entry, a key and a host per origin (≈ 250 bytes each): the table is typed arrays.
    expect(usedAfterGc() - base).toBeLessThan(12 * 1024 * 1024);
    const e = store.find('https', 'no-file-99999.example', 443, 2);
    expect(e).toBeDefined();
    expect(matchRow(store, e!, '/x', 1, new Uint8Array(1), 0)).toBe(',true,allowed_unavailable,,,missing,\n');
    expect(store.find('https', 'no-file-99999.example', 80, 2)).toBeUndefined();
    expect(store.find('http', 'no-file-99999.example', 443, 2)).toBeUndefined();
    expect(store.find('https', 'no-file-99999.exampl', 443, 2)).toBeUndefined();
  });

  it('judges an origin by its latest policy when it moves between the compact table and an entry', () => {
    const store = new OriginStore(config());
    const origin = { scheme: 'https' as const, host: 'moving.example', port: 443 };
    install(store, 'moving.example', 1, 'unavailable');
    const parsed = store.install(policy('User-agent: *\nDisallow: /\n'), origin, 2);
    expect(store.find('https', 'moving.example', 443, 3)).toBe(parsed);
    expect(store.originCount).toBe(1);
    install(store, 'moving.example', 4, 'unavailable');
    expect(store.originCount).toBe(0);
    const e = store.find('https', 'moving.example', 443, 5)!;
    expect(matchRow(store, e, '/x', 1, new Uint8Array(1), 0)).toBe(',true,allowed_unavailable,,,missing,\n');
  });

  it('judges an origin its directory has no file for without a policy request, as a read would', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'ra-store-probe-'));
    writeFileSync(path.join(root, 'has.example.txt'), 'User-agent: *\nDisallow: /\n');
    const store = new OriginStore(config());
    const source = new DirPolicySource(root);
    store.missingProbe = source;
    expect(store.probeMissing('https', 'has.example', 443)).toBeUndefined();
    const e = store.probeMissing('https', 'none.example', 443)!;
    const read = store.install(
      source.fetch({
        keys: ['https://other.example'],
        origins: [{ scheme: 'https', host: 'other.example', port: 443 }],
      })[0]!,
      { scheme: 'https', host: 'other.example', port: 443 },
      1,
    );
    expect(e).toBe(read);
    expect(store.find('https', 'none.example', 443, 2)).toBe(e);
    expect(source.take()).toMatchObject({ resolved: 2, unavailable: 2, missing: 2 });
  });

  it('keeps an entry per origin with evidence columns, which name each origin’s robots.txt', () => {
    const store = new OriginStore(config({ evidence: true }));
    const e = install(store, 'evident.example', 1, 'unavailable');
    expect(store.originCount).toBe(1);
    expect(matchRow(store, e, '/', 1, new Uint8Array(1), 0)).toContain('https://evident.example/robots.txt');
  });
});

/** An origin with no robots.txt (a missing file), or one whose file cannot be read, at `stamp`. */
function install(
  store: OriginStore,
  host: string,
  stamp: number,
  outcome: 'unavailable' | 'unreachable' = 'unreachable',
) {
  const p: WirePolicy = {
    key: `https://${host}`,
    outcome,
    status: outcome === 'unavailable' ? 'missing' : 'ERR_ROBOTS_FILE',
    body: null,
    sha256: null,
    robotsUrl: `https://${host}/robots.txt`,
    fetchedAt: '',
    truncated: false,
  };
  return store.install(p, { scheme: 'https', host, port: 443 }, stamp);
}
