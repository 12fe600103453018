import { describe, expect, it } from 'vitest';
import { Lru } from '../../../src/pipeline/policy/lru.js';

describe('Lru', () => {
  it('evicts the least recently used entries past the entry bound', () => {
    const l = new Lru<number>(Number.POSITIVE_INFINITY, 2);
    l.set('a', 1);
    l.set('b', 2);
    expect(l.get('a')).toBe(1);
    l.set('c', 3);
    expect(l.has('b')).toBe(false);
    expect(l.peek('a')).toBe(1);
    expect(l.peek('c')).toBe(3);
  });

  it('evicts by cost but never the entry just set', () => {
    const l = new Lru<string>(10, 100);
    l.set('a', 'x', 6);
    l.set('b', 'y', 6);
    expect(l.has('a')).toBe(false);
    expect(l.cost).toBe(6);
    l.set('big', 'z', 50);
    expect(l.size).toBe(1);
    expect(l.peek('big')).toBe('z');
  });

  it('replaces values and keeps the cost right', () => {
    const l = new Lru<number>(100, 100);
    l.set('a', 1, 10);
    l.set('a', 2, 20);
    expect(l.cost).toBe(20);
    l.delete('a');
    expect(l.cost).toBe(0);
    expect(l.size).toBe(0);
  });
});
