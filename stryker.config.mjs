// Mutation testing of the library's core: `npm run mutate` (scripts/mutate.mjs names the files) or
// `npm run mutate -- src/quadtree/query/range.ts`. See docs/development.md, "Mutation testing".

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  coverageAnalysis: 'perTest',
  // Results are kept per mutant: a later run re-tests only the mutants whose code or covering tests changed,
  // and keeps the results of the files it does not mutate, so the core can be run a file at a time. (Stryker
  // writes them when a run ends: a run that is stopped keeps nothing of its own.)
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  concurrency: 2,
  // A mutant's limit is its tests' own time x timeoutFactor + timeoutMS. The instrumented code runs the
  // fuzz tests several times slower, and a busy machine slower again: a time-out is only counted as a kill
  // once `npm run mutate -- --recheck` (the mutant alone, uninstrumented, 5 minutes unless told) still times
  // out.
  timeoutMS: 30_000,
  timeoutFactor: 2,
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
