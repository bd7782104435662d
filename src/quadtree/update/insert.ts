/*
 * Filing an item: down from the root (insert), or from its old leaf up to the nearest ancestor that holds
 * the new position and down again (a move that leaves its leaf). Removing one: up from its leaf, merging.
 */

import { childFor, holds } from '../core/geometry';
import { appendToLeaf, removeFromLeaf } from '../core/leaves';
import { canSplit, collapse, splitLeaf } from '../core/split';
import type { TreeState } from '../core/state';

/**
 * Adds an item to a leaf (whose ancestors already count it). A leaf already at maxItems that may split
 * splits first, so items are copied once, and the item goes on down into the right child.
 */
function addToLeaf(t: TreeState, leaf: number, id: number, p: Float64Array): void {
  while (t.nodeCount[leaf] >= t.maxItems && canSplit(t, leaf)) {
    const g = splitLeaf(t, leaf);
    t.nodeCount[leaf]++;
    leaf = childFor(t.nodeBounds, g, p);
  }
  appendToLeaf(t, leaf, id, p);
}

/**
 * Files a new item at (p[0], p[1]), which the root covers: walks down adding one to each count, appends it
 * to its leaf, splitting that leaf if due.
 */
export function insertItem(t: TreeState, id: number, p: Float64Array): void {
  const child = t.nodeChild;
  const count = t.nodeCount;
  const nb = t.nodeBounds;
  let n = 0;
  while (child[n] >= 0) {
    count[n]++;
    n = childFor(nb, child[n], p);
  }
  addToLeaf(t, n, id, p);
}

/**
 * Moves a present item to (p[0], p[1]), outside its leaf's loose rectangle and inside the root: walks up
 * from the old leaf to the nearest ancestor whose loose rectangle holds the new position, then down to the
 * new leaf. Counts change only below that ancestor; the old branch merges where it fell to maxItems.
 */
export function refile(t: TreeState, id: number, p: Float64Array): void {
  const x = p[0];
  const y = p[1];
  const leaf = t.idLeaf[id];
  if (leaf === 0) {
    // Only when the root is a leaf that just grew to cover the point.
    const slot = t.idSlot[id];
    t.pool.xy[slot << 1] = x;
    t.pool.xy[(slot << 1) + 1] = y;
    return;
  }
  removeFromLeaf(t, leaf, t.idSlot[id]);
  const nb = t.nodeBounds;
  const lb = t.nodeLoose;
  const count = t.nodeCount;
  const parent = t.groupParent;
  const maxItems = t.maxItems;
  const rootMaxX = nb[2];
  const rootMaxY = nb[3];
  let n = leaf;
  let collapseAt = -1;
  for (;;) {
    // The root covers every point (growFor ran), so this ends at the latest there. Going down from a
    // node whose loose rectangle holds the point ends in a leaf whose loose rectangle holds it (the
    // children on the point's side share the node's outer edges).
    const up = parent[(n - 1) >> 2];
    const b = up << 2;
    n = up;
    if (holds(x, y, lb[b], lb[b + 1], lb[b + 2], lb[b + 3], rootMaxX, rootMaxY)) break;
    // Counts grow going up, so the last node found at or below maxItems is the topmost to merge.
    if (--count[up] <= maxItems) collapseAt = up;
  }
  const child = t.nodeChild;
  let c = child[n];
  while (c >= 0) {
    n = childFor(nb, c, p);
    c = child[n];
    if (c >= 0) count[n]++;
  }
  // The merge is in the old branch, the new leaf in a sibling branch: they do not touch each other.
  if (collapseAt >= 0) collapse(t, collapseAt);
  addToLeaf(t, n, id, p);
}

/**
 * Takes a present id out of the tree: out of its leaf, out of every count on the way up, and merges the
 * topmost ancestor left with maxItems or fewer items. (The root may shrink afterwards: root.ts.)
 */
export function removeItem(t: TreeState, id: number): void {
  const leaf = t.idLeaf[id];
  const count = t.nodeCount;
  const parent = t.groupParent;
  const maxItems = t.maxItems;
  // Walk up from the leaf (with looseness > 0 the item need not be where its position would lead).
  // Counts grow going up, so the last node found at or below maxItems is the topmost to merge.
  let collapseAt = -1;
  for (let n = leaf; n !== 0; ) {
    n = parent[(n - 1) >> 2];
    if (--count[n] <= maxItems) collapseAt = n;
  }
  removeFromLeaf(t, leaf, t.idSlot[id]);
  t.idSlot[id] = -1;
  t.size--;
  if (collapseAt >= 0) collapse(t, collapseAt);
}
