import { type ErrorCode, type ForeignCode, isErrorCode } from './error-codes.js';

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
  readonly code: ErrorCode;
  readonly line?: number;
  readonly host?: string;
  readonly url?: string;
  readonly option?: string;
  readonly path?: string;

  constructor(code: ErrorCode, message: string, context: ErrorContext = {}) {
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

/** True when `err` is an error object carrying the given code (one of ours, or a catalogued Node/undici one). */
export function hasCode(err: unknown, code: ErrorCode | ForeignCode): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

/** Plain-data form of a failure, safe to post across a worker boundary. */
export interface Failure {
  ok: false;
  code: ErrorCode;
  message: string;
}

/** A failure as plain data; a code that is not one of ours (ENOENT, …) becomes `fallbackCode`, kept in the message. */
export function toFailure(err: unknown, fallbackCode: ErrorCode = 'ERR_INTERNAL'): Failure {
  if (typeof err === 'object' && err !== null) {
    const e = err as { code?: unknown; message?: unknown };
    const message = typeof e.message === 'string' ? e.message : String(err);
    if (isErrorCode(e.code)) return { ok: false, code: e.code, message };
    const foreign = typeof e.code === 'string' ? `${e.code}: ` : '';
    return { ok: false, code: fallbackCode, message: `${foreign}${message}` };
  }
  return { ok: false, code: fallbackCode, message: String(err) };
}
