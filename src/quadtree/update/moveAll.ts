/*
 * Moving every item at once (moveAll): one pass in id order that writes each item's new position in place
 * and re-files only the items that left their leaf, then the split and merge rules settled top down. When
 * the root must grow or may shrink on the way, it falls back to moving one by one, which defines the result.
 */

import { checkArrayLike, checkCoordinate, checkExtent, isFixed, NAME } from '../core/checks';
import { childFor, extendBox, holds, midpoint } from '../core/geometry';
import { appendToLeaf, compactPool, leavesBelow, takeFromLeaf } from '../core/leaves';
import { idEnd } from '../core/nodes';
import { canSplit, collapse, splitDown } from '../core/split';
import type { TreeState } from '../core/state';
import { rebuild } from './build';
import { moveItem } from './move';
import { halfToward, holdsInitial, isGrown } from './root';
import { doublingsFor, narrower, outerBox } from './rootFit';

/** moveAll (see PointQuadtree.moveAll). */
export function moveAll(t: TreeState, xs: ArrayLike<number>, ys: ArrayLike<number>): void {
  const xLength = checkArrayLike('xs', xs);
  const yLength = checkArrayLike('ys', ys);
  if (t.size === 0) return;
  const maxId = idEnd(t) - 1;
  if (!(xLength > maxId && yLength > maxId)) {
    throw new RangeError(
      `${NAME}: moveAll needs xs and ys of length > ${maxId} (id ${maxId} is in the tree), got ` +
        `${xLength} and ${yLength}`,
    );
  }
  if (!(isFixed(xs) && isFixed(ys))) {
    // The passes below read each entry several times: give them a copy that cannot change.
    readMoves(t, xs, ys, maxId);
    xs = t.moveAll.movedX;
    ys = t.moveAll.movedY;
  }
  // Validate (and see whether the root must grow) before anything moves. The root is finite, so this
  // test also rejects NaN and infinities. First without looking at which ids are present (two sequential
  // streams): usually every entry is inside the root and nothing else is needed; otherwise look again, at
  // the present ids only. In the plugged-in kernel where it runs (it takes the positions in for its pass
  // there), else here.
  const kernel = t.moveAll.kernel;
  const staged = kernel === null ? -1 : kernel.inside(xs, ys, maxId);
  // Read after the kernel's call, which may have handed the tree new arrays (crowd/moveKernel.ts).
  const nb = t.nodeBounds;
  const inside = staged < 0 ? allInside(xs, ys, maxId, nb) : staged === 1;
  let outside = false;
  if (!inside) {
    const rMinX = nb[0];
    const rMinY = nb[1];
    const rMaxX = nb[2];
    const rMaxY = nb[3];
    const idSlot = t.idSlot;
    for (let id = 0; id <= maxId; id++) {
      if (idSlot[id] < 0) continue;
      const x = xs[id];
      const y = ys[id];
      if (
        typeof x !== 'number' ||
        typeof y !== 'number' ||
        !(x >= rMinX && x <= rMaxX && y >= rMinY && y <= rMaxY)
      ) {
        if (!Number.isFinite(x)) checkCoordinate(`moveAll: xs[${id}] (of id ${id})`, x);
        if (!Number.isFinite(y)) checkCoordinate(`moveAll: ys[${id}] (of id ${id})`, y);
        outside = true;
      }
    }
  }
  if (outside || (isGrown(t) && movesMayShrink(t, xs, ys))) {
    // The root changes on the way (it grows, or shrinks as strays come back): move one by one, which
    // is the definition of the result. Rare: only with points outside the constructor's bounds.
    moveEach(t, xs, ys, maxId, outside);
    return;
  }
  if (t.pool.compactDue) compactPool(t);
  if (movePass(t, xs, ys, maxId) > 0) settle(t);
}

/**
 * Whether every entry of xs and ys up to maxId (present or not) is a number inside the root's rectangle
 * `nb[0..3]`, edges included. Stops at the first entry outside (measured: 0.35-0.45 ms against 0.58-0.82
 * for a pass that went on to the end folding a flag, 100,000 Float32Array entries out of the cache; 40-43
 * against 56-64 us for 10,000 in the cache).
 */
