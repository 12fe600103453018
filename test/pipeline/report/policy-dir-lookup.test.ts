import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DirPolicyLookup, siteOrigin } from '../../../src/pipeline/report/policy-dir-lookup.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'policy-dir-lookup-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('DirPolicyLookup', () => {
  it('finds a site file by the names classify uses (port, IPv6, IDN), shared by http and https', () => {
    for (const name of [
      'a.example.txt',
      'a.example_8080.txt',
      '[::1]_8443.txt',
      'xn--bcher-kva.example.txt',
    ]) {
      writeFileSync(path.join(dir, name), `User-agent: *\nDisallow: /${name}\n`);
    }
    const lookup = new DirPolicyLookup(dir);
    const body = (site: string) => {
      const a = lookup.current(site);
      return a.outcome === 'parsed' ? Buffer.from(a.body!).toString().split('\n')[1] : a.outcome;
    };
    expect(body('https://a.example')).toBe('Disallow: /a.example.txt');
    expect(body('http://a.example')).toBe('Disallow: /a.example.txt');
    expect(body('http://a.example:8080')).toBe('Disallow: /a.example_8080.txt');
    expect(body('https://[::1]:8443')).toBe('Disallow: /[::1]_8443.txt');
    expect(body('https://xn--bcher-kva.example')).toBe('Disallow: /xn--bcher-kva.example.txt');
    expect(body('https://b.example')).toBe('unavailable');
    expect(body('not a site')).toBe('none');
  });

  it('an unreadable file is unreachable with ERR_ROBOTS_FILE', () => {
    mkdirSync(path.join(dir, 'd.example.txt'));
    expect(new DirPolicyLookup(dir).current('https://d.example')).toMatchObject({
      outcome: 'unreachable',
      errorCode: 'ERR_ROBOTS_FILE',
    });
  });

  it('reads sites as origins', () => {
    expect(siteOrigin('https://h:443')).toEqual({ scheme: 'https', host: 'h', port: 443 });
    expect(siteOrigin('http://H.example:81')).toEqual({ scheme: 'http', host: 'h.example', port: 81 });
    expect(siteOrigin('ftp://h')).toBeUndefined();
  });
});
