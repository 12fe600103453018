#!/usr/bin/env node
// The plain pipeline a user would write instead of robots-audit classify, used as the benchmark peer:
// csv-parse → npm robots-parser (one parsed object per host, robots.txt from DIR/<host>.txt) → csv-stringify,
// one thread. Usage: node bench/peer-classify.mjs INPUT.csv ROBOTS_DIR AGENT OUTPUT.csv
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';
import robotsParser from 'robots-parser';

const [input, dir, agent, output] = process.argv.slice(2);
if (!output) {
  console.error('usage: peer-classify.mjs INPUT.csv ROBOTS_DIR AGENT OUTPUT.csv');
  process.exit(2);
}
const robots = new Map();
function robotsFor(url) {
  const u = new URL(url);
  const key = u.origin;
  let r = robots.get(key);
  if (r === undefined) {
    let body = '';
    try {
      body = readFileSync(`${dir}/${u.hostname}.txt`, 'utf8');
    } catch {}
    r = robotsParser(`${key}/robots.txt`, body);
    robots.set(key, r);
  }
  return r;
}
let rows = 0;
const t0 = performance.now();
await pipeline(
  createReadStream(input),
  parse({ columns: true }),
  new Transform({
    objectMode: true,
    transform(row, _enc, done) {
      rows++;
      let allowed = '';
      let line = '';
      try {
        const r = robotsFor(row.url);
        allowed = String(r.isAllowed(row.url, agent) ?? true);
        line = String(r.getMatchingLineNumber(row.url, agent));
      } catch {}
      done(null, { ...row, allowed, rule_line: line });
    },
  }),
  stringify({ header: true }),
  createWriteStream(output),
);
const ms = performance.now() - t0;
console.log(JSON.stringify({ rows, ms: Math.round(ms), rowsPerSecond: Math.round((rows * 1000) / ms) }));
