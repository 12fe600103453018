/**
 * SSRF probes in every address form a crawl log (or a redirect) can spell loopback, "this host" or cloud
 * metadata with: with the default settings each ends unreachable with ERR_BLOCKED_ADDRESS (or is rejected
 * as a bad URL), and a trap server on loopback sees no connection at all. Probes run as input rows of the
 * real CLI, and as the Location of a redirect from a host that is allowed.
 */
import { BlockList, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V4_RANGES, V6_RANGES } from '../../src/pipeline/fetch/address-policy.js';
import { createLivePolicyProvider } from '../../src/pipeline/fetch/live-policy-provider.js';
import { type MultiHostServer, startMultiHostServer } from '../helpers/multi-host-server.js';
import { runCli } from '../helpers/run-cli.js';
import { liveOptions, tempDir } from '../pipeline/fetch/harness.js';

/**
 * `row_bad_url`: a bad_url as an input row (its authority is not written `//host`, so the reference
 * would judge another path than WHATWG's host), but a Location WHATWG resolves, and so blocked at that hop.
 */
type Expect = 'blocked' | 'bad_url' | 'row_bad_url';

/** [what it is, the URL with PORT for the trap's port, the outcome as an input row]. */
const PROBES: Array<[string, string, Expect]> = [
  ['dotted loopback', 'http://127.0.0.1:PORT/', 'blocked'],
  ['decimal', 'http://2130706433:PORT/', 'blocked'],
  ['octal', 'http://0177.0.0.1:PORT/', 'blocked'],
  ['hex, short', 'http://0x7f.1:PORT/', 'blocked'],
  ['hex, one number', 'http://0x7f000001:PORT/', 'blocked'],
  ['short', 'http://127.1:PORT/', 'blocked'],
  ['zero-padded octets', 'http://127.000.000.001:PORT/', 'blocked'],
  ['full-width digits', 'http://１２７.０.０.１:PORT/', 'blocked'],
  ['ideographic full stops', 'http://127。0。0。1:PORT/', 'blocked'],
  ['0', 'http://0:PORT/', 'blocked'],
  ['0.0.0.0', 'http://0.0.0.0:PORT/', 'blocked'],
  ['[::]', 'http://[::]:PORT/', 'blocked'],
  ['[::1]', 'http://[::1]:PORT/', 'blocked'],
  ['IPv4-mapped, dotted', 'http://[::ffff:127.0.0.1]:PORT/', 'blocked'],
  ['IPv4-mapped, hex', 'http://[::ffff:7f00:1]:PORT/', 'blocked'],
  ['IPv4-mapped, uncompressed', 'http://[0:0:0:0:0:ffff:127.0.0.1]:PORT/', 'blocked'],
  ['IPv4-translated (SIIT)', 'http://[::ffff:0:7f00:1]:PORT/', 'blocked'],
  ['IPv4-compatible', 'http://[::127.0.0.1]:PORT/', 'blocked'],
  ['NAT64', 'http://[64:ff9b::7f00:1]:PORT/', 'blocked'],
  ['6to4', 'http://[2002:7f00:1::1]:PORT/', 'blocked'],
  ['metadata', 'http://169.254.169.254:PORT/', 'blocked'],
  ['metadata, decimal', 'http://2852039166:PORT/', 'blocked'],
  ['metadata, IPv6 (AWS)', 'http://[fd00:ec2::254]:PORT/', 'blocked'],
  ['localhost', 'http://localhost:PORT/', 'blocked'],
  ['localhost.', 'http://localhost.:PORT/', 'blocked'],
  ['LOCALHOST', 'http://LOCALHOST:PORT/', 'blocked'],
  ['foo.localhost', 'http://foo.localhost:PORT/', 'blocked'],
  ['a name that resolves to 127.0.0.1', 'http://rebind.test:PORT/', 'blocked'],
  ['userinfo before a loopback host', 'http://evil.test@127.0.0.1:PORT/', 'blocked'],
  ['userinfo with a password', 'http://evil.test:80@[::1]:PORT/', 'blocked'],
  ['backslash before @ (the host is what precedes it)', 'http://127.0.0.1:PORT\\@evil.test/', 'row_bad_url'],
  ['an IPv6 zone id', 'http://[::1%25lo]:PORT/', 'bad_url'],
  ['an unclosed bracket', 'http://[::ffff:127.0.0.1:PORT/', 'bad_url'],
];

const servers: Server[] = [];
let trapPort = 0;
let trapped = 0;
let srv: MultiHostServer;
const tmp = tempDir();

beforeAll(async () => {
  const listen = (host: string, port: number) =>
    new Promise<Server>((resolve, reject) => {
      const s = createServer((socket) => {
        trapped++;
        socket.destroy();
      });
      s.once('error', reject).listen(port, host, () => resolve(s));
    });
  const v4 = await listen('127.0.0.1', 0);
  servers.push(v4);
  trapPort = (v4.address() as { port: number }).port;
  // The same port on ::1 too, where the host has IPv6 loopback: [::1] and [::] probes would land there.
  await listen('::1', trapPort).then(
    (s) => servers.push(s),
    () => {},
  );
  // 127.0.0.2 plays a public host for the redirect probes.
  srv = await startMultiHostServer({ alsoListenOn: ['127.0.0.2'] });
});
afterAll(async () => {
  for (const s of servers) s.close();
  await srv.close();
  tmp.cleanup();
});

