import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RobotsAuditError } from '../core/errors.js';

/**
 * A built worker entry (`rel` from this module, e.g. '../workers/classify-worker.js'). From dist/ it sits
 * beside this module's layer; when tests import src/*.ts the .ts file cannot run in a worker thread, so
 * the matching file under dist/ is used instead (`npm test` builds first).
 */
export function builtFile(rel: string): string {
  const here = fileURLToPath(new URL(rel, import.meta.url));
  if (existsSync(here)) return here;
  // The `src` right above the file's layer directory (whatever the layer).
  const fromDist = here.replace(/([\\/])src([\\/][^\\/]+[\\/][^\\/]+)$/, '$1dist$2');
  if (existsSync(fromDist)) return fromDist;
  throw new RobotsAuditError('ERR_NO_WORKER', `worker file not found (${fromDist}); run \`npm run build\``);
}
