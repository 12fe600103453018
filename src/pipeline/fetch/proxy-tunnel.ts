import net from 'node:net';
import tls from 'node:tls';
import { fetchError } from './error-codes.js';

/**
 * A CONNECT tunnel through an HTTP(S) proxy, on a connection of its own. Whatever the proxy does short of
 * a 2xx (closes, resets, refuses the connection, answers 407/502 or garbage) fails this one attempt with
 * ERR_PROXY; the abort signal (the attempt's time budget) ends a proxy that never answers.
 */

/** Longest CONNECT answer head read; a proxy's answer is a status line and a few headers. */
const MAX_ANSWER_BYTES = 16 * 1024;

function proxyFailure(proxy: URL, what: string): Error {
  return fetchError('ERR_PROXY', `proxy ${proxy.host}: ${what}`);
}

function connectToProxy(proxy: URL, ca: string[] | undefined): net.Socket {
  const host = proxy.hostname.replace(/^\[|\]$/g, '');
  const secure = proxy.protocol === 'https:';
  const port = Number(proxy.port) || (secure ? 443 : 80);
  if (!secure) return net.connect({ host, port });
  return tls.connect({
    host,
    port,
    ...(net.isIP(host) === 0 ? { servername: host } : {}),
    ...(ca === undefined ? {} : { ca }),
  });
}

function connectRequest(proxy: URL, authority: string): string {
  const lines = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`];
  if (proxy.username !== '' || proxy.password !== '') {
    const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
    lines.push(`Proxy-Authorization: Basic ${Buffer.from(credentials).toString('base64')}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** The end of a response head (after its blank line), or -1; bare LF line ends are read too. */
function headEnd(buf: Buffer): number {
  const crlf = buf.indexOf('\r\n\r\n');
  const lf = buf.indexOf('\n\n');
  if (crlf !== -1 && (lf === -1 || crlf < lf)) return crlf + 4;
  return lf === -1 ? -1 : lf + 2;
}

/**
 * Opens a tunnel to `authority` (`host:port`, IPv6 in brackets) through `proxy`; resolves with the socket,
 * paused, once the proxy answered 2xx. `ca` is trusted for an https:// proxy.
 */
export function openTunnel(
  proxy: URL,
  authority: string,
  signal: AbortSignal,
  ca: string[] | undefined,
): Promise<net.Socket> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const socket = connectToProxy(proxy, ca);
    let head = Buffer.alloc(0);
    const settle = (err: unknown) => {
      socket.off('data', onData).off('error', onError).off('close', onClose).off('end', onClose);
      signal.removeEventListener('abort', onAbort);
      if (err === undefined) return resolve(socket);
      socket.destroy();
      reject(err);
    };
    const onAbort = () => settle(signal.reason);
    const onError = (err: Error) => settle(proxyFailure(proxy, `cannot reach the proxy (${err.message})`));
    const onClose = () =>
      settle(proxyFailure(proxy, `the proxy closed the connection before answering CONNECT ${authority}`));
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = headEnd(head);
      if (end === -1) {
        if (head.length > MAX_ANSWER_BYTES) settle(proxyFailure(proxy, 'the answer to CONNECT has no end'));
        return;
      }
      const statusLine = head.subarray(0, head.indexOf('\n')).toString('latin1').trim();
      const status = /^HTTP\/1\.[01] (\d{3})\b/.exec(statusLine);
      if (status === null)
        return settle(
          proxyFailure(
            proxy,
            `the answer to CONNECT is not HTTP: ${JSON.stringify(statusLine.slice(0, 80))}`,
          ),
        );
      if (!status[1]!.startsWith('2'))
        return settle(proxyFailure(proxy, `CONNECT ${authority} refused: ${statusLine}`));
      // The tunnel's own bytes start after the head; the next reader gets them first.
      socket.pause();
      if (end < head.length) socket.unshift(head.subarray(end));
      settle(undefined);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('data', onData).on('error', onError).on('close', onClose).on('end', onClose);
    socket.write(connectRequest(proxy, authority));
  });
}
