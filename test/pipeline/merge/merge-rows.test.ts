/** The k-way merge of classify --row-number outputs, over real readers fed the files' bytes in chunks. */
import { describe, expect, it } from 'vitest';
import { mergeRows } from '../../../src/pipeline/merge/merge-rows.js';
import { RowReader } from '../../../src/pipeline/merge/row-reader.js';

/** The bytes of a file, cut into chunks of `size` bytes (1: every boundary a record can be split at). */
async function* chunked(text: string | Buffer, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

interface Run {
  text: string;
  rows: number;
}

async function merge(
  files: Record<string, string>,
  { header = true, dropRowNumber = false, chunk = 1 << 16 } = {},
): Promise<Run> {
  const readers = Object.entries(files).map(([name, text]) => new RowReader(name, chunked(text, chunk)));
  const out: Buffer[] = [];
  const rows = await mergeRows(
    readers,
    {
      write: async (b) => {
        out.push(Buffer.from(b));
      },
    },
    { header, dropRowNumber },
  );
  return { text: Buffer.concat(out).toString('utf8'), rows };
}

async function failure(files: Record<string, string>, options: { header?: boolean } = {}) {
  try {
    await merge(files, options);
  } catch (err) {
    return err as { code: string; message: string };
  }
  throw new Error('the merge did not fail');
}

const H = 'row_number,host,url,allowed,verdict\n';

/** An unsharded run's rows (record 2 has a quoted newline whose second line looks like a row). */
const UNSHARDED = [
  'a.test,/1,true,allowed_implicit\n',
  'b.test,"/x\n3,c.test,/y",true,allowed_implicit\n',
  'c.test,"/say ""hi""",false,disallowed_explicit\n',
  'a.test,/4,true,allowed_implicit\n',
  ',,false,invalid_input\n',
  'b.test,/6,true,allowed_implicit\n',
  'c.test,"multi\nline\nfield",true,allowed_implicit\n',
];
/** The shard each record went to. */
const SHARD = [1, 2, 3, 1, 1, 2, 3];

function shards(rows = UNSHARDED, header = H): Record<string, string> {
  const files: Record<string, string> = {};
  for (const k of [1, 2, 3]) {
    files[`shard-${k}.csv`] = header + rows.map((r, i) => (SHARD[i] === k ? `${i + 1},${r}` : '')).join('');
  }
  return files;
}

describe('mergeRows', () => {
  it('three shard outputs with interleaved row numbers and quoted newlines merge into input order, header once', async () => {
    const r = await merge(shards());
    expect(r.rows).toBe(7);
    expect(r.text).toBe(H + UNSHARDED.map((row, i) => `${i + 1},${row}`).join(''));
  });

  it('--drop-row-number gives the unsharded bytes exactly', async () => {
    const r = await merge(shards(), { dropRowNumber: true });
    expect(r.text).toBe(H.slice('row_number,'.length) + UNSHARDED.join(''));
  });

  it('reads the same whatever the chunk boundaries (one byte at a time)', async () => {
    const whole = await merge(shards());
    expect((await merge(shards(), { chunk: 1 })).text).toBe(whole.text);
    expect((await merge(shards(), { chunk: 7 })).text).toBe(whole.text);
  });

  it('keeps CRLF line ends, a sep= first line once, and another delimiter', async () => {
    const rows = UNSHARDED.map((r) => r.replaceAll(',', ';').replace(/\n$/, '\r\n'));
    const header = 'sep=;\r\nrow_number;host;url;allowed;verdict\r\n';
    const files: Record<string, string> = {};
    for (const k of [1, 2, 3]) {
      files[`s${k}`] = header + rows.map((r, i) => (SHARD[i] === k ? `${i + 1};${r}` : '')).join('');
    }
    const r = await merge(files, { dropRowNumber: true });
    expect(r.text).toBe(`sep=;\r\nhost;url;allowed;verdict\r\n${rows.join('')}`);
  });

  it('headerless outputs (line mode) merge with --no-header', async () => {
    const r = await merge(shards(UNSHARDED, ''), { header: false, dropRowNumber: true });
    expect(r.text).toBe(UNSHARDED.join(''));
  });

  it('a shard with no rows (a header only, or an empty headerless file) adds nothing', async () => {
    const files = { ...shards(), 'empty.csv': H };
    expect((await merge(files)).rows).toBe(7);
    const bare = { ...shards(UNSHARDED, ''), empty: '' };
    expect((await merge(bare, { header: false })).rows).toBe(7);
  });

  it('a last row without a line end gets the line end of its file before the rows after it', async () => {
    const r = await merge({ a: `${H}1,x\r\n3,z`, b: `${H}2,y\n` }, { dropRowNumber: true });
    expect(r.text).toBe('host,url,allowed,verdict\nx\r\ny\nz\n');
  });

  it('a row_number that goes backwards within a file is an error naming the file and line', async () => {
    const err = await failure({ a: `${H}1,x\n3,"q\nq"\n2,y\n` });
    expect(err.code).toBe('ERR_INPUT');
    expect(err.message).toBe('a line 5: row_number 2 comes after 3: the rows are not in input order');
  });

  it('the same row_number in two files is an error naming both', async () => {
    const err = await failure({ a: `${H}1,x\n2,y\n`, b: `${H}2,y\n3,z\n` });
    expect(err.code).toBe('ERR_INPUT');
    expect(err.message).toMatch(/^row_number 2 is in (a line 3 and in b line 2|b line 2 and in a line 3)$/);
  });

  it('rows no file has (a shard left out) are an error, never a short merge', async () => {
    const files = shards();
    delete files['shard-2.csv'];
    const err = await failure(files);
    expect(err.code).toBe('ERR_INPUT');
    expect(err.message).toBe(
      "row 2 is missing: no file has it (the next, 3, is shard-3.csv line 2); is a shard's output left out?",
    );
    const first = await failure({ a: `${H}3,x\n` });
    expect(first.message).toBe(
      "rows 1–2 are missing: no file has them (the next, 3, is a line 2); is a shard's output left out?",
    );
  });

  it('files whose headers differ are refused (usage): they are not one run', async () => {
    const err = await failure({ a: `${H}1,x\n`, b: 'row_number,host,url,allowed,verdict:GPTBot\n2,y\n' });
    expect(err.code).toBe('ERR_USAGE');
    expect(err.message).toBe('b has another header row than a: only outputs of one classify run merge');
  });

  it('a file without a row_number column, a headerless file read as headed, and a blank line are errors', async () => {
    expect((await failure({ a: 'host,url\nx,y\n' })).message).toBe(
      'a line 1: does not start with a row_number column (write it with classify --row-number)',
    );
    expect((await failure({ a: '1,x\n' })).message).toBe(
      'a line 1: has no header row (its first line is a row): give --no-header',
    );
    expect((await failure({ a: `${H}1,x\n` }, { header: false })).message).toBe(
      'a line 1: starts with a header row: leave out --no-header',
    );
    expect((await failure({ a: `${H}1,x\n\n2,y\n` })).message).toBe('a line 3: is blank');
    expect((await failure({ a: `${H}1,x\nx2,y\n` })).message).toBe(
      'a line 3: does not start with a row_number',
    );
    expect((await failure({ a: '' })).code).toBe('ERR_NO_HEADER');
  });

  it('while the output takes nothing, nothing more is read: memory stays flat however long the inputs', async () => {
    const pulled = [0, 0, 0];
    /** Shard k of an endless run: rows k, k+3, k+6, …, 100 rows a chunk. */
    async function* endless(k: number): AsyncGenerator<Buffer> {
      yield Buffer.from(H);
      for (let n = k; ; n += 300) {
        // A turn of the event loop per chunk, as a file or pipe gives.
        await new Promise((r) => setImmediate(r));
        pulled[k - 1]!++;
        const rows = Array.from(
          { length: 100 },
          (_, i) => `${n + 3 * i},h.example,/p,true,allowed_implicit\n`,
        );
        yield Buffer.from(rows.join(''));
      }
    }
    let writes = 0;
    let fail!: (err: Error) => void;
    const stalled = new Promise<void>((_, reject) => {
      fail = reject;
    });
    const readers = [1, 2, 3].map((k) => new RowReader(`s${k}`, endless(k)));
    const run = mergeRows(
      readers,
      {
        write: async () => {
          if (++writes > 2) await stalled;
        },
      },
      { header: true, dropRowNumber: false },
    );
    const settle = async () => {
      for (let i = 0; i < 500; i++) await new Promise((r) => setImmediate(r));
    };
    await settle();
    expect(writes).toBe(3);
    const seen = [...pulled];
    await settle();
    expect(pulled).toEqual(seen);
    // Three writes of 64 KiB are ~6,000 rows: ~20 chunks a file, plus what each file has queued.
    expect(Math.max(...pulled)).toBeLessThan(40);
    fail(new Error('stop'));
    await expect(run).rejects.toThrow('stop');
  });
});
