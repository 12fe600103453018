import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RobotsAuditError } from '../core/errors.js';
import { type Origin, type Policy, type PolicyProvider, robotsUrlOf } from './policy.js';

/**
 * `--robots-dir DIR`: policies from files, never the network. The file of an origin is
 * `DIR/<host>.txt` for the scheme's default port and `DIR/<host>_<port>.txt` otherwise (host in its
 * ASCII/punycode form, IPv6 literals with their brackets); http and https share it. A present file
 * is used whole (no size cut) as a 2xx body; a missing one means "no robots.txt": allow all.
 * A file that exists but cannot be read makes the origin unreachable (disallow all), with
 * robots_status ERR_ROBOTS_FILE.
 */
export function robotsFileName(origin: Origin): string {
  const def = origin.scheme === 'https' ? 443 : 80;
  return origin.port === def ? `${origin.host}.txt` : `${origin.host}_${origin.port}.txt`;
}

/** Hosts come from untrusted input: never let one name a path outside DIR. */
function safeName(name: string): boolean {
  return !name.includes('/') && !name.includes('\\') && !name.includes('\0');
}

export function createDirPolicyProvider(dir: string): PolicyProvider {
  const root = path.resolve(dir);
  // A mistyped directory would silently make every origin "missing" (allow all): refuse it instead.
  let isDir = false;
  try {
    isDir = statSync(root).isDirectory();
  } catch {}
  if (!isDir) {
    throw new RobotsAuditError('ERR_ROBOTS_DIR', `--robots-dir ${dir}: no such directory`, { path: dir });
  }
  return {
    async get(origin: Origin): Promise<Policy> {
      const robotsUrl = robotsUrlOf(origin);
      const originText = robotsUrl.slice(0, -'/robots.txt'.length);
      const name = robotsFileName(origin);
      const base = {
        origin: originText,
        robotsUrl,
        status: null,
        etag: null,
        lastModified: null,
        stale: false,
        truncated: false,
        expiresAt: Number.POSITIVE_INFINITY,
      };
      const missing = (): Policy => ({
        ...base,
        outcome: 'unavailable',
        source: 'missing',
        finalUrl: null,
        errorCode: null,
        fetchedAt: Date.now(),
        body: null,
        sha256: null,
        bytes: 0,
      });
      if (!safeName(name)) return missing();
      const file = path.join(root, name);
      // Synchronous on purpose: one small file read costs ~20 µs, far less than a round trip through
      // the libuv thread pool (open, fstat, read, close), and the coordinator is otherwise idle here.
      let body: Buffer;
      try {
        body = readFileSync(file);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG') return missing();
        return unreadable(base, file);
      }
      return {
        ...base,
        outcome: 'parsed',
        source: 'file',
        finalUrl: pathToFileURL(file).href,
        errorCode: null,
        fetchedAt: Date.now(),
        body,
        sha256: createHash('sha256').update(body).digest('hex'),
        bytes: body.length,
      };
    },
    async close() {},
  };
}

function unreadable(
  base: Omit<
    Policy,
    'outcome' | 'source' | 'finalUrl' | 'errorCode' | 'fetchedAt' | 'body' | 'sha256' | 'bytes'
  >,
  file: string,
): Policy {
  return {
    ...base,
    outcome: 'unreachable',
    source: 'file',
    finalUrl: pathToFileURL(file).href,
    errorCode: 'ERR_ROBOTS_FILE',
    fetchedAt: Date.now(),
    body: null,
    sha256: null,
    bytes: 0,
  };
}
