// The pair join in AssemblyScript: queryPairsInto's pairs (src/quadtree/query/pairs.ts has the rule and the
// JavaScript reference) over the leaf-pair list of walk.ts, written as two arrays of ids. A run of pairs
// with one first leaf is one row (rowBuild.ts): each item of the leaf tests the rest of the row four
// candidates at a time in f32x4 lanes, with a reach wider than the f32 rounding can reach, and lists the
// candidates that pass; the listed ones are then tested four at a time by the exact rule in f64x2 lanes
// ((dx s)² + (dy s)² <= (r s)², the same f64 differences, products, sum and comparison as the JavaScript
// join) and the ids of those within reach are stored. Pairs of leaves far wider than the radius ("wide")
// test every candidate by the exact rule, two at a time, after skipping the items of a out of reach of
// b's items' bounding box. The output is a chunk of `limit` pairs: the join stops before an item whose
// candidates might not fit and says where to resume, so the caller copies the chunk out and calls again.

import {
  COUNT,
  IDS,
  LIMIT,
  PAIR_A,
  PAIR_B,
  PAIRS,
  RADIUS,
  RESUME,
  SCALE,
  SLOTS,
  SORTED,
  TEMP,
  XY,
} from './call';
import { buildRow } from './rowBuild';
import { COMPACT, rowCap, rowX } from './rowLayout';

/**
 * Every unordered pair of items within reach among the leaf pairs of the grouped list at SORTED (PAIRS of
 * them, grouped by first leaf as sortByFirst leaves them, marks as walk's), on the call's record `c`
 * (call.ts), from the position at RESUME (i32 k: the run's first pair, i32 p: the item of its first leaf),
 * into PAIR_A / PAIR_B (i32 ids; room for LIMIT + 4: up to three entries past the last pair are written
 * too). Stops before an item whose candidates might pass LIMIT (the caller makes LIMIT at least the slots
 * plus 4, so every item fits in an empty chunk) and writes the position to resume from at RESUME
 * (k = PAIRS when done). XY holds f64 x, y per slot and one slot of padding (set to NaN here), IDS the i32
 * id per slot (+ padding), START / COUNT the leaves' first slots and item counts; differences are taken
 * times SCALE; TEMP: tempBytes(slots) bytes; PREP: 0 or prepare()'s output for this XY and RADIUS. Returns
 * the pairs written.
 */
export function joinPairs(c: usize): i32 {
  const list = load<usize>(c, SORTED);
  const pairs = load<i32>(c, PAIRS);
  const count = load<usize>(c, COUNT);
  const resume = load<usize>(c, RESUME);
  // The padding slot past the last: the rows' pads point at it, and NaN is never within reach.
  v128.store(load<usize>(c, XY) + ((<usize>load<i32>(c, SLOTS)) << 4), f64x2.splat(NaN));
  let k = load<i32>(resume);
  let from = load<i32>(resume, 4);
  let n = 0;
  while (k < pairs) {
    const first = load<i32>(list + ((<usize>k) << 3));
    const a = first & 0x3fffffff;
    // A run of pairs of leaf a is one row; a wide pair (a leaf far wider than the radius) is a row alone,
    // whose items of a out of reach of b's are skipped.
    let k2 = k + 1;
    while (first === a && k2 < pairs && load<i32>(list + ((<usize>k2) << 3)) === first) k2++;
    if (load<i32>(count + ((<usize>a) << 2)) > 0) {
      n = joinRow(c, k, k2, from, n);
      // Stopped before an item (the chunk is full): RESUME says where to go on.
      if (n < 0) return ~n;
    }
    k = k2;
    from = 0;
  }
  store<i32>(resume, pairs);
  store<i32>(resume, 0, 4);
  return n;
}

/**
 * The row of the pairs k..k2-1 (first leaf a), from its item `from` on, appended to the chunk after its
 * first `n` pairs. Returns the new count, or ~count when it stopped before an item whose candidates might
 * not fit (then RESUME holds k and that item).
 */
function joinRow(c: usize, k: i32, k2: i32, from: i32, n: i32): i32 {
  const xy = load<usize>(c, XY);
  const first = load<i32>(load<usize>(c, SORTED) + ((<usize>k) << 3));
  const a = first & 0x3fffffff;
  const na = load<i32>(load<usize>(c, COUNT) + ((<usize>a) << 2));
  const limit = load<i32>(c, LIMIT);
  const rx = rowX(load<usize>(c, TEMP));
  const cap = rowCap(load<i32>(c, SLOTS));
  const rsl = rx + (cap << 3);
  let m = buildRow(c, k, k2, a);
  const self = m < 0;
  if (self) m = ~m;
  const rr = load<f64>(c, RADIUS) * load<f64>(c, SCALE) * (load<f64>(c, RADIUS) * load<f64>(c, SCALE));
  const sv = f64x2.splat(load<f64>(c, SCALE));
  const zero = f64x2.splat(0);
  // A wide pair's b: its items' box. The gap from an item of a to it, taken as the rule takes a
  // difference, is no larger than the item's difference to any item of b (subtraction, product and
  // sum round monotonically), so an item whose gap is past the reach has no pair within reach.
  const prune = first !== a && !self;
  let lo = f64x2.splat(Infinity);
  let hi = f64x2.splat(-Infinity);
  for (let t = na; prune && t < m; t++) {
    const v = v128.load(xy + ((<usize>load<i32>(rsl + ((<usize>t) << 2))) << 4));
    lo = f64x2.pmin(lo, v);
    hi = f64x2.pmax(hi, v);
  }
  for (let p = from; p < na; p++) {
    const si = load<i32>(rsl + ((<usize>p) << 2));
    const pi = v128.load(xy + ((<usize>si) << 4));
    if (prune) {
      const g = f64x2.mul(f64x2.max(f64x2.max(f64x2.sub(lo, pi), f64x2.sub(pi, hi)), zero), sv);
      const g2 = f64x2.mul(g, g);
      if (f64x2.extract_lane(g2, 0) + f64x2.extract_lane(g2, 1) > rr) continue;
    }
    const nh = listCandidates(c, p, self ? p + 1 : na, m);
    if (n + nh > limit) {
      const resume = load<usize>(c, RESUME);
      store<i32>(resume, k);
      store<i32>(resume, p, 4);
      return ~n;
    }
    n = storeWithin(c, si, nh, n);
  }
  return n;
}

