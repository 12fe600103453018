import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classify } from '../../src/pipeline/classify.js';
import { classifyInThread } from '../../src/pipeline/classify-thread.js';
import { abortCase, MESSY_ROBOTS, messyLog, tempDir, writeRobots } from './classify-data.js';

const dir = tempDir();
const robots = writeRobots(dir, MESSY_ROBOTS);

function rowsOf(file: string): Record<string, string>[] {
  const raw = readFileSync(file);
  const text = file.endsWith('.gz') ? gunzipSync(raw) : raw;
  return parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

describe('classify (library)', () => {
  it('classifies a messy log: one row per record, in order, each with the right verdict', async () => {
    const { bytes, expected } = messyLog();
    const input = path.join(dir, 'messy.csv');
    writeFileSync(input, bytes);
    const output = path.join(dir, 'messy-out.csv');
    const summary = await classify({ input, output, agents: ['Googlebot'], robotsDir: robots, threads: 2 });
    const rows = rowsOf(output);
    // A malformed record keeps its whole raw line in the first column (here the id column).
    expect(rows[15]!.id).toBe('15,a.example,"https://a.example/unterminated');
    expect(rows.map((r) => r.id!.split(',')[0])).toEqual(expected.map((_, i) => String(i)));
    expect(rows.map((r) => [r.verdict, r.error_code])).toEqual(expected);
    // Output header: every input column, then the verdict columns; no BOM; CRLF kept.
    const text = readFileSync(output, 'utf8');
    expect(text.startsWith('id,host,url,allowed,verdict,rule_line,rule,robots_status,error_code\r\n')).toBe(
      true,
    );
    expect(summary.recordsRead).toBe(expected.length);
    expect(summary.rowsWritten).toBe(expected.length);
    expect(summary.blankLines).toBe(2);
    expect(summary.hostMismatch).toBe(1);
    expect(summary.invalidRows).toBe(Object.values(summary.invalidByCode).reduce((a, b) => a + b, 0));
    expect(summary.invalidRows).toBe(summary.verdicts.Googlebot!.invalid_input);
    expect(Object.values(summary.verdicts.Googlebot!).reduce((a, b) => a + b, 0)).toBe(expected.length);
    expect(summary.invalidExamples[0]).toEqual({ record: 14, code: 'missing_url' });
  });

  it('judges several agents, and with one thread gives the same output as with two', async () => {
    const { bytes } = messyLog();
    const input = path.join(dir, 'multi.csv');
    writeFileSync(input, bytes);
    const outs = [];
    for (const threads of [1, 2]) {
      const output = path.join(dir, `multi-${threads}.csv`);
      await classify({ input, output, agents: ['Googlebot', 'GPTBot/1.0'], robotsDir: robots, threads });
      outs.push(readFileSync(output, 'utf8'));
    }
    expect(outs[0]).toBe(outs[1]);
    const rows = rowsOf(path.join(dir, 'multi-2.csv'));
    expect(Object.keys(rows[0]!)).toContain('verdict:GPTBot');
    expect(rows[1]!['verdict:Googlebot']).toBe('allowed_implicit');
    expect(rows[1]!['verdict:GPTBot']).toBe('disallowed_explicit');
  });

  it('reads classic Mac line ends (CR only) as LF, whichever chunk the first CR ends', async () => {
    const lines = [
      'host,url',
      'a.example,https://a.example/private',
      'a.example,"https://a.example/x,y"',
      '',
      'b.example,/relative',
    ];
    const lf = Buffer.from(`${lines.join('\n')}\n`);
    const cr = Buffer.from(`${lines.join('\r')}\r`);
    const lfOut = path.join(dir, 'lf-out.csv');
    await classify({ input: Readable.from([lf]), output: lfOut, agents: ['Googlebot'], robotsDir: robots });
    const expected = readFileSync(lfOut, 'utf8');
    expect(expected.split('\n')).toHaveLength(lines.length); // the header and three rows (a blank line is no record)
    // Cuts: right after the header's CR (the style is told only by the next chunk), inside a row, none.
    for (const cut of [9, 8, 20, cr.length]) {
      const output = path.join(dir, `cr-out-${cut}.csv`);
      const chunks = [cr.subarray(0, cut), cr.subarray(cut)].filter((c) => c.length > 0);
      const summary = await classify({
        input: Readable.from(chunks),
        output,
        agents: ['Googlebot'],
        robotsDir: robots,
      });
      expect(readFileSync(output, 'utf8')).toBe(expected);
      expect(summary.recordsRead).toBe(3);
      expect(summary.blankLines).toBe(1);
    }
  });

  it('reads a UTF-16LE tab-separated log with its BOM (a spreadsheet\'s "Unicode text"), gzipped, as UTF-8', async () => {
    const log = 'host\turl\r\na.example\thttps://a.example/private/é\r\na.example\thttps://a.example/ok\r\n';
    const input = path.join(dir, 'unicode.txt.gz');
    writeFileSync(input, gzipSync(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(log, 'utf16le')])));
    const output = path.join(dir, 'unicode-out.tsv');
    await classify({ input, output, agents: ['Googlebot'], robotsDir: robots, delimiter: 'tab' });
    const lines = readFileSync(output, 'utf8').split('\r\n');
    expect(lines[0]).toBe('host\turl\tallowed\tverdict\trule_line\trule\trobots_status\terror_code');
    expect(lines[1]).toBe(
      'a.example\thttps://a.example/private/é\tfalse\tdisallowed_explicit\t2\tDisallow: /private\tfile\t',
    );
    expect(lines[2]).toMatch(/^a\.example\thttps:\/\/a\.example\/ok\ttrue\tallowed_implicit\t/);
  });

  it('keeps bytes that are not UTF-8 in rewritten records (relaxed quotes, extra fields), and judges quoted UTF-8 URLs', async () => {
    const input = path.join(dir, 'latin1.csv');
    const records = [
      Buffer.from('1,https://a.example/private/a,x\xff', 'latin1'),
      Buffer.from('2,https://a.example/private/b,ab"c\xff', 'latin1'),
      Buffer.from('3,https://a.example/private/c,x\xfe,y', 'latin1'),
      Buffer.from('4,"https://a.example/private/é?q=""1""",n', 'utf8'),
    ];
    writeFileSync(
      input,
      Buffer.concat([Buffer.from('id,url,note\n'), ...records.flatMap((r) => [r, Buffer.from('\n')])]),
    );
    const output = path.join(dir, 'latin1-out.csv');
    await classify({ input, output, agents: ['Googlebot'], robotsDir: robots, threads: 1 });
    const lines = readFileSync(output).toString('latin1').split('\n');
    expect(lines[1]).toBe(
      '1,https://a.example/private/a,x\xff,false,disallowed_explicit,2,Disallow: /private,file,',
    );
    // Rewritten from csv-parse's fields (relax_quotes): quoted, with the 0xFF byte as it was.
    expect(lines[2]).toBe(
      '2,https://a.example/private/b,"ab""c\xff",false,disallowed_explicit,2,Disallow: /private,file,',
    );
    // Extra fields folded into the last column, 0xFE kept.
    expect(lines[3]).toBe('3,https://a.example/private/c,"x\xfe,y",,invalid_input,,,,extra_fields');
    expect(Buffer.from(lines[4]!, 'latin1').toString('utf8')).toBe(
      '4,"https://a.example/private/é?q=""1""",n,false,disallowed_explicit,2,Disallow: /private,file,',
    );
  });

  it("follows an Excel export's `sep=;` first line: `;` delimits every record, and the line is echoed", async () => {
    const log =
      '\ufeffsep=;\r\nhost;url\r\na.example;https://a.example/private/x,y\r\na.example;"https://a.example/ok;1"\r\n';
    const input = path.join(dir, 'excel.csv');
    writeFileSync(input, log);
    const output = path.join(dir, 'excel-out.csv');
    const summary = await classify({ input, output, agents: ['Googlebot'], robotsDir: robots, threads: 2 });
    expect(readFileSync(output, 'utf8').split('\r\n')).toEqual([
      'sep=;',
      'host;url;allowed;verdict;rule_line;rule;robots_status;error_code',
      'a.example;https://a.example/private/x,y;false;disallowed_explicit;2;Disallow: /private;file;',
      'a.example;"https://a.example/ok;1";true;allowed_implicit;;;file;',
      '',
    ]);
    expect(summary.rowsWritten).toBe(2);
  });

  it('reads and writes gzip, and honours --delimiter for TSV logs', async () => {
    const input = path.join(dir, 'in.tsv.gz');
    writeFileSync(input, gzipSync('host\turl\tnote\na.example\thttps://a.example/private\tx,y\n'));
    const output = path.join(dir, 'out.tsv.gz');
    await classify({ input, output, agents: ['Googlebot'], robotsDir: robots, delimiter: 'tab' });
    expect(gunzipSync(readFileSync(output)).toString()).toBe(
      'host\turl\tnote\tallowed\tverdict\trule_line\trule\trobots_status\terror_code\n' +
        'a.example\thttps://a.example/private\tx,y\tfalse\tdisallowed_explicit\t2\tDisallow: /private\tfile\t\n',
    );
  });

  it.each([
    ['classify', classify],
    ['classifyInThread', classifyInThread],
  ] as const)('%s counts each origin of --robots-dir once, whichever worker read it', async (_, run) => {
    const files: Record<string, string> = {};
    for (let h = 0; h < 30; h++) files[`h${h}.example.txt`] = `User-agent: *\nDisallow: /d${h}\n`;
    const robotsDir = writeRobots(tempDir(), files);
    mkdirSync(path.join(robotsDir, 'h35.example.txt')); // a file that cannot be read
    const lines = ['host,url'];
    for (let r = 0; r < 50; r++)
      for (let h = 0; h < 36; h++) lines.push(`h${h}.example,https://h${h}.example/d${h}/${r}`);
    const input = path.join(dir, 'tally.csv');
    writeFileSync(input, `${lines.join('\n')}\n`);
    const s = await run({
      input,
      output: path.join(dir, 'tally-out.csv'),
      agents: ['Googlebot'],
      robotsDir,
      threads: 2,
    });
    expect(s.origins).toMatchObject({
      resolved: 36,
      byOutcome: { parsed: 30, unavailable: 5, unreachable: 1, not_cached: 0 },
      bySource: { file: 31, missing: 5 },
    });
    expect(s.verdicts.Googlebot).toMatchObject({
      disallowed_explicit: 30 * 50,
      allowed_unavailable: 5 * 50,
      disallowed_unreachable: 50,
    });
  });

  it('writes the --summary JSON, whose figures add up', async () => {
    const { bytes } = messyLog();
    const input = path.join(dir, 's.csv');
    writeFileSync(input, bytes);
    const file = path.join(dir, 's.json');
    await classify({
      input,
      output: path.join(dir, 's-out.csv'),
      agents: ['Googlebot'],
      robotsDir: robots,
      summary: file,
    });
    const s = JSON.parse(readFileSync(file, 'utf8'));
    expect(s.recordsRead).toBe(s.rowsWritten);
    expect(s.origins.byOutcome.parsed + s.origins.byOutcome.unavailable).toBe(s.origins.resolved);
    expect(s.topDisallowedHosts.Googlebot[0].origin).toBe('https://a.example');
    expect(s.topRules.Googlebot[0]).toMatchObject({
      origin: 'https://a.example',
      line: 2,
      rule: 'Disallow: /private',
    });
    expect(Object.keys(s.timing)).toEqual(['wallMs', 'readingMs', 'fetchingMs', 'matchingMs', 'writingMs']);
  });

  it('keeps rules that allow apart from rules that disallow; an empty Disallow is among those that allow', async () => {
    const d = tempDir();
    const robotsDir = writeRobots(d, {
      'open.example.txt': 'User-agent: *\nDisallow:\n',
      'shut.example.txt': 'User-agent: *\nAllow: /p/ok\nDisallow: /p\n',
    });
    const input = path.join(d, 'in.csv');
    const urls = [
      'open.example,/a',
      'open.example,/b',
      'open.example,/c',
      'shut.example,/p/1',
      'shut.example,/p/ok',
    ];
    writeFileSync(input, `host,url\n${urls.join('\n')}\n`);
    const file = path.join(d, 's.json');
    await classify({
      input,
      output: path.join(d, 'out.csv'),
      agents: ['Googlebot'],
      robotsDir,
      summary: file,
    });
    const s = JSON.parse(readFileSync(file, 'utf8'));
    const open = { origin: 'https://open.example', line: 2, rule: 'Disallow: ', rows: 3 };
    const shut = { origin: 'https://shut.example', line: 3, rule: 'Disallow: /p', rows: 1 };
    const ok = { origin: 'https://shut.example', line: 2, rule: 'Allow: /p/ok', rows: 1 };
    expect(s.topDisallowRules).toEqual({ Googlebot: [shut] });
    expect(s.topAllowRules).toEqual({ Googlebot: [open, ok] });
    // topRules keeps every deciding rule, as before the split.
    expect(s.topRules).toEqual({ Googlebot: [open, ok, shut] });
  });

  it('counts top hosts and rules per agent when agents decide alike', async () => {
    const d = tempDir();
    const robotsDir = writeRobots(d, {
      'm.example.txt':
        'User-agent: *\nDisallow: /all\n\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n',
      'b.example.txt': 'User-agent: *\nDisallow: /b\n',
    });
    const input = path.join(d, 'in.csv');
    writeFileSync(
      input,
      'host,url\nm.example,/all/1\nm.example,/x\nb.example,/b\nb.example,/b/2\nb.example,/c\n',
    );
    const file = path.join(d, 's.json');
    const agents = ['Googlebot', 'Bingbot', 'GPTBot', 'CCBot'];
    await classify({ input, output: path.join(d, 'out.csv'), agents, robotsDir, summary: file });
    const s = JSON.parse(readFileSync(file, 'utf8'));
    const hosts = (a: string) =>
      s.topDisallowedHosts[a].map((h: { origin: string; rows: number }) => `${h.origin}=${h.rows}`);
    const rules = (a: string) =>
      s.topRules[a].map(
        (r: { origin: string; line: number; rows: number }) => `${r.origin}:${r.line}=${r.rows}`,
      );
    for (const a of ['Googlebot', 'Bingbot']) {
      expect(hosts(a)).toEqual(['https://b.example=2', 'https://m.example=1']);
      expect(rules(a)).toEqual(['https://b.example:2=2', 'https://m.example:2=1']);
    }
    for (const a of ['GPTBot', 'CCBot']) {
      expect(hosts(a)).toEqual(['https://b.example=2', 'https://m.example=2']);
      expect(rules(a)).toEqual(['https://b.example:2=2', 'https://m.example:6=2']);
    }
  });

  it.each([
    ['classify', classify, 200_000],
    ['classifyInThread', classifyInThread, 300_000],
  ])(
    '%s stops on abort: rejects ERR_ABORTED and leaves no output and no temporary file',
    async (_, run, rows) => {
      const { input, output, signal, leftNothing } = abortCase(dir, rows);
      await expect(
        run({ input, output, agents: ['Googlebot'], robotsDir: robots, signal }),
      ).rejects.toMatchObject({
        code: 'ERR_ABORTED',
        message: 'stopped (SIGINT)',
      });
      expect(leftNothing()).toBe(true);
    },
  );

  it('fails with one clear error for a missing url column or input, and bad options', async () => {
    const input = path.join(dir, 'nourl.csv');
    writeFileSync(input, 'host,link\na,b\n');
    await expect(classify({ input, agents: ['x'], robotsDir: robots })).rejects.toMatchObject({
      code: 'ERR_NO_URL_COLUMN',
    });
    await expect(
      classify({ input: path.join(dir, 'none.csv'), agents: ['x'], robotsDir: robots }),
    ).rejects.toMatchObject({
      code: 'ERR_INPUT',
    });
    await expect(classify({ input, agents: [], robotsDir: robots })).rejects.toMatchObject({
      code: 'ERR_INVALID_OPTION',
    });
    await expect(classify({ input, agents: ['x'], threads: 'many' })).rejects.toThrow(
      /Invalid option `threads`/,
    );
  });
});