function allInside(xs: ArrayLike<number>, ys: ArrayLike<number>, maxId: number, nb: Float64Array): boolean {
  const rMinX = nb[0];
  const rMinY = nb[1];
  const rMaxX = nb[2];
  const rMaxY = nb[3];
  for (let id = 0; id <= maxId; id++) {
    const x = xs[id];
    const y = ys[id];
    // typeof: a BigInt64Array's entries are not numbers (the other inputs are typed arrays of numbers by now).
    if (
      !(
        typeof x === 'number' &&
        typeof y === 'number' &&
        x >= rMinX &&
        x <= rMaxX &&
        y >= rMinY &&
        y <= rMaxY
      )
    ) {
      return false;
    }
  }
  return true;
}

/**
 * The pass over the ids: the plugged-in kernel's (MoveAllScratch.kernel: it writes the stayers, lists the
 * leavers and re-files them in id order, all but those from the first that needs the pool to grow, which are
 * re-filed here) where it runs, else moveInPlace. The same tree either way:
 * each leaver is re-filed from the slot and leaf it has when its turn comes, as in moveInPlace, and a stayer's
 * slot only moves with its block or to fill a gap, taking the position written there along. Returns how many
 * items changed leaf.
 */
function movePass(t: TreeState, xs: ArrayLike<number>, ys: ArrayLike<number>, maxId: number): number {
  const kernel = t.moveAll.kernel;
  const n = kernel === null ? -1 : kernel.stay(xs, ys, maxId);
  if (n < 0) return moveInPlace(t, xs, ys, maxId);
  // The kernel re-files them in order, up to the first that needs the pool's arrays to grow; the rest here.
  const filed = n > 0 ? kernel!.file(n) : 0;
  const leavers = kernel!.leavers;
  // Their positions as the kernel listed them, in order (xs[id] and ys[id] lie at random).
  const at = kernel!.leaverXY;
  const p = t.moveAll.box;
  for (let k = filed; k < n; k++) {
    p[0] = at[k << 1];
    p[1] = at[(k << 1) + 1];
    refile(t, leavers[k], p);
  }
  return n;
}

/**
 * Copies xs and ys (ids up to maxId) into the scratch movedX / movedY, reading each entry once. A present
 * id's bad coordinate throws here, in id order as the checks of moveAll do, naming the value read; an absent
 * id's entry that is not a finite number becomes NaN (it is ignored, and a Float64Array would convert it).
 */
function readMoves(t: TreeState, xs: ArrayLike<number>, ys: ArrayLike<number>, maxId: number): void {
  const scratch = t.moveAll;
  if (scratch.movedX.length <= maxId) {
    scratch.movedX = new Float64Array(Math.max(maxId + 1, 2 * scratch.movedX.length));
    scratch.movedY = new Float64Array(scratch.movedX.length);
  }
  const cx = scratch.movedX;
  const cy = scratch.movedY;
  const idSlot = t.idSlot;
  for (let id = 0; id <= maxId; id++) {
    const x = xs[id];
    const y = ys[id];
    if (Number.isFinite(x) && Number.isFinite(y)) {
      cx[id] = x;
      cy[id] = y;
      continue;
    }
    if (idSlot[id] >= 0) {
      if (!Number.isFinite(x)) checkCoordinate(`moveAll: xs[${id}] (of id ${id})`, x);
      checkCoordinate(`moveAll: ys[${id}] (of id ${id})`, y);
    }
    cx[id] = Number.NaN;
    cy[id] = Number.NaN;
  }
}

/**
 * moveAll as a sequence of moves in increasing id order, after checking that none can throw. If one
 * would (at some step the items would span a width that is not finite) but the final positions do not,
 * the root is refitted straight to those: moving one by one is then not a way to get there.
 */
function moveEach(
  t: TreeState,
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  maxId: number,
  outside: boolean,
): void {
  if (outside && !stepsStayFinite(t, xs, ys, maxId)) {
    refitAll(t, xs, ys, maxId);
    return;
  }
  const p = t.moveAll.box;
  for (let id = 0; id <= maxId; id++) {
    if (t.idSlot[id] < 0) continue;
    p[0] = xs[id];
    p[1] = ys[id];
    moveItem(t, id, p);
  }
}

/**
 * Whether, moving the present ids one by one in increasing id order, the items (ids up to i at their new
 * positions, the rest at their old ones) and the constructor's bounds span a finite width at every step.
 */
