#!/usr/bin/env node
// What judging as of a time costs, part by part, in one thread with no I/O (the worker's code, driven
// directly): installing every origin of the as-of workload's caches (as-of-workload.mjs) into a worker's
// origin store, the live heap that leaves per origin, and judging the workload's rows (time read, version
// picked, row matched) in input order and grouped by host. Three stores: the current version of each
// origin (what `classify --offline` installs), every version serving one body, and three versions with
// two bodies. Far less noisy than the end-to-end as-of bench (no threads, no other process's load), and
// it splits the difference between a row's cost out of cache (input order) and in cache (host order).
// Options: --rows N (workload rows, 2000000), --judge N (rows judged, 1000000), --repeat R (3; medians).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { asOfWorkload } from './as-of-workload.mjs';
import { numericArg } from './crawl-workload.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = (p) => import(pathToFileURL(path.join(here, '..', 'dist', p)).href);
const rows = numericArg('rows', 2_000_000);
const judgeRows = numericArg('judge', 1_000_000);
const repeat = numericArg('repeat', 3);
const { input, cachePath, oneBodyPath } = await asOfWorkload('as-of parts bench', rows, 20_000);

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const { createHistoryProvider } = await dist('pipeline/policy/history-provider.js');
const { PolicyBroker } = await dist('pipeline/policy/policy-broker.js');
const { OriginStore } = await dist('workers/origin-store.js');
const { matchRow } = await dist('workers/match-row.js');
const { AsOfTally } = await dist('workers/as-of-tally.js');
const { parseTimeIn } = await dist('rows/row-time.js');
const { resolveRowInto, newRowSlot, keyOf } = await dist('rows/row-url.js');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpuMs = (f) => {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};

/** The rows to judge: origin key, path and time cell, in input order (rows whose URL does not resolve are left out). */
function readRows() {
  const lines = readFileSync(input, 'latin1').split('\n');
  const slot = newRowSlot();
  const out = [];
  for (let i = 1; i < lines.length && out.length < judgeRows; i++) {
    const [time, host, ...rest] = lines[i].split(',');
    const url = rest.join(',');
    if (url === '' || resolveRowInto(url, host, 'https', slot) !== null) continue;
    out.push({
      key: keyOf(slot),
      origin: { scheme: slot.scheme, host: slot.host, port: slot.port },
      path: slot.path,
      time,
    });
  }
  return out;
}

/** Every origin the rows name, as the policy broker sends it to a worker: its history, or (plain) its last version alone. */
async function wiresOf(file, origins, asOf) {
  const provider = createHistoryProvider({ cache: file });
  const broker = new PolicyBroker(provider, false);
  const keys = [...origins.keys()];
  const wires = [];
  for (let j = 0; j < keys.length; j += 64) {
    const batch = keys.slice(j, j + 64);
    const got = structuredClone(
      await broker.resolve({ keys: batch, origins: batch.map((k) => origins.get(k)) }),
    );
    for (const w of got) wires.push(asOf ? w : currentOf(w));
  }
  await provider.close();
  return { keys, wires };
}

/** The wire policy of an origin's last version alone (a history's repeated body is sent once: found in an earlier version). */
function currentOf(w) {
  const last = w.history.at(-1);
  if (last === undefined) return { ...w, history: undefined };
  const body =
    last.body ?? w.history.findLast((v) => v.sha256 === last.sha256 && v.body !== null)?.body ?? null;
  const { key } = w;
  const { outcome, status, sha256, robotsUrl, fetchedAt, truncated } = last;
  return { key, outcome, status, body, sha256, robotsUrl, fetchedAt, truncated };
}

function storeConfig(asOf) {
  return {
    agents: ['Googlebot'],
    delimiter: ',',
    urlIndex: 2,
    hostIndex: 1,
    columns: 3,
    scheme: 'https',
    eol: '\n',
    evidence: false,
    compiledBudget: 2 ** 31,
    originBudget: 10_000_000,
    robotsDir: null,
    asOf: asOf
      ? {
          timeIndex: 0,
          fixedTime: Number.NaN,
          timeFormat: 'auto',
          graceMs: 86_400_000,
          maxAgeMs: Number.POSITIVE_INFINITY,
        }
      : null,
  };
}

