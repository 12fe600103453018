// The distinct-origin workload: `rows` rows of `host,url` spread round-robin over `origins` hosts
// (`h<N>.example`), so with origins = rows every row has a host of its own, as in a crawl frontier.
// An empty robots directory means no host has a file (every verdict is allowed_unavailable);
// `robotsShare` (0..1) gives that share of the hosts a small robots.txt. Shared by bench/ and test/scale/.
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROBOTS =
  'User-agent: *\nDisallow: /private/\nAllow: /private/ok\n\nUser-agent: Googlebot\nDisallow: /tmp\n';
const PATHS = ['/', '/a/page.html', '/private/x', '/private/ok/y', '/tmp/z', '/search?q=1'];

/** Writes one chunk, waiting for the stream to drain when its buffer is full. */
function write(stream, text) {
  return stream.write(text) ? Promise.resolve() : new Promise((resolve) => stream.once('drain', resolve));
}

/**
 * Builds `dir/crawl.csv` and `dir/robots/` (created, files for every ⌈1/robotsShare⌉-th host); resolves
 * with their paths.
 */
export async function makeOriginWorkload({ dir, rows, origins, robotsShare = 0 }) {
  const robots = path.join(dir, 'robots');
  mkdirSync(robots, { recursive: true });
  const every = robotsShare > 0 ? Math.max(1, Math.round(1 / robotsShare)) : 0;
  if (every > 0) {
    for (let h = 0; h < origins; h += every) writeFileSync(path.join(robots, `h${h}.example.txt`), ROBOTS);
  }
  const input = path.join(dir, 'crawl.csv');
  const out = createWriteStream(input);
  await write(out, 'host,url\n');
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    const h = i % origins;
    chunk += `h${h}.example,https://h${h}.example${PATHS[i % PATHS.length]}\n`;
    if (chunk.length > 1 << 16) {
      await write(out, chunk);
      chunk = '';
    }
  }
  await write(out, chunk);
  await new Promise((resolve, reject) => out.end((err) => (err ? reject(err) : resolve())));
  return { input, robots };
}
