/**
 * `robots-audit classify` spawned for real (dist/): files, stdin/stdout, gzip, several agents, the
 * summary, every kind of bad input, fatal errors, and SIGINT/SIGTERM mid-run.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/run-cli.js';
import { MESSY_ROBOTS, messyLog, tempDir, writeRobots } from '../pipeline/classify-data.js';

const dir = tempDir('ra-cli-');
const robots = writeRobots(dir, MESSY_ROBOTS);
const { bytes: messy, expected } = messyLog();
const messyFile = path.join(dir, 'messy.csv');
writeFileSync(messyFile, messy);
const sample = fileURLToPath(new URL('../../data/sample/', import.meta.url));

describe('robots-audit classify (CLI)', () => {
  it('classifies the bundled sample with --robots-dir and prints the summary', async () => {
    const out = path.join(dir, 'sample-out.csv');
    const r = await runCli([
      'classify',
      path.join(sample, 'crawl.csv'),
      '--robots-dir',
      path.join(sample, 'robots'),
      '--agent',
      'Googlebot',
      '-o',
      out,
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^robots-audit classify: (\d+) records → \1 rows/);
    const rows = parse(readFileSync(out), { columns: true }) as Record<string, string>[];
    const input = parse(readFileSync(path.join(sample, 'crawl.csv')), { columns: true }) as Record<
      string,
      string
    >[];
    expect(rows).toHaveLength(input.length);
    expect(rows.every((row, i) => row.url === input[i]!.url)).toBe(true);
    expect(new Set(rows.map((row) => row.verdict))).toContain('disallowed_explicit');
  });

  it('names the first records with extra fields and their likely cause, and lists allow and disallow rules apart', async () => {
    const d = tempDir('ra-cli-extra-');
    const robotsDir = writeRobots(d, { ...MESSY_ROBOTS, 'open.example.txt': 'User-agent: *\nDisallow:\n' });
    const rows = ['/private/1', '/a,b', '/c,d', '/private/2', '/e,f', '/g,h', '/i,j', '/private/3', '/k,l'];
    const input = ['host,url', ...rows.map((u) => `a.example,${u}`), 'open.example,/x', 'open.example,/y'];
    const r = await runCli(
      ['classify', '-', '--robots-dir', robotsDir, '--agent', 'Googlebot', '-o', '/dev/null'],
      {
        input: `${input.join('\n')}\n`,
      },
    );
    expect(r.code).toBe(0);
    const lines = r.stderr.split('\n');
    const at = lines.findIndex((l) => l.startsWith('  invalid rows:'));
    expect(lines.slice(at, at + 3)).toEqual([
      '  invalid rows: 6 (extra_fields 6)',
      '  extra_fields: 6 rows with more fields than the header, first at records 2, 3, 5, 6, 7 (header not counted, as --row-number counts)',
      '    likely cause: a field holding the delimiter unquoted, such as a URL with a comma; quote such fields ("…")',
    ]);
    expect(lines.filter((l) => l.includes('rules (Googlebot)'))).toEqual([
      '  top disallow rules (Googlebot): https://a.example line 2 "Disallow: /private" 3',
      '  top allow rules (Googlebot): https://open.example line 2 "Disallow: " (empty: disallows nothing) 2',
    ]);
  });

  it('reads stdin and writes stdout with `-`, quietly', async () => {
    const r = await runCli(['classify', '-', '--robots-dir', robots, '--agent', 'Googlebot', '--quiet'], {
      input: 'url\nhttps://a.example/private\n',
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      'url,allowed,verdict,rule_line,rule,robots_status,error_code\n' +
        'https://a.example/private,false,disallowed_explicit,2,Disallow: /private,file,\n',
    );
  });

  it('reads and writes gzip', async () => {
    const input = path.join(dir, 'in.csv.gz');
    writeFileSync(input, gzipSync(messy));
    const out = path.join(dir, 'out.csv.gz');
    const r = await runCli(['classify', input, '-o', out, '--robots-dir', robots, '--agent', 'Googlebot']);
    expect(r.code).toBe(0);
    const rows = parse(gunzipSync(readFileSync(out)), { columns: true, bom: true }) as Record<
      string,
      string
    >[];
    expect(rows.map((x) => [x.verdict, x.error_code])).toEqual(expected);
  });

  it('judges several agents and writes a --summary JSON that adds up', async () => {
    const out = path.join(dir, 'multi.csv');
    const summary = path.join(dir, 'summary.json');
    const r = await runCli([
      'classify',
      messyFile,
      '-o',
      out,
      '--robots-dir',
      robots,
      '--agent',
      'Googlebot',
      '--agent',
      'GPTBot',
      '--summary',
      summary,
      '--threads',
      '2',
    ]);
    expect(r.code).toBe(0);
    const s = JSON.parse(readFileSync(summary, 'utf8'));
    expect(s.recordsRead).toBe(expected.length);
    expect(s.rowsWritten).toBe(expected.length);
    for (const agent of ['Googlebot', 'GPTBot']) {
      const total = Object.values(s.verdicts[agent] as Record<string, number>).reduce((a, b) => a + b, 0);
      expect(total).toBe(expected.length);
      expect(s.verdicts[agent].invalid_input).toBe(s.invalidRows);
    }
    expect(Object.values(s.invalidByCode as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(
      s.invalidRows,
    );
    expect(s.invalidByCode).toEqual({
      bad_url: 2,
      extra_fields: 1,
      malformed_record: 1,
      missing_url: 1,
      path_without_host: 1,
      unsupported_scheme: 1,
    });
    const header = readFileSync(out, 'utf8').split('\r\n')[0];
    expect(header).toBe(
      'id,host,url,allowed:Googlebot,verdict:Googlebot,rule_line:Googlebot,rule:Googlebot,' +
        'allowed:GPTBot,verdict:GPTBot,rule_line:GPTBot,rule:GPTBot,robots_status,error_code',
    );
  });

  it('adds the evidence columns with --evidence', async () => {
    const r = await runCli(
      ['classify', '-', '--robots-dir', robots, '--agent', 'Googlebot', '--evidence', '--quiet'],
      {
        input: 'url\nhttps://a.example/x\n',
      },
    );
    const [row] = parse(r.stdout, { columns: true }) as Record<string, string>[];
    expect(row!.robots_url).toMatch(/^file:\/\/.*a\.example\.txt$/);
    expect(row!.robots_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.robots_truncated).toBe('false');
    expect(Number.isNaN(Date.parse(row!.fetched_at!))).toBe(false);
  });

  it('fails with one clear line: missing input, no url column, bad options', async () => {
    const missing = await runCli([
      'classify',
      path.join(dir, 'nope.csv'),
      '--robots-dir',
      robots,
      '--agent',
      'x',
    ]);
    expect([missing.code, missing.stderr]).toEqual([
      3,
      `robots-audit: cannot read the input ${path.join(dir, 'nope.csv')}: no such file\n`,
    ]);
    const nourl = await runCli(['classify', '-', '--robots-dir', robots, '--agent', 'x'], {
      input: 'host,link\na,b\n',
    });
    expect(nourl.code).toBe(3);
    expect(nourl.stderr).toMatch(
      /^robots-audit: the input has no `url` column \(header: "host", "link"\); use --url-column\n$/,
    );
    const threads = await runCli([
      'classify',
      '-',
      '--robots-dir',
      robots,
      '--agent',
      'x',
      '--threads',
      'lots',
    ]);
    expect([threads.code, threads.stderr]).toEqual([
      2,
      'robots-audit: Invalid option `threads`: expected an integer from 1 to 256, got "lots" (string)\n',
    ]);
    const noAgent = await runCli(['classify', '-', '--robots-dir', robots]);
    expect(noAgent.code).toBe(2);
    expect(noAgent.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    const both = await runCli(['classify', '-', '--robots-dir', robots, '--offline', '--agent', 'x']);
    expect(both.code).toBe(2);
    const noDir = await runCli(['classify', '-', '--robots-dir', path.join(dir, 'nodir'), '--agent', 'x'], {
      input: 'url\n',
    });
    expect([noDir.code, noDir.stderr]).toEqual([
      3,
      `robots-audit: --robots-dir ${path.join(dir, 'nodir')}: no such directory\n`,
    ]);
    const unwritable = path.join(dir, 'nodir', 'out.csv');
    const noOut = await runCli(['classify', '-', '-o', unwritable, '--robots-dir', robots, '--agent', 'x'], {
      input: 'url\nhttps://a.example/\n',
    });
    expect([noOut.code, noOut.stderr]).toEqual([
      3,
      `robots-audit: cannot write the output ${unwritable}: no such directory\n`,
    ]);
    const delim = await runCli(
      ['classify', '-', '--robots-dir', robots, '--agent', 'x', '--delimiter', '§'],
      { input: 'url\n' },
    );
    expect(delim.code).toBe(2);
  });

  it('shows a progress line with --progress', async () => {
    const r = await runCli(
      [
        'classify',
        messyFile,
        '-o',
        path.join(dir, 'p.csv'),
        '--robots-dir',
        robots,
        '--agent',
        'x',
        '--progress',
      ],
      {},
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('robots-audit classify:');
  });
});

describe('robots-audit classify stops cleanly on signals', () => {
  // stdin runs the coordinator on the main thread; a named pipe as INPUT runs it in its own thread.
  const cases = [
    ['SIGINT', 130, 'stdin'],
    ['SIGTERM', 143, 'stdin'],
    ['SIGINT', 130, 'fifo'],
    ['SIGTERM', 143, 'fifo'],
  ] as const;
  for (const [signal, code, from] of cases) {
    it(`${signal}, input from ${from}: exits ${code}, no OUTPUT file and no temporary file`, async () => {
      const outDir = tempDir('ra-sig-');
      const out = path.join(outDir, 'v.csv');
      const fifo = path.join(tempDir('ra-fifo-'), 'in.csv');
      if (from === 'fifo') execFileSync('mkfifo', [fifo]);
      // Input comes from a pipe that stays open: the run is certainly mid-way when the signal arrives.
      const child = spawn(
        process.execPath,
        [CLI, 'classify', from === 'fifo' ? fifo : '-', '-o', out, '--robots-dir', robots, '--agent', 'x'],
        { stdio: ['pipe', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (b: Buffer) => {
        stderr += b.toString();
      });
      const closed = new Promise<{ code: number | null; by: string | null }>((resolve) =>
        child.on('close', (c, by) => resolve({ code: c, by })),
      );
      const input = from === 'fifo' ? createWriteStream(fifo) : child.stdin;
      input.on('error', () => {}); // the child may exit before it reads everything
      const rows = ['host,url'];
      for (let i = 0; i < 50_000; i++) rows.push(`a.example,https://a.example/p/${i}`);
      input.write(`${rows.join('\n')}\n`);
      // Wait until the temporary output exists and has data: batches were classified and written.
      for (let t = 0; t < 200; t++) {
        const tmp = readdirSync(outDir).filter((f) => f.endsWith('.tmp'));
        if (tmp.length === 1 && readFileSync(path.join(outDir, tmp[0]!)).length > 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(readdirSync(outDir).filter((f) => f.endsWith('.tmp'))).toHaveLength(1);
      child.kill(signal);
      const end = await closed;
      input.destroy();
      // On failure, say how it ended: a signal (a crash, or a signal nobody handled) and what it printed.
      expect(end.code, `ended by signal ${end.by}; stderr: ${stderr}`).toBe(code);
      expect(stderr).toContain(`stopped by ${signal}`);
      expect(existsSync(out)).toBe(false);
      expect(readdirSync(outDir)).toEqual([]);
    });
  }
});
