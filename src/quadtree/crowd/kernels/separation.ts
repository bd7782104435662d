// The separation kernel in AssemblyScript: the per-slot accumulate of src/quadtree/crowd/separation.ts (the
// rule is written there) over leaf pairs, and the hand-over of the slot sums to per-id arrays. Each leaf
// and its partners are joined in one row (row.ts: f32x4 lanes that list the candidates, f64x2 lanes that
// apply the exact rule); pairs of leaves far wider than the radius, two candidates at a time in f64x2
// lanes (below). The leaf-pair walk and its sort are in walk.ts. Built by build.mjs (this file is the
// entry) into ../separationWasm.ts. Every pointer is a byte offset into this
// module's memory, laid out by ../wasmLayout.ts; every export takes the call's record (call.ts).

import {
  COUNT,
  END,
  IDS,
  KINDS,
  OUT_COUNT,
  OUT_X,
  OUT_Y,
  PAIRS,
  RADIUS,
  SCALE,
  SLOTS,
  SORTED,
  START,
  SUMS,
  TEMP,
  TOUCH_SHIFT,
  TOUCHED,
  XY,
} from './call';
import { addPair, addSums, markTouched } from './pair';
import { rowJoin } from './row';

export { gather } from './gather';
export { inside, stay } from './moveAll';
export { joinPairs } from './pairs';
export { prepare, prepBytes } from './prepare';
export { file } from './refile';
export { tempBytes } from './rowLayout';
export { sortByFirst, walk } from './walk';

/** Where the caller's buffers may start: above the module's own static data. */
export function heapBase(): usize {
  return __heap_base;
}

/**
 * For the leaf pairs [from, to) of the grouped list at SORTED (stride 2 i32 node numbers, a leaf with itself
 * as (n, n), the second stored as ~b where the pair is sparse: see leafPairsWithin in
 * src/quadtree/query/leafPairs.ts), on the call's record `c` (call.ts), with each leaf's first slot and item
 * count read from START / COUNT (i32 per node), every pair of items within reach adds to the per-slot sums
 * at SUMS (records of 32 bytes: f64 sum x, sum y, count, unused; one record of padding past SLOTS; zeroed
 * here first, so that sums over sub-ranges of the list add up to the sums over the whole list). XY holds
 * f64 x, y per slot (one slot of padding), IDS the i32 id per slot. Differences are taken times SCALE.
 * TEMP is this call's scratch, tempBytes(slots) bytes; PREP 0, or where prepare() wrote for this XY and
 * RADIUS (the rows then copy instead of converting; one prepare serves calls on any sub-ranges). TOUCHED
 * gets a byte per block of 2^TOUCH_SHIFT slots (zeroed here first), 1 where a record of the block may have
 * been written: outside them every record is 0. Returns the pairs.
 */
export function accumulate(c: usize, from: i32, to: i32): i32 {
  const xy = load<usize>(c, XY);
  const slots = load<i32>(c, SLOTS);
  const list = load<usize>(c, SORTED);
  memory.fill(load<usize>(c, SUMS), 0, (<usize>slots + 2) << 5);
  memory.fill(load<usize>(c, TOUCHED), 0, (<usize>slots >> TOUCH_SHIFT) + 1);
  // The padding slot past the last: the rows' pads point at it, and NaN is never within reach.
  v128.store(xy + ((<usize>slots) << 4), f64x2.splat(NaN));
  let found: i32 = 0;
  for (let k = from; k < to; k++) {
    const first = load<i32>(list + ((<usize>k) << 3));
    const a = first & 0x3fffffff;
    if (first === a) {
      // Not wide: the run of pairs of leaf a (the list is sorted by first leaf) is one row (kernels/row.ts).
      let k2 = k + 1;
      while (k2 < to && load<i32>(list + ((<usize>k2) << 3)) === first) k2++;
      found += rowJoin(c, k, k2, a);
      k = k2 - 1;
      continue;
    }
    found += widePair(c, a, load<i32>(list + ((<usize>k) << 3), 4));
  }
  return found;
}

/**
 * A wide pair of leaves (a | WIDE, marked): leaves far wider than the radius, each item of a against the
 * items of b two at a time in f64x2 lanes; the pairs within reach add to both slots' sums. A sparse pair
 * (marked ~b) skips the math where neither lane is in reach (then the branch is well predicted); a sparse
 * cross pair first skips the items of a out of reach of the bounding box of b's items. Lanes out of reach
 * compute a weight too, masked to 0 (no branch to mispredict); a lane past the leaf's last item (an odd
 * count) is the padding or another leaf's slot, and is masked out. Returns the pairs found.
 */
