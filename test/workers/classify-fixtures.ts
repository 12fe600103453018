import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PolicyBroker } from '../../src/pipeline/policy/policy-broker.js';
import { createDirPolicyProvider } from '../../src/pipeline/policy/robots-dir-provider.js';
import { matchRow } from '../../src/workers/match-row.js';
import type { OriginEntry, OriginStore } from '../../src/workers/origin-store.js';
import type { AsOfConfig, WirePolicy, WireVersion, WorkerConfig } from '../../src/workers/protocol.js';

/** A temp robots dir holding the given `<file name> → body`. */
export function robotsDir(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ra-robots-'));
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(dir, name), body);
  return dir;
}

/** Policies from a real robots dir through the real broker, as the coordinator answers workers. */
export function dirFetcher(dir: string) {
  const broker = new PolicyBroker(createDirPolicyProvider(dir));
  return { broker, fetch: broker.resolve.bind(broker) };
}

/** A parsed policy of `origin` with this body, its sha256 standing in as the body itself. */
export function parsedPolicy(body: string, origin = 'https://a.example'): WirePolicy {
  return {
    key: origin,
    outcome: 'parsed',
    status: '200',
    body: new TextEncoder().encode(body),
    sha256: body,
    robotsUrl: `${origin}/robots.txt`,
    fetchedAt: '',
    truncated: false,
  };
}

export function config(over: Partial<WorkerConfig> = {}): WorkerConfig {
  return {
    agents: ['Googlebot'],
    delimiter: ',',
    urlIndex: 1,
    hostIndex: 0,
    columns: 2,
    scheme: 'https',
    eol: '\n',
    evidence: false,
    compiledBudget: 64 << 20,
    originBudget: 10_000,
    robotsDir: null,
    ...over,
  };
}

/** As of a time, by the first column, with this grace and no age limit. */
export function asOfConfig(graceMs = 0): AsOfConfig {
  return { timeIndex: 0, fixedTime: Number.NaN, timeFormat: 'auto', graceMs, maxAgeMs: Infinity };
}

/** An as-of origin's policy whose versions have these bodies, `step` ms apart from 0 (each body sent). */
export function historyPolicy(bodies: string[], origin = 'https://a.example', step = 100): WirePolicy {
  return {
    ...parsedPolicy(bodies.at(-1)!, origin),
    body: null,
    history: bodies.map(
      (b, i): WireVersion => ({
        ...parsedPolicy(b, origin),
        validFrom: i * step,
        lastSeen: i * step,
        source: 'fetch',
        errorCode: '',
      }),
    ),
  };
}

/** A row's verdict text for `agents` agents at time `t`, judged by the entry the store picks for it. */
export function judgeAt(store: OriginStore, e: OriginEntry, path: string, t: number, agents: number): string {
  const pick = { reason: null, ageMs: 0, rules: null };
  const v = store.pick(e, t, 2, pick)!;
  return matchRow(store, v, path, agents, new Uint8Array(agents), 0, t, pick.rules);
}

export const ROBOTS = {
  'a.example.txt':
    'User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: Googlebot\nDisallow: /g-only\n',
  'b.example.txt': 'User-agent: *\nDisallow: /\n',
  'xn--bcher-kva.example.txt': 'User-agent: *\nDisallow: /café\n',
  'c.example_8080.txt': 'User-agent: *\nDisallow: /port\n',
};
