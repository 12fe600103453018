import { describe, expect, it } from 'vitest';
import { hasCode, RobotsAuditError, toFailure } from '../../src/core/errors.js';

describe('RobotsAuditError codes come from the catalog', () => {
  it('takes a catalogued code, and tsc refuses any other', () => {
    expect(new RobotsAuditError('ERR_INPUT', 'x').code).toBe('ERR_INPUT');
    // @ts-expect-error: a code that is not in ERROR_CODES does not compile (npm run typecheck).
    expect(new RobotsAuditError('ERR_NOT_CATALOGUED', 'x').code).toBe('ERR_NOT_CATALOGUED');
  });

  it('matches by code, not by class', () => {
    expect(hasCode(Object.assign(new Error('x'), { code: 'ERR_OUTPUT' }), 'ERR_OUTPUT')).toBe(true);
    expect(hasCode(Object.assign(new Error('x'), { code: 'EPIPE' }), 'EPIPE')).toBe(true);
    expect(hasCode(new RobotsAuditError('ERR_OUTPUT', 'x'), 'ERR_OUTPUT_CLOSED')).toBe(false);
    expect(hasCode(null, 'ERR_OUTPUT')).toBe(false);
  });
});

describe('toFailure', () => {
  it('keeps a catalogued code and the message', () => {
    expect(toFailure(new RobotsAuditError('ERR_NO_URL_COLUMN', 'no url column'))).toEqual({
      ok: false,
      code: 'ERR_NO_URL_COLUMN',
      message: 'no url column',
    });
  });

  it('a code that is not ours (ENOENT) is never posted as a library code: ERR_INTERNAL, the code kept in the message', () => {
    const err = Object.assign(new Error('open x.csv'), { code: 'ENOENT' });
    expect(toFailure(err)).toEqual({ ok: false, code: 'ERR_INTERNAL', message: 'ENOENT: open x.csv' });
    expect(toFailure(err, 'ERR_COORDINATOR').code).toBe('ERR_COORDINATOR');
  });

  it('an error without a code, or a thrown non-object, gets the fallback code', () => {
    expect(toFailure(new Error('boom'))).toEqual({ ok: false, code: 'ERR_INTERNAL', message: 'boom' });
    expect(toFailure('boom')).toEqual({ ok: false, code: 'ERR_INTERNAL', message: 'boom' });
  });
});
