import { describe, expect, it } from 'vitest';
import { EXIT, inputPath, onStopSignals, signalExitCode } from '../../src/cli/exit.js';

describe('exit helpers', () => {
  it('maps stop signals to their exit codes', () => {
    expect(signalExitCode('SIGINT')).toBe(EXIT.interrupted);
    expect(signalExitCode('SIGTERM')).toBe(EXIT.terminated);
  });

  it('reads a lone `-` positional (given by yargs as "" or true) as stdin, anything else as a path', () => {
    expect(inputPath('')).toBe('-');
    expect(inputPath(true)).toBe('-');
    expect(inputPath('-')).toBe('-');
    expect(inputPath('crawl.csv')).toBe('crawl.csv');
  });

  it('listens to SIGINT and SIGTERM until told to stop', () => {
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    const seen: string[] = [];
    const stop = onStopSignals((s) => seen.push(s));
    expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual([
      before[0]! + 1,
      before[1]! + 1,
    ]);
    // Node calls signal listeners with the signal's name, as this does.
    (process.emit as (event: string, ...args: unknown[]) => boolean)('SIGTERM', 'SIGTERM');
    stop();
    expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual(before);
    expect(seen).toEqual(['SIGTERM']);
  });
});

describe('a stop signal once the work is done', () => {
  it('ends the process with the signal exit code, not by the signal', async () => {
    const { spawnSync } = await import('node:child_process');
    const exitModule = new URL('../../dist/cli/exit.js', import.meta.url).href;
    // The process stays up a while after its work, as a run does while its threads end.
    const script = `
      const { onStopSignals, exitOnLateStopSignals } = await import(${JSON.stringify(exitModule)});
      const stop = onStopSignals(() => {});
      stop();
      exitOnLateStopSignals();
      setTimeout(() => {}, 2000);
      process.kill(process.pid, process.argv[1]);
    `;
    for (const [signal, code] of [
      ['SIGTERM', EXIT.terminated],
      ['SIGINT', EXIT.interrupted],
    ] as const) {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, signal], {
        encoding: 'utf8',
      });
      expect([r.status, r.signal, r.stderr], signal).toEqual([code, null, '']);
    }
  });
});
