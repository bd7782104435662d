import { PointQuadtree } from 'point-quadtree';
import { treeStats } from 'point-quadtree/debug';
import { sorted } from './oracle';

/** The constructor's bounds of the populated tree. */
export const bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };

/** A populated tree, and a fingerprint of everything observable about it. */
export function populated(): PointQuadtree {
  const tree = new PointQuadtree({ bounds, maxItems: 2, minSize: 1 });
  for (let i = 0; i < 40; i++) tree.insert(i, (i * 37) % 100, (i * 53) % 100);
  return tree;
}

/** Everything observable about a tree: equal fingerprints, an unchanged tree. */
export function fingerprint(tree: PointQuadtree) {
  return {
    size: tree.size,
    bounds: tree.bounds,
    version: tree.version,
    stats: treeStats(tree),
    all: sorted(tree.queryRect(-1e9, -1e9, 1e9, 1e9)),
    near: tree.nearest(50, 50, 5),
    circle: sorted(tree.queryCircle(30, 30, 25)),
  };
}
