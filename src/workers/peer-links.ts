import type { MessagePort } from 'node:worker_threads';
import type { ForeignRequest, ForeignResponse } from './foreign-rows.js';
import type { Affinity } from './peer-routing.js';
import { PortLink } from './port-link.js';

/** A classifier's place among its peers: index `index` of `threads`, and a port to each other one. */
export interface PeerPorts {
  index: number;
  threads: number;
  /** ports[i] talks to classifier i (null at the classifier's own index). */
  ports: (MessagePort | null)[];
}

/**
 * The affinity of one classifier (a worker thread's, or the coordinator's own): rows of origins a peer
 * owns go to it as requests over its port, and the peers' requests are answered by `answer`. `links`
 * are closed when the classifier ends (an open port keeps its thread alive).
 */
export function linkPeers(
  { index, threads, ports }: PeerPorts,
  answer: (req: ForeignRequest) => Promise<ForeignResponse>,
): { affinity: Affinity; links: PortLink[] } {
  const peers = ports.map((port) =>
    port === null
      ? null
      : new PortLink(port, async (body) => {
          const res = await answer(body as ForeignRequest);
          return {
            value: res,
            transfer: [res.lens.buffer as ArrayBuffer, res.classes.buffer as ArrayBuffer],
          };
        }),
  );
  const affinity: Affinity = {
    self: index,
    threads,
    ask: (owner, req) =>
      peers[owner]!.request<ForeignResponse>(
        req,
        req.times === null
          ? [req.schemes.buffer as ArrayBuffer, req.ports.buffer as ArrayBuffer]
          : [
              req.schemes.buffer as ArrayBuffer,
              req.ports.buffer as ArrayBuffer,
              req.times.buffer as ArrayBuffer,
            ],
      ),
  };
  return { affinity, links: peers.filter((l): l is PortLink => l !== null) };
}
