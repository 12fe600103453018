import { describe, expect, it } from 'vitest';
import { HeaderReader, readHeader } from '../../../src/pipeline/input/header.js';

const opts = { delimiter: ',', urlColumn: 'url', hostColumn: 'host' };

describe('readHeader', () => {
  it('finds the url and host columns, the line end and where data starts', () => {
    const h = readHeader(Buffer.from('\ufefffetched_at,host,url\r\n1,a,b\r\n'), false, opts)!;
    expect(h.columns).toEqual(['fetched_at', 'host', 'url']);
    expect([h.urlIndex, h.hostIndex, h.eol]).toEqual([2, 1, '\r\n']);
    expect(h.raw.toString()).toBe('fetched_at,host,url');
    expect(h.dataStart).toBe(Buffer.byteLength('\ufefffetched_at,host,url\r\n'));
  });

  it('waits for a whole header row', () => {
    expect(readHeader(Buffer.from('host,u'), false, opts)).toBeUndefined();
    expect(readHeader(Buffer.from('host,"url\n'), false, opts)).toBeUndefined();
  });

  it('accepts a quoted header, a header without line end, and a case-different column', () => {
    expect(readHeader(Buffer.from('"Host","URL"'), true, opts)!.urlIndex).toBe(1);
    expect(readHeader(Buffer.from('\n\nurl\n'), true, opts)!.blankLines).toBe(2);
  });

  it('matches names written with spaces around quotes (a relaxed parse keeps them): ` "url" `', () => {
    const h = readHeader(Buffer.from('"host", "url" \n'), true, opts)!;
    expect([h.urlIndex, h.hostIndex]).toEqual([1, 0]);
    // Not strict CSV as written: echoed as strict CSV of the fields csv-parse read (relax_quotes).
    expect(h.raw.toString()).toBe('host," ""url"" "');
    // Strict headers are echoed byte for byte; bytes that are not UTF-8 survive a rewrite.
    expect(readHeader(Buffer.from('"id",url\n'), true, opts)!.raw.toString()).toBe('"id",url');
    const odd = readHeader(Buffer.from('i"d\xff,url\n', 'latin1'), true, opts)!;
    expect(odd.raw.toString('latin1')).toBe('"i""d\xff",url');
    expect(odd.columns).toEqual(['i"d\ufffd', 'url']);
  });

  it("takes the delimiter from Excel's `sep=X` first line and keeps that line to echo it", () => {
    const input = '\ufeffsep=;\r\nid;host;url\r\n1;a;b\r\n';
    const h = readHeader(Buffer.from(input), false, opts)!;
    expect(h.delimiter).toBe(';');
    expect(h.columns).toEqual(['id', 'host', 'url']);
    expect(h.preamble.toString()).toBe('sep=;\r\n');
    expect(h.dataStart).toBe(Buffer.byteLength('\ufeffsep=;\r\nid;host;url\r\n'));
    expect(readHeader(Buffer.from('sep=\t\nhost\turl\n'), true, opts)!.urlIndex).toBe(1);
    // Without one, the option's delimiter and no preamble; a second sep= line is a header like any other.
    const plain = readHeader(Buffer.from('host,url\n'), true, opts)!;
    expect([plain.delimiter, plain.preamble.length]).toEqual([',', 0]);
    expect(() => readHeader(Buffer.from('sep=;\nsep=|\nurl\n'), true, opts)).toThrow(/no `url` column/);
    // Waits for the header after the sep= line.
    expect(readHeader(Buffer.from('sep=;\nhost;u'), false, opts)).toBeUndefined();
  });

  it('works without a host column and with other delimiters', () => {
    const h = readHeader(Buffer.from('a\turl\n'), true, { ...opts, delimiter: '\t' })!;
    expect([h.urlIndex, h.hostIndex]).toEqual([1, -1]);
  });

  it('fails with one clear line when there is no url column or no header', () => {
    expect(() => readHeader(Buffer.from('host,link\n'), true, opts)).toThrow(
      /no `url` column.*"host", "link"/,
    );
    expect(() => readHeader(Buffer.from('host\turl\n'), true, opts)).toThrow(/--delimiter tab/);
    expect(() => readHeader(Buffer.from('host;url\n'), true, opts)).toThrow(
      /use --url-column \(or --delimiter ';'\)$/,
    );
    expect(() => readHeader(Buffer.from('host|url\n'), true, opts)).toThrow(/--delimiter '\|'/);
    expect(() => readHeader(Buffer.from('host,address\n'), true, opts)).toThrow(/use --url-column$/);
    expect(() => readHeader(Buffer.from(''), true, opts)).toThrow(/empty/);
    expect(() => readHeader(Buffer.from('host,url\n', 'utf16le'), true, opts)).toThrow(
      /use --url-column \(UTF-16 without a BOM\? save it as UTF-8\)$/,
    );
    expect(() => readHeader(Buffer.from('host,u\0rl\n'), true, opts)).toThrow(/use --url-column$/);
  });

  it('names long columns in its one line cut short (a 1 MiB name made a 6 MiB line of \\u0000)', () => {
    const long = '\0'.repeat(1 << 20);
    const lineOf = (header: string) => {
      try {
        readHeader(Buffer.from(header), true, opts);
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    };
    expect(lineOf(`host,${long}\n`)).toMatch(/header: "host", "(\\u0000){40}…"\)/);
    expect(lineOf(`url${long},URL${long}\n`).length).toBeLessThan(1000);
    expect(() => readHeader(Buffer.from('host,"url'), true, opts)).toThrow(/unterminated quote/);
  });

  it('a column named twice is a fatal error naming it and its positions, not the first one silently', () => {
    const fails = (header: string, o = opts) => {
      try {
        readHeader(Buffer.from(header), true, o);
      } catch (err) {
        expect((err as { code?: string }).code).toBe('ERR_AMBIGUOUS_COLUMN');
        return (err as Error).message;
      }
      throw new Error(`no error for ${JSON.stringify(header)}`);
    };
    expect(fails('url,URL,url\n')).toMatch(/`url` .*columns 1, 2 and 3/);
    expect(fails('host,Host,url\n')).toMatch(/`host` .*columns 1 and 2/);
    expect(fails('url,x,url\n')).toMatch(/`url` .*columns 1 and 3/);
    expect(fails('" url ",url\n')).toMatch(/`url` .*columns 1 and 2/);
    // Named explicitly, an ambiguous column is an error too.
    expect(fails('Page,page,host\n', { ...opts, urlColumn: 'page' })).toMatch(/`page` .*columns 1 and 2/);
    expect(fails('url,Link,link\n', { ...opts, hostColumn: 'Link' })).toMatch(/`Link` .*columns 2 and 3/);
    expect(fails('url,URL,url\n')).not.toMatch(/\n/);
    expect(fails(`${'url,'.repeat(100_000)}host\n`)).toMatch(/columns 1, 2, .*10, … \(100000 in all\)/);
    // One match is no ambiguity, whatever other columns are called.
    expect(readHeader(Buffer.from('url,urls,host_url\n'), true, opts)!.urlIndex).toBe(0);
  });
});

