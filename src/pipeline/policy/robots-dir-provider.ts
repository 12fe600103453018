import { statSync } from 'node:fs';
import path from 'node:path';
import { RobotsAuditError } from '../../core/errors.js';
import { dirPolicy, readRobotsFile, robotsFileName } from '../../workers/robots-dir-reader.js';
import { type Origin, type Policy, type PolicyProvider, robotsUrlOf } from './policy.js';

export { readFileCapped } from '../../workers/robots-dir-reader.js';
export { robotsFileName };

/**
 * `--robots-dir DIR`: policies from files, never the network. The file of an origin is
 * `DIR/<host>.txt` for the scheme's default port and `DIR/<host>_<port>.txt` otherwise (host in its
 * ASCII/punycode form, IPv6 literals with their brackets); http and https share it. A present file
 * is a 2xx body, of which the first 500 KiB are kept (RFC 9309 §2.5; `truncated` says when there was
 * more); a missing one means "no robots.txt": allow all. A file that exists but cannot be read, or is
 * no regular file (a FIFO, a device), makes the origin unreachable (disallow all), with robots_status
 * ERR_ROBOTS_FILE. (classify's workers read the files themselves with the same reader.)
 */
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
      const base = {
        origin: robotsUrl.slice(0, -'/robots.txt'.length),
        robotsUrl,
        status: null,
        etag: null,
        lastModified: null,
        stale: false,
        expiresAt: Number.POSITIVE_INFINITY,
        fetchedAt: Date.now(),
      };
      const read = dirPolicy(readRobotsFile(root, origin));
      return { ...base, ...read, bytes: read.body?.length ?? 0 };
    },
    async close() {},
  };
}