/**
 * The first pass of item p of the row (of length m) over its entries [t0, m): the candidates that may be
 * within reach (the f32 test, wider than its rounding can reach), listed branch-free at the row's hits;
 * returns how many, the list rounded up to a multiple of 4 with the padding slot (never within reach).
 */
function listCandidates(c: usize, p: i32, t0: i32, m: i32): i32 {
  const slots = load<i32>(c, SLOTS);
  const rx = rowX(load<usize>(c, TEMP));
  const cap = rowCap(slots);
  const ry = rx + (cap << 2);
  const rsl = ry + (cap << 2);
  const hits = rsl + (cap << 2);
  const rv = f32x4.splat(load<f32>(rx - 16));
  const xi = f32x4.splat(load<f32>(rx + ((<usize>p) << 2)));
  const yi = f32x4.splat(load<f32>(ry + ((<usize>p) << 2)));
  let nh = 0;
  for (let t = t0; t < m; t += 4) {
    const dx = f32x4.sub(v128.load(rx + ((<usize>t) << 2)), xi);
    const dy = f32x4.sub(v128.load(ry + ((<usize>t) << 2)), yi);
    const d2 = f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy));
    const bits = i32x4.bitmask(f32x4.le(d2, rv));
    const slot4 = v128.load(rsl + ((<usize>t) << 2));
    v128.store(hits + ((<usize>nh) << 2), i8x16.swizzle(slot4, v128.load(COMPACT + ((<usize>bits) << 4))));
    nh += <i32>popcnt(bits);
  }
  v128.store(hits + ((<usize>nh) << 2), i32x4.splat(slots));
  return nh;
}

/**
 * The exact rule ((dx s)² + (dy s)² <= (r s)², as the JavaScript join computes it) on the `nh` candidates
 * listed at the row's hits for the item in slot `si`, four at a time; the pairs within reach stored at
 * PAIR_A / PAIR_B from `n` on. Returns the new count.
 */
function storeWithin(c: usize, si: i32, nh: i32, n: i32): i32 {
  const xy = load<usize>(c, XY);
  const ids = load<usize>(c, IDS);
  const outA = load<usize>(c, PAIR_A);
  const outB = load<usize>(c, PAIR_B);
  const s = load<f64>(c, SCALE);
  const rs = load<f64>(c, RADIUS) * s;
  const r2 = f64x2.splat(rs * rs);
  const sv = f64x2.splat(s);
  const cap = rowCap(load<i32>(c, SLOTS));
  // The row's hits array, after rx, ry and the slots (rowLayout.ts).
  const hits = rowX(load<usize>(c, TEMP)) + 3 * (cap << 2);
  const pi = v128.load(xy + ((<usize>si) << 4));
  const xe = f64x2.splat(f64x2.extract_lane(pi, 0));
  const ye = f64x2.splat(f64x2.extract_lane(pi, 1));
  const idp = i32x4.splat(load<i32>(ids + ((<usize>si) << 2)));
  for (let q = 0; q < nh; q += 4) {
    const hq = hits + ((<usize>q) << 2);
    const s0 = load<i32>(hq);
    const s1 = load<i32>(hq, 4);
    const s2 = load<i32>(hq, 8);
    const s3 = load<i32>(hq, 12);
    const p0 = v128.load(xy + ((<usize>s0) << 4));
    const p1 = v128.load(xy + ((<usize>s1) << 4));
    const p2 = v128.load(xy + ((<usize>s2) << 4));
    const p3 = v128.load(xy + ((<usize>s3) << 4));
    const dxa = f64x2.mul(f64x2.sub(v128.shuffle<f64>(p0, p1, 0, 2), xe), sv);
    const dya = f64x2.mul(f64x2.sub(v128.shuffle<f64>(p0, p1, 1, 3), ye), sv);
    const dxb = f64x2.mul(f64x2.sub(v128.shuffle<f64>(p2, p3, 0, 2), xe), sv);
    const dyb = f64x2.mul(f64x2.sub(v128.shuffle<f64>(p2, p3, 1, 3), ye), sv);
    const ha = f64x2.le(f64x2.add(f64x2.mul(dxa, dxa), f64x2.mul(dya, dya)), r2);
    const hb = f64x2.le(f64x2.add(f64x2.mul(dxb, dxb), f64x2.mul(dyb, dyb)), r2);
    const bits = i64x2.bitmask(ha) | (i64x2.bitmask(hb) << 2);
    let id4 = i32x4.splat(load<i32>(ids + ((<usize>s0) << 2)));
    id4 = i32x4.replace_lane(id4, 1, load<i32>(ids + ((<usize>s1) << 2)));
    id4 = i32x4.replace_lane(id4, 2, load<i32>(ids + ((<usize>s2) << 2)));
    id4 = i32x4.replace_lane(id4, 3, load<i32>(ids + ((<usize>s3) << 2)));
    v128.store(outA + ((<usize>n) << 2), idp);
    v128.store(outB + ((<usize>n) << 2), i8x16.swizzle(id4, v128.load(COMPACT + ((<usize>bits) << 4))));
    n += <i32>popcnt(bits);
  }
  return n;
}
