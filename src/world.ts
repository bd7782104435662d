/**
 * Moved to `./sim/world.ts`. This re-export keeps `src/QuadtreeNodesHelper.ts` (being changed on the
 * library's branch) compiling; delete it once it imports from `./sim/world`.
 */
export * from './sim/world';