describe('HeaderReader', () => {
  const chunk = 64 << 10;
  /** Feeds `parts` in 64 KiB chunks, then the end of input; returns the reader and its header. */
  function feed(parts: Buffer[]) {
    const all = Buffer.concat(parts);
    const reader = new HeaderReader(opts);
    let header = undefined as ReturnType<HeaderReader['push']>;
    for (let i = 0; i < all.length && header === undefined; i += chunk) {
      header = reader.push(all.subarray(i, i + chunk));
    }
    header ??= reader.push(null);
    return { reader, header: header!, size: all.length };
  }

  it('reads a long first line once per line end, not once per chunk (/dev/zero as INPUT took 112 s)', () => {
    const long = Buffer.alloc(8 << 20, 0x61);
    const { reader, header, size } = feed([Buffer.from('host,'), long, Buffer.from(',url\n1,2,3\n')]);
    expect([header.urlIndex, header.hostIndex, header.columns[1]!.length]).toEqual([2, 0, long.length]);
    expect(reader.rest().toString()).toBe('1,2,3\n');
    expect(reader.scannedBytes).toBeLessThan(3 * size);
  });

  it('counts blank lines before the header once (8 MiB of them were rescanned per chunk)', () => {
    const blank = Buffer.from('\n\r\n'.repeat(3 << 20));
    const { reader, header, size } = feed([Buffer.from('\ufeff'), blank, Buffer.from('url\nx\n')]);
    expect([header.blankLines, header.urlIndex, header.raw.toString()]).toEqual([6 << 20, 0, 'url']);
    expect(reader.rest().toString()).toBe('x\n');
    expect(header.dataStart).toBe(size - 2);
    expect(reader.scannedBytes).toBeLessThan(3 * size);
  });

  it('stops at 64 MiB without a line end, and keeps the rules of readHeader', () => {
    const reader = new HeaderReader(opts);
    const zeros = Buffer.alloc(1 << 20);
    expect(() => {
      for (let i = 0; i <= 64; i++) reader.push(zeros);
    }).toThrow(/header row is longer than 64 MiB/);
    expect(feed([Buffer.from('\ufeff\ufeffurl\n')]).header.columns).toEqual(['\ufeffurl']);
    expect(feed([Buffer.from('\n\ufeffurl,url2\n')]).header.columns).toEqual(['\ufeffurl', 'url2']);
    expect(feed([Buffer.from('\n\nsep=;\n\nhost;url\r\nx')]).header).toMatchObject({
      delimiter: ';',
      blankLines: 3,
      eol: '\r\n',
    });
    expect(() => feed([Buffer.from('\n\r\n\n')])).toThrow(/empty/);
  });
});
