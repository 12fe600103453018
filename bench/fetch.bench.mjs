#!/usr/bin/env node
// Fetch benchmark: N hosts (all pinned to 127.0.0.1 with resolve '*=127.0.0.1' + allowPrivate) on a local
// HTTP server, run in a worker thread, that answers each robots.txt after L ms. Measures
//  1. cold fetch throughput at the given concurrency (default: the default 256) against the bound
//     concurrency / latency (target ≥ 80 %);
//  1b. the same at a low concurrency (default 32), where the bound is within this machine's CPU: shows
//     whether a shortfall in 1 is the design (limiter, cache writes) or the CPU cost of each connection;
//  2. warm-cache lookups (origins/s through the provider) against a bare better-sqlite3 prepared SELECT
//     on the same file (the floor of any SQLite-backed lookup).
// Usage: node bench/fetch.bench.mjs [--hosts 10000] [--latency 50] [--concurrency 256] [--low-concurrency 32]
// Prints a markdown table; exits non-zero if the benchmark cannot run.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const argv = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const hosts = Number(arg('hosts', 10000));
const latency = Number(arg('latency', 50));

function fail(message) {
  console.error(`fetch.bench: ${message}`);
  process.exit(1);
}

let live;
let opts;
try {
  live = await import(path.join(root, 'dist', 'pipeline', 'fetch', 'live-policy-provider.js'));
  opts = await import(path.join(root, 'dist', 'pipeline', 'options.js'));
} catch (err) {
  fail(`cannot load dist/ (run \`npm run build\` first): ${err.message}`);
}
const Database = createRequire(import.meta.url)('better-sqlite3');
const concurrency = Number(arg('concurrency', opts.DEFAULTS.concurrency));
const lowConcurrency = Number(arg('low-concurrency', 32));

// The server lives in its own thread so it does not compete with the fetcher's event loop, and is a bare
// TCP responder (no HTTP parser, one canned keep-alive answer; the client closes, as with most real
// servers) so its own CPU cost stays small.
const SERVER = `
const net = require('node:net');
const { parentPort, workerData } = require('node:worker_threads');
let open = 0, peak = 0, served = 0;
const server = net.createServer((socket) => {
  let head = '';
  socket.on('error', () => {});
  socket.on('data', (chunk) => {
    if (head === null) return;
    head += chunk.toString('latin1');
    if (!head.includes('\\r\\n\\r\\n')) return;
    const host = (/\\r\\nhost: *([^:\\r]*)/i.exec(head) || [])[1] || '';
    head = null;
    open++; peak = Math.max(peak, open);
    setTimeout(() => {
      const body = 'User-agent: *\\nDisallow: /private/' + host + '\\n';
      socket.write('HTTP/1.1 200 OK\\r\\ncontent-type: text/plain\\r\\ncontent-length: ' +
        Buffer.byteLength(body) + '\\r\\n\\r\\n' + body);
      open--; served++;
    }, workerData.latency);
  });
});
server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (m) => {
  if (m === 'stats') parentPort.postMessage({ peak, served });
  if (m === 'reset') { peak = 0; served = 0; parentPort.postMessage({}); }
  if (m === 'close') { server.close(); parentPort.close(); }
});
`;
const worker = new Worker(SERVER, { eval: true, workerData: { latency } });
const ask = (msg) =>
  new Promise((resolve) => {
    worker.once('message', resolve);
    if (msg !== undefined) worker.postMessage(msg);
  });
const { port } = await ask();

const dir = mkdtempSync(path.join(os.tmpdir(), 'robots-audit-fetch-bench-'));
const cache = path.join(dir, 'cache.sqlite');
const options = opts.resolveOptions({
  cache,
  resolve: ['*=127.0.0.1'],
  allowPrivate: true,
  concurrency,
  retries: 0,
});
const origins = Array.from({ length: hosts }, (_, i) => ({ scheme: 'http', host: `h${i}.bench.test`, port }));

// 0. Peer: plain undici (Agent + request, the library's idiomatic use) over the same number of distinct
// hosts at the same concurrency, no cache and no checks: what this machine allows.
const undici = createRequire(import.meta.url)('undici');
const peerAgent = new undici.Agent({
  connect: {
    lookup: (_h, o, cb) =>
      o.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4),
  },
});
let next = 0;
let cpu0 = process.cpuUsage();
let t0 = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < hosts) {
      // Each host is fetched once: no keep-alive, so 10,000 idle sockets (twice the descriptors, client and
      // server in this process) do not run into the descriptor limit.
      const r = await undici.request(`http://p${next++}.bench.test:${port}/robots.txt`, {
        dispatcher: peerAgent,
        reset: true,
      });
      await r.body.text();
    }
  }),
);
const peerMs = performance.now() - t0;
const cpuOf = (c) => (c.user + c.system) / hosts;
const peerCpu = cpuOf(process.cpuUsage(cpu0));
await peerAgent.close();
const peerRate = hosts / (peerMs / 1000);
await ask('reset');

