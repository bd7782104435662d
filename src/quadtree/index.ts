export type { Bounds, NodeInfo, QuadtreeOptions, QueryStats, TreeStats } from './core/types';
export { PointQuadtree } from './PointQuadtree';
