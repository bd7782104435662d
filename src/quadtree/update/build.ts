/*
 * Bulk build: every node and the pool from a list of items in one top-down pass (from(), and the rebuilds
 * after a root change), plus from()'s check of its input.
 */

import {
  checkArrayLike,
  checkCoordinate,
  checkExtent,
  checkId,
  isFixed,
  MAX_ID,
  NAME,
  snapshot,
} from '../core/checks';
import { extendBox, growToCover, midpoint, quadrant } from '../core/geometry';
import { copyItem, type ItemPool } from '../core/ItemPool';
import { leavesBelow } from '../core/leaves';
import { allocGroup, ensureIdCapacity, initChildren, resizeNodes, syncLoose } from '../core/nodes';
import { canSplit } from '../core/split';
import type { TreeState } from '../core/state';

/**
 * from()'s body, on a new empty tree: checks the arrays (throws before building anything; each entry is read
 * once: an input that is not a typed array over an ArrayBuffer is first copied), sets the root
 * (options' bounds grown by doubling to cover every point, or refitted to the points' extent where
 * doubling would overflow) and builds.
 */
export function buildFrom(
  t: TreeState,
  ids: ArrayLike<number>,
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
): void {
  const n = checkArrayLike('ids', ids);
  const nx = checkArrayLike('xs', xs);
  const ny = checkArrayLike('ys', ys);
  if (nx !== n || ny !== n) {
    throw new RangeError(`${NAME}: from: ids, xs and ys must have the same length, got ${n}, ${nx}, ${ny}`);
  }
  // The scan checks the entries and the build reads them again: both must see the same values.
  if (!isFixed(ids)) ids = snapshot(ids, n);
  if (!isFixed(xs)) xs = snapshot(xs, n);
  if (!isFixed(ys)) ys = snapshot(ys, n);
  // The scan is a function of its own: inside this one the engine compiles it several times slower.
  const scan = new Float64Array(5);
  const bad = scanPoints(ids, xs, ys, n, scan);
  if (bad >= 0) {
    checkId(ids[bad]);
    checkCoordinate(`xs[${bad}]`, xs[bad]);
    checkCoordinate(`ys[${bad}]`, ys[bad]);
  }
  if (n === 0) return;
  const maxId = scan[4];
  ensureIdCapacity(t, maxId);
  t.idTop = maxId + 1;
  const idSlot = t.idSlot;
  for (let i = 0; i < n; i++) {
    const id = ids[i];
    if (idSlot[id] !== -1) throw new Error(`${NAME}: from: id ${id} appears more than once`);
    idSlot[id] = i;
  }
  const root = t.nodeBounds;
  const grown = t.root.box;
  for (let i = 0; i < 4; i++) grown[i] = root[i];
  if (growToCover(grown, scan[0], scan[1]) && growToCover(grown, scan[2], scan[3])) {
    for (let i = 0; i < 4; i++) root[i] = grown[i];
  } else {
    // Doubling would overflow: the root is the extent of the points and the bounds, if that is finite.
    for (let i = 0; i < 4; i++) grown[i] = root[i];
    extendBox(grown, scan[0], scan[1]);
    extendBox(grown, scan[2], scan[3]);
    checkExtent(grown[0], grown[1], grown[2], grown[3]);
    for (let i = 0; i < 4; i++) root[i] = grown[i];
    t.refitted = true;
  }
  build(t, ids, xs, ys, n);
  // The node count is known now: drop the growth headroom (a bulk load is often the final size; a
  // rebuild keeps it, since the tree it rebuilds goes on changing).
  if (t.nodeChild.length > t.nodeTop + (t.nodeTop >> 3) + 64) resizeNodes(t, t.nodeTop + 64);
}

/**
 * from()'s one pass over its input: the index of the first entry with a bad id or coordinate (-1: none);
 * the extent and the largest id go into `out` (minX, minY, maxX, maxY, maxId). (Locals, not extendBox:
 * this loop runs over every point of a bulk load.)
 */
function scanPoints(
  ids: ArrayLike<number>,
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  n: number,
  out: Float64Array,
): number {
  let maxId = -1;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    const id = ids[i];
    const x = xs[i];
    const y = ys[i];
    // Number.isInteger and Number.isFinite convert nothing: a string or an object is bad too.
    if (!(Number.isInteger(id) && id >= 0 && id <= MAX_ID && Number.isFinite(x) && Number.isFinite(y)))
      return i;
    if (id > maxId) maxId = id;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  out[0] = minX;
  out[1] = minY;
  out[2] = maxX;
  out[3] = maxY;
  out[4] = maxId;
  return -1;
}

/**
 * Rebuilds the whole tree from its items under the current root (same shape as inserting them, compact
 * pool). With `cover`, the root is first refitted to the extent of the items, `cover` and the constructor's
 * bounds (throws, changing nothing, if that extent is not finite): growth that doubling cannot reach.
 */
