/**
 * point-quadtree, the main entry: the tree, {@link PointQuadtree}, and its types. The invariant checker is
 * `point-quadtree/debug`'s, the crowd's kernels `point-quadtree/crowd`'s, the threads
 * `point-quadtree/parallel`'s: a program that imports only this carries none of them.
 */
export type { Bounds, NodeInfo, QuadtreeOptions, QueryStats, TreeStats } from './core/types';
export { PointQuadtree } from './PointQuadtree';
