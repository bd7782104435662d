/** The tree's node count, leaves and depth for the HUD and the hook, kept until the tree's structure changes. */

import type { PointQuadtree } from 'point-quadtree';
import { treeStats } from 'point-quadtree/debug';

export interface TreeShape {
  nodes: number;
  leaves: number;
  depth: number;
}

export class TreeShapeCache {
  private readonly shape: TreeShape = { nodes: 0, leaves: 0, depth: 0 };
  private tree: PointQuadtree | null = null;
  private version = -1;

  /** The shape of `tree`; recomputed only when it is another tree or its structure changed (no allocation). */
  of(tree: PointQuadtree): TreeShape {
    if (tree !== this.tree || tree.version !== this.version) {
      const s = treeStats(tree);
      this.shape.nodes = s.nodes;
      this.shape.leaves = s.leaves;
      this.shape.depth = s.depth;
      this.tree = tree;
      this.version = tree.version;
    }
    return this.shape;
  }
}
