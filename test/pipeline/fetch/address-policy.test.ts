import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bareAddress,
  defaultBlockList,
  isBlockedAddress,
} from '../../../src/pipeline/fetch/address-policy.js';

const list = defaultBlockList();
const blocked = (a: string) => isBlockedAddress(a, list);

describe('isBlockedAddress (default list)', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1', // CGNAT
    '100.127.255.255',
    '169.254.169.254', // cloud metadata
    '192.0.0.192', // Oracle Cloud metadata
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '[::1]',
    '::',
    'fd00:ec2::254', // AWS metadata over IPv6
    'fc00::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '::ffff:127.0.0.1', // IPv4-mapped
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe', // NAT64 of 169.254.169.254
    '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
    '2002:7f00:1::', // 6to4 of 127.0.0.1
    '2002:a9fe:a9fe::1', // 6to4 of 169.254.169.254
    '::ffff:0:7f00:1', // IPv4-translated (SIIT, RFC 2765) of 127.0.0.1
    '::ffff:0:127.0.0.1',
    '::ffff:0:808:808', // IPv4-translated: the whole ::ffff:0:0:0/96, whatever it embeds
    '64:ff9b:1::7f00:1', // local-use NAT64 (RFC 8215): the whole 64:ff9b:1::/48
    '64:ff9b:1:abcd::808:808',
    '::7f00:1', // IPv4-compatible (deprecated): the whole ::/96
    '::127.0.0.1',
    '::8.8.8.8',
    'not-an-address',
  ])('refuses %s', (a) => {
    expect(blocked(a)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255',
    '172.32.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '169.253.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808', // NAT64 of 8.8.8.8
    '2002:808:808::',
  ])('allows %s', (a) => {
    expect(blocked(a)).toBe(false);
  });

  it('an IPv4-mapped IPv6 address gets the verdict of its IPv4 address', () => {
    fc.assert(
      fc.property(fc.ipV4(), (v4) => {
        expect(blocked(`::ffff:${v4}`)).toBe(blocked(v4));
      }),
    );
  });

  it('every address of 10/8, 127/8 and 169.254/16 is refused', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(fc.constantFrom('10', '127', '169.254'), octet, octet, octet, (prefix, a, b, c) => {
        const parts = prefix === '169.254' ? [prefix, b, c] : [prefix, a, b, c];
        expect(blocked(parts.join('.'))).toBe(true);
      }),
    );
  });
});

describe('bareAddress', () => {
  it('strips brackets and zone ids', () => {
    expect(bareAddress('[::1]')).toBe('::1');
    expect(bareAddress('fe80::1%eth0')).toBe('fe80::1');
    expect(bareAddress('10.0.0.1')).toBe('10.0.0.1');
  });
});
