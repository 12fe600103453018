/**
 * `diffFiles` over small hand-made classify outputs in a temp dir: flips in both directions, the
 * pairing by position (checked) and by key (out of order, duplicates, spilled to SQLite), gzip input,
 * and the agents of each file.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type DiffOptions, diffFiles } from '../../../src/pipeline/diff/diff-files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ra-diff-'));
const at = (name: string) => path.join(dir, name);
let n = 0;

function file(lines: string[], name = `f${++n}.csv`): string {
  writeFileSync(at(name), `${lines.join('\n')}\n`);
  return at(name);
}

async function diff(
  oldLines: string[] | string,
  newLines: string[] | string,
  opts: Partial<DiffOptions> = {},
) {
  const output = at(`out${++n}.csv`);
  const old = typeof oldLines === 'string' ? oldLines : file(oldLines);
  const neu = typeof newLines === 'string' ? newLines : file(newLines);
  const summary = await diffFiles({ old, new: neu, output, tempDir: dir, ...opts });
  return { lines: readFileSync(output, 'latin1').trimEnd().split('\n'), summary, output };
}

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    return err as { code: string; message: string };
  }
  throw new Error('expected a failure');
}

const HEAD =
  'host,url,allowed:A,verdict:A,rule_line:A,rule:A,allowed:B,verdict:B,rule_line:B,rule:B,robots_status,error_code';
const OLD = [
  HEAD,
  'a.example,https://a.example/x,true,allowed_implicit,,,false,disallowed_explicit,2,Disallow: /x,200,',
  'a.example,https://a.example/y,false,disallowed_explicit,3,Disallow: /y,true,allowed_explicit,4,Allow: /y,200,',
  'b.example,/p,,not_cached,,,,not_cached,,,,',
  'b.example,"/q,r",true,allowed_implicit,,,true,allowed_implicit,,,200,',
];
const NEW = [
  HEAD,
  'a.example,https://a.example/x,false,disallowed_explicit,2,"Disallow: /x,",false,disallowed_explicit,2,Disallow: /x,200,',
  'a.example,https://a.example/y,true,allowed_implicit,,,true,allowed_explicit,5,Allow: /y,200,',
  'b.example,/p,true,allowed_implicit,,,,not_cached,,,200,',
  'b.example,"/q,r",true,allowed_explicit,1,Allow: /,true,allowed_implicit,,,200,',
];
const OUT_HEAD =
  'host,url,agent,old_verdict,new_verdict,old_rule_line,old_rule,new_rule_line,new_rule,direction';

describe('pairing by position', () => {
  it('writes the rows whose allowed changed, one line per row and agent, with the direction', async () => {
    const { lines, summary } = await diff(OLD, NEW);
    expect(lines).toEqual([
      OUT_HEAD,
      'a.example,https://a.example/x,A,allowed_implicit,disallowed_explicit,,,2,"Disallow: /x,",allowed_to_disallowed',
      'a.example,https://a.example/y,A,disallowed_explicit,allowed_implicit,3,Disallow: /y,,,disallowed_to_allowed',
      'b.example,/p,A,not_cached,allowed_implicit,,,,,other',
    ]);
    expect(summary).toMatchObject({
      matching: 'position',
      agents: ['A', 'B'],
      rowsOld: 4,
      rowsNew: 4,
      rowsCompared: 4,
      rowsFlipped: 3,
      flips: 3,
      flipsByAgent: {
        A: { allowed_to_disallowed: 1, disallowed_to_allowed: 1, other: 1 },
        B: { allowed_to_disallowed: 0, disallowed_to_allowed: 0, other: 0 },
      },
      topSites: [
        { site: 'a.example', flips: 2, allowed_to_disallowed: 1, disallowed_to_allowed: 1, other: 0 },
        { site: 'b.example', flips: 1, allowed_to_disallowed: 0, disallowed_to_allowed: 0, other: 1 },
      ],
      topSitesExact: true,
    });
  });

  it('with allVerdicts, a change of verdict with the same allowed is a flip too', async () => {
    const { lines } = await diff(OLD, NEW, { allVerdicts: true });
    expect(lines.slice(1)).toContain(
      'b.example,"/q,r",A,allowed_implicit,allowed_explicit,,,1,Allow: /,other',
    );
    expect(lines).toHaveLength(5);
  });

  it('finds no flip between a file and itself', async () => {
    const same = file(NEW);
    const { lines, summary } = await diff(same, same, { allVerdicts: true });
    expect(lines).toEqual([OUT_HEAD]);
    expect(summary.rowsCompared).toBe(4);
    expect(summary.flips).toBe(0);
  });

  it('stops at the first record whose input columns differ, writing nothing', async () => {
    const changed = [...NEW];
    changed[2] = changed[2]!.replace('/y', '/z');
    const output = at('never.csv');
    const err = await failure(diffFiles({ old: file(OLD), new: file(changed), output }));
    expect(err.code).toBe('ERR_ROWS_DIFFER');
    expect(err.message).toMatch(/^rows differ at record 2: use --key COL/);
    expect(existsSync(output)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('never'))).toEqual([]);
  });

  it('stops when one file has fewer rows', async () => {
    const err = await failure(diff(OLD, NEW.slice(0, 3)));
    expect(err.code).toBe('ERR_ROWS_DIFFER');
    expect(err.message).toMatch(/^rows differ at record 3: use --key COL \(.* ends after 2 rows\)/);
  });

  it('refuses files whose input columns are not the same', async () => {
    const other = NEW.map((l, i) => (i === 0 ? l.replace('host,url', 'site,url') : l));
    const err = await failure(diff(OLD, other));
    expect(err.code).toBe('ERR_ROWS_DIFFER');
  });

  it('keeps the row numbers of a file written with --row-number', async () => {
    const numbered = OLD.map((l, i) => `${i === 0 ? 'row_number' : i}${','}${l}`);
    const { lines } = await diff(numbered, NEW);
    expect(lines[0]).toBe(`row_number,${OUT_HEAD}`);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['1', '2', '3']);
  });

  it('reads gzip input and tab-separated files', async () => {
    const gz = (lines: string[]) => {
      const f = at(`g${++n}.csv`);
      writeFileSync(f, gzipSync(`${lines.join('\n')}\n`));
      return f;
    };
    const plain = await diff(OLD, NEW);
    expect((await diff(gz(OLD), gz(NEW))).lines).toEqual(plain.lines);
    const tab = (lines: string[]) => lines.map((l) => l.replace('"/q,r"', '/q;r').replaceAll(',', '\t'));
    const tsv = await diff(tab(OLD), tab(NEW));
    expect(tsv.lines.map((l) => l.split('\t').at(-1))).toEqual([
      'direction',
      'allowed_to_disallowed',
      'disallowed_to_allowed',
      'other',
    ]);
  });

  it("honours an Excel sep= line and CRLF line ends, and writes them back as NEW's", async () => {
    const excel = (lines: string[]) => {
      const f = at(`x${++n}.csv`);
      const semi = lines.map((l) => l.replace('"/q,r"', '/q').replaceAll(',', ';'));
      writeFileSync(f, `sep=;\r\n${semi.join('\r\n')}\r\n`);
      return f;
    };
    const output = at(`x${++n}.out`);
    await diffFiles({ old: excel(OLD), new: excel(NEW), output });
    const text = readFileSync(output, 'latin1');
    expect(text.split('\r\n')).toEqual([
      'sep=;',
      OUT_HEAD.replaceAll(',', ';'),
      'a.example;https://a.example/x;A;allowed_implicit;disallowed_explicit;;;2;"Disallow: /x;";allowed_to_disallowed',
      'a.example;https://a.example/y;A;disallowed_explicit;allowed_implicit;3;Disallow: /y;;;disallowed_to_allowed',
      'b.example;/p;A;not_cached;allowed_implicit;;;;;other',
      '',
    ]);
  });
});

describe('agents', () => {
  const onlyA = (lines: string[]) =>
    lines.map((l) => {
      const f = l.match(/("[^"]*"|[^,]*)(,|$)/g)!.map((x) => x.replace(/,$/, ''));
      return [...f.slice(0, 6), ...f.slice(10, 12)].join(',');
    });

  it('refuses agents present in one file only, unless --agent names common ones', async () => {
    const err = await failure(diff(OLD, onlyA(NEW)));
    expect(err.code).toBe('ERR_USAGE');
    expect(err.message).toContain('B only in');
    expect(err.message).toContain('--agent A');
    const { lines, summary } = await diff(OLD, onlyA(NEW), { agents: ['a'] });
    expect(summary.agents).toEqual(['A']);
    expect(lines).toHaveLength(4);
    const missing = await failure(diff(OLD, onlyA(NEW), { agents: ['B'] }));
    expect(missing.code).toBe('ERR_USAGE');
  });

  it("names a one-agent run's unsuffixed columns with a single --agent", async () => {
    const unnamed = (lines: string[]) => onlyA(lines).map((l) => l.replaceAll(':A', ''));
    const { lines } = await diff(unnamed(OLD), onlyA(NEW), { agents: ['A'] });
    expect(lines.slice(1).map((l) => l.split(',')[2])).toEqual(['A', 'A', 'A']);
    const both = await diff(unnamed(OLD), unnamed(NEW));
    expect(both.lines.slice(1).map((l) => l.split(',')[2])).toEqual(['', '', '']);
  });

  it("compares each row's own agent in --agent-column outputs", async () => {
    const head =
      'url,ua,agent,allowed,verdict,rule_line,rule,allowed:GPTBot,verdict:GPTBot,rule_line:GPTBot,rule:GPTBot,robots_status,error_code';
    const oldRows = [
      head,
      'https://c.example/a,Mozilla/5.0 (compatible; Googlebot/2.1),Googlebot,true,allowed_implicit,,,false,disallowed_explicit,2,Disallow: /,200,',
      'https://c.example/b,CCBot/2.0,CCBot,false,disallowed_explicit,2,Disallow: /,false,disallowed_explicit,2,Disallow: /,200,',
      'https://c.example/c,Mozilla/5.0 Firefox,,,not_a_crawler,,,false,disallowed_explicit,2,Disallow: /,200,',
    ];
    const newRows = [
      head,
      'https://c.example/a,Mozilla/5.0 (compatible; Googlebot/2.1),Googlebot,false,disallowed_explicit,3,Disallow: /a,true,allowed_implicit,,,200,',
      'https://c.example/b,CCBot/2.0,CCBot,true,allowed_implicit,,,false,disallowed_explicit,2,Disallow: /,200,',
      'https://c.example/c,Mozilla/5.0 Firefox,,,not_a_crawler,,,false,disallowed_explicit,2,Disallow: /,200,',
    ];
    const { lines, summary } = await diff(oldRows, newRows);
    expect(lines).toEqual([
      `url,ua,${OUT_HEAD.replace('host,url,', '')}`,
      'https://c.example/a,Mozilla/5.0 (compatible; Googlebot/2.1),Googlebot,allowed_implicit,disallowed_explicit,,,3,Disallow: /a,allowed_to_disallowed',
      'https://c.example/a,Mozilla/5.0 (compatible; Googlebot/2.1),GPTBot,disallowed_explicit,allowed_implicit,2,Disallow: /,,,disallowed_to_allowed',
      'https://c.example/b,CCBot/2.0,CCBot,disallowed_explicit,allowed_implicit,2,Disallow: /,,,disallowed_to_allowed',
    ]);
    expect(summary.rowAgent).toBe(true);
    expect(summary.flipsByAgent.Googlebot?.allowed_to_disallowed).toBe(1);
    expect(summary.flipsByAgent.CCBot?.disallowed_to_allowed).toBe(1);
    expect(summary.flipsByAgent.GPTBot?.disallowed_to_allowed).toBe(1);
  });
});

describe('pairing by key', () => {
  it('pairs rows out of order and counts the rows only in one file', async () => {
    const shuffled = [
      NEW[0]!,
      NEW[4]!,
      'z.example,https://z.example/new,true,allowed_implicit,,,true,allowed_implicit,,,200,',
      NEW[2]!,
      NEW[3]!,
    ];
    const { lines, summary } = await diff(OLD, shuffled, { key: 'url' });
    expect(lines).toEqual([
      OUT_HEAD,
      'a.example,https://a.example/y,A,disallowed_explicit,allowed_implicit,3,Disallow: /y,,,disallowed_to_allowed',
      'b.example,/p,A,not_cached,allowed_implicit,,,,,other',
    ]);
    expect(summary).toMatchObject({
      matching: 'key',
      key: 'url',
      rowsCompared: 3,
      onlyInOld: 1,
      onlyInNew: 1,
    });
  });

  it('pairs the occurrences of a repeated key first with first', async () => {
    const row = (u: string, allowed: boolean) =>
      `h.example,https://h.example/${u},${allowed},${allowed ? 'allowed_implicit' : 'disallowed_explicit'},,,true,allowed_implicit,,,200,`;
    const { lines, summary } = await diff(
      [HEAD, row('d', true), row('e', true), row('d', false)],
      [HEAD, row('d', false), row('d', false), row('e', true)],
      { key: 'url' },
    );
    expect(lines.slice(1)).toEqual([
      'h.example,https://h.example/d,A,allowed_implicit,disallowed_explicit,,,,,allowed_to_disallowed',
    ]);
    expect(summary.rowsCompared).toBe(3);
  });

  it('gives the same flips when the waiting rows spill to SQLite', async () => {
    const rows = 600;
    const flipped = (i: number) => i % 7 === 3;
    const line = (i: number, allowed: boolean) =>
      `s${i % 13}.example,https://s${i % 13}.example/${i},${allowed},${allowed ? 'allowed_implicit' : 'disallowed_explicit'},${allowed ? '' : '1'},${allowed ? '' : 'Disallow: /'},true,allowed_implicit,,,200,`;
    const oldRows = [HEAD];
    const newRows: string[] = [];
    for (let i = 0; i < rows; i++) {
      oldRows.push(line(i, true));
      newRows.push(line(i, !flipped(i)));
    }
    newRows.reverse();
    newRows.splice(0, 0, HEAD);
    const expected = [];
    for (let i = 0; i < rows; i++) {
      if (flipped(i)) {
        expected.push(
          `s${i % 13}.example,https://s${i % 13}.example/${i},A,allowed_implicit,disallowed_explicit,,,1,Disallow: /,allowed_to_disallowed`,
        );
      }
    }
    // A spill left by a run that was killed is removed; a live run's is kept.
    mkdirSync(at('robots-audit-diff-2147483646-dead'));
    mkdirSync(at(`robots-audit-diff-${process.ppid}-live`));
    for (const memoryRows of [10_000, 16]) {
      const { lines, summary } = await diff(oldRows, newRows, { key: 'url', memoryRows });
      expect(lines[0]).toBe(OUT_HEAD);
      expect(lines.slice(1).sort()).toEqual(expected.sort());
      expect(summary).toMatchObject({ rowsCompared: rows, onlyInOld: 0, onlyInNew: 0 });
    }
    expect(readdirSync(dir).filter((f) => f.startsWith('robots-audit-diff-'))).toEqual([
      `robots-audit-diff-${process.ppid}-live`,
    ]);
  });

  it('refuses a key that is not an input column', async () => {
    const err = await failure(diff(OLD, NEW, { key: 'verdict:A' }));
    expect(err.code).toBe('ERR_INVALID_OPTION');
    expect(err.message).toContain('--key verdict:A');
  });
});
