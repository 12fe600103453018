import { statSync } from 'node:fs';
import path from 'node:path';
import { RobotsAuditError } from '../../core/errors.js';
import { ERR_ROBOTS_FILE, readRobotsFile } from '../../workers/robots-dir-reader.js';
import { NO_POLICY, type PolicyAnswer, type PolicyLookup } from './policy-lookup.js';

/** A site key as an origin, or undefined when it is not `http(s)://host[:port]`. */
export function siteOrigin(
  site: string,
): { scheme: 'http' | 'https'; host: string; port: number } | undefined {
  let url: URL;
  try {
    url = new URL(site);
  } catch {
    return undefined;
  }
  const scheme = url.protocol === 'https:' ? 'https' : url.protocol === 'http:' ? 'http' : undefined;
  if (scheme === undefined || url.hostname === '') return undefined;
  const port = url.port === '' ? (scheme === 'https' ? 443 : 80) : Number(url.port);
  return { scheme, host: url.hostname, port };
}

/**
 * `--robots-dir DIR`, read as classify reads it: a file is a parsed policy, no file is unavailable
 * (allow all), a file that cannot be read is unreachable with ERR_ROBOTS_FILE.
 */
export class DirPolicyLookup implements PolicyLookup {
  private readonly root: string;

  constructor(dir: string) {
    this.root = path.resolve(dir);
    let isDir = false;
    try {
      isDir = statSync(this.root).isDirectory();
    } catch {}
    if (!isDir) {
      throw new RobotsAuditError('ERR_ROBOTS_DIR', `--robots-dir ${dir}: no such directory`, { path: dir });
    }
  }

  current(site: string): PolicyAnswer {
    const origin = siteOrigin(site);
    if (origin === undefined) return NO_POLICY;
    const read = readRobotsFile(this.root, origin);
    if (read.kind === 'missing')
      return { outcome: 'unavailable', status: null, errorCode: null, sha256: null };
    if (read.kind === 'unreadable') {
      return { outcome: 'unreachable', status: null, errorCode: ERR_ROBOTS_FILE, sha256: null };
    }
    // Read without known bodies: every file's bytes come back.
    return { outcome: 'parsed', body: read.body!, status: null, errorCode: null, sha256: read.sha256 };
  }

  close(): void {}
}
