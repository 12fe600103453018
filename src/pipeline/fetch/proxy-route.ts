import { RobotsAuditError } from '../../core/errors.js';

/**
 * Which proxy a request goes through: `--proxy` for every request, else the usual environment variables
 * (http_proxy/HTTP_PROXY for http:, https_proxy/HTTPS_PROXY then the http one for https:), minus the
 * hosts NO_PROXY names (`*` = none; `example.com` and `.example.com` = it and its subdomains; `:PORT`
 * narrows an entry to that port). Lower-case names win, as curl reads them.
 */

export type ProxyRoute = (url: URL) => URL | undefined;

type Env = Record<string, string | undefined>;

const DEFAULT_PORT: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** Parses a proxy URL; `source` names where it came from for the error. */
export function parseProxyUrl(value: string, source: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new RobotsAuditError(
      'ERR_INVALID_OPTION',
      `Invalid option \`proxy\`: ${source} must be an http:// or https:// proxy URL, got ${JSON.stringify(value)}`,
      { option: 'proxy' },
    );
  }
  return url;
}

interface NoProxyEntry {
  host: string;
  port: number;
}

function parseNoProxy(value: string): NoProxyEntry[] | 'all' {
  const entries: NoProxyEntry[] = [];
  for (const raw of value.split(/[\s,]+/)) {
    if (raw === '') continue;
    if (raw === '*') return 'all';
    const withPort = /^(.*):(\d+)$/.exec(raw);
    const host = (withPort ? withPort[1]! : raw).replace(/^\*?\./, '').toLowerCase();
    entries.push({ host, port: withPort ? Number(withPort[2]) : 0 });
  }
  return entries;
}

function bypassed(url: URL, noProxy: NoProxyEntry[] | 'all'): boolean {
  if (noProxy === 'all') return true;
  const host = url.hostname.toLowerCase();
  const port = Number(url.port) || DEFAULT_PORT[url.protocol] || 0;
  return noProxy.some(
    (e) => (e.port === 0 || e.port === port) && (host === e.host || host.endsWith(`.${e.host}`)),
  );
}

function fromEnv(env: Env, lower: string, upper: string): URL | undefined {
  const name = env[lower] ? lower : upper;
  const value = env[name];
  return value ? parseProxyUrl(value, name) : undefined;
}

/** The proxy route for `--proxy` (or, without it, `env`); undefined when no request is proxied. */
export function proxyRoute(explicit: string | undefined, env: Env = process.env): ProxyRoute | undefined {
  if (explicit !== undefined) {
    const proxy = parseProxyUrl(explicit, '--proxy');
    return () => proxy;
  }
  const http = fromEnv(env, 'http_proxy', 'HTTP_PROXY');
  const https = fromEnv(env, 'https_proxy', 'HTTPS_PROXY') ?? http;
  if (http === undefined && https === undefined) return undefined;
  const noProxy = parseNoProxy(env.no_proxy ?? env.NO_PROXY ?? '');
  return (url) => {
    if (bypassed(url, noProxy)) return undefined;
    return url.protocol === 'https:' ? https : http;
  };
}
