/*
 * Visitors: a walk over every node (visitNodes) or over exactly the nodes a circle query visits
 * (visitCircle), parent before children, calling back with a reused NodeInfo; the callback returns true to
 * skip a node's children.
 */

import { NAME } from '../core/checks';
import { distanceScale } from '../core/distance';
import { CIRCLE_APART, CIRCLE_COVERS, circleMeets, rectDist2 } from '../core/geometry';
import { VisitScratch } from '../core/scratch';
import { NodeStack } from '../core/stack';
import type { TreeState } from '../core/state';
import type { NodeInfo, TreeStats } from '../core/types';

/**
 * The one walk of the visitors, from the root. Each stack entry carries a tag: depth * 2, plus 1 when the
 * node lies wholly inside the circle (`circle`: x, y at 2, 3, for visitCircle's pruning, with `r2` and `s`
 * as in circleInto; without it every node is walked). `what` names the caller in the error thrown when the node structure
 * changes during the walk.
 */
function walk(
  t: TreeState,
  callback: (node: NodeInfo) => unknown,
  circle: Float64Array | null,
  r2: number,
  s: number,
  what: string,
): void {
  t.visit ??= new VisitScratch();
  const scratch = t.visit;
  const nested = scratch.visiting;
  const nodes = nested ? new NodeStack() : scratch.stack;
  const tags = nested ? new NodeStack() : scratch.tags;
  const info = nested ? { ...scratch.info } : scratch.info;
  // Read once: a callback may run a query that reuses the array the circle came in.
  const x = circle === null ? 0 : circle[2];
  const y = circle === null ? 0 : circle[3];
  const version = t.version;
  scratch.visiting = true;
  try {
    let stack = nodes.items;
    let tag = tags.items;
    let sp = 0;
    stack[sp] = 0;
    tag[sp++] = 0;
    while (sp > 0) {
      sp--;
      const n = stack[sp];
      const tg = tag[sp];
      const b = n << 2;
      const c = t.nodeChild[n];
      info.minX = t.nodeBounds[b];
      info.minY = t.nodeBounds[b + 1];
      info.maxX = t.nodeBounds[b + 2];
      info.maxY = t.nodeBounds[b + 3];
      info.depth = tg >> 1;
      info.isLeaf = c < 0;
      info.count = c < 0 ? t.nodeCount[n] : 0;
      const skip = callback(info);
      if (t.version !== version) throw new Error(`${NAME}: the tree's structure changed during ${what}`);
      if (skip === true || c < 0) continue;
      stack = nodes.room(sp, 4);
      tag = tags.room(sp, 4);
      const covered = tg & 1;
      const childTag = ((tg >> 1) + 1) << 1; // depth + 1, covered bit clear
      // Pushed in reverse so NW is visited first.
      for (let k = c + 3; k >= c; k--) {
        if (circle === null) {
          stack[sp] = k;
          tag[sp++] = childTag;
          continue;
        }
        if (t.nodeCount[k] === 0) continue;
        const meets = covered ? CIRCLE_COVERS : circleMeets(t.nodeLoose, k, x, y, r2, s);
        if (meets === CIRCLE_APART) continue;
        stack[sp] = k;
        tag[sp++] = meets === CIRCLE_COVERS ? childTag | 1 : childTag;
      }
    }
  } finally {
    if (!nested) scratch.visiting = false;
  }
}

/** Calls `callback` for every node, parent before children (see PointQuadtree.visitNodes). */
export function visitNodes(t: TreeState, callback: (node: NodeInfo) => unknown): void {
  walk(t, callback, null, 0, 1, 'visitNodes');
}

/**
 * Calls `callback` for exactly the nodes that a circle query at q[2..4] (x, y, radius, checked) visits
 * (see PointQuadtree.visitCircle).
 */
export function visitCircle(t: TreeState, q: Float64Array, callback: (node: NodeInfo) => unknown): void {
  if (t.size === 0) return;
  const x = q[2];
  const y = q[3];
  const radius = q[4];
  // The same scale and squared radius as circleInto, so the same nodes are visited.
  const s = distanceScale(radius);
  const r2 = radius * s * (radius * s);
  if (rectDist2(t.nodeLoose, 0, x, y, s) > r2) return;
  walk(t, callback, q, r2, s, 'visitCircle');
}

/** Counts nodes, leaves and the depth of the deepest leaf. O(nodes). */
export function treeStats(t: TreeState): TreeStats {
  let nodes = 0;
  let leaves = 0;
  let depth = 0;
  visitNodes(t, (node) => {
    nodes++;
    if (node.isLeaf) {
      leaves++;
      if (node.depth > depth) depth = node.depth;
    }
  });
  return { size: t.size, nodes, leaves, depth };
}
