export interface MeasuredRun {
  wallS: number;
  /** User + system CPU seconds of the whole process (every thread). */
  cpuS: number;
  userS: number;
  sysS: number;
  /** Peak resident set size. */
  rssMiB: number;
  stderr: string;
}

export function measuredRun(argv: string[], options?: { timeoutMs?: number }): Promise<MeasuredRun>;
