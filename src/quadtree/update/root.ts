/*
 * The root's rectangle: growing it to cover a point (by doubling, so the old root is one quadrant of the
 * new one, or by a refit to the items' extent where doubling would overflow), and shrinking it back toward
 * the constructor's bounds when the items allow.
 */

import { covers, doubleToward, extendBox, growToCover, midpoint } from '../core/geometry';
import { leavesBelow } from '../core/leaves';
import { allocGroup, freeGroup, initChildren, syncLoose } from '../core/nodes';
import { splitDown } from '../core/split';
import type { TreeState } from '../core/state';
import { rebuild } from './build';
import { fitReach, fitToItems } from './rootFit';

/** Whether the root differs from the constructor's bounds (only then can it shrink). */
export function isGrown(t: TreeState): boolean {
  const nb = t.nodeBounds;
  const ib = t.initialBounds;
  return t.refitted || nb[0] !== ib.minX || nb[1] !== ib.minY || nb[2] !== ib.maxX || nb[3] !== ib.maxY;
}

/** Whether the item in `slot` lies on the root's edge (a refitted root may shrink only when one leaves). */
export function onRootEdge(t: TreeState, slot: number): boolean {
  const nb = t.nodeBounds;
  const x = t.pool.xy[slot << 1];
  const y = t.pool.xy[(slot << 1) + 1];
  return x === nb[0] || x === nb[2] || y === nb[1] || y === nb[3];
}

/**
 * Whether the item in `slot` lies outside the constructor's bounds: only such an item, leaving, can let an
 * inner root fit to a smaller doubling than halving finds (rootFit.ts).
 */
export function outsideInitial(t: TreeState, slot: number): boolean {
  const ib = t.initialBounds;
  const x = t.pool.xy[slot << 1];
  const y = t.pool.xy[(slot << 1) + 1];
  return !(x >= ib.minX && x <= ib.maxX && y >= ib.minY && y <= ib.maxY);
}

/** Whether node `k`'s rectangle contains the constructor's bounds (closed). */
export function holdsInitial(t: TreeState, k: number): boolean {
  const nb = t.nodeBounds;
  const ib = t.initialBounds;
  const b = k << 2;
  return nb[b] <= ib.minX && nb[b + 1] <= ib.minY && nb[b + 2] >= ib.maxX && nb[b + 3] >= ib.maxY;
}

/**
 * Grows the root by doubling until it covers (p[0], p[1]). The old root becomes one quadrant of the new one.
 * Points on the old root's far edge that are now inside the tree's interior are re-filed by a rebuild.
 * Where doubling would overflow, refits the root to the items' extent instead (see rebuild), with the
 * item in slot `moving` (if any) already at p: then returns true (it is filed; nothing left to do).
 * @throws RangeError (before changing anything) if even that extent is not finite.
 */
