// The library's public surface. Layers: cli → pipeline → workers → core.

export { hasCode, RobotsAuditError } from './core/errors.js';
export * from './core/index.js';
export { DEFAULTS, type Options, resolveOptions } from './pipeline/options.js';
export type { Origin, Policy, PolicyOutcome, PolicyProvider } from './pipeline/policy.js';
