import type { MessagePort, Transferable } from 'node:worker_threads';

type Message =
  | { t: 'req'; id: number; body: unknown }
  | { t: 'res'; id: number; body?: unknown; error?: string };

export interface Reply {
  value: unknown;
  transfer?: Transferable[];
}

/**
 * Request/response over one MessagePort, in both directions: the coordinator ↔ a worker (policies)
 * and worker ↔ worker (rows of origins the other owns). Failures travel as plain strings.
 */
export class PortLink {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly port: MessagePort,
    onRequest?: (body: unknown) => Promise<Reply>,
  ) {
    port.on('message', (m: Message) => {
      if (m.t === 'res') {
        const p = this.pending.get(m.id);
        if (p === undefined) return;
        this.pending.delete(m.id);
        if (m.error !== undefined) p.reject(new Error(m.error));
        else p.resolve(m.body);
        return;
      }
      if (onRequest === undefined) {
        port.postMessage({ t: 'res', id: m.id, error: 'no handler' } satisfies Message);
        return;
      }
      onRequest(m.body).then(
        (r) => port.postMessage({ t: 'res', id: m.id, body: r.value } satisfies Message, r.transfer ?? []),
        (err: unknown) =>
          port.postMessage({
            t: 'res',
            id: m.id,
            error: err instanceof Error ? err.message : String(err),
          } satisfies Message),
      );
    });
  }

  request<T>(body: unknown, transfer: Transferable[] = []): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.port.postMessage({ t: 'req', id, body } satisfies Message, transfer);
    });
  }

  /** Fails every request still waiting (the other side is gone). */
  close(reason = 'closed'): void {
    for (const p of this.pending.values()) p.reject(new Error(reason));
    this.pending.clear();
    this.port.close();
  }
}
