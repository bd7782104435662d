export { checkInvariants } from './debug';
export { PointQuadtree } from './PointQuadtree';
export { type SeparationKernel, separationKernel, setSeparationKernel } from './separation';
export type { Bounds, NodeInfo, QuadtreeOptions, QueryStats, TreeStats } from './types';
