import { RobotsAuditError } from '../core/errors.js';

/** The error a stopped run rejects with: ERR_ABORTED, with the signal's reason when it is a string. */
export function aborted(signal: AbortSignal | undefined): RobotsAuditError {
  const reason = signal?.reason;
  return new RobotsAuditError('ERR_ABORTED', `stopped (${typeof reason === 'string' ? reason : 'aborted'})`);
}

/** Resolves with p, or rejects as soon as the signal aborts. */
export function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(aborted(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(aborted(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
