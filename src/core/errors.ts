/** Context carried by every robots-audit error; all fields optional. */
export interface ErrorContext {
  line?: number;
  host?: string;
  url?: string;
  option?: string;
  path?: string;
  cause?: unknown;
}

/**
 * The one error class of robots-audit. Match it by `code` (a stable string), never by `instanceof`:
 * errors cross module copies and never cross the worker boundary (workers return plain data).
 */
export class RobotsAuditError extends Error {
  readonly code: string;
  readonly line?: number;
  readonly host?: string;
  readonly url?: string;
  readonly option?: string;
  readonly path?: string;

  constructor(code: string, message: string, context: ErrorContext = {}) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.name = 'RobotsAuditError';
    this.code = code;
    if (context.line !== undefined) this.line = context.line;
    if (context.host !== undefined) this.host = context.host;
    if (context.url !== undefined) this.url = context.url;
    if (context.option !== undefined) this.option = context.option;
    if (context.path !== undefined) this.path = context.path;
  }
}

/** True when `err` is an error object carrying the given stable code. */
export function hasCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

/** Plain-data form of a failure, safe to post across a worker boundary. */
export interface Failure {
  ok: false;
  code: string;
  message: string;
}

export function toFailure(err: unknown, fallbackCode = 'ERR_INTERNAL'): Failure {
  if (typeof err === 'object' && err !== null) {
    const e = err as { code?: unknown; message?: unknown };
    return {
      ok: false,
      code: typeof e.code === 'string' ? e.code : fallbackCode,
      message: typeof e.message === 'string' ? e.message : String(err),
    };
  }
  return { ok: false, code: fallbackCode, message: String(err) };
}
