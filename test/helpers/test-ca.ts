/**
 * A throwaway certificate authority for HTTPS tests, made with the `openssl` CLI in a temp dir.
 *
 *   const ca = createTestCa();
 *   const leaf = ca.issue(['*.tls.test']);          // { key, cert } PEM, signed by the CA
 *   const rogue = ca.selfSigned(['*.untrusted.test']); // not signed by the CA
 *   ca.caFile                                        // PEM path for --ca-file
 *   ca.cleanup();
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KeyPair {
  key: string;
  cert: string;
}

export interface TestCa {
  dir: string;
  caFile: string;
  caPem: string;
  issue(names: string[]): KeyPair;
  selfSigned(names: string[]): KeyPair;
  cleanup(): void;
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

export function createTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'robots-audit-ca-'));
  openssl(
    [
      'req',
      '-x509',
      ...EC,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=robots-audit test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
  let serial = 0;
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  const san = (names: string[]) => `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`;
  return {
    dir,
    caFile: join(dir, 'ca.pem'),
    caPem: read('ca.pem'),
    issue(names) {
      const id = `leaf${++serial}`;
      writeFileSync(
        join(dir, `${id}.ext`),
        `${san(names)}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
      );
      openssl(['req', ...EC, '-keyout', `${id}.key`, '-out', `${id}.csr`, '-subj', `/CN=${names[0]}`], dir);
      openssl(
        [
          'x509',
          '-req',
          '-in',
          `${id}.csr`,
          '-CA',
          'ca.pem',
          '-CAkey',
          'ca.key',
          '-set_serial',
          String(1000 + serial),
          '-days',
          '2',
          '-out',
          `${id}.pem`,
          '-extfile',
          `${id}.ext`,
        ],
        dir,
      );
      return { key: read(`${id}.key`), cert: read(`${id}.pem`) };
    },
    selfSigned(names) {
      const id = `self${++serial}`;
      openssl(
        [
          'req',
          '-x509',
          ...EC,
          '-keyout',
          `${id}.key`,
          '-out',
          `${id}.pem`,
          '-days',
          '2',
          '-subj',
          `/CN=${names[0]}`,
          '-addext',
          san(names),
        ],
        dir,
      );
      return { key: read(`${id}.key`), cert: read(`${id}.pem`) };
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
