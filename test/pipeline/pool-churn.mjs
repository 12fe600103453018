// Child process for worker-pool.test.ts: builds and destroys real classify pools, each destroyed at a
// different moment of its workers' start-up. A worker terminated while Node instantiates its module
// synchronously (require of an ES module) aborts this whole process, so exit code 0 is the verdict.
import { ClassifyPool } from '../../dist/pipeline/worker-pool.js';

const rounds = Number(process.argv[2]);
const spanMs = Number(process.argv[3]);
const config = JSON.parse(process.argv[4]); // the test's fixture WorkerConfig
for (let i = 0; i < rounds; i++) {
  // Two threads: this one and one worker.
  const pool = new ClassifyPool(config, 2, 1, async () => []);
  // Sweep the whole start-up window: 0 ms up to spanMs, in even steps.
  await new Promise((r) => setTimeout(r, (i * spanMs) / rounds));
  await pool.destroy();
}
process.stdout.write(`${rounds} pools destroyed\n`);
