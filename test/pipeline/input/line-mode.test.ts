import { describe, expect, it } from 'vitest';
import { hasCode } from '../../../src/core/errors.js';
import { MAX_PENDING_BYTES } from '../../../src/pipeline/input/batcher.js';
import { checkLineMode, columnList, LineModeStart } from '../../../src/pipeline/input/line-mode.js';
import { resolveOptions } from '../../../src/pipeline/options.js';

const base = { header: false, delimiter: ',', urlColumn: 'url', hostColumn: 'host' };

/** The error `fn` throws, for its code and message. */
function thrown(fn: () => unknown): Error & { code?: string } {
  try {
    fn();
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error('expected a throw');
}

describe('columnList', () => {
  it('splits names on commas, keeps empty names as unnamed columns, and flattens a list', () => {
    expect(columnList('host,url')).toEqual(['host', 'url']);
    expect(columnList(',url,')).toEqual(['', 'url', '']);
    expect(columnList(['id', 'host,url'])).toEqual(['id', 'host', 'url']);
  });

  it('refuses anything but text', () => {
    for (const bad of [3, [], [1], null]) {
      expect(
        hasCode(
          thrown(() => columnList(bad)),
          'ERR_INVALID_OPTION',
        ),
        String(bad),
      ).toBe(true);
    }
  });
});

describe('checkLineMode (through resolveOptions)', () => {
  it('line mode needs columns, and columns need line mode', () => {
    expect(thrown(() => resolveOptions({ header: false })).message).toMatch(/`--columns` must name/);
    expect(thrown(() => resolveOptions({ columns: 'host,url' })).message).toMatch(/add `--no-header`/);
    expect(resolveOptions({ header: false, columns: 'host,url' }).columns).toEqual(['host', 'url']);
    expect(resolveOptions({}).header).toBe(true);
  });

  it('the columns must name the url column once, as a header row must (a usage error here)', () => {
    const none = thrown(() => checkLineMode({ ...base, columns: ['host', 'page'] }));
    expect(none.code).toBe('ERR_INVALID_OPTION');
    expect(none.message).toMatch(/no column is the url column `url`/);
    const twice = thrown(() => checkLineMode({ ...base, columns: ['url', ' "URL" '] }));
    expect(twice.code).toBe('ERR_INVALID_OPTION');
    expect(twice.message).toMatch(/names the `url` column more than once/);
    expect(() => checkLineMode({ ...base, columns: ['site', 'page'], urlColumn: 'page' })).not.toThrow();
  });
});

describe('LineModeStart', () => {
  const start = (columns = ['id', 'URL', 'Host']) => new LineModeStart({ ...base, columns });

  it('finds the columns as a header row would, and holds the data until its first line end', () => {
    const s = start();
    expect(s.push(Buffer.from('1,/a,h.examp'))).toBeUndefined();
    const h = s.push(Buffer.from('le\n2,/b,h.example\n'));
    expect(h).toMatchObject({ columns: ['id', 'URL', 'Host'], urlIndex: 1, hostIndex: 2, eol: '\n' });
    expect(h!.raw.length).toBe(0);
    expect(s.rest().toString()).toBe('1,/a,h.example\n2,/b,h.example\n');
  });

  it('takes CRLF from the first line end, and drops a BOM', () => {
    const s = start();
    const h = s.push(Buffer.from('\ufeff1,/a,h\r\n'));
    expect(h!.eol).toBe('\r\n');
    expect(s.rest().toString()).toBe('1,/a,h\r\n');
  });

  it('a blank first line is data too, and an empty input is no data', () => {
    const s = start();
    expect(s.push(Buffer.from('\n1,/a,h\n'))!.eol).toBe('\n');
    expect(s.rest().toString()).toBe('\n1,/a,h\n');
    const empty = start();
    expect(empty.push(null)).toBeDefined();
    expect(empty.rest().length).toBe(0);
  });

  it('a first line longer than 64 MiB stops at once (ERR_RECORD_TOO_LONG), without waiting for its end', () => {
    const s = start();
    const chunk = Buffer.alloc(1 << 20, 0x61);
    let err: unknown = null;
    for (let read = 0; read <= MAX_PENDING_BYTES + chunk.length && err === null; read += chunk.length) {
      try {
        s.push(chunk);
      } catch (e) {
        err = e;
      }
    }
    expect(hasCode(err, 'ERR_RECORD_TOO_LONG')).toBe(true);
  });
});
