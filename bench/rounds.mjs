// Rounds of measured runs for the benches that compare configurations in the same run: each round runs every
// configuration once, in turn, so a noisy spell on a shared machine hits all of them alike. Also the
// figures the tables share (medians, spreads, the machine line, met / not met).
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import os from 'node:os';
import { measuredRun } from './measured-run.mjs';

/** Runs `configs` ({ label, argv }) in `repeat` rounds; resolves with each configuration's runs, in order. */
export async function alternate(configs, repeat) {
  const runsOf = configs.map(() => []);
  for (let i = 0; i < repeat; i++) {
    for (let c = 0; c < configs.length; c++) {
      const r = await measuredRun(configs[c].argv);
      console.error(
        `round ${i + 1}/${repeat} ${configs[c].label}: CPU ${r.cpuS.toFixed(2)} s, wall ${r.wallS.toFixed(2)} s, ` +
          `${r.rssMiB.toFixed(0)} MiB`,
      );
      runsOf[c].push(r);
    }
  }
  return runsOf;
}

/** The median; of an even count, the mean of the two middle values. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** A configuration's runs summed up: median CPU and wall, maximum peak RSS. */
export function summary(runs) {
  return {
    cpuS: median(runs.map((r) => r.cpuS)),
    wallS: median(runs.map((r) => r.wallS)),
    rssMiB: Math.max(...runs.map((r) => r.rssMiB)),
  };
}

/** Each round's value of `f`, formatted, comma-separated. */
export const perRound = (n, f, digits = 2) =>
  Array.from({ length: n }, (_, i) => f(i).toFixed(digits)).join(', ');

export const status = (ok) => (ok ? 'met' : '**not met**');
export const fmt = (n) => n.toLocaleString('en-US');

/** The machine line every table starts with. */
export function machine(load) {
  return (
    `Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.availableParallelism()} cores, ` +
    `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${load.toFixed(2)} at start, ` +
    `${os.loadavg()[0].toFixed(2)} at the end; ${new Date().toISOString()}`
  );
}

/** Counts a file's lines without holding it. */
export async function countLines(file) {
  let n = 0;
  const stream = createReadStream(file);
  stream.on('data', (b) => {
    for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) n++;
  });
  await once(stream, 'close');
  return n;
}