// 1. Cold: every origin fetched once.
const rssBefore = process.memoryUsage().rss;
const elu0 = performance.eventLoopUtilization();
let provider = live.createLivePolicyProvider(options);
cpu0 = process.cpuUsage();
t0 = performance.now();
const cold = await Promise.all(origins.map((o) => provider.get(o)));
const coldMs = performance.now() - t0;
const coldCpu = cpuOf(process.cpuUsage(cpu0));
await provider.close();
const elu = performance.eventLoopUtilization(elu0).utilization;
const rssGrowth = process.memoryUsage().rss - rssBefore;
const parsed = cold.filter((p) => p.outcome === 'parsed' && p.source === 'fetch').length;
if (parsed !== hosts) {
  const bad = cold.find((p) => p.outcome !== 'parsed');
  fail(`only ${parsed}/${hosts} origins parsed (e.g. ${JSON.stringify(bad?.errorCode ?? bad?.status)})`);
}
const { peak, served } = await ask('stats');
if (served !== hosts) fail(`server answered ${served} requests for ${hosts} hosts`);
const coldRate = hosts / (coldMs / 1000);
const bound = concurrency / (latency / 1000);

// 1b. Cold again at a low concurrency, into a separate cache file, over other host names.
const lowHosts = Math.min(hosts, Math.round(lowConcurrency / (latency / 1000)) * 8);
const lowOrigins = Array.from({ length: lowHosts }, (_, i) => ({
  scheme: 'http',
  host: `l${i}.bench.test`,
  port,
}));
provider = live.createLivePolicyProvider({
  ...options,
  cache: path.join(dir, 'low.sqlite'),
  concurrency: lowConcurrency,
});
t0 = performance.now();
const low = await Promise.all(lowOrigins.map((o) => provider.get(o)));
const lowMs = performance.now() - t0;
await provider.close();
if (low.some((p) => p.outcome !== 'parsed')) fail('a low-concurrency fetch did not parse');
const lowRate = lowHosts / (lowMs / 1000);
const lowBound = lowConcurrency / (latency / 1000);

// 2. Warm: the same origins answered from the cache, through the provider, in batches of 1000.
provider = live.createLivePolicyProvider(options);
t0 = performance.now();
let warm = 0;
for (let i = 0; i < origins.length; i += 1000) {
  const batch = await Promise.all(origins.slice(i, i + 1000).map((o) => provider.get(o)));
  warm += batch.filter((p) => p.source === 'cache').length;
}
const warmMs = performance.now() - t0;
await provider.close();
if (warm !== hosts) fail(`only ${warm}/${hosts} warm lookups came from the cache`);
const warmRate = hosts / (warmMs / 1000);

// Peer: the bare prepared statement (current version + body) on the same file.
const db = new Database(cache, { readonly: true });
const stmt = db.prepare(
  'SELECT v.*, b.body FROM versions v LEFT JOIN bodies b ON b.sha256 = v.sha256 WHERE v.origin = ? AND v.valid_to IS NULL',
);
const keys = origins.map((o) => `http://${o.host}:${o.port}`);
t0 = performance.now();
let found = 0;
for (const k of keys) if (stmt.get(k)) found++;
const bareMs = performance.now() - t0;
db.close();
if (found !== hosts) fail(`bare lookup found ${found}/${hosts}`);
const bareRate = hosts / (bareMs / 1000);

worker.postMessage('close');
rmSync(dir, { recursive: true, force: true });

const f = (n) => Math.round(n).toLocaleString('en-US');
console.log(`fetch.bench: ${hosts} hosts, ${latency} ms per robots.txt, concurrency ${concurrency}`);
console.log(
  `node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${new Date().toISOString()}\n`,
);
console.log('| measure | value | peer / bound | ratio |');
console.log('|---|---|---|---|');
console.log(
  `| cold fetch | ${f(coldRate)} origins/s (${(coldMs / 1000).toFixed(2)} s, peak ${peak} in flight, main thread ${(elu * 100).toFixed(0)} % busy) | bound ${f(bound)} origins/s | ${((coldRate / bound) * 100).toFixed(1)} % (target ≥ 80 %) |`,
);
console.log(
  `| cold fetch at concurrency ${lowConcurrency} (${lowHosts} hosts) | ${f(lowRate)} origins/s | bound ${f(lowBound)} origins/s | ${((lowRate / lowBound) * 100).toFixed(1)} % |`,
);
console.log(
  `| cold fetch vs plain undici | ${f(coldRate)} origins/s | undici.request ${f(peerRate)} origins/s | ${((coldRate / peerRate) * 100).toFixed(1)} % |`,
);
console.log(
  `| CPU per origin (process, server thread included) | ${f(coldCpu)} µs | undici.request ${f(peerCpu)} µs | ${((coldCpu / peerCpu) * 100).toFixed(1)} % |`,
);
console.log(
  `| warm-cache lookup | ${f(warmRate)} origins/s | bare SELECT ${f(bareRate)} origins/s | ${((warmRate / bareRate) * 100).toFixed(1)} % |`,
);
console.log(`| RSS growth during cold fetch | ${(rssGrowth / 1048576).toFixed(0)} MiB | | |`);