export function rebuild(t: TreeState, cover?: Float64Array): void {
  const n = t.size;
  const items = rebuildItems.for(n);
  const ids = items.ids;
  const xs = items.xs;
  const ys = items.ys;
  const leaves = leavesBelow(t, 0, -1);
  const list = t.leaves.list;
  const pool = t.pool;
  let j = 0;
  for (let k = 0; k < leaves; k++) {
    const s = t.nodeStart[list[k]];
    for (let i = s; i < s + t.nodeCount[list[k]]; i++, j++) {
      ids[j] = pool.ids[i];
      xs[j] = pool.xy[i << 1];
      ys[j] = pool.xy[(i << 1) + 1];
    }
  }
  if (cover) {
    const ib = t.initialBounds;
    const box = t.root.box;
    box[0] = Math.min(cover[0], ib.minX);
    box[1] = Math.min(cover[1], ib.minY);
    box[2] = Math.max(cover[2], ib.maxX);
    box[3] = Math.max(cover[3], ib.maxY);
    for (let i = 0; i < n; i++) extendBox(box, xs[i], ys[i]);
    checkExtent(box[0], box[1], box[2], box[3]);
    t.refitted = true;
    for (let i = 0; i < 4; i++) t.nodeBounds[i] = box[i];
  }
  build(t, ids, xs, ys, n);
}

/**
 * A scratch of typed arrays for `n` items, kept between calls only weakly: the last one if it holds `n`
 * items and the collector has not taken it, else a new one. So it costs no memory between builds once the
 * collector wants it back, while builds in quick succession (a level load; a crowd crossing a tight root's
 * edge, which rebuilds the tree every few frames) do not allocate 20 bytes or more per item each time.
 */
class WeakScratch<T extends { readonly ids: Int32Array }> {
  private last: WeakRef<T> | undefined;
  constructor(private readonly make: (n: number) => T) {}

  for(n: number): T {
    const last = this.last?.deref();
    if (last && last.ids.length >= n) return last;
    const made = this.make(n);
    this.last = new WeakRef(made);
    return made;
  }
}

/** rebuild()'s copy of the items, read back by build(). */
const rebuildItems = new WeakScratch((n) => ({
  ids: new Int32Array(n),
  xs: new Float64Array(n),
  ys: new Float64Array(n),
}));

/** build()'s scratch: a second copy of the slots to scatter into, and each slot's quadrant. */
interface BuildScratch {
  readonly xy: Float64Array;
  readonly ids: Int32Array;
  readonly quad: Uint8Array;
}
const buildScratch = new WeakScratch<BuildScratch>((n) => ({
  xy: new Float64Array(2 * n),
  ids: new Int32Array(n),
  quad: new Uint8Array(n),
}));

/**
 * Builds the nodes and the pool from scratch for `n` items (ids already validated and unique), within
 * the current root bounds, which must cover every point. Each leaf's block fits its items exactly.
 */
export function build(
  t: TreeState,
  ids: ArrayLike<number>,
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  n: number,
): void {
  t.nodeTop = 1;
  t.freeGroup = -1;
  t.pool.resetTo(n);
  const xy = t.pool.xy;
  const sid = t.pool.ids;
  for (let i = 0; i < n; i++) {
    xy[i << 1] = xs[i];
    xy[(i << 1) + 1] = ys[i];
    sid[i] = ids[i];
  }
  // Each split scatters its range into the other of two buffers (the pool's arrays and a scratch pair),
  // so nothing is copied back level by level; a leaf whose items end up in the scratch is copied once.
  const scratch = buildScratch.for(n);
  const maxItems = t.maxItems;
  // Work items of four entries: node, first slot, end slot, where the items are (0: the pool, 1: the
  // scratch).
  const walk = t.buildStack;
  let work = walk.items;
  let sp = 0;
  work[sp++] = 0;
  work[sp++] = 0;
  work[sp++] = n;
  work[sp++] = 0;
  while (sp > 0) {
    const side = work[--sp];
    const hi = work[--sp];
    const lo = work[--sp];
    const node = work[--sp];
    t.nodeCount[node] = hi - lo;
    if (hi - lo <= maxItems || !canSplit(t, node)) {
      buildLeaf(t, scratch, node, lo, hi, side);
      continue;
    }
    const next = splitRange(t, scratch, node, lo, hi, side);
    const g = t.nodeChild[node];
    work = walk.room(sp, 16);
    const ends = t.quadAt;
    for (let k = 0; k < 4; k++) {
      work[sp++] = g + k;
      work[sp++] = k === 0 ? lo : ends[k - 1];
      work[sp++] = k === 3 ? hi : ends[k];
      work[sp++] = next;
    }
  }
  syncLoose(t);
  t.size = n;
  t.version++;
}

