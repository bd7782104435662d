/*
 * The oracle of the WebAssembly kernels' gather (src/quadtree/crowd/kernels/gather.ts, which says why the
 * kernels gather): the same copy in JavaScript, with an explicit stack where the kernel walks up by the
 * groups' parents.
 */

import type { NodeStack } from 'point-quadtree/internal/core/stack';
import type { TreeState } from 'point-quadtree/internal/core/state';

/**
 * Writes the items of every leaf of `t` into `xy` (x, y per slot) and `ids`, leaf after leaf in depth-first
 * order (children in their order), each leaf's items in their order in its block, from slot 0 with no gap;
 * `start[k]` becomes the first slot of node k (for an inner node, that of its first leaf). The arrays must
 * hold the tree's items (`t.size` slots) and nodes. Returns the slots written: the tree's size.
 */
export function gatherLeaves(
  t: TreeState,
  xy: Float64Array,
  ids: Int32Array,
  start: Int32Array,
  walk: NodeStack,
): number {
  const child = t.nodeChild;
  const count = t.nodeCount;
  const from = t.nodeStart;
  const poolXY = t.pool.xy;
  const poolIds = t.pool.ids;
  let stack = walk.items;
  let sp = 0;
  stack[sp++] = 0;
  let p = 0;
  while (sp > 0) {
    const k = stack[--sp];
    start[k] = p;
    const c = child[k];
    if (c >= 0) {
      stack = walk.room(sp, 4);
      stack[sp++] = c + 3;
      stack[sp++] = c + 2;
      stack[sp++] = c + 1;
      stack[sp++] = c;
      continue;
    }
    const s = from[k];
    const e = s + count[k];
    for (let i = s; i < e; i++, p++) {
      xy[p << 1] = poolXY[i << 1];
      xy[(p << 1) + 1] = poolXY[(i << 1) + 1];
      ids[p] = poolIds[i];
    }
  }
  return p;
}
