/**
 * warmCache's reading: it pauses while too many origins are pending, and stops reading once its signal
 * aborts. The provider is a stand-in that records the origins asked and answers when told.
 */
import { describe, expect, it } from 'vitest';
import type { LivePolicyProvider } from '../../../src/pipeline/fetch/live-policy-provider.js';
import { warmCache } from '../../../src/pipeline/fetch/warm-cache.js';
import { originKey } from '../../../src/pipeline/policy/policy.js';

const OPTIONS = { delimiter: ',', urlColumn: 'url', hostColumn: 'host', scheme: 'https' as const };

/** `chunks` chunks of 100 rows, each row a new host; `read()` says how many chunks were taken so far. */
function input(chunks: number): { log: AsyncGenerator<Buffer>; read: () => number } {
  let taken = 0;
  async function* log(): AsyncGenerator<Buffer> {
    yield Buffer.from('url\n');
    for (let c = 0; c < chunks; c++) {
      taken++;
      const rows = Array.from({ length: 100 }, (_, i) => `https://h${c}-${i}.example/some/page\n`);
      yield Buffer.from(rows.join(''));
    }
  }
  return { log: log(), read: () => taken };
}

function provider(get: (key: string) => Promise<unknown>): LivePolicyProvider {
  const p = { get: (o: Parameters<LivePolicyProvider['get']>[0]) => get(originKey(o)), stats: () => ({}) };
  return p as unknown as LivePolicyProvider;
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('warmCache reading', () => {
  it('pauses reading while the window of pending origins is full, and resumes as they are answered', async () => {
    const { log, read } = input(200);
    const held: (() => void)[] = [];
    let release = false;
    const asked: string[] = [];
    const run = warmCache(
      log,
      { ...OPTIONS, concurrency: 4 },
      provider((key) => {
        asked.push(key);
        return release ? Promise.resolve() : new Promise<void>((r) => held.push(r));
      }),
    );
    await turns(20);
    // A window of 64 origins (at least 64, or twice the concurrency), and at most two batches read ahead.
    expect(asked).toHaveLength(64);
    expect(read()).toBeLessThan(40);
    release = true;
    for (const r of held) r();
    const s = await run;
    expect([s.rows, s.origins, s.done, read()]).toEqual([20_000, 20_000, 20_000, 200]);
  });

  it('stops reading once its signal aborts, without an error', async () => {
    const { log, read } = input(200);
    const ac = new AbortController();
    const asked: string[] = [];
    const s = await warmCache(
      log,
      { ...OPTIONS, concurrency: 4 },
      provider(async (key) => {
        asked.push(key);
        ac.abort();
      }),
      { signal: ac.signal },
    );
    expect(asked).toHaveLength(1);
    expect(s.rows).toBe(1);
    expect(read()).toBeLessThan(40);
  });

  it('an input aborted before its header is whole ends without ERR_NO_HEADER', async () => {
    const ac = new AbortController();
    ac.abort();
    const s = await warmCache(
      (async function* () {})(),
      { ...OPTIONS, concurrency: 4 },
      provider(async () => {}),
      {
        signal: ac.signal,
      },
    );
    expect([s.rows, s.origins]).toEqual([0, 0]);
  });
});
