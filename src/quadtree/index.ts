export type { Bounds, NodeInfo, QuadtreeOptions, QueryStats, TreeStats } from './core/types';
export { type SeparationKernel, separationKernel, setSeparationKernel } from './crowd/separation';
export { checkInvariants } from './debug';
export { PointQuadtree } from './PointQuadtree';