export function growFor(t: TreeState, p: Float64Array, moving = -1): boolean {
  const x = p[0];
  const y = p[1];
  let nb = t.nodeBounds;
  if (covers(nb, 0, x, y)) return false;
  const target = t.root.box;
  for (let i = 0; i < 4; i++) target[i] = nb[i];
  if (t.refitted || !growToCover(target, x, y)) {
    // Doubling would overflow, or the root is refitted (doubling it would give it edges with no item on
    // them, which refitDown never looks at): a root that just covers every item, the point and the
    // constructor's bounds (throws, changing nothing, if even that is not finite). An item being moved
    // counts at its new place, not its old one (which may be what made the root huge).
    target[0] = target[2] = x;
    target[1] = target[3] = y;
    if (moving < 0) {
      rebuild(t, target);
      return false;
    }
    const xy = t.pool.xy;
    const oldX = xy[moving << 1];
    const oldY = xy[(moving << 1) + 1];
    xy[moving << 1] = x;
    xy[(moving << 1) + 1] = y;
    try {
      rebuild(t, target);
    } catch (e) {
      xy[moving << 1] = oldX;
      xy[(moving << 1) + 1] = oldY;
      throw e;
    }
    return true;
  }
  let edgeItems = false;
  while (!covers(nb, 0, x, y)) {
    const minX = nb[0];
    const minY = nb[1];
    const maxX = nb[2];
    const maxY = nb[3];
    // The same steps as growToCover above, so this ends at the target it checked.
    const q = doubleToward(nb, x, y);
    const west = (q & 1) !== 0;
    const north = (q & 2) !== 0;
    if (t.nodeChild[0] >= 0) {
      // Points on the old far edges were in the root (closed) but belong to the new neighbour quadrant.
      if (!edgeItems && t.size > 0) {
        edgeItems =
          (!west && someItem(t, maxX, minY, maxX, maxY, true)) ||
          (!north && someItem(t, minX, maxY, maxX, maxY, true));
      }
      const g = allocGroup(t, 0);
      // The old root's edges are the new root's split lines, so it is exactly one quadrant.
      t.splitAt[0] = west ? minX : maxX;
      t.splitAt[1] = north ? minY : maxY;
      initChildren(t, g, 0);
      const old = g + q;
      t.nodeChild[old] = t.nodeChild[0];
      t.nodeCount[old] = t.nodeCount[0];
      t.groupParent[(t.nodeChild[0] - 1) >> 2] = old;
      t.nodeChild[0] = g;
      nb = t.nodeBounds; // allocGroup may have reallocated it
    }
  }
  t.version++;
  syncLoose(t);
  if (edgeItems) {
    rebuild(t);
  } else if (t.nodeChild[0] < 0 && t.nodeCount[0] > t.maxItems) {
    // A root leaf that was too small to split may split now.
    splitDown(t, 0);
  }
  return false;
}

/**
 * Whether some item lies inside the closed rectangle (`inside`), or some item outside it (not `inside`): the
 * one walk of growFor's edge test and of the shrinking checks. A non-empty node whose (loose) rectangle lies
 * wholly inside or wholly outside the rectangle answers for all its items, so the walk opens only the nodes
 * that straddle its edges and stops at the first item found.
 */
function someItem(
  t: TreeState,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  inside: boolean,
): boolean {
  const lb = t.nodeLoose;
  const xy = t.pool.xy;
  const walk = t.root.stack;
  let stack = walk.items;
  let sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const m = stack[--sp];
    if (t.nodeCount[m] === 0) continue;
    const b = m << 2;
    const covered = lb[b] >= minX && lb[b + 1] >= minY && lb[b + 2] <= maxX && lb[b + 3] <= maxY;
    if (covered || lb[b] > maxX || lb[b + 1] > maxY || lb[b + 2] < minX || lb[b + 3] < minY) {
      if (covered === inside) return true;
      continue;
    }
    const c = t.nodeChild[m];
    if (c >= 0) {
      stack = walk.room(sp, 4);
      for (let k = c; k < c + 4; k++) stack[sp++] = k;
      continue;
    }
    const s = t.nodeStart[m];
    for (let i = s; i < s + t.nodeCount[m]; i++) {
      const x = xy[i << 1];
      const y = xy[(i << 1) + 1];
      if ((x >= minX && x <= maxX && y >= minY && y <= maxY) === inside) return true;
    }
  }
  return false;
}

/**
 * Undoes growth the items no longer need (after a remove or a move): while every item lies in the
 * root's child that contains the constructor's bounds (closed rectangle, by position), that child
 * becomes the root: the exact inverse of a doubling. When only that child holds items it is promoted
 * with its nodes (O(1)); when items on its edge, or a loose item, sit in another child, the tree is
 * rebuilt under it (O(items), rare). A root leaf, or a root set by a refit (growth that doubling could
 * not reach) after an item on its edge left, is set to the smallest doubling of the constructor's bounds
 * that covers every item, when that is smaller, and a refitted root otherwise to the items' extent:
 * O(items) then, rare. Another inner root is halved toward the constructor's bounds while the items
 * allow; after an item outside those bounds left (`stray`), and only if every item lies where a narrower
 * doubling could reach (a walk that stops at the first item outside: soon, while a far item is out), it is
 * set to the smallest doubling of them that covers every item when that is smaller still (rootFit.ts:
 * halving cannot reach it while the items straddle the half it tries). Then it is rebuilt. The root never
 * shrinks below the constructor's bounds.
 */
