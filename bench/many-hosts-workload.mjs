// The many-hosts workload, a crawl frontier's shape (few rows per origin): a make-crawl workload whose every
// row gets one of `aliases` names of its host, `a<k>.<host>` in the host column and in the URL's authority,
// k a hash of the row number, and `robots/a<k>.<host>.txt` a hard link to the host's file (hosts without
// a file stay without), so the corpus's robots.txt files are reused under many origins. Streams the input
// and writes with backpressure. Shared by bench/ and test/.
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, linkSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** The alias index of row `i` (0-based data row): a deterministic integer hash, uniform over [0, aliases). */
export function aliasOf(i, aliases) {
  let x = Math.imul(i ^ (i >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return ((x ^ (x >>> 16)) >>> 0) % aliases;
}

/**
 * The row with its host renamed `a<k>.<host>`; the URL (optionally quoted) too when its authority starts
 * with the host. A line without a comma is returned as it is.
 */
export function aliasRow(line, k) {
  const comma = line.indexOf(',');
  if (comma <= 0) return line;
  const host = line.slice(0, comma);
  const alias = `a${k}.${host}`;
  let url = line.slice(comma + 1);
  const start = url.startsWith('"') ? 1 : 0;
  const sep = url.indexOf('://', start);
  if (sep > start && url.slice(sep + 3, sep + 3 + host.length).toLowerCase() === host.toLowerCase()) {
    const after = url.charAt(sep + 3 + host.length);
    if (after === '' || '/:?#"'.includes(after))
      url = `${url.slice(0, sep + 3)}${alias}${url.slice(sep + 3 + host.length)}`;
  }
  return `${alias},${url}`;
}

/** Writes one chunk, waiting for the stream to drain when its buffer is full. */
async function write(stream, text) {
  if (!stream.write(text)) await once(stream, 'drain');
}

/**
 * Builds `dir/crawl.csv` and `dir/robots/` from `source` (a directory with crawl.csv, header `host,url`,
 * and robots/<host>.txt); resolves with the paths, the number of rows, distinct origins and linked files.
 */
export async function makeManyHostsWorkload({ source, dir, aliases }) {
  if (!(aliases >= 1 && aliases <= 31)) throw new RangeError('aliases must be within 1..31');
  const robots = path.join(dir, 'robots');
  mkdirSync(robots, { recursive: true });
  const input = path.join(dir, 'crawl.csv');
  const partial = `${input}.partial`;
  const out = createWriteStream(partial);
  const seen = new Map(); // host → bit mask of the aliases its rows use
  const lines = createInterface({
    input: createReadStream(path.join(source, 'crawl.csv')),
    crlfDelay: Infinity,
  });
  let header = true;
  let rows = 0;
  let chunk = '';
  for await (const line of lines) {
    if (header) {
      header = false;
      chunk = `${line}\n`;
      continue;
    }
    if (line === '') continue;
    const k = aliasOf(rows++, aliases);
    const host = line.slice(0, line.indexOf(','));
    seen.set(host, (seen.get(host) ?? 0) | (1 << k));
    chunk += `${aliasRow(line, k)}\n`;
    if (chunk.length > 1 << 16) {
      await write(out, chunk);
      chunk = '';
    }
  }
  await write(out, chunk);
  out.end();
  await once(out, 'finish');
  let origins = 0;
  let files = 0;
  for (const [host, mask] of seen) {
    const file = path.join(source, 'robots', `${host}.txt`);
    const has = existsSync(file);
    for (let k = 0; k < aliases; k++) {
      if ((mask & (1 << k)) === 0) continue;
      origins++;
      if (!has) continue;
      const link = path.join(robots, `a${k}.${host}.txt`);
      if (!existsSync(link)) linkSync(file, link);
      files++;
    }
  }
  // The CSV appears last, so a build cut short is not mistaken for a finished one.
  renameSync(partial, input);
  return { input, robots, rows, origins, files };
}