function stepsStayFinite(t: TreeState, xs: ArrayLike<number>, ys: ArrayLike<number>, maxId: number): boolean {
  const idSlot = t.idSlot;
  const xy = t.pool.xy;
  const ib = t.initialBounds;
  const scratch = t.moveAll;
  if (scratch.spans.length < 4 * (maxId + 1)) scratch.spans = new Float64Array(4 * (maxId + 1));
  const after = scratch.spans;
  // The old positions of the ids after each id.
  let minX = ib.minX;
  let minY = ib.minY;
  let maxX = ib.maxX;
  let maxY = ib.maxY;
  for (let id = maxId; id >= 0; id--) {
    const slot = idSlot[id];
    if (slot < 0) continue;
    after[4 * id] = minX;
    after[4 * id + 1] = minY;
    after[4 * id + 2] = maxX;
    after[4 * id + 3] = maxY;
    minX = Math.min(minX, xy[slot << 1]);
    minY = Math.min(minY, xy[(slot << 1) + 1]);
    maxX = Math.max(maxX, xy[slot << 1]);
    maxY = Math.max(maxY, xy[(slot << 1) + 1]);
  }
  // The new positions up to each id.
  minX = ib.minX;
  minY = ib.minY;
  maxX = ib.maxX;
  maxY = ib.maxY;
  for (let id = 0; id <= maxId; id++) {
    if (idSlot[id] < 0) continue;
    minX = Math.min(minX, xs[id]);
    minY = Math.min(minY, ys[id]);
    maxX = Math.max(maxX, xs[id]);
    maxY = Math.max(maxY, ys[id]);
    const w = Math.max(maxX, after[4 * id + 2]) - Math.min(minX, after[4 * id]);
    const h = Math.max(maxY, after[4 * id + 3]) - Math.min(minY, after[4 * id + 1]);
    if (!(Number.isFinite(w) && Number.isFinite(h))) return false;
  }
  return true;
}

/** Sets every present id to its new position and rebuilds under their extent (throws first if infinite). */
function refitAll(t: TreeState, xs: ArrayLike<number>, ys: ArrayLike<number>, maxId: number): void {
  const idSlot = t.idSlot;
  const box = t.moveAll.box;
  box[0] = box[1] = Infinity;
  box[2] = box[3] = -Infinity;
  for (let id = 0; id <= maxId; id++) if (idSlot[id] >= 0) extendBox(box, xs[id], ys[id]);
  const ib = t.initialBounds;
  checkExtent(
    Math.min(box[0], ib.minX),
    Math.min(box[1], ib.minY),
    Math.max(box[2], ib.maxX),
    Math.max(box[3], ib.maxY),
  );
  const xy = t.pool.xy;
  for (let id = 0; id <= maxId; id++) {
    const slot = idSlot[id];
    if (slot < 0) continue;
    xy[slot << 1] = xs[id];
    xy[(slot << 1) + 1] = ys[id];
  }
  rebuild(t, box);
}

/**
 * Whether moving the present ids one by one could shrink the (grown) root on the way. A root leaf or a
 * refitted root may. An inner root shrinks only when every item lies in the child that holds the
 * constructor's bounds (promotion) or in the first half that halveToItems tries, so not while an item
 * stays outside both before and after its move. Only the items in the children that do not hold the
 * constructor bounds' centre are looked at (the few strays; missing one only makes the answer a needless
 * yes). Or by a fit to the items (rootFit.ts): where the box every mix of old and new places reaches
 * (outerBox) needs a narrower doubling than the root; one by one never fits to less than that box does.
 */
function movesMayShrink(t: TreeState, xs: ArrayLike<number>, ys: ArrayLike<number>): boolean {
  const g = t.nodeChild[0];
  if (t.refitted || g < 0) return true;
  const reach = t.moveAll.half;
  outerBox(t, reach, xs, ys);
  if (narrower(t, doublingsFor(t, reach))) return true;
  const nb = t.nodeBounds;
  const ib = t.initialBounds;
  const cx = midpoint(ib.minX, ib.maxX);
  const cy = midpoint(ib.minY, ib.maxY);
  const r = t.moveAll.half;
  halfToward(t, nb, r);
  let centre = -1;
  for (let k = g; k < g + 4; k++) {
    const b = k << 2;
    if (holdsInitial(t, k)) {
      r[0] = Math.min(r[0], nb[b]);
      r[1] = Math.min(r[1], nb[b + 1]);
      r[2] = Math.max(r[2], nb[b + 2]);
      r[3] = Math.max(r[3], nb[b + 3]);
    }
    if (centre < 0 && cx >= nb[b] && cx <= nb[b + 2] && cy >= nb[b + 1] && cy <= nb[b + 3]) centre = k;
  }
  const xy = t.pool.xy;
  const ids = t.pool.ids;
  const leaves = leavesBelow(t, g, centre);
  const list = t.leaves.list;
  for (let j = 0; j < leaves; j++) {
    const s = t.nodeStart[list[j]];
    for (let i = s; i < s + t.nodeCount[list[j]]; i++) {
      const x = xy[i << 1];
      const y = xy[(i << 1) + 1];
      const id = ids[i];
      const nx = xs[id];
      const ny = ys[id];
      if (
        !(x >= r[0] && x <= r[2] && y >= r[1] && y <= r[3]) &&
        !(nx >= r[0] && nx <= r[2] && ny >= r[1] && ny <= r[3])
      )
        return false;
    }
  }
  return true;
}

