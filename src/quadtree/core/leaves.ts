/*
 * A leaf's items: appending, removing (the last item fills the gap), moving the block to a new size, and
 * listing leaves for the rare whole-tree scans. (Layout: state.ts and ItemPool.ts.)
 */

import { copyItem } from './ItemPool';
import { growInt32 } from './stack';
import type { TreeState } from './state';

/** Moves a leaf's items into a new block of at least `need` slots. */
function reblock(t: TreeState, leaf: number, need: number): void {
  const pool = t.pool;
  const cnt = t.nodeCount[leaf];
  const oldStart = t.nodeStart[leaf];
  const oldCap = t.nodeCap[leaf];
  const start = pool.alloc(need);
  const xy = pool.xy;
  const ids = pool.ids;
  const idSlot = t.idSlot;
  for (let i = 0; i < cnt; i++) idSlot[copyItem(xy, ids, oldStart + i, xy, ids, start + i)] = start + i;
  pool.free(oldStart, oldCap);
  t.nodeStart[leaf] = start;
  t.nodeCap[leaf] = pool.blockCap;
}

/** Appends an item at (p[0], p[1]) to a leaf (its count includes it afterwards). Does not split. */
export function appendToLeaf(t: TreeState, leaf: number, id: number, p: Float64Array): void {
  const cnt = t.nodeCount[leaf];
  if (cnt === t.nodeCap[leaf]) reblock(t, leaf, cnt + 1);
  const s = t.nodeStart[leaf] + cnt;
  t.pool.xy[s << 1] = p[0];
  t.pool.xy[(s << 1) + 1] = p[1];
  t.pool.ids[s] = id;
  t.idSlot[id] = s;
  t.idLeaf[id] = leaf;
  t.nodeCount[leaf] = cnt + 1;
}

/**
 * Takes the item in `slot` out of `leaf`: the leaf's last item fills the gap, and an emptied block goes
 * back to the pool. Returns the leaf's new count. (The caller marks the removed id absent or re-files it.)
 */
export function takeFromLeaf(t: TreeState, leaf: number, slot: number): number {
  const cnt = t.nodeCount[leaf] - 1;
  const last = t.nodeStart[leaf] + cnt;
  if (slot !== last) {
    const pool = t.pool;
    t.idSlot[copyItem(pool.xy, pool.ids, last, pool.xy, pool.ids, slot)] = slot;
  }
  t.nodeCount[leaf] = cnt;
  if (cnt === 0) {
    t.pool.free(t.nodeStart[leaf], t.nodeCap[leaf]);
    t.nodeStart[leaf] = -1;
    t.nodeCap[leaf] = 0;
  }
  return cnt;
}

/** takeFromLeaf, then a block left at most a quarter full moves to a smaller one. */
export function removeFromLeaf(t: TreeState, leaf: number, slot: number): void {
  const cnt = takeFromLeaf(t, leaf, slot);
  const cap = t.nodeCap[leaf];
  if (cnt > 0 && cnt << 2 <= cap && cap >= 8) reblock(t, leaf, cap >> 1);
}

/**
 * Lists in `t.leaves.list` the non-empty leaves below node `first` (the root, 0) or below the group of four
 * starting at `first` except node `skip`; returns how many.
 */
export function leavesBelow(t: TreeState, first: number, skip: number): number {
  const scratch = t.leaves;
  let stack = scratch.stack.items;
  let sp = 0;
  if (first === 0) stack[sp++] = 0;
  else for (let k = first; k < first + 4; k++) if (k !== skip) stack[sp++] = k;
  let n = 0;
  while (sp > 0) {
    const m = stack[--sp];
    if (t.nodeCount[m] === 0) continue;
    const c = t.nodeChild[m];
    if (c < 0) {
      if (n === scratch.list.length) scratch.list = growInt32(scratch.list, n + 1);
      scratch.list[n++] = m;
      continue;
    }
    stack = scratch.stack.room(sp, 4);
    for (let k = c; k < c + 4; k++) stack[sp++] = k;
  }
  return n;
}

/**
 * Rewrites the pool with every leaf's block back to back and drops the free lists (ItemPool.compact). Only
 * called at the start of a public operation, when no slot index is held.
 */
export function compactPool(t: TreeState): void {
  const leaves = leavesBelow(t, 0, -1);
  t.pool.compact(t.leaves.list, leaves, t.nodeStart, t.nodeCap, t.nodeCount, t.idSlot);
}
