import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { type BlockList, isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { RobotsAuditError } from '../../core/errors.js';
import { bareAddress, isBlockedAddress } from './address-policy.js';
import { fetchError } from './error-codes.js';

/**
 * Name resolution for fetches: `--resolve` pins first, then the system resolver; every address is then
 * checked against the block list, so a name that resolves (or rebinds) to 127.0.0.1 is refused too.
 */

export interface Pins {
  exact: Map<string, string>;
  /** `*.example.com` → address, longest suffix first. */
  suffixes: Array<[string, string]>;
  any: string | undefined;
}

/** Parses `HOST=ADDRESS` entries (`*` = every host, `*.example.com` = its subdomains). */
export function parsePins(entries: readonly string[]): Pins {
  const pins: Pins = { exact: new Map(), suffixes: [], any: undefined };
  for (const entry of entries) {
    const eq = entry.lastIndexOf('=');
    const host = entry.slice(0, eq).trim().toLowerCase();
    const address = bareAddress(entry.slice(eq + 1).trim());
    if (isIP(address) === 0) {
      throw new RobotsAuditError(
        'ERR_INVALID_OPTION',
        `Invalid option \`resolve\`: expected HOST=ADDRESS with an IP address, got ${JSON.stringify(entry)} (string)`,
        { option: 'resolve' },
      );
    }
    if (host === '*') pins.any = address;
    else if (host.startsWith('*.'))
      pins.suffixes.push([`.${domainToASCII(host.slice(2)) || host.slice(2)}`, address]);
    else pins.exact.set(domainToASCII(host) || host, address);
  }
  pins.suffixes.sort((a, b) => b[0].length - a[0].length);
  return pins;
}

/** The pinned address for `host`, if any. */
export function pinnedAddress(pins: Pins, host: string): string | undefined {
  const h = host.toLowerCase();
  const exact = pins.exact.get(h);
  if (exact !== undefined) return exact;
  for (const [suffix, address] of pins.suffixes) if (h.endsWith(suffix)) return address;
  return pins.any;
}

export interface ResolverConfig {
  pins: Pins;
  allowPrivate: boolean;
  blockList: BlockList;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

const LOOPBACK: LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/** True when `name` (any case, with or without the root's trailing dot) is `zone` or under it. */
function inZone(name: string, zone: string): boolean {
  const n = name.toLowerCase().replace(/\.$/, '');
  return n === zone || n.endsWith(`.${zone}`);
}

/** Resolves `host` to the addresses a fetch may connect to, or rejects with ERR_DNS / ERR_BLOCKED_ADDRESS. */
export function resolveAllowed(host: string, config: ResolverConfig): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const bare = bareAddress(host);
    const literal = isIP(bare);
    const pinned = literal === 0 ? pinnedAddress(config.pins, bare) : undefined;
    const check = (addresses: LookupAddress[]) => {
      const allowed = config.allowPrivate
        ? addresses
        : addresses.filter((a) => !isBlockedAddress(a.address, config.blockList));
      if (allowed.length > 0) return resolve(allowed);
      const list = addresses.map((a) => a.address).join(', ');
      reject(
        fetchError(
          'ERR_BLOCKED_ADDRESS',
          `${host} resolves only to refused addresses (${list}); use --allow-private to allow them`,
        ),
      );
    };
    if (literal !== 0) return check([{ address: bare, family: literal }]);
    if (pinned !== undefined) return check([{ address: pinned, family: isIP(pinned) }]);
    // RFC 6761 §6.4: `.invalid` never resolves; answer at once, without asking any resolver.
    if (inZone(bare, 'invalid')) {
      return reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${bare}`), { code: 'ENOTFOUND' }));
    }
    // RFC 6761 §6.3: `localhost` and its subdomains are loopback, whatever a resolver would answer.
    if (inZone(bare, 'localhost')) return check(LOOPBACK);
    dnsLookup(bare, { all: true, verbatim: true }, (err, addresses) => {
      if (err) return reject(err);
      if (addresses.length === 0) {
        return reject(Object.assign(new Error(`no address for ${bare}`), { code: 'ENOTFOUND' }));
      }
      check(addresses);
    });
  });
}

/** A `lookup` for net/tls.connect that applies the pins and the block list. */
export function createLookup(config: ResolverConfig) {
  return (host: string, opts: { all?: boolean }, callback: LookupCallback): void => {
    resolveAllowed(host, config).then(
      (addresses) => {
        if (opts.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, opts.all ? [] : ''),
    );
  };
}
