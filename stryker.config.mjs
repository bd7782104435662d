// Mutation testing of the library's core: `npm run mutate` (scripts/mutate.mjs names the files) or
// `npm run mutate -- src/quadtree/query/range.ts`. See docs/development.md, "Mutation testing".

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  coverageAnalysis: 'perTest',
  // The core's own suites. Left out: the suites of the crowd kernels (WebAssembly), the thread team (worker
  // threads), the three.js adapters and pairs.kernels, which build trees through the core for other subjects,
  // slowly. Measured on split/move/rootFit, both under load (5 to 8): a dry run of 80 s net instead of 275 s.
  // Leaving suites out can only let more mutants survive, never kill one; a survivor is
  // looked at by hand anyway. `--testFiles A,B` (Stryker's flag) sets another list.
  testFiles: [
    'test/unit/quadtree.{errors,fixtures,figures,fuzz,hardening,farPoints,moveAll,moveAll.alloc,moveAll.steps}.test.ts',
    'test/unit/quadtree.{outputs,inputs,invariants,leafRoot,pool,heap,visitCircle,extremes,pairs}.test.ts',
  ],
  // Results are kept per mutant: a later run re-tests only the mutants whose code or covering tests changed,
  // and keeps the results of the files it does not mutate, so the core can be run a file at a time. (Stryker
  // writes them when a run ends: a run that is stopped keeps nothing of its own.) The file is tracked, beside
  // the rechecks' answers (scripts/mutate.mjs): hours of runs must not live only on one machine.
  incremental: true,
  incrementalFile: 'test/mutation/incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  concurrency: 2,
  // A mutant's limit is its tests' own time x timeoutFactor + timeoutMS. The instrumented code runs the
  // fuzz tests several times slower, and a busy machine slower again: a time-out is only counted as a kill
  // once `npm run mutate -- --recheck` (the mutant alone, uninstrumented, 5 minutes unless told) still times
  // out.
  // 5 s over 1.5 times the tests' own time (it was 30 s over twice): on split/move/rootFit under load the
  // time-outs, 18% of the mutants at up to ~170 s each, were most of the run, and every one is rechecked
  // anyway; a slow kill taken for a time-out costs one recheck.
  timeoutMS: 5_000,
  timeoutFactor: 1.5,
  // A static mutant (reached only while a test file loads, outside every test) needs the whole suite with
  // a fresh module load per mutant: 17% of split/move/rootFit's mutants took an estimated 43% of the run.
  // Stryker leaves those out (`Ignored`); `npm run mutate -- --recheck` tests each alone, uninstrumented,
  // against every suite, and `--table` counts them only as that says. Mutants that are also reached inside
  // tests ("hybrid") run with those tests.
  ignoreStatic: true,
  // Stryker rewrites the sandbox's tsconfig.json (its extends and references) through TypeScript's JavaScript
  // API, which TypeScript 7 (the native compiler) no longer has. Ours has neither to rewrite: naming a file
  // that does not exist turns the step off.
  tsconfigFile: 'tsconfig.stryker-none.json',
  dryRunTimeoutMinutes: 60,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: ['dist', 'docs', 'reports', 'test/e2e', 'test/mutation', 'assets', '.scratch', 'coverage'],
  thresholds: { high: 95, low: 90, break: null },
};
