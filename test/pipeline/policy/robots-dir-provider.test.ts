import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDirPolicyProvider, robotsFileName } from '../../../src/pipeline/policy/robots-dir-provider.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ra-dir-'));
const big = `User-agent: *\n${'Disallow: /x\n'.repeat(60_000)}`; // > 500 KiB: only 500 KiB are parsed
writeFileSync(path.join(dir, 'a.example.txt'), 'User-agent: *\nDisallow: /a\n');
writeFileSync(path.join(dir, 'a.example_8080.txt'), 'User-agent: *\nDisallow: /port\n');
writeFileSync(path.join(dir, 'xn--bcher-kva.example.txt'), 'User-agent: *\n');
writeFileSync(path.join(dir, 'big.example.txt'), big);
writeFileSync(path.join(dir, '[::1].txt'), 'User-agent: *\n');
writeFileSync(path.join(dir, 'sparse.example.txt'), '');
mkdirSync(path.join(dir, 'dir.example.txt'));

describe('robots-dir provider', () => {
  const p = createDirPolicyProvider(dir);

  it('names files by host, and by host_port for other ports', () => {
    expect(robotsFileName({ scheme: 'https', host: 'a.example', port: 443 })).toBe('a.example.txt');
    expect(robotsFileName({ scheme: 'http', host: 'a.example', port: 80 })).toBe('a.example.txt');
    expect(robotsFileName({ scheme: 'http', host: 'a.example', port: 443 })).toBe('a.example_443.txt');
  });

  it('reads a present file as a parsed policy with its sha256', async () => {
    const pol = await p.get({ scheme: 'https', host: 'a.example', port: 443 });
    expect([pol.outcome, pol.source, pol.bytes, pol.truncated]).toEqual(['parsed', 'file', 27, false]);
    expect(pol.sha256).toBe(createHash('sha256').update('User-agent: *\nDisallow: /a\n').digest('hex'));
    expect(pol.finalUrl).toMatch(/^file:\/\/.*a\.example\.txt$/);
    expect(pol.robotsUrl).toBe('https://a.example/robots.txt');
  });

  it('parses the first 500 KiB of a larger file, as of a larger body (RFC 9309 §2.5), and says so', async () => {
    const pol = await p.get({ scheme: 'https', host: 'big.example', port: 443 });
    const kept = Buffer.from(big).subarray(0, 500 * 1024);
    expect([pol.outcome, pol.source, pol.bytes, pol.truncated]).toEqual([
      'parsed',
      'file',
      kept.length,
      true,
    ]);
    expect(Buffer.from(pol.body!).equals(kept)).toBe(true);
    expect(pol.sha256).toBe(createHash('sha256').update(kept).digest('hex'));
  });

  it('reads no more of a huge sparse file than of any other (it was read whole into memory)', async () => {
    truncateSync(path.join(dir, 'sparse.example.txt'), 1 << 30);
    const pol = await p.get({ scheme: 'https', host: 'sparse.example', port: 443 });
    expect([pol.outcome, pol.bytes, pol.truncated]).toEqual(['parsed', 500 * 1024, true]);
  });

  it('uses the port-specific file and punycode names', async () => {
    const port = await p.get({ scheme: 'http', host: 'a.example', port: 8080 });
    expect(Buffer.from(port.body!).toString()).toContain('/port');
    expect((await p.get({ scheme: 'https', host: 'xn--bcher-kva.example', port: 443 })).outcome).toBe(
      'parsed',
    );
    expect((await p.get({ scheme: 'https', host: '[::1]', port: 443 })).outcome).toBe('parsed');
  });

  it('treats a missing file as no robots.txt (allow all)', async () => {
    const pol = await p.get({ scheme: 'https', host: 'none.example', port: 443 });
    expect([pol.outcome, pol.source, pol.body]).toEqual(['unavailable', 'missing', null]);
    expect((await p.get({ scheme: 'https', host: 'a.example', port: 9999 })).source).toBe('missing');
  });

  it('refuses a directory that does not exist (a typo would otherwise allow everything)', () => {
    expect(() => createDirPolicyProvider(path.join(dir, 'nope'))).toThrow(/no such directory/);
  });

  it('makes a file that cannot be read unreachable, never throws', async () => {
    const pol = await p.get({ scheme: 'https', host: 'dir.example', port: 443 });
    expect([pol.outcome, pol.errorCode]).toEqual(['unreachable', 'ERR_ROBOTS_FILE']);
    if (process.getuid?.() !== 0) {
      writeFileSync(path.join(dir, 'locked.example.txt'), 'x');
      chmodSync(path.join(dir, 'locked.example.txt'), 0);
      expect((await p.get({ scheme: 'https', host: 'locked.example', port: 443 })).outcome).toBe(
        'unreachable',
      );
    }
  });
});