/** Install CPU (median over rounds), live heap per origin, and a store to judge rows with. */
function install(keys, wires, origins, asOf) {
  const times = [];
  let store = null;
  let live = 0;
  for (let r = 0; r < repeat; r++) {
    store = null;
    gc();
    const before = process.memoryUsage().heapUsed;
    const s = new OriginStore(storeConfig(asOf));
    times.push(
      cpuMs(() => {
        for (let i = 0; i < wires.length; i++) s.install(wires[i], origins.get(keys[i]), 1);
      }),
    );
    gc();
    // The first round's: a later round's `before` may still count the store of the round before it.
    if (r === 0) live = process.memoryUsage().heapUsed - before;
    store = s;
  }
  return { store, installUs: (1000 * median(times)) / wires.length, liveB: live / wires.length };
}

/** CPU ns per row judging `list` (median over rounds). */
function judge(store, list, asOf) {
  const classes = new Uint8Array(1);
  const views = [null];
  const times = [];
  let sink = 0;
  for (let r = 0; r < repeat; r++) {
    const tally = new AsOfTally();
    times.push(
      cpuMs(() => {
        for (let i = 0; i < list.length; i++) {
          const row = list[i];
          let e = row.entry;
          if (asOf) {
            const t = parseTimeIn(row.time, 0, row.time.length, 'auto');
            e = tally.entryAt(store, e, t, 1, views, 0);
            sink += matchRow(store, e, row.path, 1, classes, 0, t, views[0]).length;
          } else sink += matchRow(store, e, row.path, 1, classes, 0).length;
        }
      }),
    );
  }
  if (sink === 0) throw new Error('nothing judged');
  return (1e6 * median(times)) / list.length;
}

const list = readRows();
const origins = new Map(list.map((r) => [r.key, r.origin]));
// A time cell of its own per row (a copy, not a slice of the file's text): the rows then read alike in
// either order.
for (const r of list) r.time = ` ${r.time}`.slice(1);
// Grouped by host, each row a new object with strings of its own: only the origin's data is then shared
// between consecutive rows, as it is in a host-sorted log.
const byHost = [...list]
  .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  .map((r) => ({ ...r, path: ` ${r.path}`.slice(1), time: ` ${r.time}`.slice(1) }));
const runs = [
  ['current version only (`--offline`)', cachePath, false],
  ['as of a time, every version one body', oneBodyPath, true],
  ['as of a time, 3 versions, 2 bodies', cachePath, true],
];
const results = [];
for (const [label, file, asOf] of runs) {
  const { keys, wires } = await wiresOf(file, origins, asOf);
  const { store, installUs, liveB } = install(keys, wires, origins, asOf);
  for (const r of [...list, ...byHost])
    r.entry = store.find(r.origin.scheme, r.origin.host, r.origin.port, 1);
  const inOrder = judge(store, list, asOf);
  const grouped = judge(store, byHost, asOf);
  results.push({ label, origins: wires.length, installUs, liveB, inOrder, grouped });
}
console.log(
  `Workload: the as-of bench's (${rows.toLocaleString('en-US')} make-crawl rows, row times spread over 40 days); its first ${list.length.toLocaleString('en-US')} rows judged for Googlebot, ${new Set(list.map((r) => r.key)).size.toLocaleString('en-US')} origins installed; one thread, CPU medians of ${repeat} rounds.`,
);
console.log(
  `Machine: ${os.cpus()[0]?.model ?? 'unknown'}, Node ${process.version}; ${new Date().toISOString()}\n`,
);
console.log(
  '| store | install µs/origin | live heap B/origin | judge ns/row, input order | judge ns/row, by host |',
);
console.log('|---|---:|---:|---:|---:|');
for (const r of results) {
  console.log(
    `| ${r.label} | ${r.installUs.toFixed(1)} | ${r.liveB.toFixed(0)} | ${r.inOrder.toFixed(0)} | ${r.grouped.toFixed(0)} |`,
  );
}
