/**
 * An HTTP proxy on 127.0.0.1 (port 0) that fails in one chosen way, counting the connections it gets.
 * It answers whatever the first request is (CONNECT, or a plain GET for a proxy that forwards http://).
 *
 *   const proxy = await startMisbehavingProxy();
 *   proxy.mode = 'close';   // closes as soon as a request arrives
 *   proxy.url               // 'http://127.0.0.1:PORT'
 *   proxy.connections       // connections accepted since the last reset()
 */
import { createServer, type Socket } from 'node:net';
import { flood } from './raw-server.js';

export type ProxyMode =
  /** Closes the connection (FIN) as soon as the request arrives. */
  | 'close'
  /** Answers 407 Proxy Authentication Required. */
  | '407'
  /** Answers 502 Bad Gateway. */
  | '502'
  /** Reads the request and never answers. */
  | 'hang'
  /** Answers 200 Connection Established, then closes the tunnel. */
  | 'accept-close'
  /** Answers with a line that is not HTTP. */
  | 'garbage'
  /** Starts a 200 answer and sends header lines forever, never its end. */
  | 'endless-head';

export interface MisbehavingProxy {
  url: string;
  mode: ProxyMode;
  readonly connections: number;
  reset(): void;
  close(): Promise<void>;
}

const ANSWERS: Partial<Record<ProxyMode, string>> = {
  '407':
    'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="p"\r\nContent-Length: 0\r\n\r\n',
  '502': 'HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n',
  'accept-close': 'HTTP/1.1 200 Connection Established\r\n\r\n',
  garbage: 'SSH-2.0-OpenSSH_9.6\r\n\r\n',
};

function endlessHead(socket: Socket): void {
  socket.write('HTTP/1.1 200 Connection Established\r\n');
  flood(socket, Buffer.from('X-More: y\r\n'.repeat(100)));
}

export async function startMisbehavingProxy(): Promise<MisbehavingProxy> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const proxy: MisbehavingProxy = {
    url: '',
    mode: 'close',
    get connections() {
      return connections;
    },
    reset() {
      connections = 0;
      for (const s of sockets) s.destroy();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('data', () => {
      const { mode } = proxy;
      if (mode === 'close') socket.end();
      else if (mode === 'endless-head') endlessHead(socket);
      else if (mode !== 'hang') socket.end(ANSWERS[mode] ?? '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return proxy;
}
