import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { BatchClassifier } from '../../src/workers/batch-classifier.js';
import { config, dirFetcher, ROBOTS, robotsDir } from './classify-fixtures.js';

const dir = robotsDir(ROBOTS);

async function run(input: string | Buffer, over = {}) {
  const c = new BatchClassifier(config(over));
  const { fetch } = dirFetcher(dir);
  const { output, stats } = await c.classify(Buffer.from(input), fetch);
  return { out: output.toString('utf8'), bytes: output, stats, c };
}

/** Robots files of `n` hosts `<prefix><i>.example` that disallow everything. */
function disallowAll(prefix: string, n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let h = 0; h < n; h++) files[`${prefix}${h}.example.txt`] = 'User-agent: *\nDisallow: /\n';
  return files;
}

describe('BatchClassifier', () => {
  it('copies each record verbatim and appends the verdict columns', async () => {
    const { out, stats } = await run(
      [
        'a.example,https://a.example/private/x',
        'a.example,https://a.example/private/ok/1',
        'a.example,https://a.example/public',
        'a.example,https://a.example/g-only',
        'b.example,https://B.EXAMPLE/anything',
        'z.example,https://z.example/none',
        'c.example,https://c.example:8080/port/1',
        'bücher.example,https://bücher.example/café',
        '',
      ].join('\n'),
    );
    expect(out.split('\n')).toEqual([
      'a.example,https://a.example/private/x,true,allowed_implicit,,,file,',
      'a.example,https://a.example/private/ok/1,true,allowed_implicit,,,file,',
      'a.example,https://a.example/public,true,allowed_implicit,,,file,',
      'a.example,https://a.example/g-only,false,disallowed_explicit,6,Disallow: /g-only,file,',
      'b.example,https://B.EXAMPLE/anything,false,disallowed_explicit,2,Disallow: /,file,',
      'z.example,https://z.example/none,true,allowed_unavailable,,,missing,',
      'c.example,https://c.example:8080/port/1,false,disallowed_explicit,2,Disallow: /port,file,',
      // The pattern is percent-encoded (/caf%C3%A9), the URL's raw path is not: no match, as in the reference.
      'bücher.example,https://bücher.example/café,true,allowed_implicit,,,file,',
      '',
    ]);
    expect(stats.records).toBe(8);
    expect(stats.verdicts[0]).toEqual([0, 4, 3, 1, 0, 0, 0, 0]);
  });

  // robots.cc (commit c8ac4b1d): an empty pattern matches with priority 0, so matching_line() names it
  // when nothing longer matches, though it never disallows.
  it('writes an empty Disallow as the deciding rule where no pattern matches', async () => {
    const d = robotsDir({
      'e.example.txt': 'User-agent: *\nDisallow: /x\nDisallow:\n',
      'f.example.txt': '# only this\nUser-agent: *\nDisallow:\n',
    });
    const c = new BatchClassifier(config());
    const input = [
      'e.example,https://e.example/x/1',
      'e.example,https://e.example/y',
      'f.example,https://f.example/a',
      'f.example,https://f.example/robots.txt',
      '',
    ];
    const { output, stats } = await c.classify(Buffer.from(input.join('\n')), dirFetcher(d).fetch);
    expect(output.toString().split('\n')).toEqual([
      'e.example,https://e.example/x/1,false,disallowed_explicit,2,Disallow: /x,file,',
      'e.example,https://e.example/y,true,allowed_explicit,3,Disallow: ,file,',
      'f.example,https://f.example/a,true,allowed_explicit,3,Disallow: ,file,',
      'f.example,https://f.example/robots.txt,true,allowed_explicit,3,Disallow: ,file,',
      '',
    ]);
    expect(stats.verdicts[0]).toEqual([3, 0, 1, 0, 0, 0, 0, 0]); // allowed_explicit, allowed_implicit, disallowed_explicit, …
  });

  it('writes the deciding rule of every rank, near and far, each time it decides', async () => {
    // Longer patterns decide first: /r0 has rank 0, /r0 + 99 a's (the shortest) the last but one.
    const rules = Array.from(
      { length: 100 },
      (_, i) => `${i % 2 ? 'Allow' : 'Disallow'}: /r${'a'.repeat(99 - i)}`,
    );
    const d = robotsDir({ 'm.example.txt': `User-agent: *\n${rules.join('\n')}\nDisallow:\n` });
    const c = new BatchClassifier(config());
    const paths = [0, 10, 40, 63, 64, 70, 99].map((i) => `/r${'a'.repeat(99 - i)}`).concat('/elsewhere');
    const rows = [...paths, ...paths.reverse(), ...paths].map((p) => `m.example,https://m.example${p}`);
    const { output } = await c.classify(Buffer.from(`${rows.join('\n')}\n`), dirFetcher(d).fetch);
    const got = parse(output.toString()) as string[][];
    expect(got).toHaveLength(rows.length);
    got.forEach((r, k) => {
      const p = new URL(r[1]!).pathname;
      const i = p === '/elsewhere' ? -1 : 99 - (p.length - 2);
      const want =
        i < 0
          ? ['true', 'allowed_explicit', '102', 'Disallow: ']
          : [
              String(i % 2 === 1),
              i % 2 ? 'allowed_explicit' : 'disallowed_explicit',
              String(i + 2),
              rules[i],
            ];
      expect(r.slice(2, 6), `row ${k}`).toEqual(want);
    });
  });

  it('gives every kind of bad row an error code and keeps the output rectangular', async () => {
    const { out, stats } = await run(
      [
        'a.example,',
        'a.example,not a url',
        'a.example,ftp://a.example/x',
        ',/path/only',
        'bad host!,/path',
        'a.example',
        'a.example,"https://a.example/x',
        'a.example,https://a.example/x,extra',
        'a.example,https://a.example/private/x,,',
        '',
      ].join('\n'),
    );
    const rows = parse(out, { relax_column_count: false }) as string[][];
    expect(rows.every((r) => r.length === 8)).toBe(true);
    expect(rows.map((r) => [r[3], r[7]])).toEqual([
      ['invalid_input', 'missing_url'],
      ['invalid_input', 'bad_url'],
      ['invalid_input', 'unsupported_scheme'],
      ['invalid_input', 'path_without_host'],
      ['invalid_input', 'bad_host'],
      ['invalid_input', 'missing_url'],
      ['invalid_input', 'malformed_record'],
      ['invalid_input', 'extra_fields'],
      ['allowed_implicit', ''],
    ]);
    // A malformed record keeps its raw text (quoted) in the first column.
    expect(rows[6]![0]).toBe('a.example,"https://a.example/x');
    // Extra fields fold into the last column; empty extra fields are simply dropped.
    expect(rows[7]!.slice(0, 2)).toEqual(['a.example', 'https://a.example/x,extra']);
    expect(out.split('\n')[8]).toBe('a.example,https://a.example/private/x,true,allowed_implicit,,,file,');
    expect(Object.fromEntries(stats.invalid)).toEqual({
      missing_url: 2,
      bad_url: 1,
      unsupported_scheme: 1,
      path_without_host: 1,
      bad_host: 1,
      malformed_record: 1,
      extra_fields: 1,
    });
    expect(stats.records).toBe(9);
  });

  it('keeps bytes that are not UTF-8 exactly as they were, and CRLF line ends', async () => {
    const input = Buffer.concat([
      Buffer.from('a.example,https://a.example/private/x,caf'),
      Buffer.from([0xe9, 0xff]),
      Buffer.from('\r\n'),
    ]);
    const { bytes } = await run(input, { columns: 3, eol: '\r\n' });
    const head = Buffer.concat([
      Buffer.from('a.example,https://a.example/private/x,caf'),
      Buffer.from([0xe9, 0xff]),
    ]);
    expect(bytes.subarray(0, head.length).equals(head)).toBe(true);
    expect(bytes.subarray(head.length).toString()).toBe(',true,allowed_implicit,,,file,\r\n');
  });

  it('handles quoted records through csv-parse, paths with a host column, blank lines', async () => {
    const { out, stats } = await run(
      '"a.example","https://a.example/g-only?x=1,2"\n\na.example,/private/x\r\n',
    );
    expect(out.split('\n')).toEqual([
      '"a.example","https://a.example/g-only?x=1,2",false,disallowed_explicit,6,Disallow: /g-only,file,',
      'a.example,/private/x,true,allowed_implicit,,,file,',
      '',
    ]);
    expect(stats.blankLines).toBe(1);
  });

  it('repeats the verdict columns per agent and adds evidence columns', async () => {
    const { out } = await run('a.example,https://a.example/g-only\nz.example,https://z.example/\n', {
      agents: ['Googlebot', 'OtherBot'],
      evidence: true,
    });
    const rows = parse(out) as string[][];
    expect(rows[0]!.slice(2, 10)).toEqual([
      'false',
      'disallowed_explicit',
      '6',
      'Disallow: /g-only',
      'true',
      'allowed_implicit',
      '',
      '',
    ]);
    expect(rows[0]![10]).toBe('file');
    expect(rows[0]![12]).toMatch(/^file:\/\/.*a\.example\.txt$/);
    expect(rows[0]![14]).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]![15]).toBe('false');
    expect(rows[1]!.slice(2, 12)).toEqual([
      'true',
      'allowed_unavailable',
      '',
      '',
      'true',
      'allowed_unavailable',
      '',
      '',
      'missing',
      '',
    ]);
  });

  it('judges agents that select the same groups once, and counts each agent as if judged alone', async () => {
    const c = new BatchClassifier(config({ agents: ['Googlebot', 'Bingbot', 'GPTBot', 'CCBot'] }));
    const { fetch } = dirFetcher(
      robotsDir({
        ...ROBOTS,
        'm.example.txt':
          'User-agent: *\nDisallow: /all\nAllow: /all/ok\n\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n',
      }),
    );
    const input = 'm.example,/all/x\nm.example,/all/ok\nb.example,/x\nm.example,/free\nb.example,/y\n';
    const { output, stats } = await c.classify(Buffer.from(input), fetch);
    const ok = 'true,allowed_explicit,3,Allow: /all/ok';
    const all = 'false,disallowed_explicit,2,Disallow: /all';
    const root = 'false,disallowed_explicit,7,Disallow: /';
    const slash = 'false,disallowed_explicit,2,Disallow: /';
    const free = 'true,allowed_implicit,,';
    expect(output.toString().split('\n')).toEqual([
      `m.example,/all/x,${all},${all},${root},${root},file,`,
      `m.example,/all/ok,${ok},${ok},${root},${root},file,`,
      `b.example,/x,${slash},${slash},${slash},${slash},file,`,
      `m.example,/free,${free},${free},${root},${root},file,`,
      `b.example,/y,${slash},${slash},${slash},${slash},file,`,
      '',
    ]);
    // verdicts[agent][index in VERDICTS]: allowed_implicit 0, allowed_explicit 1, disallowed_explicit 2.
    expect(stats.verdicts.map((v) => v.slice(0, 3))).toEqual([
      [1, 1, 3],
      [1, 1, 3],
      [0, 0, 5],
      [0, 0, 5],
    ]);
    const { disallowedHosts, rules } = c.flush();
    // One entry for agents with the same count or the same decisions, naming each of them.
    expect(disallowedHosts).toEqual([
      [[0, 1], 'https://m.example', 1],
      [[2, 3], 'https://m.example', 3],
      [[0, 1, 2, 3], 'https://b.example', 2],
    ]);
    expect(rules).toEqual([
      [[0, 1], 'https://m.example', 2, 'Disallow: /all', 1, false],
      [[0, 1], 'https://m.example', 3, 'Allow: /all/ok', 1, true],
      [[2, 3], 'https://m.example', 7, 'Disallow: /', 3, false],
      [[0, 1, 2, 3], 'https://b.example', 2, 'Disallow: /', 2, false],
    ]);
  });

  it('keeps batches that interleave apart (each waits for its own policies)', async () => {
    const c = new BatchClassifier(config());
    const { fetch } = dirFetcher(dir);
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const slow = async (req: Parameters<typeof fetch>[0]) => {
      await gate;
      return fetch(req);
    };
    const a = c.classify(Buffer.from('a.example,https://a.example/g-only\n'), slow);
    const b = c.classify(Buffer.from('b.example,https://b.example/x\nz.example,https://z.example/\n'), fetch);
    const rb = await b;
    release();
    const ra = await a;
    expect(ra.output.toString()).toBe(
      'a.example,https://a.example/g-only,false,disallowed_explicit,6,Disallow: /g-only,file,\n',
    );
    expect(rb.output.toString().split('\n')[0]).toBe(
      'b.example,https://b.example/x,false,disallowed_explicit,2,Disallow: /,file,',
    );
  });

  it('stays correct when its budgets force evictions (rules compiled again)', async () => {
    const ab = 'a.example,https://a.example/g-only\nb.example,https://b.example/x\n';
    const c8080 = 'c.example,https://c.example:8080/port/1\n';
    const roomy = new BatchClassifier(config());
    const tiny = new BatchClassifier(config({ compiledBudget: 1, originBudget: 1 }));
    const { fetch } = dirFetcher(dir);
    for (const input of [ab, c8080, ab, c8080]) {
      const want = (await roomy.classify(Buffer.from(input), fetch)).output.toString();
      const got = (await tiny.classify(Buffer.from(input), fetch)).output.toString();
      expect(got).toBe(want);
    }
    expect(roomy.store.compiles).toBe(3);
    expect(tiny.store.compiles).toBe(6);
  });

  it('reports the counters of origins it forgot, and soon enough that forgotten ones do not pile up', async () => {
    const files = disallowAll('h', 200);
    const c = new BatchClassifier(config({ originBudget: 40 }));
    const { fetch } = dirFetcher(robotsDir(files));
    const reported = new Map<string, number>();
    let beforeFlush = 0;
    const add = (list: [number | number[], string, number][]) => {
      for (const [, origin, n] of list) reported.set(origin, (reported.get(origin) ?? 0) + n);
    };
    for (let b = 0; b < 10; b++) {
      const rows = Array.from(
        { length: 20 },
        (_, i) => `h${b * 20 + i}.example,https://h${b * 20 + i}.example/x\n`,
      );
      const { stats } = await c.classify(Buffer.from(rows.join('')), fetch);
      add(stats.disallowedHosts);
      beforeFlush += stats.disallowedHosts.length;
      expect(c.store.originCount).toBeLessThanOrEqual(40);
    }
    add(c.flush().disallowedHosts);
    expect(beforeFlush).toBeGreaterThanOrEqual(160);
    expect(reported.size).toBe(200);
    expect([...reported.values()].every((n) => n === 1)).toBe(true);
  });

  it('keeps the counters of origins it still holds for the flush, however many batches count them', async () => {
    const hosts = 3000;
    const files = disallowAll('k', hosts);
    const c = new BatchClassifier(config({ originBudget: 4000 }));
    const { fetch } = dirFetcher(robotsDir(files));
    for (let pass = 0; pass < 2; pass++) {
      for (let b = 0; b < hosts; b += 500) {
        const rows = Array.from({ length: 500 }, (_, i) => `k${b + i}.example,https://k${b + i}.example/x\n`);
        const { stats } = await c.classify(Buffer.from(rows.join('')), fetch);
        expect(stats.disallowedHosts).toEqual([]);
        expect(stats.rules).toEqual([]);
      }
    }
    const counts = new Map<string, number>();
    do
      for (const [, origin, n] of c.flush().disallowedHosts)
        counts.set(origin, (counts.get(origin) ?? 0) + n);
    while (c.unflushed);
    expect(counts.size).toBe(hosts);
    expect([...counts.values()].every((n) => n === 2)).toBe(true);
  });

  it('reports counters with the batches once a share of its budget was evicted', async () => {
    // One host in four disallows (its rows count); the others decide nothing (their rows do not).
    const hosts = 12_000;
    const budget = 4000;
    const files: Record<string, string> = {};
    for (let h = 0; h < hosts; h++)
      files[`e${h}.example.txt`] =
        h % 4 === 0 ? 'User-agent: *\nDisallow: /\n' : 'User-agent: *\nAllow: /z\n';
    const c = new BatchClassifier(config({ originBudget: budget }));
    const { fetch } = dirFetcher(robotsDir(files));
    const reported = new Map<string, number>();
    const add = (list: [number | number[], string, number][]) => {
      for (const [, origin, n] of list) reported.set(origin, (reported.get(origin) ?? 0) + n);
    };
    let beforeFlush = 0;
    for (let b = 0; b < hosts; b += 500) {
      const rows = Array.from({ length: 500 }, (_, i) => `e${b + i}.example,https://e${b + i}.example/x\n`);
      const { stats } = await c.classify(Buffer.from(rows.join('')), fetch);
      add(stats.disallowedHosts);
      beforeFlush += stats.disallowedHosts.length;
    }
    // Fewer counted origins than the budget: only evictions send them before the flush.
    expect(beforeFlush).toBeGreaterThanOrEqual(2048);
    do add(c.flush().disallowedHosts);
    while (c.unflushed);
    expect(reported.size).toBe(hosts / 4);
    expect([...reported.values()].every((n) => n === 1)).toBe(true);
  });

  it('flushes its counters a batch share of origins at a time, every origin once', async () => {
    const hosts = 2100;
    const files = disallowAll('f', hosts);
    const c = new BatchClassifier(config({ originBudget: 50_000 }));
    const { fetch } = dirFetcher(robotsDir(files));
    const rows = Array.from({ length: hosts }, (_, h) => `f${h}.example,https://f${h}.example/x\n`);
    const { stats } = await c.classify(Buffer.from(rows.join('')), fetch);
    // Fewer origins than the budget and none evicted: every origin's counters wait for the flush.
    expect(stats.disallowedHosts).toEqual([]);
    const first = c.flush();
    expect(first.disallowedHosts.length).toBe(2048);
    expect(first.rules.length).toBe(2048);
    expect(c.unflushed).toBe(true);
    const second = c.flush();
    expect(second.disallowedHosts.length).toBe(hosts - 2048);
    expect(c.unflushed).toBe(false);
    const origins = [...first.disallowedHosts, ...second.disallowedHosts].map(([, origin]) => origin);
    expect(new Set(origins).size).toBe(hosts);
  });
});
