// moveAll's pass over every id in the kernel (the host: ../moveKernel.ts; the JavaScript pass it mirrors:
// moveInPlace in ../../update/moveAll.ts). The tree's pool, id tables and nodes live in this module's memory while
// the host holds them there, so the pass writes each staying item's new position into the tree's own slot; the
// items that left their leaf are listed, and refile.ts re-files them in the same order.

import {
  ID_LEAF,
  ID_SLOT,
  LEAVER_XY,
  LEAVERS,
  MAX_ID,
  MOVE_RECT,
  MOVE_WIDE,
  MOVE_XS,
  MOVE_XY,
  MOVE_YS,
  NODE_BOUNDS,
} from './moveCall';

/**
 * Whether the new positions of every id up to MAX_ID (MOVE_XS, MOVE_YS, present or not) lie inside the root's
 * rectangle (node 0 of NODE_BOUNDS), edges included (moveAll's first check, which NaN fails): 1 if so, 0 at the
 * first block of ids with one that does not.
 */
export function inside(c: usize): i32 {
  return load<i32>(c, MOVE_WIDE) !== 0 ? insideF64(c) : insideF32(c);
}

/** The smallest f32 above `v` (v finite, or -Infinity). */
function f32Up(v: f32): f32 {
  if (v === 0) return reinterpret<f32>(1);
  const i = reinterpret<i32>(v);
  return reinterpret<f32>(v > 0 ? i + 1 : i - 1);
}

/** The largest f32 below `v` (v finite, or Infinity). */
function f32Down(v: f32): f32 {
  if (v === 0) return reinterpret<f32>(0x80000001);
  const i = reinterpret<i32>(v);
  return reinterpret<f32>(v > 0 ? i - 1 : i + 1);
}

/** The least f32 at or above `v`: for an f32 x, x >= v exactly where x >= it. */
function f32AtLeast(v: f64): f32 {
  const f = <f32>v;
  return <f64>f < v ? f32Up(f) : f;
}

/** The greatest f32 at or below `v`: for an f32 x, x <= v exactly where x <= it. */
function f32AtMost(v: f64): f32 {
  const f = <f32>v;
  return <f64>f > v ? f32Down(f) : f;
}

/** inside over f32 positions, four ids at a time against the box's edges rounded outward to f32 exactly. */
function insideF32(c: usize): i32 {
  const xs = load<usize>(c, MOVE_XS);
  const ys = load<usize>(c, MOVE_YS);
  const end = load<i32>(c, MAX_ID) + 1;
  const root = load<usize>(c, NODE_BOUNDS);
  const minX = f32AtLeast(load<f64>(root));
  const minY = f32AtLeast(load<f64>(root, 8));
  const maxX = f32AtMost(load<f64>(root, 16));
  const maxY = f32AtMost(load<f64>(root, 24));
  let id = 0;
  for (; id + 4 <= end; id += 4) {
    const o = (<usize>id) << 2;
    const x = v128.load(xs + o);
    const y = v128.load(ys + o);
    // NaN fails both tests.
    const inX = v128.and(f32x4.ge(x, f32x4.splat(minX)), f32x4.le(x, f32x4.splat(maxX)));
    const inY = v128.and(f32x4.ge(y, f32x4.splat(minY)), f32x4.le(y, f32x4.splat(maxY)));
    if (!i32x4.all_true(v128.and(inX, inY))) return 0;
  }
  for (; id < end; id++) {
    const o = (<usize>id) << 2;
    const x = load<f32>(xs + o);
    const y = load<f32>(ys + o);
    if (!(x >= minX && x <= maxX && y >= minY && y <= maxY)) return 0;
  }
  return 1;
}