function widePair(c: usize, a: i32, marked: i32): i32 {
  const xy = load<usize>(c, XY);
  const sums = load<usize>(c, SUMS);
  const start = load<usize>(c, START);
  const count = load<usize>(c, COUNT);
  const s = load<f64>(c, SCALE);
  const rs = load<f64>(c, RADIUS) * s;
  const sparse = marked < 0;
  const b = sparse ? ~marked : marked;
  const sa = load<i32>(start + ((<usize>a) << 2));
  const ea = sa + load<i32>(count + ((<usize>a) << 2));
  const self = a === b;
  const sb = self ? sa : load<i32>(start + ((<usize>b) << 2));
  const eb = sb + load<i32>(count + ((<usize>b) << 2));
  const prune = sparse && !self;
  markTouched(c, sa, ea);
  markTouched(c, sb, eb);
  const box = load<usize>(c, TEMP);
  if (prune) boxOfSlots(xy, sb, eb, box);
  const inverse = 1 / rs;
  const r2 = f64x2.splat(rs * rs);
  const inv = f64x2.splat(inverse);
  const sv = f64x2.splat(s);
  const one = f64x2.splat(1);
  const zero = f64x2.splat(0);
  const lane0 = i64x2(-1, 0);
  let found: i32 = 0;
  for (let i = sa; i < ea; i++) {
    const pi = xy + ((<usize>i) << 4);
    if (prune && outOfBox(load<f64>(pi), load<f64>(pi, 8), box, s) > rs * rs) continue;
    const xi = f64x2.splat(load<f64>(pi));
    const yi = f64x2.splat(load<f64>(pi, 8));
    let n = zero;
    let px = zero;
    let py = zero;
    for (let j = self ? i + 1 : sb; j < eb; j += 2) {
      const pj = xy + ((<usize>j) << 4);
      const p0 = v128.load(pj);
      const p1 = v128.load(pj, 16);
      const dx = f64x2.mul(f64x2.sub(v128.shuffle<f64>(p0, p1, 0, 2), xi), sv);
      const dy = f64x2.mul(f64x2.sub(v128.shuffle<f64>(p0, p1, 1, 3), yi), sv);
      const d2 = f64x2.add(f64x2.mul(dx, dx), f64x2.mul(dy, dy));
      let m = f64x2.le(d2, r2);
      if (j + 1 === eb) m = v128.and(m, lane0);
      if (sparse && !v128.any_true(m)) continue;
      if (v128.any_true(v128.and(m, f64x2.eq(d2, zero)))) {
        // Rare: one by one.
        found += addPairs(c, i, j, m, inverse);
        continue;
      }
      const w = f64x2.sub(f64x2.div(one, f64x2.sqrt(d2)), inv);
      const ux = v128.and(f64x2.mul(dx, w), m);
      const uy = v128.and(f64x2.mul(dy, w), m);
      const cm = v128.and(one, m);
      n = f64x2.add(n, cm);
      px = f64x2.sub(px, ux);
      py = f64x2.sub(py, uy);
      addSums(sums, j, f64x2.extract_lane(ux, 0), f64x2.extract_lane(uy, 0), f64x2.extract_lane(cm, 0));
      addSums(sums, j + 1, f64x2.extract_lane(ux, 1), f64x2.extract_lane(uy, 1), f64x2.extract_lane(cm, 1));
    }
    const ni = f64x2.extract_lane(n, 0) + f64x2.extract_lane(n, 1);
    const sxi = f64x2.extract_lane(px, 0) + f64x2.extract_lane(px, 1);
    addSums(sums, i, sxi, f64x2.extract_lane(py, 0) + f64x2.extract_lane(py, 1), ni);
    found += <i32>ni;
  }
  return found;
}

/** The pairs of slot i with slots j and j + 1 whose lanes of `m` are set, added one by one; how many. */
function addPairs(c: usize, i: i32, j: i32, m: v128, inverse: f64): i32 {
  let found = 0;
  if (i64x2.extract_lane(m, 0) !== 0) {
    addPair(c, i, j, inverse);
    found++;
  }
  if (i64x2.extract_lane(m, 1) !== 0) {
    addPair(c, i, j + 1, inverse);
    found++;
  }
  return found;
}

