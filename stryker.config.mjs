// Mutation testing of the library's core: `npm run mutate` (scripts/mutate.mjs names the files) or
// `npm run mutate -- src/quadtree/query/range.ts`. See docs/development.md, "Mutation testing".
//
// MUTATE_RECHECK=1 (set by `npm run mutate -- --recheck`): the run that re-tests the last run's time-outs
// alone, one at a time with a long limit, into reports/mutation/recheck-last.json (the main results stay;
// scripts/mutate.mjs adds the answers to reports/mutation/recheck.json). MUTATE_RECHECK_MS (set by
// `--recheck-ms N`) sets that limit, 5 minutes unless told.
const recheck = process.env.MUTATE_RECHECK === '1';
const recheckMs = Number(process.env.MUTATE_RECHECK_MS ?? 300_000);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  coverageAnalysis: 'perTest',
  // Results are kept per mutant: a run that stops resumes where it was, and a later run re-tests only the
  // mutants whose code or covering tests changed.
  incremental: !recheck,
  incrementalFile: 'reports/mutation/incremental.json',
  reporters: recheck ? ['clear-text', 'progress', 'json'] : ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: {
    fileName: recheck ? 'reports/mutation/recheck-last.json' : 'reports/mutation/mutation.json',
  },
  concurrency: recheck ? 1 : 2,
  // A mutant's limit is its tests' own time x timeoutFactor + timeoutMS. The instrumented code runs the
  // fuzz tests several times slower, and a busy machine slower again: a time-out is only counted as a kill
  // once the recheck (5 minutes a mutant unless told, nothing beside it) still times out.
  timeoutMS: recheck ? recheckMs : 30_000,
  timeoutFactor: recheck ? 4 : 2,
  // Stryker rewrites the sandbox's tsconfig.json (its extends and references) through TypeScript's JavaScript
  // API, which TypeScript 7 (the native compiler) no longer has. Ours has neither to rewrite: naming a file
  // that does not exist turns the step off.
  tsconfigFile: 'tsconfig.stryker-none.json',
  dryRunTimeoutMinutes: 60,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: ['dist', 'docs', 'reports', 'test/e2e', 'assets', '.scratch', 'coverage'],
  thresholds: { high: 95, low: 90, break: null },
};
