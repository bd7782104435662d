// Types of scripts/mutateMerge.mjs (plain JavaScript, run by node from scripts/mutate.mjs), for its tests.

/** A Stryker report as kept (test/mutation/incremental.json, recheck.json): the parts the merge reads. */
export interface KeptReport {
  files?: Record<string, { mutants: { coveredBy?: string[]; killedBy?: string[] }[] }>;
  testFiles?: Record<string, { tests: { id: string; name: string }[] }>;
}

export function mergeTests(into: KeptReport, from: KeptReport): Map<string, string>;
export function mergeFiles(
  into: KeptReport,
  from: KeptReport,
  files: string[],
  map: Map<string, string>,
): void;
