import { type CrawlerPurpose, crawlerInfo } from '../../core/crawler-registry.js';
import { V_NOT_A_CRAWLER, VERDICTS } from '../../rows/verdict-format.js';
import { OTHER_TOKEN, type RowAgentStats } from '../../workers/protocol.js';

/** Distinct row agents the summary lists; the rest are added up under `(other)`. */
const MAX_TOKENS = 1000;

/** `--agent-column`: the rows judged for one crawler, by verdict (every verdict listed, zeros included). */
export interface RowAgentSummary {
  rows: number;
  /** In the crawler registry's table (then with its operator and purpose). */
  known: boolean;
  operator: string | null;
  purpose: CrawlerPurpose | null;
  verdicts: Record<string, number>;
}

/** The row agents of an `--agent-column` run, from the batches' counts. */
export class RowAgentTally {
  private readonly tokens = new Map<string, { known: boolean; counts: number[] }>();
  private notACrawler = 0;
  private unread = 0;
  /** False once a token was added up under `(other)`. */
  private exact = true;

  add(s: RowAgentStats): void {
    this.unread += s.unread;
    for (const [token, known, counts] of s.tokens) {
      if (token === '') {
        this.notACrawler += counts[V_NOT_A_CRAWLER] ?? 0;
        continue;
      }
      let t = this.tokens.get(token);
      if (t === undefined) {
        const full = this.tokens.size >= MAX_TOKENS || token === OTHER_TOKEN;
        if (full) this.exact = false;
        const key = full ? OTHER_TOKEN : token;
        t = this.tokens.get(key);
        if (t === undefined) {
          t = { known: full ? false : known, counts: VERDICTS.map(() => 0) };
          this.tokens.set(key, t);
        }
      }
      for (let v = 0; v < VERDICTS.length; v++) t.counts[v]! += counts[v] ?? 0;
    }
  }

  build(): {
    rowAgents: Record<string, RowAgentSummary>;
    notACrawler: number;
    rowAgentUnread: number;
    rowAgentsExact: boolean;
  } {
    const entries = [...this.tokens].map(([token, t]): [string, RowAgentSummary] => {
      const info = t.known ? crawlerInfo(token) : undefined;
      return [
        token,
        {
          rows: t.counts.reduce((a, b) => a + b, 0),
          known: info !== undefined,
          operator: info?.operator ?? null,
          purpose: info?.purpose ?? null,
          verdicts: Object.fromEntries(VERDICTS.map((v, i) => [v, t.counts[i]!])),
        },
      ];
    });
    entries.sort((a, b) => b[1].rows - a[1].rows || (a[0] < b[0] ? -1 : 1));
    return {
      rowAgents: Object.fromEntries(entries),
      notACrawler: this.notACrawler,
      rowAgentUnread: this.unread,
      rowAgentsExact: this.exact,
    };
  }
}
