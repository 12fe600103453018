// Runs a Node script in a child process and measures it: wall time, CPU time (user + system, all threads)
// and peak RSS, from the child's own process.resourceUsage() at exit (bench/usage-preload.mjs).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const preload = pathToFileURL(
  path.join(path.dirname(fileURLToPath(import.meta.url)), 'usage-preload.mjs'),
).href;

/**
 * Resolves with { wallS, cpuS, userS, sysS, rssMiB, stderr } when the script exits 0; rejects with
 * its stderr otherwise.
 */
export function measuredRun(argv, { timeoutMs = 3_600_000 } = {}) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'ra-usage-'));
  const file = path.join(tmp, 'usage.json');
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--import', preload, ...argv], {
      env: { ...process.env, ROBOTS_AUDIT_USAGE_FILE: file },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    let stderr = '';
    child.stderr.on('data', (b) => {
      stderr += b;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const wallS = (performance.now() - t0) / 1000;
      try {
        if (code !== 0)
          throw new Error(`${argv.join(' ')} exited ${code ?? signal}: ${stderr.slice(0, 500)}`);
        const u = JSON.parse(readFileSync(file, 'utf8'));
        const userS = u.userCPUTime / 1e6;
        const sysS = u.systemCPUTime / 1e6;
        resolve({ wallS, cpuS: userS + sysS, userS, sysS, rssMiB: u.maxRSS / 1024, stderr });
      } catch (err) {
        reject(err);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    });
  });
}
