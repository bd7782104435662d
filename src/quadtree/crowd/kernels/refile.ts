// moveAll's re-filing of the items that left their leaf, in the kernel (the host: ../moveKernel.ts's `file`;
// the JavaScript it mirrors step for step: refile in ../../update/moveAll.ts, takeFromLeaf, appendToLeaf and
// reblock in ../../core/leaves.ts, alloc and free in ../../core/ItemPool.ts). The listed leavers are re-filed
// in their order, each from the slot and leaf it has when its turn comes, so the tree is the one the
// JavaScript gives, slot for slot, free list for free list. It stops before the first leaver whose new block
// would need the pool's arrays to grow (only JavaScript can give those), and the host re-files the rest.

import { holds } from './moveAll';
import {
  FILE_COUNT,
  FREE_LISTS,
  GROUP_PARENT,
  ID_LEAF,
  ID_SLOT,
  LEAVER_XY,
  LEAVERS,
  MOVE_RECT,
  MOVE_XY,
  NODE_BOUNDS,
  NODE_CAP,
  NODE_CHILD,
  NODE_COUNT,
  NODE_START,
  POOL_BLOCK,
  POOL_CAP,
  POOL_DUE,
  POOL_IDS,
  POOL_LIVE,
  POOL_TOP,
} from './moveCall';

// The size classes of the pool's blocks: ItemPool.ts's classCapacity, classFor and classBelow.

/** Slots in a block of size class `c`. */
function classCapacity(c: i32): i32 {
  if (c < 2) return c + 1;
  return c & 1 ? 1 << ((c + 1) >> 1) : 3 << ((c >> 1) - 1);
}

/** The smallest size class that holds at least `n` (>= 1) slots. */
function classFor(n: i32): i32 {
  if (n <= 2) return n - 1;
  const p = 32 - clz<i32>(n - 1);
  return n <= 3 << (p - 2) ? 2 * p - 2 : 2 * p - 1;
}

/** The largest size class that fits in `cap` (>= 1) slots. */
function classBelow(cap: i32): i32 {
  if (cap <= 2) return cap - 1;
  const q = 31 - clz<i32>(cap);
  return cap >= 3 << (q - 1) ? 2 * q : 2 * q - 1;
}

// The call's arrays and the pool's counters, read once per call (module globals: the helpers below share them).
let xy: usize = 0;
let ids: usize = 0;
let idSlot: usize = 0;
let idLeaf: usize = 0;
let rect: usize = 0;
let bounds: usize = 0;
let child: usize = 0;
let count: usize = 0;
let start: usize = 0;
let capOf: usize = 0;
let parent: usize = 0;
let lists: usize = 0;
let top: i32 = 0;
let live: i32 = 0;
let due: i32 = 0;
let block: i32 = 0;
let poolCap: i32 = 0;
let rootMaxX: f64 = 0;
let rootMaxY: f64 = 0;

function i32At(base: usize, i: i32): i32 {
  return load<i32>(base + ((<usize>i) << 2));
}

function setI32(base: usize, i: i32, v: i32): void {
  store<i32>(base + ((<usize>i) << 2), v);
}

/** The parent of node `n` (> 0). */
function parentOf(n: i32): i32 {
  return i32At(parent, (n - 1) >> 2);
}

/** Whether node `n`'s loose rectangle holds (x, y) (moveAll.ts's holds). */
function holdsAt(n: i32, x: f64, y: f64): bool {
  return holds(rect + ((<usize>n) << 5), x, y, rootMaxX, rootMaxY);
}

/** The child of the group at `g` that holds (x, y): core/geometry.ts's childFor (the SE child's corner). */
function childAt(g: i32, x: f64, y: f64): i32 {
  const m = bounds + ((<usize>(g + 3)) << 5);
  return g + ((x >= load<f64>(m) ? 1 : 0) | (y >= load<f64>(m, 8) ? 2 : 0));
}

/** Copies slot `from` to slot `to` (x, y and id) and points the id at it. */
function copySlot(from: i32, to: i32): void {
  v128.store(xy + ((<usize>to) << 4), v128.load(xy + ((<usize>from) << 4)));
  const id = i32At(ids, from);
  setI32(ids, to, id);
  setI32(idSlot, id, to);
}

/** ItemPool.free. */
function free(s: i32, cap: i32): void {
  if (cap <= 0) return;
  live -= cap;
  const c = classBelow(cap);
  setI32(ids, s, i32At(lists, c));
  setI32(lists, c, s);
}

/** ItemPool.alloc, where the caller has made sure that the pool's arrays hold the block. */
function alloc(n: i32): i32 {
  const c = classFor(n);
  const cap = classCapacity(c);
  block = cap;
  const head = i32At(lists, c);
  if (head >= 0) {
    setI32(lists, c, i32At(ids, head));
    live += cap;
    return head;
  }
  const s = top;
  const need = s + cap;
  if (need > poolCap - (poolCap >> 3) && top - live > top >> 2) due = 1;
  top = need;
  live += cap;
  return s;
}

/** leaves.ts's takeFromLeaf: the leaf's last item fills the gap; an emptied block goes back to the pool. */
function takeFrom(leaf: i32, slot: i32): void {
  const left = i32At(count, leaf) - 1;
  const last = i32At(start, leaf) + left;
  if (slot !== last) copySlot(last, slot);
  setI32(count, leaf, left);
  if (left === 0) {
    free(i32At(start, leaf), i32At(capOf, leaf));
    setI32(start, leaf, -1);
    setI32(capOf, leaf, 0);
  }
}

