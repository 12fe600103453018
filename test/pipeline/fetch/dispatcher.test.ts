import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectKey, trustedCas } from '../../../src/pipeline/fetch/dispatcher.js';
import { tempDir } from './harness.js';

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe('trustedCas', () => {
  it('without --ca-file: undefined, i.e. Node’s default store', () => {
    expect(trustedCas(undefined)).toBeUndefined();
  });

  it('with --ca-file: the system roots are kept and the file is added', () => {
    const file = join(tmp.dir, 'ca.pem');
    writeFileSync(file, '-----BEGIN CERTIFICATE-----\nTEST\n-----END CERTIFICATE-----\n');
    const cas = trustedCas(file)!;
    expect(cas.slice(0, rootCertificates.length)).toEqual([...rootCertificates]);
    expect(cas.at(-1)).toContain('TEST');
  });

  it('an unreadable file is ERR_CA_FILE', () => {
    expect(() => trustedCas(join(tmp.dir, 'missing.pem'))).toThrow(
      expect.objectContaining({ code: 'ERR_CA_FILE' }),
    );
  });
});

describe('connectKey', () => {
  it('fills in default ports and lower-cases the host', () => {
    expect(connectKey('https:', 'A.Test', '')).toBe('https://a.test:443');
    expect(connectKey('http:', 'a.test', '')).toBe('http://a.test:80');
    expect(connectKey('http:', 'a.test', 8080)).toBe('http://a.test:8080');
  });

  it('is the same for an IPv6 host with brackets (a URL) and without (what undici connects to)', () => {
    // Otherwise a connect timeout to [::1] was reported as a headers timeout.
    expect(connectKey('http:', '[::1]', '')).toBe(connectKey('http:', '::1', ''));
  });
});
