import { constants, openSync } from 'node:fs';
import { Socket } from 'node:net';
import { Writable } from 'node:stream';

/** How often a FIFO without a reader is tried again. */
const READER_POLL_MS = 50;

/**
 * A Writable into a FIFO. A plain open() for writing blocks until a reader comes, in a libuv thread
 * that even process exit waits for: a run stopped meanwhile would never end. So the FIFO is opened
 * non-blocking, again every 50 ms while it has no reader (ENXIO), and then written as a pipe: libuv
 * polls it (no thread is held), and a reader that leaves is EPIPE.
 */
export function openFifoWriter(file: string): Writable {
  let socket: Socket | null = null;
  const out: Writable = new Writable({
    highWaterMark: 1 << 20,
    construct(done) {
      const attempt = () => {
        // Destroyed while waiting: construction ends so that destruction can run.
        if (out.destroyed) return done();
        let fd: number;
        try {
          fd = openSync(file, constants.O_WRONLY | constants.O_NONBLOCK);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENXIO') setTimeout(attempt, READER_POLL_MS);
          else done(err as Error);
          return;
        }
        socket = new Socket({ fd, readable: false, writable: true });
        socket.on('error', (err) => out.destroy(err));
        done();
      };
      attempt();
    },
    write(chunk: Buffer, _encoding, done) {
      socket!.write(chunk, (err) => done(err ?? null));
    },
    final(done) {
      socket!.end(() => done());
    },
    destroy(err, done) {
      socket?.destroy();
      done(err);
    },
  });
  return out;
}
