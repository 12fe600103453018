import { type ErrorCode, isErrorCode } from '../core/error-codes.js';
import { hasCode } from '../core/errors.js';

/** Exit codes of the CLI. */
export const EXIT = Object.freeze({
  ok: 0,
  /** `check`: at least one URL is disallowed. */
  disallowed: 1,
  /** Bad arguments or options. */
  usage: 2,
  /** A fatal runtime error: unreadable input, unwritable output, … */
  fatal: 3,
  /** Stopped by SIGINT. */
  interrupted: 130,
  /** Stopped by SIGTERM. */
  terminated: 143,
  /** The reader of the output closed it early (as a shell reports a filter ended by SIGPIPE). */
  brokenPipe: 141,
});

/** The exit code of a run stopped by `signal`. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? EXIT.interrupted : EXIT.terminated;
}

/** Calls `handler` on SIGINT and SIGTERM; returns the function that stops listening. */
export function onStopSignals(handler: (signal: NodeJS.Signals) => void): () => void {
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

function exitAtOnce(signal: NodeJS.Signals): void {
  process.exit(signalExitCode(signal));
}

/**
 * Once a command's work is done: a stop signal ends the process at once with its exit code. While the
 * process winds down (threads ending, streams closing) the default action would end it by the signal,
 * which a caller cannot tell from a crash; nothing is left to clean up.
 */
export function exitOnLateStopSignals(): void {
  for (const name of ['SIGINT', 'SIGTERM'] as const) {
    if (!process.listeners(name).includes(exitAtOnce)) process.on(name, exitAtOnce);
  }
}

/** A command's stop switch: the first SIGINT/SIGTERM aborts `signal`, a second exits at once. */
export function stopOnSignals(): {
  signal: AbortSignal;
  stoppedBy: () => NodeJS.Signals | null;
  dispose: () => void;
} {
  const controller = new AbortController();
  let stoppedBy: NodeJS.Signals | null = null;
  const stopListening = onStopSignals((signal) => {
    if (stoppedBy !== null) process.exit(signalExitCode(signal));
    stoppedBy = signal;
    controller.abort(signal);
  });
  const dispose = () => {
    stopListening();
    exitOnLateStopSignals();
  };
  return { signal: controller.signal, stoppedBy: () => stoppedBy, dispose };
}

/** The INPUT positional as a path: yargs hands a lone `-` over as '' or true, and both mean stdin. */
export function inputPath(arg: unknown): string {
  return arg === '' || arg === true ? '-' : String(arg);
}

/** The exit code the CLI gives a fatal error with this code. */
export function exitCodeFor(code: ErrorCode | undefined): number {
  if (code === 'ERR_OUTPUT_CLOSED') return EXIT.brokenPipe;
  return code === 'ERR_INVALID_OPTION' || code === 'ERR_USAGE' ? EXIT.usage : EXIT.fatal;
}

/** Prints one clear line for a fatal error (none for a closed output) and returns the exit code it deserves. */
export function reportFatal(err: unknown): number {
  // `… | head`: the reader has what it wanted; end quietly, as a filter killed by SIGPIPE does.
  if (hasCode(err, 'ERR_OUTPUT_CLOSED')) return EXIT.brokenPipe;
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`robots-audit: ${message.split('\n')[0]}\n`);
  const code = (err as { code?: unknown } | null)?.code;
  return exitCodeFor(isErrorCode(code) ? code : undefined);
}

/**
 * A reader that closes stdout early (`… | head`) ends the process quietly with EXIT.brokenPipe, as a
 * filter killed by SIGPIPE. Only when nothing else listens: an output sink on stdout (classify, cache
 * export) handles it itself, so that its run is cleaned up first.
 */
export function quietOnClosedStdout(): void {
  const onError = (err: Error) => {
    if (process.stdout.listenerCount('error') > 1) return;
    if (hasCode(err, 'EPIPE')) process.exit(EXIT.brokenPipe);
    throw err;
  };
  process.stdout.on('error', onError);
}

/**
 * The exit code of a command run under `stopOnSignals` that threw: a signal's code, with one line saying
 * `what` was not written, when a signal stopped it; otherwise the fatal error's.
 */
export function failedOrStopped(
  err: unknown,
  stop: { stoppedBy: () => NodeJS.Signals | null },
  what = 'no output file was written',
): number {
  const stoppedBy = stop.stoppedBy();
  if (stoppedBy === null) return reportFatal(err);
  process.stderr.write(`robots-audit: stopped by ${stoppedBy}; ${what}\n`);
  return signalExitCode(stoppedBy);
}
