/**
 * A proxy that fails (closes on the request, 407, 502, never answers, accepts the tunnel then closes)
 * ends each fetch within --timeout × (1 + --retries), as one error code per origin, over at most
 * 1 + --retries connections to the proxy: through --proxy and HTTP_PROXY/HTTPS_PROXY alike, in the
 * library and in the real CLI.
 */
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Options } from '../../src/pipeline/options.js';
import {
  type MisbehavingProxy,
  type ProxyMode,
  startMisbehavingProxy,
} from '../helpers/misbehaving-proxy.js';
import { runCli } from '../helpers/run-cli.js';
import { fetchPolicy, useServerAndTempDir } from '../pipeline/fetch/harness.js';

const env = useServerAndTempDir();
let proxy: MisbehavingProxy;

beforeAll(async () => {
  proxy = await startMisbehavingProxy();
});
afterAll(() => proxy.close());
afterEach(() => {
  proxy.reset();
  for (const k of ['HTTP_PROXY', 'HTTPS_PROXY']) delete process.env[k];
});

const TIMEOUT_S = 0.5;
const RETRIES = 1;
/** The whole budget of one origin, plus room for backoff and a loaded machine. */
const BOUND_MS = TIMEOUT_S * 1000 * (RETRIES + 1) + 3000;

/**
 * What each failure ends as. A proxy that never answers CONNECT is a connect that did not complete in
 * time; once the proxy has accepted the tunnel, failures are the target's, as on a direct connection.
 */
const CASES: Array<[ProxyMode, 'http' | 'https', string]> = [
  ['close', 'http', 'ERR_PROXY'],
  ['close', 'https', 'ERR_PROXY'],
  ['407', 'http', 'ERR_PROXY'],
  ['407', 'https', 'ERR_PROXY'],
  ['502', 'http', 'ERR_PROXY'],
  ['502', 'https', 'ERR_PROXY'],
  ['hang', 'http', 'ERR_CONNECT_TIMEOUT'],
  ['hang', 'https', 'ERR_CONNECT_TIMEOUT'],
  ['accept-close', 'http', 'ERR_CONNECTION_CLOSED'],
  ['accept-close', 'https', 'ERR_CONNECTION_RESET'],
  ['garbage', 'http', 'ERR_PROXY'],
  ['endless-head', 'https', 'ERR_PROXY'],
];

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = Date.now();
  const out = await run();
  return [out, Date.now() - started];
}

describe('a failing proxy ends each fetch within its budget, over a bounded number of connections', () => {
  const budget = { timeout: TIMEOUT_S, retries: RETRIES } satisfies Partial<Options>;

  it.each(CASES)(
    'a proxy in mode %s (%s origin, --proxy) → %s, not a reconnect storm or a hang',
    async (mode, scheme, code) => {
      proxy.mode = mode;
      const origin = { scheme, host: `${mode}.test`, port: 9 } as const;
      const [p, ms] = await timed(() =>
        fetchPolicy(env.srv, env.tmp.dir, origin, { ...budget, proxy: proxy.url }),
      );
      expect(p).toMatchObject({ outcome: 'unreachable', errorCode: code, status: null, body: null });
      expect(ms).toBeLessThan(BOUND_MS);
      expect(proxy.connections).toBeGreaterThanOrEqual(1);
      expect(proxy.connections).toBeLessThanOrEqual(RETRIES + 1);
    },
  );

  it.each([
    ['HTTP_PROXY', 'http'],
    ['HTTPS_PROXY', 'https'],
  ] as const)(
    'the same through %s (a proxy closing on the request → ERR_PROXY, no storm)',
    async (name, scheme) => {
      proxy.mode = 'close';
      process.env[name] = proxy.url;
      const [p, ms] = await timed(() =>
        fetchPolicy(env.srv, env.tmp.dir, { scheme, host: `env-${scheme}.test`, port: 9 }, budget),
      );
      expect(p).toMatchObject({ outcome: 'unreachable', errorCode: 'ERR_PROXY' });
      expect(ms).toBeLessThan(BOUND_MS);
      expect(proxy.connections).toBeLessThanOrEqual(RETRIES + 1);
    },
  );
});

describe('the CLI behind a failing proxy writes its row and exits', () => {
  const args = (cache: string) => [
    ...['classify', '-', '--cache', cache, '--timeout', String(TIMEOUT_S), '--retries', String(RETRIES)],
    ...'--resolve *=127.0.0.1 --allow-private --agent Googlebot --quiet'.split(' '),
  ];
  const input = 'url\nhttp://cli.test:9/page\nhttps://cli.test:9/other\n';

  it.each([
    ['close', '--proxy', 'ERR_PROXY'],
    ['close', 'HTTP_PROXY', 'ERR_PROXY'],
    ['hang', '--proxy', 'ERR_CONNECT_TIMEOUT'],
  ] as const)('a proxy in mode %s via %s → disallowed_unreachable, %s', async (mode, via, code) => {
    proxy.mode = mode;
    const cache = join(env.tmp.dir, `cli-${mode}-${via}.sqlite`);
    const viaFlag = via === '--proxy' ? ['--proxy', proxy.url] : [];
    const viaEnv = via === '--proxy' ? {} : { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url };
    const [r, ms] = await timed(() =>
      runCli([...args(cache), ...viaFlag], { input, env: viaEnv, timeoutMs: 20_000 }),
    );
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    const rows = parse(r.stdout, { columns: true }) as Record<string, string>[];
    expect(rows.map((x) => [x.verdict, x.robots_status])).toEqual([
      ['disallowed_unreachable', code],
      ['disallowed_unreachable', code],
    ]);
    // Two origins, each at most 1 + retries attempts; the process start is in the slack.
    expect(ms).toBeLessThan(BOUND_MS + 2000);
    expect(proxy.connections).toBeLessThanOrEqual(2 * (RETRIES + 1));
  });
});

describe('a proxy setting that cannot be used', () => {
  it.each([
    [['--proxy', 'socks5://127.0.0.1:1080'], {}, '--proxy'],
    [[], { HTTP_PROXY: 'not a url' }, 'HTTP_PROXY'],
  ] as const)('%j %j → one clear line naming %s, exit 2, nothing written', async (flags, vars, source) => {
    const cache = join(env.tmp.dir, `bad-${source}.sqlite`);
    const r = await runCli(['fetch', '-', '--cache', cache, ...flags], {
      input: 'url\nhttp://bad-proxy.test/x\n',
      env: vars,
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringContaining(
        `robots-audit: Invalid option \`proxy\`: ${source} must be an http:// or https:// proxy URL`,
      ),
    ]);
  });
});