/** inside over f64 positions, two ids at a time. */
function insideF64(c: usize): i32 {
  const xs = load<usize>(c, MOVE_XS);
  const ys = load<usize>(c, MOVE_YS);
  const end = load<i32>(c, MAX_ID) + 1;
  const root = load<usize>(c, NODE_BOUNDS);
  const minX = load<f64>(root);
  const minY = load<f64>(root, 8);
  const maxX = load<f64>(root, 16);
  const maxY = load<f64>(root, 24);
  let id = 0;
  for (; id + 2 <= end; id += 2) {
    const o = (<usize>id) << 3;
    const x = v128.load(xs + o);
    const y = v128.load(ys + o);
    const inX = v128.and(f64x2.ge(x, f64x2.splat(minX)), f64x2.le(x, f64x2.splat(maxX)));
    const inY = v128.and(f64x2.ge(y, f64x2.splat(minY)), f64x2.le(y, f64x2.splat(maxY)));
    if (!i64x2.all_true(v128.and(inX, inY))) return 0;
  }
  for (; id < end; id++) {
    const o = (<usize>id) << 3;
    const x = load<f64>(xs + o);
    const y = load<f64>(ys + o);
    if (!(x >= minX && x <= maxX && y >= minY && y <= maxY)) return 0;
  }
  return 1;
}

/**
 * Whether the rectangle at `b` (f64 minX, minY, maxX, maxY) holds (x, y): core/geometry.ts's holds (edges
 * included on the min sides, and on a max side only where it is the root's, rootMaxX or rootMaxY). The one
 * copy of the rule in the kernels (refile.ts's walk up uses it too).
 */
export function holds(b: usize, x: f64, y: f64, rootMaxX: f64, rootMaxY: f64): bool {
  const maxX = load<f64>(b, 16);
  const maxY = load<f64>(b, 24);
  return (
    x >= load<f64>(b) &&
    y >= load<f64>(b, 8) &&
    (x < maxX || (x === maxX && x === rootMaxX)) &&
    (y < maxY || (y === maxY && y === rootMaxY))
  );
}

/**
 * For every id up to MAX_ID present in the tree (ID_SLOT >= 0): its new position (MOVE_XS, MOVE_YS) is
 * written into its slot of MOVE_XY where its leaf's loose rectangle (MOVE_RECT, by ID_LEAF) holds it (edges
 * included on the min sides, and on a max side only where it is the root's: core/geometry.ts's holds), else
 * its id is listed at LEAVERS and its position at LEAVER_XY. Returns how many were listed.
 */
export function stay(c: usize): i32 {
  return load<i32>(c, MOVE_WIDE) !== 0 ? stayOf<f64>(c) : stayOf<f32>(c);
}

function stayOf<T>(c: usize): i32 {
  const xy = load<usize>(c, MOVE_XY);
  const idSlot = load<usize>(c, ID_SLOT);
  const idLeaf = load<usize>(c, ID_LEAF);
  const rect = load<usize>(c, MOVE_RECT);
  const xs = load<usize>(c, MOVE_XS);
  const ys = load<usize>(c, MOVE_YS);
  const leavers = load<usize>(c, LEAVERS);
  const leaverXY = load<usize>(c, LEAVER_XY);
  const maxId = load<i32>(c, MAX_ID);
  // The root's loose rectangle's far edges: a point on one stays in its leaf.
  const rootMaxX = load<f64>(rect, 16);
  const rootMaxY = load<f64>(rect, 24);
  const shift: usize = sizeof<T>() === 8 ? 3 : 2;
  let n = 0;
  for (let id = 0; id <= maxId; id++) {
    const slot = load<i32>(idSlot + ((<usize>id) << 2));
    if (slot < 0) continue;
    const x = <f64>load<T>(xs + ((<usize>id) << shift));
    const y = <f64>load<T>(ys + ((<usize>id) << shift));
    const b = rect + ((<usize>load<i32>(idLeaf + ((<usize>id) << 2))) << 5);
    if (holds(b, x, y, rootMaxX, rootMaxY)) {
      const o = xy + ((<usize>slot) << 4);
      store<f64>(o, x);
      store<f64>(o, y, 8);
    } else {
      store<i32>(leavers + ((<usize>n) << 2), id);
      const o = leaverXY + ((<usize>n) << 4);
      store<f64>(o, x);
      store<f64>(o, y, 8);
      n++;
    }
  }
  return n;
}
