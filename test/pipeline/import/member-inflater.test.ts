/** MemberInflater: one reused handle gives what gunzip gives, member after member, past damage. */
import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MemberInflater } from '../../../src/pipeline/import/member-inflater.js';

/** Header length of the members gzipSync writes (no name, comment or extra field). */
const HEADER = 10;

describe('MemberInflater', () => {
  it('inflates members one after another as gunzip does, and says where each ends', () => {
    const inputs = [
      Buffer.from('WARC/1.0\r\n'.repeat(50)),
      randomBytes(20_000),
      Buffer.alloc(0),
      randomBytes(3),
    ];
    const members = inputs.map((b) => gzipSync(b));
    const file = Buffer.concat(members);
    const inflater = new MemberInflater(1024 * 1024);
    let at = 0;
    for (const member of members) {
      const r = inflater.inflate(file.subarray(at), HEADER);
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      expect(r.length).toBe(member.length);
      expect(Buffer.compare(r.out, gunzipSync(member))).toBe(0);
      at += r.length;
    }
    expect(at).toBe(file.length);
  });

  it('a member cut anywhere, trailer included, asks for more', () => {
    const member = gzipSync(randomBytes(5000));
    const inflater = new MemberInflater(1024 * 1024);
    for (const cut of [HEADER + 1, 100, member.length - 8, member.length - 1]) {
      expect(inflater.inflate(member.subarray(0, cut), HEADER)).toEqual({ ok: false, reason: 'more' });
    }
    expect(inflater.inflate(member, HEADER).ok).toBe(true);
  });

  it('corrupt deflate data and a wrong CRC are corrupt, and the next member still inflates', () => {
    const good = gzipSync(Buffer.from('User-agent: *\nDisallow: /\n'.repeat(20)));
    const badData = Buffer.from(gzipSync(randomBytes(4000)));
    badData.fill(0xff, HEADER + 5, HEADER + 40);
    const badCrc = Buffer.from(good);
    badCrc[badCrc.length - 8]! ^= 1;
    const inflater = new MemberInflater(1024 * 1024);
    expect(inflater.inflate(badData, HEADER)).toEqual({ ok: false, reason: 'corrupt' });
    const after = inflater.inflate(good, HEADER);
    expect(after.ok && after.out.toString()).toBe('User-agent: *\nDisallow: /\n'.repeat(20));
    expect(inflater.inflate(badCrc, HEADER)).toEqual({ ok: false, reason: 'corrupt' });
    expect(inflater.inflate(good, HEADER).ok).toBe(true);
  });

  it('a member inflating to more than the limit is large; exactly the limit is read', () => {
    const inflater = new MemberInflater(10_000);
    const exact = inflater.inflate(gzipSync(Buffer.alloc(10_000, 7)), HEADER);
    expect(exact.ok && exact.out.length).toBe(10_000);
    expect(inflater.inflate(gzipSync(Buffer.alloc(10_001, 7)), HEADER)).toEqual({
      ok: false,
      reason: 'large',
    });
  });
});