export function shrinkRoot(t: TreeState, edge: boolean, stray: boolean): void {
  let changed = false;
  // A refitted root is the items' extent: it can shrink only when an item on its edge left.
  if (t.refitted) changed = edge && refitDown(t);
  // While only the child that holds the constructor's bounds has items (strict leaves): promote it.
  while (!t.refitted && t.nodeChild[0] >= 0 && t.looseness === 0) {
    const g = t.nodeChild[0];
    let home = -1;
    let others = 0;
    for (let k = g; k < g + 4; k++) {
      if (holdsInitial(t, k)) home = k;
      else others += t.nodeCount[k];
    }
    if (home < 0 || others > 0) break;
    promote(t, g, home);
    changed = true;
  }
  if (!t.refitted && isGrown(t)) {
    if (t.nodeChild[0] < 0) {
      if (refitDown(t)) changed = true;
    } else {
      const halved = halveToItems(t);
      if ((stray && withinFitReach(t) && fitToItems(t)) || halved) {
        rebuild(t);
        changed = true;
      }
    }
  }
  if (changed) {
    t.version++;
    syncLoose(t);
  }
}

/**
 * When promotion cannot shrink an inner root (items on the home child's edge filed in its neighbours,
 * loose items, or a root whose doublings rounded), halves the root's rectangle toward the constructor's
 * bounds while every item stays inside, by position (each step's half, joined with the constructor's
 * bounds; one under 1.5 times their size is taken as them). Sets the root's rectangle and returns true
 * if it shrank; the caller rebuilds. While a stray is out the first check fails at once.
 */
function halveToItems(t: TreeState): boolean {
  const ib = t.initialBounds;
  const box = t.root.box;
  const nb = t.nodeBounds;
  for (let i = 0; i < 4; i++) box[i] = nb[i];
  let shrank = false;
  const half = t.root.half;
  for (;;) {
    halfToward(t, box, half);
    let minX = half[0];
    let minY = half[1];
    let maxX = half[2];
    let maxY = half[3];
    // Doublings of huge roots round, so halving them need not end exactly on the constructor's bounds.
    if (maxX - minX < 1.5 * (ib.maxX - ib.minX) && maxY - minY < 1.5 * (ib.maxY - ib.minY)) {
      if (allWithin(t, ib.minX, ib.minY, ib.maxX, ib.maxY)) {
        minX = ib.minX;
        minY = ib.minY;
        maxX = ib.maxX;
        maxY = ib.maxY;
      }
    }
    if (!shrinks(box, minX, minY, maxX, maxY)) break;
    if (!allWithin(t, minX, minY, maxX, maxY)) break;
    box[0] = minX;
    box[1] = minY;
    box[2] = maxX;
    box[3] = maxY;
    shrank = true;
    if (minX === ib.minX && minY === ib.minY && maxX === ib.maxX && maxY === ib.maxY) break;
  }
  if (shrank) for (let i = 0; i < 4; i++) nb[i] = box[i];
  return shrank;
}

/**
 * Whether the rectangle lies inside `box` (stride 4 from 0) and is not all of it, edge by edge: widths
 * alone miss a snap to the constructor's bounds an ulp inside an edge, which rounds to the same width.
 */
function shrinks(box: Float64Array, minX: number, minY: number, maxX: number, maxY: number): boolean {
  if (minX < box[0] || minY < box[1] || maxX > box[2] || maxY > box[3]) return false;
  return minX > box[0] || minY > box[1] || maxX < box[2] || maxY < box[3];
}

/**
 * The half of rectangle `r` (stride 4 from 0) on the side of the constructor bounds' centre, in x and in
 * y, joined with the constructor's bounds, into `out`: one step of halveToItems.
 */
export function halfToward(t: TreeState, r: Float64Array, out: Float64Array): void {
  const ib = t.initialBounds;
  const cx = midpoint(ib.minX, ib.maxX);
  const cy = midpoint(ib.minY, ib.maxY);
  const mx = midpoint(r[0], r[2]);
  const my = midpoint(r[1], r[3]);
  out[0] = Math.min(cx < mx ? r[0] : mx, ib.minX);
  out[1] = Math.min(cy < my ? r[1] : my, ib.minY);
  out[2] = Math.max(cx < mx ? mx : r[2], ib.maxX);
  out[3] = Math.max(cy < my ? my : r[3], ib.maxY);
}

