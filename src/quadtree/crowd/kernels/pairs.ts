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
 * first `n` pairs: per item of a, the first pass (the candidates that may be within reach, listed
 * branch-free at the row's hits, rounded up to four with the padding slot), then the exact rule on the
 * listed ones, four at a time, the ids of those within reach stored. Returns the new count, or ~count when
 * it stopped before an item whose candidates might not fit (then RESUME holds k and that item).
 */
function joinRow(c: usize, k: i32, k2: i32, from: i32, n: i32): i32 {
  const xy = load<usize>(c, XY);
  const ids = load<usize>(c, IDS);
  const outA = load<usize>(c, PAIR_A);
  const outB = load<usize>(c, PAIR_B);
  const slots = load<i32>(c, SLOTS);
  const first = load<i32>(load<usize>(c, SORTED) + ((<usize>k) << 3));
  const a = first & 0x3fffffff;
  const na = load<i32>(load<usize>(c, COUNT) + ((<usize>a) << 2));
  const s = load<f64>(c, SCALE);
  const rs = load<f64>(c, RADIUS) * s;
  const r2 = f64x2.splat(rs * rs);
  const sv = f64x2.splat(s);
  const cap = rowCap(slots);
  const rx = rowX(load<usize>(c, TEMP));
  const ry = rx + (cap << 2);
  const rsl = ry + (cap << 2);
  const hits = rsl + (cap << 2);
  let m = buildRow(c, k, k2, a);
  const self = m < 0;
  if (self) m = ~m;
  const rv = f32x4.splat(load<f32>(rx - 16));
  // A wide pair's b: the box of its items, whose gap to an item of a is checked before that item's pass.
  const prune = first !== a && !self;
  if (prune) boxOfPartners(c, na, m);
  for (let p = from; p < na; p++) {
    const si = load<i32>(rsl + ((<usize>p) << 2));
    const pi = v128.load(xy + ((<usize>si) << 4));
    if (prune && outOfBox(c, pi, rs)) continue;
    const xi = f32x4.splat(load<f32>(rx + ((<usize>p) << 2)));
    const yi = f32x4.splat(load<f32>(ry + ((<usize>p) << 2)));
    let nh = 0;
    for (let t = self ? p + 1 : na; t < m; t += 4) {
      const dx = f32x4.sub(v128.load(rx + ((<usize>t) << 2)), xi);
      const dy = f32x4.sub(v128.load(ry + ((<usize>t) << 2)), yi);
      const d2 = f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy));
      const bits = i32x4.bitmask(f32x4.le(d2, rv));
      const slot4 = v128.load(rsl + ((<usize>t) << 2));
      v128.store(hits + ((<usize>nh) << 2), i8x16.swizzle(slot4, v128.load(COMPACT + ((<usize>bits) << 4))));
      nh += <i32>popcnt(bits);
    }
    if (n + nh > load<i32>(c, LIMIT)) return stopAt(c, k, p, n);
    v128.store(hits + ((<usize>nh) << 2), i32x4.splat(slots));
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
  }
  return n;
}

/** Stops the chunk before item p of row k: RESUME says where to go on; returns ~n. */
function stopAt(c: usize, k: i32, p: i32, n: i32): i32 {
  const resume = load<usize>(c, RESUME);
  store<i32>(resume, k);
  store<i32>(resume, p, 4);
  return ~n;
}

/**
 * Whether the item at (x, y) = `pi` lies out of reach (the scaled radius `rs`) of the box at TEMP: its gap,
 * taken as the rule takes a difference, is no larger than its difference to any item in the box.
 */
function outOfBox(c: usize, pi: v128, rs: f64): bool {
  const temp = load<usize>(c, TEMP);
  const gap = f64x2.max(f64x2.sub(v128.load(temp), pi), f64x2.sub(pi, v128.load(temp, 16)));
  const g = f64x2.mul(f64x2.max(gap, f64x2.splat(0)), f64x2.splat(load<f64>(c, SCALE)));
  const g2 = f64x2.mul(g, g);
  return f64x2.extract_lane(g2, 0) + f64x2.extract_lane(g2, 1) > rs * rs;
}

/**
 * The box of the row's partner items (entries na..m-1), at TEMP: f64x2 minimum (x, y), then maximum. The gap
 * from an item of a to it, taken as the rule takes a difference, is no larger than the item's difference to
 * any item of b (subtraction, product and sum round monotonically), so an item whose gap is past the reach
 * has no pair within reach.
 */
function boxOfPartners(c: usize, na: i32, m: i32): void {
  const xy = load<usize>(c, XY);
  const temp = load<usize>(c, TEMP);
  const rsl = rowX(temp) + (rowCap(load<i32>(c, SLOTS)) << 3);
  let lo = f64x2.splat(Infinity);
  let hi = f64x2.splat(-Infinity);
  for (let t = na; t < m; t++) {
    const v = v128.load(xy + ((<usize>load<i32>(rsl + ((<usize>t) << 2))) << 4));
    lo = f64x2.pmin(lo, v);
    hi = f64x2.pmax(hi, v);
  }
  v128.store(temp, lo);
  v128.store(temp, hi, 16);
}
