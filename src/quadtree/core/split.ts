/*
 * The split and merge rules: a leaf holding more than maxItems splits into four if each quadrant would be
 * at least minSize wide and deep; an inner node whose subtree holds maxItems or fewer items collapses back
 * into one leaf.
 */

import { midpoint, quadrant } from './geometry';
import { copyItem } from './ItemPool';
import { allocGroup, freeGroup, initChildren } from './nodes';
import type { TreeState } from './state';

/** Whether node `n` may split: every quadrant at least minSize wide and deep (measured as stored). */
export function canSplit(t: TreeState, n: number): boolean {
  const nb = t.nodeBounds;
  const b = n << 2;
  const minX = nb[b];
  const minY = nb[b + 1];
  const maxX = nb[b + 2];
  const maxY = nb[b + 3];
  const mx = midpoint(minX, maxX);
  const my = midpoint(minY, maxY);
  const m = t.minSize;
  return mx - minX >= m && maxX - mx >= m && my - minY >= m && maxY - my >= m;
}

/** Turns leaf `n` into an inner node with four children that share its items. Returns the first child. */
export function splitLeaf(t: TreeState, n: number): number {
  const g = allocGroup(t, n);
  const nb = t.nodeBounds;
  const b = n << 2;
  const mx = midpoint(nb[b], nb[b + 2]);
  const my = midpoint(nb[b + 1], nb[b + 3]);
  t.splitAt[0] = mx;
  t.splitAt[1] = my;
  initChildren(t, g, n);
  const pool = t.pool;
  const count = t.nodeCount;
  const s = t.nodeStart[n];
  const cnt = count[n];
  // Count per quadrant first (kept in nodeCount), so each child gets one block of the right size.
  for (let i = s; i < s + cnt; i++) count[g + quadrant(pool.xy[i << 1], pool.xy[(i << 1) + 1], mx, my)]++;
  for (let k = g; k < g + 4; k++) {
    if (count[k] === 0) continue;
    t.nodeStart[k] = pool.alloc(count[k]);
    t.nodeCap[k] = pool.blockCap;
    count[k] = 0;
  }
  const xy = pool.xy;
  const ids = pool.ids;
  for (let i = s; i < s + cnt; i++) {
    const k = g + quadrant(xy[i << 1], xy[(i << 1) + 1], mx, my);
    const to = t.nodeStart[k] + count[k]++;
    const id = copyItem(xy, ids, i, xy, ids, to);
    t.idSlot[id] = to;
    t.idLeaf[id] = k;
  }
  pool.free(s, t.nodeCap[n]);
  t.nodeChild[n] = g;
  t.nodeStart[n] = -1;
  t.nodeCap[n] = 0;
  t.version++;
  return g;
}

/** Splits leaf `n` if it holds more than maxItems and may split, then its children likewise. */
export function splitDown(t: TreeState, n: number): void {
  let stack = t.splitStack.items;
  let sp = 0;
  stack[sp++] = n;
  while (sp > 0) {
    const leaf = stack[--sp];
    if (t.nodeCount[leaf] <= t.maxItems || !canSplit(t, leaf)) continue;
    const g = splitLeaf(t, leaf);
    stack = t.splitStack.room(sp, 4);
    for (let k = g; k < g + 4; k++) if (t.nodeCount[k] > t.maxItems) stack[sp++] = k;
  }
}

/** Turns inner node `n` (maxItems or fewer items below it) back into a leaf holding them all. */
export function collapse(t: TreeState, n: number): void {
  const pool = t.pool;
  const total = t.nodeCount[n];
  const start = total > 0 ? pool.alloc(total) : -1;
  const cap = total > 0 ? pool.blockCap : 0;
  const xy = pool.xy;
  const ids = pool.ids;
  let to = start;
  let stack = t.splitStack.items;
  let sp = 0;
  stack[sp++] = t.nodeChild[n];
  // The stack holds groups of four: each group's leaves give up their items, its inner nodes are pushed.
  while (sp > 0) {
    const g = stack[--sp];
    for (let k = g; k < g + 4; k++) {
      const c = t.nodeChild[k];
      if (c >= 0) {
        stack = t.splitStack.room(sp, 1);
        stack[sp++] = c;
        continue;
      }
      const s = t.nodeStart[k];
      const e = s + t.nodeCount[k];
      for (let i = s; i < e; i++, to++) {
        const id = copyItem(xy, ids, i, xy, ids, to);
        t.idSlot[id] = to;
        t.idLeaf[id] = n;
      }
      pool.free(s, t.nodeCap[k]);
    }
    // Free the group after its blocks (freeing overwrites nodeChild[g]).
    freeGroup(t, g);
  }
  t.nodeChild[n] = -1;
  t.nodeStart[n] = start;
  t.nodeCap[n] = cap;
  t.version++;
}