/** Makes `node` a leaf of the items in slots [lo, hi), copied back into the pool where they are in the scratch. */
function buildLeaf(
  t: TreeState,
  scratch: BuildScratch,
  node: number,
  lo: number,
  hi: number,
  side: number,
): void {
  const sid = t.pool.ids;
  if (side === 1) {
    // A loop, not set(subarray): a view per leaf would allocate in every rebuild.
    const xy = t.pool.xy;
    for (let i = lo; i < hi; i++) copyItem(scratch.xy, scratch.ids, i, xy, sid, i);
  }
  const cnt = hi - lo;
  t.nodeChild[node] = -1;
  t.nodeStart[node] = cnt > 0 ? lo : -1;
  t.nodeCap[node] = cnt;
  for (let i = lo; i < hi; i++) {
    const id = sid[i];
    t.idSlot[id] = i;
    t.idLeaf[id] = node;
  }
}

/**
 * Splits `node` and scatters its items in slots [lo, hi) by quadrant into the other buffer (or leaves them
 * where they are when all lie in one quadrant): the quadrants' ends into t.quadAt[0..2]. Returns where the
 * items are now (0: the pool, 1: the scratch).
 */
/**
 * splitRange's count: each item's quadrant of the split point `split` (x, y) into quad[i], and how many fall
 * in each into at[0..3]. Its own function, as scatterItems: a loop inside splitRange got it compiled on the
 * stack (on-stack replacement) before the code after the loop had ever run, and that compiled code, kept and
 * entered again by later calls, deoptimized after the loop for want of type feedback on every call (324
 * deoptimizations in 3,000 frames of a 20,000-point crowd whose root grows and is rebuilt; each allocates).
 */
function countQuadrants(
  fromXY: Float64Array,
  quad: Uint8Array,
  at: Int32Array,
  split: Float64Array,
  lo: number,
  hi: number,
): void {
  const mx = split[0];
  const my = split[1];
  at[0] = at[1] = at[2] = at[3] = 0;
  for (let i = lo; i < hi; i++) {
    const q = quadrant(fromXY[i << 1], fromXY[(i << 1) + 1], mx, my);
    quad[i] = q;
    at[q]++;
  }
}

/**
 * splitRange's scatter: items lo..hi-1 of (fromXY, fromId) to their quadrants' next places `at[quad[i]]` in
 * the scratch (`scratch`) or, where it is null, in the pool. A function of its own, as countQuadrants: no loop
 * in splitRange, whose code after a loop deoptimized on every call once the loop was compiled on the stack.
 */
function scatterItems(
  fromXY: Float64Array,
  fromId: Int32Array,
  scratch: BuildScratch | null,
  pool: ItemPool,
  quad: Uint8Array,
  at: Int32Array,
  lo: number,
  hi: number,
): void {
  const toXY = scratch === null ? pool.xy : scratch.xy;
  const toId = scratch === null ? pool.ids : scratch.ids;
  for (let i = lo; i < hi; i++) copyItem(fromXY, fromId, i, toXY, toId, at[quad[i]]++);
}

function splitRange(
  t: TreeState,
  scratch: BuildScratch,
  node: number,
  lo: number,
  hi: number,
  side: number,
): number {
  const xy = t.pool.xy;
  const sid = t.pool.ids;
  const quad = scratch.quad;
  const g = allocGroup(t, node);
  const nb = t.nodeBounds;
  const b = node << 2;
  const mx = midpoint(nb[b], nb[b + 2]);
  const my = midpoint(nb[b + 1], nb[b + 3]);
  t.splitAt[0] = mx;
  t.splitAt[1] = my;
  initChildren(t, g, node);
  t.nodeChild[node] = g;
  t.nodeStart[node] = -1;
  t.nodeCap[node] = 0;
  const fromXY = side === 0 ? xy : scratch.xy;
  const fromId = side === 0 ? sid : scratch.ids;
  // Counts and offsets indexed by quadrant: quadrants of scattered points are random, and a chain of
  // branches on them would mispredict about every other point.
  const at = t.quadAt;
  countQuadrants(fromXY, quad, at, t.splitAt, lo, hi);
  const cnt = hi - lo;
  const c0 = at[0];
  const c1 = at[1];
  const c2 = at[2];
  const e0 = lo + c0;
  const e1 = e0 + c1;
  const e2 = e1 + c2;
  let next = side;
  // Computed on every call, not in the branch (the engine had deoptimized there on every split that
  // scattered, 176 times in 600 frames of the scene at 10,000 enemies: the loops then inside this function
  // were the cause, see countQuadrants).
  const other = 1 - side;
  // All in one quadrant (common on clustered data, many levels deep): the order is already right.
  if (c0 !== cnt && c1 !== cnt && c2 !== cnt && e2 !== lo) {
    at[0] = lo;
    at[1] = e0;
    at[2] = e1;
    at[3] = e2;
    scatterItems(fromXY, fromId, side === 0 ? scratch : null, t.pool, quad, at, lo, hi);
    next = other;
  }
  at[0] = e0;
  at[1] = e1;
  at[2] = e2;
  return next;
}
