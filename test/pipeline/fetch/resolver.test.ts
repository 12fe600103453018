import { describe, expect, it } from 'vitest';
import { defaultBlockList } from '../../../src/pipeline/fetch/address-policy.js';
import { parsePins, pinnedAddress, resolveAllowed } from '../../../src/pipeline/fetch/resolver.js';

describe('parsePins / pinnedAddress', () => {
  const pins = parsePins([
    '*=127.0.0.1',
    '*.shop.example=127.0.0.2',
    '*.example=127.0.0.3',
    'exact.shop.example=127.0.0.4',
    'V6.Example=[::1]',
    'bücher.example=127.0.0.5',
  ]);

  it('an exact host wins over wildcards, the longest suffix over shorter ones, `*` last', () => {
    expect(pinnedAddress(pins, 'exact.shop.example')).toBe('127.0.0.4');
    expect(pinnedAddress(pins, 'a.shop.example')).toBe('127.0.0.2');
    expect(pinnedAddress(pins, 'a.example')).toBe('127.0.0.3');
    expect(pinnedAddress(pins, 'anything.else')).toBe('127.0.0.1');
  });

  it('hosts compare case-insensitively, IDN pins in punycode, IPv6 without brackets', () => {
    expect(pinnedAddress(pins, 'v6.example')).toBe('::1');
    expect(pinnedAddress(pins, 'xn--bcher-kva.example')).toBe('127.0.0.5');
  });

  it('`*.example` does not match `example` itself', () => {
    expect(pinnedAddress(parsePins(['*.example=127.0.0.3']), 'example')).toBeUndefined();
  });

  it('rejects an ADDRESS that is not an IP address', () => {
    expect(() => parsePins(['a.test=not-an-ip'])).toThrow(/Invalid option `resolve`/);
    expect(() => parsePins(['a.test=localhost'])).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_OPTION', message: expect.stringMatching(/`resolve`/) }),
    );
  });
});

describe('resolveAllowed', () => {
  const config = (entries: string[], allowPrivate = false) => ({
    pins: parsePins(entries),
    allowPrivate,
    blockList: defaultBlockList(),
  });

  it('refuses a pin to a private address unless allowPrivate', async () => {
    await expect(resolveAllowed('a.test', config(['a.test=127.0.0.1']))).rejects.toMatchObject({
      code: 'ERR_BLOCKED_ADDRESS',
    });
    await expect(resolveAllowed('a.test', config(['a.test=127.0.0.1'], true))).resolves.toEqual([
      { address: '127.0.0.1', family: 4 },
    ]);
  });

  it('refuses metadata IP literals without connecting', async () => {
    await expect(resolveAllowed('169.254.169.254', config([]))).rejects.toMatchObject({
      code: 'ERR_BLOCKED_ADDRESS',
    });
    await expect(resolveAllowed('[fd00:ec2::254]', config([]))).rejects.toMatchObject({
      code: 'ERR_BLOCKED_ADDRESS',
    });
  });

  it('refuses a name the system resolver maps to loopback (localhost)', async () => {
    await expect(resolveAllowed('localhost', config([]))).rejects.toMatchObject({
      code: 'ERR_BLOCKED_ADDRESS',
    });
  });

  it.each(['localhost.', 'foo.localhost', 'A.B.LOCALHOST.'])(
    'answers loopback for %s itself (RFC 6761 §6.3), so it is refused whatever the system resolver says',
    async (name) => {
      await expect(resolveAllowed(name, config([]))).rejects.toMatchObject({ code: 'ERR_BLOCKED_ADDRESS' });
      await expect(resolveAllowed(name, config([], true))).resolves.toEqual([
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ]);
    },
  );

  it('answers ENOTFOUND for .invalid names at once (RFC 6761)', async () => {
    await expect(resolveAllowed('x.invalid', config([]))).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolveAllowed('invalid', config([]))).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('a pin applies to names, never to IP literals', async () => {
    await expect(resolveAllowed('127.0.0.9', config(['*=8.8.8.8'], true))).resolves.toEqual([
      { address: '127.0.0.9', family: 4 },
    ]);
  });
});