const urlOf = (template: string) => template.replace('PORT', String(trapPort));

/** The default list, except that 127.0.0.2 is allowed (it stands in for a public address). */
function defaultListBut127002(): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of V4_RANGES) {
    if (net !== '127.0.0.0') list.addSubnet(net, prefix, 'ipv4');
  }
  list.addRange('127.0.0.0', '127.0.0.1', 'ipv4');
  list.addRange('127.0.0.3', '127.255.255.255', 'ipv4');
  for (const [net, prefix] of V6_RANGES) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

/**
 * Per probe: the CLI row's [verdict, robots_status or error_code], directly and through --proxy, and the
 * redirect's [outcome, errorCode, hits].
 */
const rows: string[][] = [];
const proxiedRows: string[][] = [];
const redirects: Array<[string, string | null, number]> = [];

async function classifyRows(into: string[][], extra: string[]): Promise<void> {
  const input = `url\n${PROBES.map(([, template]) => urlOf(template)).join('\n')}\n`;
  const cache = join(tmp.dir, `cli-${extra.length}.sqlite`);
  const args = ['classify', '-', '--cache', cache, '--timeout', '2', '--retries', '0', ...extra];
  const r = await runCli([...args, '--resolve', 'rebind.test=127.0.0.1', '--agent', 'Googlebot', '--quiet'], {
    input,
  });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  for (const row of parse(r.stdout, { columns: true }) as Record<string, string>[]) {
    into.push([row.verdict!, row.robots_status || row.error_code!]);
  }
}

async function followRedirects(): Promise<void> {
  const options = liveOptions(srv, join(tmp.dir, 'redirects.sqlite'), {
    allowPrivate: false,
    resolve: ['*.pub.test=127.0.0.2', 'rebind.test=127.0.0.1'],
  });
  const provider = createLivePolicyProvider(options, { tuning: { blockList: defaultListBut127002() } });
  try {
    const results = await Promise.all(
      PROBES.map(async ([, template], i) => {
        const host = `r${i}.pub.test`;
        // Sent as raw UTF-8 bytes on the wire (Node's server takes header strings as Latin-1).
        const location = Buffer.from(urlOf(template)).toString('latin1');
        srv.set(host, { kind: 'redirect', location });
        const p = await provider.get({ scheme: 'http', host, port: srv.httpPort });
        return [p.outcome, p.errorCode, srv.hits(host)] as [string, string | null, number];
      }),
    );
    redirects.push(...results);
  } finally {
    await provider.close();
  }
}

describe('SSRF probes, default settings: nothing on loopback is ever contacted', () => {
  beforeAll(async () => {
    await classifyRows(rows, []);
    // The trap plays the proxy: the proxy resolves names itself, so each host is checked before asking it.
    await classifyRows(proxiedRows, ['--proxy', `http://127.0.0.1:${trapPort}`]);
    await followRedirects();
  });

  it.each(PROBES.map(([what, template, expected], i) => [what, template, expected, i] as const))(
    '%s (%s) as a CLI input row → %s',
    (_what, _template, expected, i) => {
      expect(rows[i]).toEqual(
        expected === 'blocked'
          ? ['disallowed_unreachable', 'ERR_BLOCKED_ADDRESS']
          : ['invalid_input', 'bad_url'],
      );
    },
  );

  it.each(PROBES.map(([what, template, expected], i) => [what, template, expected, i] as const))(
    '%s (%s) as a CLI input row behind --proxy → %s, the proxy never asked',
    (_what, _template, expected, i) => {
      expect(proxiedRows[i]).toEqual(
        expected === 'blocked'
          ? ['disallowed_unreachable', 'ERR_BLOCKED_ADDRESS']
          : ['invalid_input', 'bad_url'],
      );
    },
  );

  it.each(PROBES.map(([what, template, expected], i) => [what, template, expected, i] as const))(
    '%s (%s) as the Location of a redirect from an allowed host → refused at that hop (%s)',
    (_what, _template, expected, i) => {
      // A Location that is not a URL is no usable redirect (RFC 9309: unavailable); nothing is contacted.
      expect(redirects[i]).toEqual(
        expected !== 'bad_url'
          ? ['unreachable', 'ERR_BLOCKED_ADDRESS', 1]
          : ['unavailable', 'ERR_REDIRECT_INVALID', 1],
      );
    },
  );

  it('the loopback trap server saw no connection from any probe', () => {
    expect(rows).toHaveLength(PROBES.length);
    expect(proxiedRows).toHaveLength(PROBES.length);
    expect(redirects).toHaveLength(PROBES.length);
    expect(trapped).toBe(0);
  });
});