/**
 * moveAll's pass, in id order: reads the new positions and the id tables sequentially and writes each
 * staying item's new position into its slot (x and y share a cache line). An item that left its leaf is
 * re-filed at once (refile), while its leaf is still in the cache. Returns how many items changed leaf. (Two
 * designs measured slower: a pass over the leaves in pool order reads xs[id] and ys[id] at random, two cache
 * misses per item where this has one; filing the leavers after the pass finds their leaves out of the cache
 * again. The WebAssembly pass does file them after it: see movePass.)
 */
function moveInPlace(t: TreeState, xs: ArrayLike<number>, ys: ArrayLike<number>, maxId: number): number {
  const lb = t.nodeLoose;
  const rootMaxX = lb[2];
  const rootMaxY = lb[3];
  const idSlot = t.idSlot;
  const idLeaf = t.idLeaf;
  const pool = t.pool;
  const p = t.moveAll.box;
  let xy = pool.xy;
  let moved = 0;
  for (let id = 0; id <= maxId; id++) {
    const slot = idSlot[id];
    if (slot < 0) continue;
    const x = xs[id];
    const y = ys[id];
    const leaf = idLeaf[id];
    const b = leaf << 2;
    if (holds(x, y, lb[b], lb[b + 1], lb[b + 2], lb[b + 3], rootMaxX, rootMaxY)) {
      xy[slot << 1] = x;
      xy[(slot << 1) + 1] = y;
      continue;
    }
    moved++;
    p[0] = x;
    p[1] = y;
    refile(t, id, p);
    // Appending may have given the leaf a new block, and the pool new arrays.
    xy = pool.xy;
  }
  return moved;
}

/**
 * Re-files an item that left its leaf (never the root: the root holds every point once it has grown) at
 * (p[0], p[1]): takes it out of the leaf (the leaf's last item fills the gap), then up to the nearest ancestor
 * whose loose rectangle holds it (taking it out of the counts on the way), then down, without splitting or
 * merging (settle() does that after the pass). The point comes in an array: doubles passed to a call the engine
 * does not inline are boxed, one allocation per item.
 */
function refile(t: TreeState, id: number, p: Float64Array): void {
  const x = p[0];
  const y = p[1];
  const lb = t.nodeLoose;
  const nb = t.nodeBounds;
  const rootMaxX = lb[2];
  const rootMaxY = lb[3];
  const count = t.nodeCount;
  const child = t.nodeChild;
  const parent = t.groupParent;
  const leaf = t.idLeaf[id];
  takeFromLeaf(t, leaf, t.idSlot[id]);
  let node = leaf;
  while (node !== 0) {
    const up = parent[(node - 1) >> 2];
    const ub = up << 2;
    node = up;
    if (holds(x, y, lb[ub], lb[ub + 1], lb[ub + 2], lb[ub + 3], rootMaxX, rootMaxY)) break;
    count[up]--;
  }
  let c = child[node];
  while (c >= 0) {
    node = childFor(nb, c, p);
    c = child[node];
    if (c >= 0) count[node]++;
  }
  appendToLeaf(t, node, id, p);
}

/**
 * Restores the split and merge rules everywhere (after moveInPlace re-filed items without them): top
 * down, an inner node with maxItems or fewer items below it collapses, a leaf with more splits if it may.
 */
function settle(t: TreeState): void {
  const maxItems = t.maxItems;
  const walk = t.moveAll.stack;
  let stack = walk.items;
  let sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const n = stack[--sp];
    // Re-read the node arrays: a split may reallocate them.
    const c = t.nodeChild[n];
    const count = t.nodeCount[n];
    if (c < 0) {
      if (count > maxItems && canSplit(t, n)) splitDown(t, n);
      continue;
    }
    if (count <= maxItems) {
      collapse(t, n);
      continue;
    }
    stack = walk.room(sp, 4);
    stack[sp++] = c;
    stack[sp++] = c + 1;
    stack[sp++] = c + 2;
    stack[sp++] = c + 3;
  }
}
