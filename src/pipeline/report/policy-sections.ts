import { AccessTally } from './access-section.js';
import type { PolicySections } from './build-report.js';
import { ChangesTally } from './changes-section.js';
import { CachePolicyLookup } from './policy-cache-lookup.js';
import { DirPolicyLookup } from './policy-dir-lookup.js';
import type { PolicyLookup } from './policy-lookup.js';
import { decodeLatin1 } from './site-of.js';

export interface PolicySectionOptions {
  cache: string | undefined;
  robotsDir: string | undefined;
  /** Start of the changes window (epoch ms). */
  since: number;
  /** Rows were judged as of a time (`--at-column`). */
  atColumn: string | undefined;
}

/** The row hook of the changes section; `rule` and `sha256` (evidence) are '' or absent when the data has none. */
export type FlipRowHook = (
  site: string,
  url: string,
  agent: string,
  verdict: string,
  ruleLine: number,
  rule?: string,
  sha256?: string,
) => void;

/**
 * The crawler-access and changes sections fed by the report's rows: null without a policy source. The
 * changes section needs the cache's history, so it is null with `--robots-dir`. Its window ends at `now`.
 * Row strings are latin1 views of UTF-8 bytes: URLs are decoded before they are judged and kept.
 */
export function openPolicySections(
  opts: PolicySectionOptions,
  agents: readonly string[],
  now: Date = new Date(),
): PolicySections | null {
  if (opts.cache === undefined && opts.robotsDir === undefined) return null;
  const lookup: PolicyLookup =
    opts.cache !== undefined ? CachePolicyLookup.open(opts.cache) : new DirPolicyLookup(opts.robotsDir!);
  let changes: ChangesTally | null = null;
  try {
    const access = new AccessTally(lookup, agents);
    if (opts.cache !== undefined) {
      changes = ChangesTally.open(opts.cache, new Date(opts.since), now, {
        asOf: opts.atColumn !== undefined,
      });
    }
    const c = changes;
    const row: FlipRowHook = (site, url, agent, verdict, ruleLine, rule, sha256) => {
      c?.observeRow(
        site,
        decodeLatin1(url),
        agent,
        verdict,
        ruleLine,
        rule === undefined ? '' : decodeLatin1(rule),
        // '' is also what a file without the evidence column gives: no evidence either way.
        sha256 === undefined || sha256 === '' ? {} : { sha256 },
      );
    };
    return {
      hooks: {
        site: (site) => access.observe(site),
        ...(c === null ? {} : { wants: (site: string) => c.wants(site), row }),
      },
      access(dataAgents = []) {
        try {
          return access.finish(dataAgents);
        } finally {
          lookup.close();
        }
      },
      changes() {
        if (c === null) return null;
        try {
          return c.finish();
        } finally {
          c.close();
        }
      },
    };
  } catch (err) {
    lookup.close();
    changes?.close();
    throw err;
  }
}
