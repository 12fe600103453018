/**
 * A raw TCP server on 127.0.0.1 (port 0) that answers with exactly the bytes a test chooses, to play
 * servers no HTTP library would be: `play(socket, path)` runs once per request head received (path of
 * its request line), or with `onConnect` once per connection before anything is read.
 *
 *   const raw = await startRawServer((socket, path) => socket.end('HTTP/1.1 200 OK\r\n\r\nbody'));
 *   raw.port; raw.connections; await raw.close();
 */
import { createServer, type Socket } from 'node:net';

export type Play = (socket: Socket, path: string) => void;

export interface RawServer {
  port: number;
  /** Connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

export async function startRawServer(
  play: Play,
  opts: { onConnect?: (socket: Socket) => void } = {},
): Promise<RawServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (opts.onConnect) return opts.onConnect(socket);
    let head = '';
    socket.on('data', (d: Buffer) => {
      head += d.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      const path = /^[A-Z]+ (\S+)/.exec(head)?.[1] ?? '/';
      head = head.slice(end + 4);
      play(socket, path);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    get connections() {
      return connections;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Writes `chunks` one after another, `gapMs` apart, unless the socket is gone. */
export function drip(socket: Socket, chunks: Array<string | Buffer>, gapMs: number, then?: () => void): void {
  let i = 0;
  const next = () => {
    if (socket.destroyed) return;
    if (i === chunks.length) return then?.();
    socket.write(chunks[i++]!);
    setTimeout(next, gapMs);
  };
  next();
}

/** Writes `chunk` again and again, as fast as the peer reads, until the socket closes. */
export function flood(socket: Socket, chunk: Buffer): void {
  const pump = () => {
    while (!socket.destroyed && socket.write(chunk));
  };
  socket.on('drain', pump);
  pump();
}
