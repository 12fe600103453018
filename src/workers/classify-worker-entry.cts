// The file Piscina loads. Piscina loads a task file with require(), and on Node 20 require() of an ES module
// instantiates it synchronously; a worker terminated inside that step aborts the whole process (FATAL
// "IsGraphAsync must be used on an instantiated module"). This CommonJS entry loads the worker by import(),
// whose asynchronous instantiation a termination only stops.
import type { WorkerTask } from './protocol.js';

type Handler = (task: WorkerTask) => Promise<unknown>;

let handler: Handler | undefined;
let loading: Promise<Handler> | undefined;

function load(): Promise<Handler> {
  loading ??= import('./classify-worker.js').then((m) => {
    handler = m.default;
    return handler;
  });
  return loading;
}

export = function classifyWorkerEntry(task: WorkerTask): Promise<unknown> {
  return handler !== undefined ? handler(task) : load().then((h) => h(task));
};
