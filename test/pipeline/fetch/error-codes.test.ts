import { describe, expect, it } from 'vitest';
import { classifyNetworkError, FETCH_ERROR_CODES } from '../../../src/pipeline/fetch/error-codes.js';

const err = (code: string | undefined, message = 'x', name?: string) =>
  Object.assign(new Error(message), code === undefined ? {} : { code }, name === undefined ? {} : { name });

describe('FETCH_ERROR_CODES', () => {
  it('is the documented, stable list', () => {
    // Changing this list is a breaking change of the evidence columns and the cache: update the README.
    expect(FETCH_ERROR_CODES).toEqual([
      'ERR_DNS',
      'ERR_BLOCKED_ADDRESS',
      'ERR_CONNECTION_REFUSED',
      'ERR_CONNECTION_RESET',
      'ERR_CONNECTION_CLOSED',
      'ERR_HOST_UNREACHABLE',
      'ERR_TLS',
      'ERR_CONNECT_TIMEOUT',
      'ERR_HEADERS_TIMEOUT',
      'ERR_BODY_TIMEOUT',
      'ERR_MALFORMED_RESPONSE',
      'ERR_CONTENT_DECODING',
      'ERR_UNSUPPORTED_ENCODING',
      'ERR_PROXY',
      'ERR_NETWORK',
      'ERR_TOO_MANY_REDIRECTS',
      'ERR_REDIRECT_LOOP',
      'ERR_REDIRECT_INVALID',
      'ERR_REDIRECT_UNRESOLVED',
    ]);
  });
});

describe('classifyNetworkError', () => {
  it.each([
    ['ENOTFOUND', 'ERR_DNS', false],
    ['EAI_AGAIN', 'ERR_DNS', true],
    ['ECONNREFUSED', 'ERR_CONNECTION_REFUSED', true],
    ['ECONNRESET', 'ERR_CONNECTION_RESET', true],
    ['EPIPE', 'ERR_CONNECTION_RESET', true],
    ['EHOSTUNREACH', 'ERR_HOST_UNREACHABLE', true],
    ['ENETUNREACH', 'ERR_HOST_UNREACHABLE', true],
    ['UND_ERR_SOCKET', 'ERR_CONNECTION_CLOSED', true],
    ['UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'ERR_CONNECTION_CLOSED', true],
    ['UND_ERR_CONNECT_TIMEOUT', 'ERR_CONNECT_TIMEOUT', true],
    ['UND_ERR_HEADERS_TIMEOUT', 'ERR_HEADERS_TIMEOUT', true],
    ['UND_ERR_BODY_TIMEOUT', 'ERR_BODY_TIMEOUT', true],
    ['UND_ERR_HEADERS_OVERFLOW', 'ERR_MALFORMED_RESPONSE', false],
    ['HPE_INVALID_CONSTANT', 'ERR_MALFORMED_RESPONSE', false],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'ERR_TLS', false],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_TLS', false],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'ERR_TLS', false],
    ['CERT_HAS_EXPIRED', 'ERR_TLS', false],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'ERR_TLS', false],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_TLS', false],
    ['Z_DATA_ERROR', 'ERR_CONTENT_DECODING', false],
    ['ERR__ERROR_FORMAT_PADDING_1', 'ERR_CONTENT_DECODING', false],
    ['UND_ERR_PRX_TLS', 'ERR_PROXY', true],
    ['ERR_BLOCKED_ADDRESS', 'ERR_BLOCKED_ADDRESS', false],
  ])('%s → %s (retry: %s)', (code, expected, retryable) => {
    expect(classifyNetworkError(err(code))).toMatchObject({ code: expected, retryable });
  });

  it('undici parser errors without a code are malformed responses', () => {
    expect(
      classifyNetworkError(err(undefined, 'Response does not match the HTTP/1.1 protocol', 'HTTPParserError'))
        .code,
    ).toBe('ERR_MALFORMED_RESPONSE');
  });

  it('an undici parser error at an unfinished message is a cut connection (retried), not a malformed one', () => {
    const cut = classifyNetworkError(
      err(undefined, 'Response does not match the HTTP/1.1 protocol (Invalid EOF state)', 'HTTPParserError'),
    );
    expect(cut).toMatchObject({ code: 'ERR_CONNECTION_CLOSED', retryable: true });
    expect(classifyNetworkError(err('HPE_INVALID_EOF_STATE')).code).toBe('ERR_CONNECTION_CLOSED');
  });

  it('undici refusing what a server sent (an assertion on a status below 100, an upgrade not asked for) is malformed', () => {
    expect(classifyNetworkError(err('ERR_ASSERTION', 'assert(statusCode >= 100)'))).toMatchObject({
      code: 'ERR_MALFORMED_RESPONSE',
      retryable: false,
    });
    expect(classifyNetworkError(err('UND_ERR_SOCKET', 'bad upgrade')).code).toBe('ERR_MALFORMED_RESPONSE');
    expect(classifyNetworkError(err('UND_ERR_SOCKET', 'other side closed')).code).toBe(
      'ERR_CONNECTION_CLOSED',
    );
  });

  it('walks the cause chain', () => {
    const outer = Object.assign(new Error('fetch failed'), { cause: err('ECONNREFUSED') });
    expect(classifyNetworkError(outer).code).toBe('ERR_CONNECTION_REFUSED');
  });

  it('a proxy tunnel refusal is ERR_PROXY', () => {
    expect(
      classifyNetworkError(err('UND_ERR_ABORTED', 'Proxy response (403) !== 200 when HTTP Tunneling')).code,
    ).toBe('ERR_PROXY');
  });

  it('anything else is ERR_NETWORK, retried', () => {
    expect(classifyNetworkError(err('EWHATEVER'))).toMatchObject({ code: 'ERR_NETWORK', retryable: true });
    expect(classifyNetworkError('a string')).toMatchObject({ code: 'ERR_NETWORK', message: 'a string' });
  });
});