/** The bounding box of slots [from, to) at `box`: f64 min x, min y, max x, max y. */
function boxOfSlots(xy: usize, from: i32, to: i32, box: usize): void {
  let bx0 = Infinity;
  let by0 = Infinity;
  let bx1 = -Infinity;
  let by1 = -Infinity;
  for (let j = from; j < to; j++) {
    const pj = xy + ((<usize>j) << 4);
    const x = load<f64>(pj);
    const y = load<f64>(pj, 8);
    bx0 = Math.min(bx0, x);
    bx1 = Math.max(bx1, x);
    by0 = Math.min(by0, y);
    by1 = Math.max(by1, y);
  }
  store<f64>(box, bx0);
  store<f64>(box, by0, 8);
  store<f64>(box, bx1, 16);
  store<f64>(box, by1, 24);
}

/** The squared gap, differences times s, from (x, y) to the box at `box` (boxOfSlots'). */
function outOfBox(x: f64, y: f64, box: usize, s: f64): f64 {
  const bx0 = load<f64>(box);
  const by0 = load<f64>(box, 8);
  const bx1 = load<f64>(box, 16);
  const by1 = load<f64>(box, 24);
  const gx = (x < bx0 ? bx0 - x : x > bx1 ? x - bx1 : 0) * s;
  const gy = (y < by0 ? by0 - y : y > by1 ? y - by1 : 0) * s;
  return gx * gx + gy * gy;
}

/** Element i of the array at `out`, of element type `kind` (0 f64, 1 f32, 2 i32), set to v. */
function put(out: usize, i: i32, v: f64, kind: i32): void {
  if (kind === 0) store<f64>(out + ((<usize>i) << 3), v);
  else if (kind === 1) store<f32>(out + ((<usize>i) << 2), <f32>v);
  else store<i32>(out + ((<usize>i) << 2), <i32>v);
}

/**
 * The slot sums handed to per-id outputs, on the call's record `c` (call.ts): those of ids below END zeroed,
 * then for every leaf's pair with itself among the PAIRS pairs at SORTED (the walk gives every leaf one),
 * the sums of the leaf's slots written at their ids (i32 IDS per slot). Writing at random ids, not reading at
 * random slots per id: a store that misses the cache does not hold up the loop as a load does. The outputs
 * (OUT_COUNT, OUT_X, OUT_Y) have the element types KINDS (2 bits each, count first): 0 f64, 1 f32, 2 i32;
 * the scene's (i32, f32, f32) has a loop of its own.
 */
export function scatterLeaves(c: usize): void {
  const list = load<usize>(c, SORTED);
  const pairs = load<i32>(c, PAIRS);
  const start = load<usize>(c, START);
  const count = load<usize>(c, COUNT);
  const ids = load<usize>(c, IDS);
  const end = load<i32>(c, END);
  const sums = load<usize>(c, SUMS);
  const outCount = load<usize>(c, OUT_COUNT);
  const outX = load<usize>(c, OUT_X);
  const outY = load<usize>(c, OUT_Y);
  const kinds = load<i32>(c, KINDS);
  memory.fill(outCount, 0, (<usize>end) << ((kinds & 3) === 0 ? 3 : 2));
  memory.fill(outX, 0, (<usize>end) << (((kinds >> 2) & 3) === 0 ? 3 : 2));
  memory.fill(outY, 0, (<usize>end) << (((kinds >> 4) & 3) === 0 ? 3 : 2));
  const usual = kinds === (2 | (1 << 2) | (1 << 4));
  for (let k = 0; k < pairs; k++) {
    const a = load<i32>(list + ((<usize>k) << 3)) & 0x3fffffff;
    const marked = load<i32>(list + ((<usize>k) << 3), 4);
    if ((marked < 0 ? ~marked : marked) !== a) continue;
    const sa = load<i32>(start + ((<usize>a) << 2));
    const ea = sa + load<i32>(count + ((<usize>a) << 2));
    for (let slot = sa; slot < ea; slot++) {
      const id = load<i32>(ids + ((<usize>slot) << 2));
      const p = sums + ((<usize>slot) << 5);
      if (usual) {
        const f = f32x4.demote_f64x2_zero(v128.load(p));
        store<i32>(outCount + ((<usize>id) << 2), <i32>load<f64>(p, 16));
        store<f32>(outX + ((<usize>id) << 2), f32x4.extract_lane(f, 0));
        store<f32>(outY + ((<usize>id) << 2), f32x4.extract_lane(f, 1));
      } else {
        put(outCount, id, load<f64>(p, 16), kinds & 3);
        put(outX, id, load<f64>(p), (kinds >> 2) & 3);
        put(outY, id, load<f64>(p, 8), (kinds >> 4) & 3);
      }
    }
  }
}
