// The library's public surface. Layers: cli → pipeline → workers → rows → core.

export {
  ERROR_CODES,
  type ErrorCode,
  POLICY_CODES,
  type PolicyCode,
} from './core/error-codes.js';
export { hasCode, RobotsAuditError } from './core/errors.js';
export * from './core/index.js';
export { type ClassifyParams, type ClassifySummary, classify } from './pipeline/classify.js';
export { classifyInThread } from './pipeline/classify-thread.js';
export type { ClassifyOptions, Command, CommandOptions } from './pipeline/command-options.js';
export { FETCH_ERROR_CODES, type FetchErrorCode } from './pipeline/fetch/error-codes.js';
export type {
  FetchEvent,
  LivePolicyProvider,
  ProviderStats,
} from './pipeline/fetch/live-policy-provider.js';
export { DEFAULTS, type Options, resolveOptions } from './pipeline/options.js';
export type { Origin, Policy, PolicyOutcome, PolicyProvider } from './pipeline/policy/policy.js';
export { ROW_ERROR_CODES, type RowCode } from './rows/row-error-codes.js';
