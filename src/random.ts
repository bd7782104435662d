/**
 * Moved to `./sim/random.ts`. This re-export keeps `bench/data.ts`, `test/unit/quadtree.fuzz.test.ts`,
 * `test/unit/bench.verify.test.ts` and `test/unit/app.gizmo.test.ts` (files the library's branch is
 * changing) compiling; delete it once they import from `src/sim/random`.
 */
export * from './sim/random';
