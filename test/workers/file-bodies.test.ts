import { linkSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyOf, type Origin } from '../../src/rows/row-url.js';
import { matchRow } from '../../src/workers/match-row.js';
import { OriginStore } from '../../src/workers/origin-store.js';
import { DirPolicySource } from '../../src/workers/robots-dir-reader.js';
import { config } from './classify-fixtures.js';

const origin = (host: string): Origin => ({ scheme: 'https', host, port: 443 });

describe('FileBodies (a linked file is read once while its rules are compiled)', () => {
  it('gives a link to a file read before its sha256 only, and the store judges it from the kept rules', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'ra-file-bodies-'));
    writeFileSync(path.join(root, 'a.example.txt'), 'User-agent: *\nDisallow: /private\n');
    linkSync(path.join(root, 'a.example.txt'), path.join(root, 'b.example.txt'));
    const store = new OriginStore(config());
    const source = new DirPolicySource(root);
    source.bodies.compiled = (sha) => store.holdCompiled(sha);
    const fetch = (host: string) =>
      source.fetch({ keys: [keyOf(origin(host))], origins: [origin(host)] })[0]!;
    const first = fetch('a.example');
    expect(first.body).not.toBeNull();
    store.latestStamp = 1;
    store.install(first, origin('a.example'), 1);
    const second = fetch('b.example');
    expect(second.body).toBeNull();
    expect(second.sha256).toBe(first.sha256);
    const e = store.install(second, origin('b.example'), 1);
    expect(matchRow(store, e, '/private/x', 1, new Uint8Array(1), 0)).toBe(
      ',false,disallowed_explicit,2,Disallow: /private,file,\n',
    );
  });

  it('reads the file again when its rules are not compiled, or when it changed', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'ra-file-bodies-'));
    const file = path.join(root, 'a.example.txt');
    writeFileSync(file, 'User-agent: *\nDisallow: /\n');
    linkSync(file, path.join(root, 'b.example.txt'));
    const source = new DirPolicySource(root);
    let compiled = false;
    source.bodies.compiled = () => compiled;
    const fetch = (host: string) =>
      source.fetch({ keys: [keyOf(origin(host))], origins: [origin(host)] })[0]!;
    fetch('a.example');
    expect(fetch('b.example').body).not.toBeNull();
    compiled = true;
    expect(fetch('b.example').body).toBeNull();
    writeFileSync(file, 'User-agent: *\nAllow: /\n');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const changed = fetch('b.example');
    expect(Buffer.from(changed.body!).toString()).toBe('User-agent: *\nAllow: /\n');
  });
});
