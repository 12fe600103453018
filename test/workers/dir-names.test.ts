import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DirNames } from '../../src/workers/dir-names.js';

function dirWith(names: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ra-dir-names-'));
  for (const name of names) writeFileSync(path.join(dir, name), '');
  return dir;
}

describe('DirNames', () => {
  it('holds the names in the directory, in any letter case, and no others', () => {
    const names = new DirNames(dirWith(['a.example.txt', 'B.Example.txt', '[::1]_8080.txt']));
    for (const n of ['a.example.txt', 'A.EXAMPLE.txt', 'b.example.txt', '[::1]_8080.txt']) {
      expect(names.mayHold(n), n).toBe(true);
    }
    for (const n of ['c.example.txt', 'a.example', 'a.example_8080.txt', ''])
      expect(names.mayHold(n), n).toBe(false);
  });

  it('holds a name added to the directory once refreshed, and forgets a removed one', () => {
    const dir = dirWith(['old.example.txt']);
    const names = new DirNames(dir);
    expect(names.mayHold('new.example.txt')).toBe(false);
    writeFileSync(path.join(dir, 'new.example.txt'), '');
    rmSync(path.join(dir, 'old.example.txt'));
    names.refresh();
    expect(names.mayHold('new.example.txt')).toBe(true);
    expect(names.mayHold('old.example.txt')).toBe(false);
  });

  it('holds every name of a directory it cannot list (or that does not exist)', () => {
    const dir = dirWith(['a.example.txt']);
    mkdirSync(path.join(dir, 'locked'));
    chmodSync(path.join(dir, 'locked'), 0o300);
    try {
      // As root a mode does not stop listing: then the locked directory is listed as empty.
      const locked = new DirNames(path.join(dir, 'locked'));
      const listable = process.getuid?.() === 0;
      expect(locked.mayHold('any.example.txt')).toBe(!listable);
    } finally {
      chmodSync(path.join(dir, 'locked'), 0o700);
    }
    expect(new DirNames(path.join(dir, 'absent')).mayHold('any.example.txt')).toBe(true);
  });

  it('gives the same answer for a name built from parts as for the whole name, in any letter case', () => {
    const names = ['a.example.txt', 'Ä-host.example.txt', 'xn--bcher-kva.de_8080.txt', 'İ.example.txt'];
    const held = new DirNames(dirWith(names));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom(
            'a.example',
            'A.EXAMPLE',
            'ä-host.example',
            'Ä-HOST.example',
            'xn--bcher-kva.de',
            'i̇.example',
          ),
          fc.string({ maxLength: 12 }),
        ),
        fc.constantFrom('.txt', '_8080.txt', '_1.txt', '.TXT'),
        fc.nat(3),
        (head, suffix, cut) => {
          const len = Math.max(0, head.length - cut);
          expect(held.mayHoldJoined(head, len, suffix)).toBe(held.mayHold(head.slice(0, len) + suffix));
        },
      ),
    );
    expect(held.mayHoldJoined('A.Example.', 9, '.txt')).toBe(true);
    expect(held.mayHoldJoined('b.example', 9, '.txt')).toBe(false);
  });
});
