/**
 * Worker-thread entry of `classifyInThread`: runs `classify` on the params it was started with and
 * posts one plain-data reply (the summary, or the failure's code and message). An abort message from
 * the parent stops the run.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { toFailure } from '../core/errors.js';
import { classify } from './classify.js';
import type { CoordinatorAbort, CoordinatorData, CoordinatorReply } from './classify-thread.js';

const { params, terminal } = workerData as CoordinatorData;
if (terminal !== null) {
  // This stderr is a pipe to the parent's, which is a terminal: say so, so progress is drawn in place.
  Object.assign(process.stderr, { isTTY: true, columns: terminal.columns });
}
const port = parentPort!;
const controller = new AbortController();
const onMessage = (m: CoordinatorAbort) => {
  if (m.kind === 'abort') controller.abort(m.reason);
};
port.on('message', onMessage);
let reply: CoordinatorReply;
try {
  reply = {
    ok: true,
    summary: await classify({ ...params, signal: controller.signal }),
  };
} catch (err) {
  reply = toFailure(err);
}
port.postMessage(reply);
// Without a listener the port no longer holds the thread open, so it ends once its work has.
port.off('message', onMessage);
