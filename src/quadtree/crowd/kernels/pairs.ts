// The pair join in AssemblyScript: queryPairsInto's pairs (src/quadtree/pairs.ts has the rule and the
// JavaScript reference) over the leaf-pair list of walk.ts, written as two arrays of ids. A run of pairs
// with one first leaf is one row (rowBuild.ts): each item of the leaf tests the rest of the row four
// candidates at a time in f32x4 lanes, with a reach wider than the f32 rounding can reach, and lists the
// candidates that pass; the listed ones are then tested four at a time by the exact rule in f64x2 lanes
// ((dx s)² + (dy s)² <= (r s)², the same f64 differences, products, sum and comparison as the JavaScript
// join) and the ids of those within reach are stored. Pairs of leaves far wider than the radius ("wide")
// test every candidate by the exact rule, two at a time, after skipping the items of a out of reach of
// b's items' bounding box. The output is a chunk of `limit` pairs: the join stops before an item whose
// candidates might not fit and says where to resume, so the caller copies the chunk out and calls again.

import { COMPACT, rowCap } from './row';
import { buildRow } from './rowBuild';

/**
 * Every unordered pair of items within reach among the leaf pairs at `list` (`pairs` of them, grouped by
 * first leaf as sortByFirst leaves them, marks as walk's), from the position at `resume` (i32 k: the run's
 * first pair, i32 p: the item of its first leaf), into `outA` / `outB` (i32 ids; room for `limit` + 4: up to
 * three entries past the last pair are written too). Stops before an item whose candidates might pass
 * `limit` (the caller makes `limit` at least the slots plus 4, so every item fits in an empty chunk) and
 * writes the position to resume from at `resume` (k = `pairs` when done). `xy` holds f64 x, y per slot and
 * one slot of padding (set to NaN here), `ids` the i32 id per slot (+ padding), `start` / `count` the
 * leaves' first slots and item counts; differences are taken times `s`; `temp`: tempBytes(slots) bytes;
 * `prep`: 0 or prepare()'s output for this xy and radius. Returns the pairs written.
 */
export function joinPairs(
  xy: usize,
  ids: usize,
  start: usize,
  count: usize,
  list: usize,
  pairs: i32,
  slots: i32,
  radius: f64,
  s: f64,
  temp: usize,
  prep: usize,
  outA: usize,
  outB: usize,
  limit: i32,
  resume: usize,
): i32 {
  // The padding slot past the last: the rows' pads point at it, and NaN is never within reach.
  v128.store(xy + ((<usize>slots) << 4), f64x2.splat(NaN));
  const rs = radius * s;
  const r2 = f64x2.splat(rs * rs);
  const rr = rs * rs;
  const sv = f64x2.splat(s);
  const zero = f64x2.splat(0);
  const cap = rowCap(slots);
  const rx = temp + 80;
  const ry = rx + (cap << 2);
  const rsl = ry + (cap << 2);
  const hits = rsl + (cap << 2);
  let k = load<i32>(resume);
  let from = load<i32>(resume, 4);
  let n = 0;
  while (k < pairs) {
    const first = load<i32>(list + ((<usize>k) << 3));
    const a = first & 0x3fffffff;
    const sa = load<i32>(start + ((<usize>a) << 2));
    const na = load<i32>(count + ((<usize>a) << 2));
    // A run of pairs of leaf a is one row; a wide pair (a leaf far wider than the radius) is a row alone,
    // whose items of a out of reach of b's are skipped.
    const wide = first !== a;
    let k2 = k + 1;
    while (!wide && k2 < pairs && load<i32>(list + ((<usize>k2) << 3)) === first) k2++;
    if (na > 0) {
      let m = buildRow(xy, start, count, list, k, k2, a, sa, na, slots, radius, prep, rx, ry, rsl);
      const self = m < 0;
      if (self) m = ~m;
      const reach = load<f32>(rx - 16);
      const rv = f32x4.splat(reach);
      // A wide pair's b: its items' box. The gap from an item of a to it, taken as the rule takes a
      // difference, is no larger than the item's difference to any item of b (subtraction, product and
      // sum round monotonically), so an item whose gap is past the reach has no pair within reach.
      const prune = wide && !self;
      let lo = f64x2.splat(Infinity);
      let hi = f64x2.splat(-Infinity);
      for (let t = na; prune && t < m; t++) {
        const v = v128.load(xy + ((<usize>load<i32>(rsl + ((<usize>t) << 2))) << 4));
        lo = f64x2.pmin(lo, v);
        hi = f64x2.pmax(hi, v);
      }
      for (let p = from; p < na; p++) {
        const xi = f32x4.splat(load<f32>(rx + ((<usize>p) << 2)));
        const yi = f32x4.splat(load<f32>(ry + ((<usize>p) << 2)));
        const si = load<i32>(rsl + ((<usize>p) << 2));
        const pi = v128.load(xy + ((<usize>si) << 4));
        if (prune) {
          const g = f64x2.mul(f64x2.max(f64x2.max(f64x2.sub(lo, pi), f64x2.sub(pi, hi)), zero), sv);
          const g2 = f64x2.mul(g, g);
          if (f64x2.extract_lane(g2, 0) + f64x2.extract_lane(g2, 1) > rr) continue;
        }
        // The candidates that may be within reach, listed (branch-free) at hits.
        let nh = 0;
        for (let t = self ? p + 1 : na; t < m; t += 4) {
          const dx = f32x4.sub(v128.load(rx + ((<usize>t) << 2)), xi);
          const dy = f32x4.sub(v128.load(ry + ((<usize>t) << 2)), yi);
          const d2 = f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy));
          const bits = i32x4.bitmask(f32x4.le(d2, rv));
          const slot4 = v128.load(rsl + ((<usize>t) << 2));
          v128.store(
            hits + ((<usize>nh) << 2),
            i8x16.swizzle(slot4, v128.load(COMPACT + ((<usize>bits) << 4))),
          );
          nh += <i32>popcnt(bits);
        }
        if (n + nh > limit) {
          store<i32>(resume, k);
          store<i32>(resume, p, 4);
          return n;
        }
        // Rounded up to a multiple of 4 with the padding slot (never within reach).
        v128.store(hits + ((<usize>nh) << 2), i32x4.splat(slots));
        const xe = f64x2.splat(f64x2.extract_lane(pi, 0));
        const ye = f64x2.splat(f64x2.extract_lane(pi, 1));
        const idp = i32x4.splat(load<i32>(ids + ((<usize>si) << 2)));
        // The exact rule on the listed candidates, four at a time; the ids of those within reach stored.
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
    }
    k = k2;
    from = 0;
  }
  store<i32>(resume, pairs);
  store<i32>(resume, 0, 4);
  return n;
}
