import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  removeStaleTemps,
  resolveOutputTarget,
  tempPathFor,
} from '../../../src/pipeline/output/output-target.js';
import { tempDir } from '../classify-data.js';

describe('resolveOutputTarget', () => {
  it('a relative link inside a symlinked directory is read from the real directory', () => {
    const d = tempDir('ra-target-');
    mkdirSync(path.join(d, 'real', 'deep'), { recursive: true });
    symlinkSync(path.join(d, 'real', 'deep'), path.join(d, 'alias'));
    // From real/deep, '../x.csv' is real/x.csv; read textually from alias/ it would be d/x.csv.
    symlinkSync('../x.csv', path.join(d, 'real', 'deep', 'out.csv'));
    expect(resolveOutputTarget(path.join(d, 'alias', 'out.csv'))).toEqual({
      kind: 'atomic',
      path: path.join(d, 'real', 'x.csv'),
    });
  });

  it('a loop of links is ELOOP, not a hang', () => {
    const d = tempDir('ra-target-');
    symlinkSync('b', path.join(d, 'a'));
    symlinkSync('a', path.join(d, 'b'));
    expect(() => resolveOutputTarget(path.join(d, 'a'))).toThrow(expect.objectContaining({ code: 'ELOOP' }));
  });

  it("this process's descriptor links are its descriptors; another process's are paths", async () => {
    expect(resolveOutputTarget('/dev/stdout')).toEqual({ kind: 'fd', fd: 1 });
    expect(resolveOutputTarget(`/proc/${process.pid}/fd/2`)).toEqual({ kind: 'fd', fd: 2 });
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'pipe' });
    try {
      const link = `/proc/${other.pid}/fd/1`;
      expect(resolveOutputTarget(link)).toEqual({ kind: 'direct', path: link });
    } finally {
      other.kill();
    }
  });
});

describe('removeStaleTemps', () => {
  it("removes only temporaries of OUTPUT's name whose process has ended", async () => {
    const d = tempDir('ra-stale-');
    const target = path.join(d, 'v.csv');
    const child = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => child.on('exit', r));
    const dead = `.v.csv.${child.pid}.00ff.tmp`;
    const mine = path.basename(tempPathFor(target));
    for (const n of [dead, mine, `.w.csv.${child.pid}.00ff.tmp`]) writeFileSync(path.join(d, n), '');
    expect(removeStaleTemps(target)).toEqual([dead]);
    expect(readdirSync(d).sort()).toEqual([mine, `.w.csv.${child.pid}.00ff.tmp`].sort());
  });
});