/** leaves.ts's appendToLeaf (with its reblock). */
function appendTo(leaf: i32, id: i32, x: f64, y: f64): void {
  const cnt = i32At(count, leaf);
  if (cnt === i32At(capOf, leaf)) {
    const oldStart = i32At(start, leaf);
    const oldCap = i32At(capOf, leaf);
    const s = alloc(cnt + 1);
    for (let i = 0; i < cnt; i++) copySlot(oldStart + i, s + i);
    free(oldStart, oldCap);
    setI32(start, leaf, s);
    setI32(capOf, leaf, block);
  }
  const s = i32At(start, leaf) + cnt;
  const o = xy + ((<usize>s) << 4);
  store<f64>(o, x);
  store<f64>(o, y, 8);
  setI32(ids, s, id);
  setI32(idSlot, id, s);
  setI32(idLeaf, id, leaf);
  setI32(count, leaf, cnt + 1);
}

/**
 * Whether appending to `dest` after taking an item out of `leaf` needs a block the pool's arrays cannot
 * hold (alloc would grow them): the new block's class has no free block (counting the one the take frees)
 * and the high-water mark has no room for it. (`dest` is `leaf` only for a point back inside its leaf, which
 * moveAll never lists; it is handled as the JavaScript handles it.)
 */
function needsGrowth(leaf: i32, dest: i32): bool {
  const left = i32At(count, leaf) - 1;
  const leafCap = i32At(capOf, leaf);
  const have = dest === leaf ? left : i32At(count, dest);
  const cap = dest === leaf && left === 0 ? 0 : i32At(capOf, dest);
  if (have !== cap) return false;
  const c = classFor(have + 1);
  if (i32At(lists, c) >= 0) return false;
  if (left === 0 && leafCap > 0 && classBelow(leafCap) === c) return false;
  return top + classCapacity(c) > poolCap;
}

/** aim's ancestor: the nearest whose loose rectangle holds the point (-1: none, not even the root's). */
let upTo: i32 = 0;

/**
 * Where the item at (x, y) that left `leaf` goes: returns the leaf below the nearest ancestor that holds it (the
 * root where none does), by the split lines, and sets upTo to that ancestor.
 */
function aim(leaf: i32, x: f64, y: f64): i32 {
  let a = leaf;
  let held = false;
  while (a !== 0) {
    a = parentOf(a);
    if (holdsAt(a, x, y)) {
      held = true;
      break;
    }
  }
  let dest = a;
  let g = i32At(child, a);
  while (g >= 0) {
    dest = childAt(g, x, y);
    g = i32At(child, dest);
  }
  upTo = held ? a : -1;
  return dest;
}

/**
 * Re-files the first FILE_COUNT listed leavers (LEAVERS, their positions at LEAVER_XY) in order, as
 * update/moveAll.ts's refile: out of its leaf, up to the nearest ancestor whose loose rectangle holds it
 * (out of the counts of those passed), down by the split lines (into the counts of the inner nodes passed),
 * appended to the leaf found. Returns how many it re-filed: fewer where the next one needs the pool to grow.
 */
export function file(c: usize): i32 {
  xy = load<usize>(c, MOVE_XY);
  ids = load<usize>(c, POOL_IDS);
  idSlot = load<usize>(c, ID_SLOT);
  idLeaf = load<usize>(c, ID_LEAF);
  rect = load<usize>(c, MOVE_RECT);
  bounds = load<usize>(c, NODE_BOUNDS);
  child = load<usize>(c, NODE_CHILD);
  count = load<usize>(c, NODE_COUNT);
  start = load<usize>(c, NODE_START);
  capOf = load<usize>(c, NODE_CAP);
  parent = load<usize>(c, GROUP_PARENT);
  lists = load<usize>(c, FREE_LISTS);
  top = load<i32>(c, POOL_TOP);
  live = load<i32>(c, POOL_LIVE);
  due = load<i32>(c, POOL_DUE);
  block = load<i32>(c, POOL_BLOCK);
  poolCap = load<i32>(c, POOL_CAP);
  rootMaxX = load<f64>(rect, 16);
  rootMaxY = load<f64>(rect, 24);
  const leavers = load<usize>(c, LEAVERS);
  const at = load<usize>(c, LEAVER_XY);
  const n = load<i32>(c, FILE_COUNT);
  let k = 0;
  for (; k < n; k++) {
    const id = i32At(leavers, k);
    const o = at + ((<usize>k) << 4);
    const x = load<f64>(o);
    const y = load<f64>(o, 8);
    const leaf = i32At(idLeaf, id);
    // Where it goes, before anything changes (the nodes' structure does not change here: only counts, slots
    // and blocks do).
    const dest = aim(leaf, x, y);
    const up = upTo;
    if (needsGrowth(leaf, dest)) break;
    takeFrom(leaf, i32At(idSlot, id));
    // Out of the counts of the ancestors passed on the way up (the root's too where it does not hold the
    // point, up < 0, as refile would: moveAll never lists a point outside the root), into those of the inner
    // nodes passed on the way down.
    const a = up < 0 ? 0 : up;
    for (let u = leaf; u !== a; ) {
      u = parentOf(u);
      if (u !== a || up < 0) setI32(count, u, i32At(count, u) - 1);
    }
    for (let m = i32At(child, a); m >= 0; ) {
      const d = childAt(m, x, y);
      m = i32At(child, d);
      if (m >= 0) setI32(count, d, i32At(count, d) + 1);
    }
    appendTo(dest, id, x, y);
  }
  store<i32>(c, top, POOL_TOP);
  store<i32>(c, live, POOL_LIVE);
  store<i32>(c, due, POOL_DUE);
  store<i32>(c, block, POOL_BLOCK);
  return k;
}
