// VersionParses: a later version parsed as an earlier one plus its appended text decides as the later
// file parsed alone; text that would not start a group of its own is parsed with the file.

import { describe, expect, it } from 'vitest';
import { compileRobotsTxt, compileVersions } from '../../src/core/index.js';
import { VersionParses } from '../../src/core/version-parses.js';

const AGENT = 'Googlebot';

/** Each version's decision for each path, compiled with the others and alone. */
function decisions(bodies: (string | Buffer)[], paths: string[], agent = AGENT) {
  const together = compileVersions(bodies, [agent]).map((r) => r[0]!);
  const alone = bodies.map((b) => compileRobotsTxt(b, [agent])[0]!);
  return {
    together: together.map((r) => paths.map((p) => r.checkPath(p))),
    alone: alone.map((r) => paths.map((p) => r.checkPath(p))),
  };
}

describe('VersionParses', () => {
  const base = 'User-agent: FooBot\nDisallow: /foo\n\nUser-agent: *\nDisallow: /a\n';

  it('reuses the earlier parse for text appended after its last line break, lines counted on', () => {
    const later = `${base}\nUser-agent: *\nDisallow: /b\n`;
    const parses = new VersionParses([base, later], ['googlebot']);
    const earlier = parses.get(0, 0);
    const next = parses.get(1, 0);
    expect(next.groups.slice(0, earlier.groups.length)).toEqual(earlier.groups);
    expect(next.groups[0]).toBe(earlier.groups[0]);
    expect(next.groups.at(-1)!.lineAt(0)).toBe(8);
    const { together, alone } = decisions([base, later], ['/a', '/b', '/foo']);
    expect(together).toEqual(alone);
    expect(together[1]![1]).toMatchObject({ allowed: false, line: 8 });
  });

  it('reuses it when the earlier file ends without a line break and the text starts by ending its last line', () => {
    const cut = base.slice(0, -1);
    for (const [eol, line] of [
      ['\n', 8],
      ['\r\n', 8],
    ] as const) {
      const later = `${cut}${eol}\nUser-agent: *\nDisallow: /b\n`;
      const parses = new VersionParses([cut, later], ['googlebot']);
      expect(parses.get(1, 0).groups[0]).toBe(parses.get(0, 0).groups[0]);
      const { together, alone } = decisions([cut, later], ['/a', '/b', '/foo']);
      expect(together).toEqual(alone);
      expect(together[1]![1]).toMatchObject({ allowed: false, line });
    }
    const cr = decisions([cut, `${cut}\r\rUser-agent: *\rDisallow: /b\r`], ['/a', '/b', '/foo']);
    expect(cr.together).toEqual(cr.alone);
    expect(cr.together[1]![1]).toMatchObject({ allowed: false, line: 8 });
    // Text that does not start on a line of its own continues the last line: parsed with the file.
    const glued = decisions([cut, `${cut}/more\nUser-agent: *\nDisallow: /b\n`], ['/a', '/a/more', '/b']);
    expect(glued.together).toEqual(glued.alone);
  });

  it('parses the whole file when the text would join its last group', () => {
    const paths = ['/a', '/b', '/foo'];
    // A rule with no user-agent line before it belongs to the file's last group.
    const orphan = decisions([base, `${base}Disallow: /b\n`], paths);
    expect(orphan.together).toEqual(orphan.alone);
    expect(orphan.together[1]![1]).toMatchObject({ allowed: false, line: 6 });
    // A user-agent line after user-agent lines with no rule yet joins their group.
    const open = 'User-agent: *\nDisallow: /a\nUser-agent: FooBot\n';
    const joined = decisions([open, `${open}User-agent: Googlebot\nDisallow: /b\n`], paths, 'FooBot');
    expect(joined.together).toEqual(joined.alone);
    expect(joined.together[1]![1]).toMatchObject({ allowed: false, line: 5 });
    // A BOM is only skipped at the start of a file: further down it spoils its line's key.
    const bytes = Buffer.from(base);
    const bom = Buffer.concat([
      bytes,
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('User-agent: FooBot\nDisallow: /b\n'),
    ]);
    const spoiled = decisions([bytes, bom], paths);
    expect(spoiled.together).toEqual(spoiled.alone);
    expect(spoiled.together[1]![1]).toMatchObject({ allowed: false, line: 7 });
    const text = decisions([base, `${base}\ufeffUser-agent: FooBot\nDisallow: /b\n`], paths);
    expect(text.together).toEqual(text.alone);
    expect(text.together[1]![1]).toMatchObject({ allowed: false, line: 7 });
  });

  it('compares bytes with bytes and strings with strings, CRLF files included', () => {
    const crlf = base.replaceAll('\n', '\r\n');
    const later = `${crlf}User-agent: *\r\nDisallow: /b\r\n`;
    for (const bodies of [
      [crlf, later],
      [Buffer.from(crlf), Buffer.from(later)],
      [crlf, Buffer.from(later)],
    ]) {
      const { together, alone } = decisions(bodies, ['/a', '/b', '/foo']);
      expect(together).toEqual(alone);
      expect(together[1]![1]).toMatchObject({ allowed: false, line: 7 });
    }
  });
});