// Property: for any CSV (quotes, commas, line breaks, BOM, CRLF, blank lines, broken quotes), the output
// has exactly as many records as the input, in the same order.
describe('classify keeps one output row per input record', () => {
  const cell = fc.string({ unit: fc.constantFrom('a', '/', ',', '"', '\n', ' ', 'é', 'x'), maxLength: 6 });
  const record = fc.tuple(
    fc.constantFrom('a.example', 'b.example', ''),
    fc.oneof(cell, fc.constant('https://a.example/private')),
  );
  it('for random CSV input', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(record, { maxLength: 40 }),
        fc.boolean(),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        async (records, bom, eol, quoteAll) => {
          const q = (f: string) => (quoteAll || /[",\n]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f);
          const ids = records.map((_, i) => i);
          const body = records.map(([h, u], i) => `${i},${q(h)},${q(u)}`).join(eol);
          const input = path.join(dir, 'prop.csv');
          writeFileSync(input, `${bom ? '\ufeff' : ''}id,host,url${eol}${body}${records.length ? eol : ''}`);
          const output = path.join(dir, 'prop-out.csv');
          const s = await classify({ input, output, agents: ['Googlebot'], robotsDir: robots, threads: 2 });
          const out = rowsOf(output);
          expect(out.map((r) => Number(r.id!.split(',')[0]))).toEqual(ids);
          expect(s.recordsRead).toBe(records.length);
        },
      ),
      { numRuns: 25 },
    );
  });
});

