import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FixedOrigins } from '../../src/workers/fixed-origins.js';

type Origin = ['http' | 'https', string, number];

const origin: fc.Arbitrary<Origin> = fc.tuple(
  fc.constantFrom('http' as const, 'https' as const),
  fc.oneof(
    fc.constantFrom(
      'a.example',
      'b.example',
      'a.exampl',
      'xn--bcher-kva.de',
      '[::1]',
      '127.0.0.1',
      'A.example',
    ),
    fc.stringMatching(/^[a-z0-9.-]{1,12}$/),
  ),
  fc.constantFrom(80, 443, 8080, 1, 65535),
);

describe('FixedOrigins', () => {
  it('never answers with another origin’s id, and finds what it was told last', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.constantFrom('set', 'get', 'delete'), origin, fc.integer({ min: 0, max: 254 })),
          {
            maxLength: 300,
          },
        ),
        (ops) => {
          const table = new FixedOrigins();
          const model = new Map<string, number>();
          for (const [op, [scheme, host, port], id] of ops) {
            const k = `${scheme}://${host}:${port}`;
            if (op === 'set') {
              table.set(scheme, host, port, id);
              model.set(k, id);
            } else if (op === 'delete') {
              table.delete(scheme, host, port);
              model.delete(k);
            }
            // Far below the capacity of a generation: everything told is still known.
            expect(table.get(scheme, host, port)).toBe(model.get(k) ?? -1);
          }
        },
      ),
    );
  });

  it('keeps the origins in use as others stream past, and forgets the rest within two generations', () => {
    const table = new FixedOrigins();
    table.set('https', 'hot.example', 443, 7);
    for (let i = 0; i < 1_000_000; i++) {
      table.set('https', `h${i}.example`, 443, i % 200);
      if (i % 10_000 === 0) expect(table.get('https', 'hot.example', 443)).toBe(7);
    }
    expect(table.get('https', 'hot.example', 443)).toBe(7);
    expect(table.get('https', 'h999999.example', 443)).toBe(999_999 % 200);
    expect(table.get('https', 'h0.example', 443)).toBe(-1);
    // What it does remember is always right.
    for (let i = 0; i < 1_000_000; i += 997) {
      const id = table.get('https', `h${i}.example`, 443);
      if (id !== -1) expect(id).toBe(i % 200);
    }
  });

  it('holds long hosts up to its limit, and skips longer ones and ones with wide chars', () => {
    const table = new FixedOrigins();
    const long = `${'a'.repeat(250)}.com`;
    table.set('http', long, 80, 3);
    expect(table.get('http', long, 80)).toBe(3);
    table.set('http', `${'a'.repeat(300)}.com`, 80, 3);
    expect(table.get('http', `${'a'.repeat(300)}.com`, 80)).toBe(-1);
    table.set('http', 'bücher.de', 80, 4);
    expect(table.get('http', 'bücher.de', 80)).toBe(4);
    table.set('http', 'hañ\u4e2d.de', 80, 5);
    expect(table.get('http', 'hañ\u4e2d.de', 80)).toBe(-1);
  });
});
