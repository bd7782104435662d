// Mutation testing of the library's core: `npm run mutate` (every file below) or
// `npm run mutate -- src/quadtree/query.ts` (scripts/mutate.mjs passes the files on). See
// docs/development.md, "Mutation testing".
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  coverageAnalysis: 'perTest',
  // Results are kept per mutant: a run that stops resumes where it was, and a later run re-tests only the
  // mutants whose code or covering tests changed.
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  concurrency: 2,
  timeoutMS: 20000,
  // Stryker rewrites the sandbox's tsconfig.json (its extends and references) through TypeScript's JavaScript
  // API, which TypeScript 7 (the native compiler) no longer has. Ours has neither to rewrite: naming a file
  // that does not exist turns the step off.
  tsconfigFile: 'tsconfig.stryker-none.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: ['dist', 'docs', 'reports', 'test/e2e', 'assets', '.scratch', 'coverage'],
  thresholds: { high: 95, low: 90, break: null },
};
