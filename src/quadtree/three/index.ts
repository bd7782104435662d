/**
 * `point-quadtree/three`: the tree in a three.js scene. {@link QuadtreeHelper} draws its leaves (or the
 * leaves a circle query visits) as a `LineSegments`. three is a peer dependency of this entry only:
 * `point-quadtree` itself never loads it.
 */
export {
  QuadtreeHelper,
  type QuadtreeHelperMode,
  type QuadtreeHelperOptions,
  type QuadtreeHelperPlane,
} from './QuadtreeHelper';
