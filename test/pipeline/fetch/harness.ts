/** Shared set-up for fetch/cache tests: a temp dir for the SQLite file, options pointing at the local server. */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createLivePolicyProvider } from '../../../src/pipeline/fetch/live-policy-provider.js';
import { type Options, resolveOptions } from '../../../src/pipeline/options.js';
import type { Origin } from '../../../src/pipeline/policy/policy.js';
import { type MultiHostServer, startMultiHostServer } from '../../helpers/multi-host-server.js';
import { startRawServer } from '../../helpers/raw-server.js';

// A proxy configured on the machine would carry test traffic off loopback: tests never inherit one
// (spawned CLIs get process.env, so they are covered too). proxy.test.ts sets its own.
for (const name of ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'no_proxy', 'NO_PROXY']) {
  delete process.env[name];
}

export interface TempDir {
  dir: string;
  cleanup(): void;
}

export function tempDir(): TempDir {
  const dir = mkdtempSync(join(tmpdir(), 'robots-audit-fetch-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The test file's multi-host server and temp dir: started before its tests, closed and removed after. */
export function useServerAndTempDir(): { readonly srv: MultiHostServer; readonly tmp: TempDir } {
  const env = {} as { srv: MultiHostServer; tmp: TempDir };
  beforeAll(async () => {
    env.srv = await startMultiHostServer();
    env.tmp = tempDir();
  });
  afterAll(async () => {
    await env.srv.close();
    env.tmp.cleanup();
  });
  return env;
}

/** Options for a live provider against the local server: every host pinned to 127.0.0.1. */
export function liveOptions(srv: MultiHostServer, cache: string, extra: Partial<Options> = {}): Options {
  return resolveOptions({
    cache,
    resolve: ['*=127.0.0.1'],
    allowPrivate: true,
    caFile: srv.caFile,
    timeout: 3,
    retries: 0,
    ...extra,
  });
}

/** The origin of `host` on the server's HTTP (or HTTPS) port. */
export function at(srv: MultiHostServer, host: string, scheme: 'http' | 'https' = 'http'): Origin {
  return { scheme, host, port: scheme === 'http' ? srv.httpPort : srv.httpsPort };
}

export const sha256 = (b: Buffer | Uint8Array | string) => createHash('sha256').update(b).digest('hex');

/** Quick back-off for tests that exercise retries. */
export const FAST = { tuning: { backoffBaseMs: 20 } };

/** Fetches `origin`'s policy with a fresh provider and cache file in `dir`. */
export async function fetchPolicy(
  srv: MultiHostServer,
  dir: string,
  origin: Origin,
  extra: Partial<Options> = {},
) {
  const provider = createLivePolicyProvider(
    liveOptions(srv, join(dir, `c${++cacheFiles}.sqlite`), extra),
    FAST,
  );
  try {
    return await provider.get(origin);
  } finally {
    await provider.close();
  }
}
let cacheFiles = 0;

/**
 * Fetches `host` from a raw server that answers each request with `respond(path)` as bytes on the wire,
 * then ends the connection (FIN), resets it, or holds it open.
 */
export async function fetchRaw(
  env: { readonly srv: MultiHostServer; readonly tmp: TempDir },
  host: string,
  respond: (path: string) => string | Buffer,
  after: 'end' | 'reset' | 'hold',
  extra: Partial<Options> = {},
) {
  const raw = await startRawServer((socket, path) => {
    socket.write(respond(path), () => {
      if (after === 'hold') return;
      setTimeout(() => (after === 'reset' ? socket.resetAndDestroy() : socket.end()), 20);
    });
  });
  try {
    return await fetchPolicy(env.srv, env.tmp.dir, { scheme: 'http', host, port: raw.port }, extra);
  } finally {
    await raw.close();
  }
}