// Property: broken CSV (raw quotes and commas, unterminated quotes) never loses or invents a row: the
// output has as many records as the input has in the documented dialect (RecordScanner), and it is
// well-formed and rectangular CSV that csv-parse reads strictly.
describe('classify turns broken CSV into well-formed output', () => {
  const raw = fc.string({ unit: fc.constantFrom('a', '/', ',', '"', ' ', 'x', ':'), maxLength: 8 });
  it('for random unquoted cells', async () => {
    const { RecordScanner, KIND_BLANK } = await import('../../src/rows/record-scanner.js');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(raw, raw), { maxLength: 30 }), async (records) => {
        const data = records.map(([h, u]) => `${h},${u}`).join('\n');
        const input = path.join(dir, 'broken.csv');
        writeFileSync(input, `host,url\n${data}\n`);
        const s = new RecordScanner();
        const text = `${data}\n`;
        s.reset(text, text.length, 44, true);
        let want = 0;
        for (let p = 0; p < text.length; p = s.next) {
          s.scan(p);
          if (s.kind !== KIND_BLANK) want++;
        }
        const output = path.join(dir, 'broken-out.csv');
        const sum = await classify({ input, output, agents: ['Googlebot'], robotsDir: robots });
        const out = parse(readFileSync(output), { relax_column_count: false }) as string[][];
        expect(out.length - 1).toBe(want);
        expect(out.every((r) => r.length === 8)).toBe(true);
        expect(sum.rowsWritten).toBe(want);
      }),
      { numRuns: 25 },
    );
  });
});
