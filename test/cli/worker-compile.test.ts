import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runNode } from '../helpers/run-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ra-compile-'));
const robots = path.join(dir, 'robots');
mkdirSync(robots);
const hosts = 300;
for (let h = 0; h < hosts; h++)
  writeFileSync(path.join(robots, `h${h}.test.txt`), 'User-agent: *\nDisallow: /p/1\nAllow: /p/2\n');
const rows = Array.from({ length: 20_000 }, (_, i) => `h${i % hosts}.test,http://h${i % hosts}.test/p/${i}`);
const input = path.join(dir, 'in.csv');
writeFileSync(input, `host,url\n${rows.join('\n')}\n`);

/** `[mode, function]` of each optimizing compile V8 reports (`--trace-opt`), on-stack replacement left out. */
function compiles(trace: string): [string, string][] {
  const out: [string, string][] = [];
  for (const line of trace.split('\n')) {
    const m =
      /^\[compiling method .*<JSFunction (\S+).*\(target TURBOFAN\), mode: ConcurrencyMode::(\w+)\]/.exec(
        line,
      );
    if (m !== null) out.push([m[2]!, m[1]!]);
  }
  return out;
}

describe('worker threads compile their code on their own thread', () => {
  it('no function of the judging path is compiled on a background thread, where a worker that ends can abort Node 20', async () => {
    const output = path.join(dir, 'out.csv');
    const r = await runNode([
      '--trace-opt',
      CLI,
      'classify',
      input,
      '--robots-dir',
      robots,
      '--agent',
      'Googlebot',
      '-o',
      output,
      '--threads',
      '2',
      '--quiet',
    ]);
    expect(r.code).toBe(0);
    expect(readFileSync(output, 'utf8').split('\n').length).toBe(rows.length + 2);
    const seen = compiles(r.stdout);
    const judging = new Set(['judge', 'find', 'writeRows', 'nextPlain', 'nextDelim']);
    // The workers did compile their hot path (the check below would otherwise prove nothing) …
    expect(seen.filter(([mode, fn]) => mode === 'kSynchronous' && judging.has(fn)).length).toBeGreaterThan(0);
    // … and none of it on a background thread.
    expect(seen.filter(([mode, fn]) => mode !== 'kSynchronous' && judging.has(fn))).toEqual([]);
  });
});
