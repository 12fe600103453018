/**
 * `robots-audit import` stopped while it reads an archive: SIGKILL leaves a cache that passes
 * integrity_check and that the next import completes to exactly what an uninterrupted import gives;
 * SIGINT commits what was read, rebuilds it, and exits 130.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/run-cli.js';
import { type TempDir, tempDir } from '../pipeline/fetch/harness.js';
import { ccCapture, exportCache, gz } from '../pipeline/import/warc-fixtures.js';

let tmp: TempDir;
let archive: string;
let complete: ReturnType<typeof exportCache>;

beforeAll(async () => {
  tmp = tempDir();
  archive = join(tmp.dir, 'crawl.warc.gz');
  const records: Buffer[] = [];
  // Origin by origin: a kill leaves some origins with every capture stored, only their rebuild missing.
  for (let i = 0; i < 6_000; i++) {
    const day = String(1 + (i % 6)).padStart(2, '0');
    const body = `User-agent: *\nDisallow: /${i % 7 === 0 ? i : 'x'}\n`;
    const uri = `https://h${Math.floor(i / 6)}.example/robots.txt`;
    records.push(...ccCapture(uri, `2024-01-${day}T00:00:00Z`, 200, body));
  }
  writeFileSync(archive, gz(records));
  const clean = join(tmp.dir, 'clean.sqlite');
  expect((await runCli(['import', archive, '--cache', clean, '--quiet'])).code).toBe(0);
  complete = exportCache(clean);
}, 120_000);
afterAll(() => tmp.cleanup());

/** Starts an import and sends `signal` once it has reported progress (it is reading the archive). */
function stoppedImport(cache: string, signal: NodeJS.Signals): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'import', archive, '--cache', cache, '--progress'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let sent = false;
    child.stderr.on('data', (b: Buffer) => {
      if (!sent && b.toString().includes('import: file 1/1')) {
        sent = true;
        child.kill(signal);
      }
    });
    child.on('error', reject);
    child.on('close', (code, sig) => resolve(sent ? (code ?? (sig === 'SIGKILL' ? -9 : null)) : null));
  });
}

function integrity(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.pragma('integrity_check', { simple: true }) as string;
  } finally {
    db.close();
  }
}

describe('hostile: import stopped mid-archive', () => {
  it('SIGKILL while reading leaves a consistent cache, and importing again gives what an uninterrupted import gives', async () => {
    const cache = join(tmp.dir, 'killed.sqlite');
    expect(await stoppedImport(cache, 'SIGKILL')).toBe(-9);
    expect(integrity(cache)).toBe('ok');
    expect((await runCli(['import', archive, '--cache', cache, '--quiet'])).code).toBe(0);
    expect(exportCache(cache)).toEqual(complete);
  }, 120_000);

  it('SIGINT while reading exits 130 with what was read committed and rebuilt; importing again completes it', async () => {
    const cache = join(tmp.dir, 'interrupted.sqlite');
    expect(await stoppedImport(cache, 'SIGINT')).toBe(130);
    expect(integrity(cache)).toBe('ok');
    const db = new Database(cache, { readonly: true });
    const queued = db.prepare('SELECT count(*) AS n FROM rebuild_queue').get();
    db.close();
    expect(queued).toEqual({ n: 0 });
    expect((await runCli(['import', archive, '--cache', cache, '--quiet'])).code).toBe(0);
    expect(exportCache(cache)).toEqual(complete);
  }, 120_000);
});
