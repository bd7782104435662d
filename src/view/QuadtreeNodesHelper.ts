/**
 * The scene's node gizmos: the library's {@link QuadtreeHelper} (`point-quadtree/three`) on the ground, kept
 * under the name and constructor the app has always used. The helper draws tree x as world X and tree y as
 * world Z (its `'xz'` plane), which is exactly the scene's mapping (src/sim/world.ts: tree x = world x,
 * tree y = world z); test/unit/view.gizmo.test.ts draws through `worldX` / `worldZ` and compares, so a change
 * of that mapping would show up there.
 */
import type { PointQuadtree } from 'point-quadtree';
import { QuadtreeHelper, type QuadtreeHelperMode, type QuadtreeHelperOptions } from 'point-quadtree/three';

export type NodesHelperMode = QuadtreeHelperMode;

export type NodesHelperOptions = Pick<QuadtreeHelperOptions, 'color' | 'height' | 'opacity' | 'capacity'>;

/** Height of the gizmos above the ground unless told: lifts the lines off it so they never z-fight. */
const GROUND_LIFT = 0.03;

export class QuadtreeNodesHelper extends QuadtreeHelper {
  constructor(tree: PointQuadtree, mode: NodesHelperMode = 'leaves', options: NodesHelperOptions = {}) {
    super(tree, { color: 0xffffff, height: GROUND_LIFT, ...options, plane: 'xz', mode });
    this.name = mode === 'leaves' ? 'quadtree-nodes' : 'quadtree-visited';
  }
}
