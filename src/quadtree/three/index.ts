/**
 * `point-quadtree/three`: the tree in a three.js scene. {@link QuadtreeHelper} draws its leaves (or the
 * leaves a circle query visits) as a `LineSegments`; the XZ adapter indexes a crowd by world X and Z, an
 * `InstancedMesh` ({@link indexInstances}, {@link syncInstances}) or an `Object3D[]` ({@link indexObjects},
 * {@link syncObjects}). three is a peer dependency of this entry only: `point-quadtree` itself never loads it.
 */
export {
  QuadtreeHelper,
  type QuadtreeHelperMode,
  type QuadtreeHelperOptions,
  type QuadtreeHelperPlane,
} from './QuadtreeHelper';
export { indexInstances, indexObjects, syncInstances, syncObjects, type XZIndexOptions } from './xzIndex';