/**
 * Whether every item lies where a doubling of the constructor's bounds narrower than the root could reach
 * (rootFit.ts's fitReach): the check before the fit's walks, which stops at the first item outside.
 */
function withinFitReach(t: TreeState): boolean {
  const reach = t.root.half;
  fitReach(t, reach);
  return allWithin(t, reach[0], reach[1], reach[2], reach[3]);
}

/** Whether every item lies in the closed rectangle (see someItem: it stops at the first item outside). */
function allWithin(t: TreeState, minX: number, minY: number, maxX: number, maxY: number): boolean {
  return !someItem(t, minX, minY, maxX, maxY, false);
}

/** Makes child `k` (of the root's group `g`) the root; the other three children are empty. */
function promote(t: TreeState, g: number, k: number): void {
  const nb = t.nodeBounds;
  const b = k << 2;
  for (let i = 0; i < 4; i++) nb[i] = nb[b + i];
  const c = t.nodeChild[k];
  t.nodeChild[0] = c;
  t.nodeCount[0] = t.nodeCount[k];
  if (c >= 0) {
    t.groupParent[(c - 1) >> 2] = 0;
  } else {
    const s = t.nodeStart[k];
    t.nodeStart[0] = s;
    t.nodeCap[0] = t.nodeCap[k];
    const ids = t.pool.ids;
    for (let i = s; i < s + t.nodeCount[k]; i++) t.idLeaf[ids[i]] = 0;
    t.nodeCap[k] = 0;
  }
  for (let j = g; j < g + 4; j++) {
    if (j !== k && t.nodeChild[j] < 0 && t.nodeStart[j] >= 0) t.pool.free(t.nodeStart[j], t.nodeCap[j]);
  }
  freeGroup(t, g);
}

/**
 * Sets the root to the smallest doubling of the constructor's bounds that covers every item, if that is
 * smaller than the root; rebuilds when the root is not a leaf. Otherwise a refitted root is refitted again
 * to the extent of the items and the constructor's bounds when that differs from it (it stays that
 * extent: see TreeState.refitted). Returns whether the root changed. O(n).
 */
function refitDown(t: TreeState): boolean {
  const nb = t.nodeBounds;
  const ib = t.initialBounds;
  const box = t.root.box;
  box[0] = ib.minX;
  box[1] = ib.minY;
  box[2] = ib.maxX;
  box[3] = ib.maxY;
  const extent = t.root.half;
  for (let i = 0; i < 4; i++) extent[i] = box[i];
  let fits = true;
  const xy = t.pool.xy;
  const leaves = leavesBelow(t, 0, -1);
  const list = t.leaves.list;
  for (let j = 0; j < leaves; j++) {
    const s = t.nodeStart[list[j]];
    for (let i = s; i < s + t.nodeCount[list[j]]; i++) {
      const x = xy[i << 1];
      const y = xy[(i << 1) + 1];
      extendBox(extent, x, y);
      if (fits && !growToCover(box, x, y)) fits = false;
    }
  }
  // Narrower, or as wide once rounded but inside the root and not all of it (an ulp off an edge: shrinks).
  const narrower = box[2] - box[0] < nb[2] - nb[0] || box[3] - box[1] < nb[3] - nb[1];
  if (fits && (narrower || shrinks(nb, box[0], box[1], box[2], box[3]))) {
    t.refitted = false;
    for (let i = 0; i < 4; i++) nb[i] = box[i];
    // A root leaf only changes its rectangle; an inner root is rebuilt under the new one.
    if (t.nodeChild[0] >= 0) rebuild(t);
    return true;
  }
  if (
    !t.refitted ||
    (extent[0] === nb[0] && extent[1] === nb[1] && extent[2] === nb[2] && extent[3] === nb[3])
  )
    return false;
  // No doubling is smaller: the extent, which a far item that left no longer stretches.
  box[0] = box[1] = Infinity;
  box[2] = box[3] = -Infinity;
  rebuild(t, box);
  return true;
}
