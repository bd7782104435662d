/*
 * Node storage: allocating and freeing groups of four nodes, growing the node and id arrays, making
 * children, and the loose rectangles. (Layout: state.ts.)
 */

import { MAX_ID } from './checks';
import { resizeInt32 } from './stack';
import type { TreeState } from './state';

/** Resets to a single empty root leaf with the constructor's bounds and an empty pool. */
export function resetNodes(t: TreeState): void {
  const b = t.initialBounds;
  t.nodeTop = 1;
  t.freeGroup = -1;
  t.refitted = false;
  t.nodeBounds[0] = b.minX;
  t.nodeBounds[1] = b.minY;
  t.nodeBounds[2] = b.maxX;
  t.nodeBounds[3] = b.maxY;
  syncLoose(t);
  t.nodeChild[0] = -1;
  t.nodeCount[0] = 0;
  t.nodeStart[0] = -1;
  t.nodeCap[0] = 0;
  t.pool.clear();
  t.version++;
}

/** Grows the id tables (by doubling, up to MAX_ID + 1 entries) so that `id` indexes them. */
export function ensureIdCapacity(t: TreeState, id: number): void {
  if (id < t.idSlot.length) return;
  let cap = t.idSlot.length;
  while (cap <= id) cap *= 2;
  cap = Math.min(cap, MAX_ID + 1);
  const slot = new Int32Array(cap).fill(-1);
  slot.set(t.idSlot);
  const leaf = new Int32Array(cap);
  leaf.set(t.idLeaf);
  t.idSlot = slot;
  t.idLeaf = leaf;
}

/** One past the largest id in the tree (0 for an empty tree): the length per-id arrays need. */
export function idEnd(t: TreeState): number {
  let top = t.idTop;
  while (top > 0 && t.idSlot[top - 1] < 0) top--;
  return top;
}

/** Allocates a group of four sibling nodes under `parent` and returns the first one's number. */
export function allocGroup(t: TreeState, parent: number): number {
  let g = t.freeGroup;
  if (g >= 0) {
    t.freeGroup = t.nodeChild[g];
    t.groupParent[(g - 1) >> 2] = parent;
    return g;
  }
  g = t.nodeTop;
  const need = g + 4;
  if (need > t.nodeChild.length) resizeNodes(t, Math.max(need, Math.ceil(t.nodeChild.length * 1.5)));
  t.nodeTop = need;
  t.groupParent[(g - 1) >> 2] = parent;
  return g;
}

/** Puts the group of four starting at `g` on the free list (overwrites nodeChild[g]: free its blocks first). */
export function freeGroup(t: TreeState, g: number): void {
  t.nodeChild[g] = t.freeGroup;
  t.freeGroup = g;
}

/** Reallocates the node arrays to `cap` nodes (at least nodeTop), keeping nodes below nodeTop. */
export function resizeNodes(t: TreeState, cap: number): void {
  const top = t.nodeTop;
  const bounds = new Float64Array(cap * 4);
  bounds.set(t.nodeBounds.subarray(0, top * 4));
  t.nodeBounds = bounds;
  if (t.looseness > 0) {
    const loose = new Float64Array(cap * 4);
    loose.set(t.nodeLoose.subarray(0, top * 4));
    t.nodeLoose = loose;
  } else {
    t.nodeLoose = bounds;
  }
  t.nodeChild = resizeInt32(t.nodeChild, cap, top);
  t.nodeCount = resizeInt32(t.nodeCount, cap, top);
  t.nodeStart = resizeInt32(t.nodeStart, cap, top);
  t.nodeCap = resizeInt32(t.nodeCap, cap, top);
  t.groupParent = resizeInt32(t.groupParent, (cap >> 2) + 1, (top >> 2) + 1);
}

/** Makes `g..g+3` the four empty leaf children of node `n`, split at (t.splitAt[0], t.splitAt[1]). */
export function initChildren(t: TreeState, g: number, n: number): void {
  const nb = t.nodeBounds;
  const p = n << 2;
  const minX = nb[p];
  const minY = nb[p + 1];
  const maxX = nb[p + 2];
  const maxY = nb[p + 3];
  const mx = t.splitAt[0];
  const my = t.splitAt[1];
  let b = g << 2;
  nb[b] = minX;
  nb[b + 1] = minY;
  nb[b + 2] = mx;
  nb[b + 3] = my;
  b += 4;
  nb[b] = mx;
  nb[b + 1] = minY;
  nb[b + 2] = maxX;
  nb[b + 3] = my;
  b += 4;
  nb[b] = minX;
  nb[b + 1] = my;
  nb[b + 2] = mx;
  nb[b + 3] = maxY;
  b += 4;
  nb[b] = mx;
  nb[b + 1] = my;
  nb[b + 2] = maxX;
  nb[b + 3] = maxY;
  for (let k = g; k < g + 4; k++) {
    t.nodeChild[k] = -1;
    t.nodeCount[k] = 0;
    t.nodeStart[k] = -1;
    t.nodeCap[k] = 0;
    if (t.looseness > 0) setLoose(t, k);
  }
}

/** nodeLoose of node `n` (not the root): its bounds grown by looseness, clipped to the root. */
function setLoose(t: TreeState, n: number): void {
  const nb = t.nodeBounds;
  const lb = t.nodeLoose;
  const l = t.looseness;
  const b = n << 2;
  lb[b] = Math.max(nb[b] - l, nb[0]);
  lb[b + 1] = Math.max(nb[b + 1] - l, nb[1]);
  lb[b + 2] = Math.min(nb[b + 2] + l, nb[2]);
  lb[b + 3] = Math.min(nb[b + 3] + l, nb[3]);
}

/** Recomputes nodeLoose of every node (after the root changed). Nothing to do with looseness 0. */
export function syncLoose(t: TreeState): void {
  if (t.looseness === 0) return;
  const lb = t.nodeLoose;
  const nb = t.nodeBounds;
  for (let k = 0; k < 4; k++) lb[k] = nb[k];
  // Free groups get values too; nothing reads them.
  for (let n = 1; n < t.nodeTop; n++) setLoose(t, n);
}
