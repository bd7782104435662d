/**
 * The crowd: {@link CrowdQuadtree}, a PointQuadtree with the fused separation join, the WebAssembly SIMD
 * kernels of it and of the pair join, moveAll's pass over the ids in WebAssembly, and the switch between those
 * kernels and their JavaScript twins. A
 * subpath of its own (`point-quadtree/crowd`), so that programs that only query do not load it.
 */
export { CrowdQuadtree } from './crowd/CrowdQuadtree';
export type { MoveRun } from './crowd/moveKernel';
export {
  type CountArray,
  type SeparationKernel,
  type SeparationOptions,
  type SeparationPrecision,
  type SeparationRun,
  type SumArray,
  separationKernel,
  setSeparationKernel,
} from './crowd/separation';
