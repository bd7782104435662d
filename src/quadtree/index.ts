export { checkInvariants } from './debug';
export { PointQuadtree } from './PointQuadtree';
export type { Bounds, NodeInfo, QuadtreeOptions, QueryStats, TreeStats } from './types';
