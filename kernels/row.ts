// One leaf against all its partners at once (see kernels/separation.ts): the items of leaf a and of the
// leaves it is paired with are gathered into one row, and each item of a scans the rest of the row in two
// passes. The first tests four candidates at a time in f32x4 lanes on f32 offsets (prepare.ts's, or the
// row's own from a's first item) and lists every candidate that may be within reach (a test made wider than
// the radius by more than its rounding error can reach, so no pair within reach is ever left out: the
// bound is in docs/crowd.md). The second takes the listed candidates four at a time in two f64x2 chains and
// applies the exact rule of src/quadtree/separation.ts to them (the same f64 differences, square and
// comparison as the JavaScript kernel), then the push math. So the pairs found are exactly the JavaScript
// kernel's, and the square root and division run on about a third of the candidates.

import { addPair } from './pair';
import { buildRow } from './rowBuild';

/**
 * The row's layout in `temp`, per entry, with `cap` = rowCap(slots) entries per array:
 *   rx, ry  f32 offsets (x - x0) h, (y - y0) h, h a power of two with radius h in [1, 2) and x0, y0 the
 *           middle of the items' extent (prepared) or a's first item
 *   slot    i32 the item's slot (the second pass reads its f64 x, y and sums by slot)
 *   hits    i32 slots listed by the first pass for one item
 * Past the row's last entry m, four pad entries that no test accepts (NaN), whose slot is the padding record.
 */
export function rowCap(slots: i32): usize {
  return (<usize>slots + 16 + 3) & ~(<usize>3);
}

/** Bytes of `temp` that accumulate needs for a tree of `slots` slots. */
export function tempBytes(slots: i32): usize {
  return rowCap(slots) * 16 + 80;
}

// For each 4-bit mask of lanes that passed, the bytes that move those lanes' i32 to the front (swizzle).
// biome-ignore format: one row per mask
export const COMPACT = memory.data<u8>([
  128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  4, 5, 6, 7, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 4, 5, 6, 7, 128, 128, 128, 128, 128, 128, 128, 128,
  8, 9, 10, 11, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 8, 9, 10, 11, 128, 128, 128, 128, 128, 128, 128, 128,
  4, 5, 6, 7, 8, 9, 10, 11, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 128, 128, 128, 128,
  12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128,
  4, 5, 6, 7, 12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 128, 128, 128, 128,
  8, 9, 10, 11, 12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128,
  0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 128, 128, 128, 128,
  4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 128, 128, 128, 128,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
]);

/**
 * The pairs k..k2-1 of the list, all with first leaf a (not wide; see accumulate): every pair of items
 * within reach adds to the slot sums at `sums`. `self`: the run holds (a, a), so pairs inside a
 * count too. Returns the pairs found.
 */
export function rowJoin(
  xy: usize,
  ids: usize,
  start: usize,
  count: usize,
  list: usize,
  k: i32,
  k2: i32,
  a: i32,
  sums: usize,
  slots: i32,
  radius: f64,
  s: f64,
  temp: usize,
  prep: usize,
): i32 {
  const sa = load<i32>(start + ((<usize>a) << 2));
  const na = load<i32>(count + ((<usize>a) << 2));
  if (na === 0) return 0;
  const cap = rowCap(slots);
  // Loop constants (64 bytes), read from memory in the loops (TurboFan otherwise recomputes a division
  // every step), then the reach of buildRow (rowBuild.ts).
  const kc = temp;
  const rx = temp + 80;
  const ry = rx + (cap << 2);
  const rs = ry + (cap << 2);
  const hits = rs + (cap << 2);
  let m = buildRow(xy, start, count, list, k, k2, a, sa, na, slots, radius, prep, rx, ry, rs);
  const self = m < 0;
  if (self) m = ~m;
  const reach = load<f32>(rx - 16);
  const rsc = radius * s;
  const inverse = 1 / rsc;
  v128.store(kc, f32x4.splat(reach));
  v128.store(kc, f64x2.splat(rsc * rsc), 16);
  v128.store(kc, f64x2.splat(inverse), 32);
  v128.store(kc, f64x2.splat(s), 48);
  const one = f64x2.splat(1);
  const zero = f64x2.splat(0);
  let found: i32 = 0;
  for (let p = 0; p < na; p++) {
    const xi = f32x4.splat(load<f32>(rx + ((<usize>p) << 2)));
    const yi = f32x4.splat(load<f32>(ry + ((<usize>p) << 2)));
    // First pass: the candidates that may be within reach, listed (branch-free) at hits.
    let nh = 0;
    for (let t = self ? p + 1 : na; t < m; t += 4) {
      const dx = f32x4.sub(v128.load(rx + ((<usize>t) << 2)), xi);
      const dy = f32x4.sub(v128.load(ry + ((<usize>t) << 2)), yi);
      const d2 = f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy));
      const bits = i32x4.bitmask(f32x4.le(d2, v128.load(kc)));
      const slot4 = v128.load(rs + ((<usize>t) << 2));
      v128.store(hits + ((<usize>nh) << 2), i8x16.swizzle(slot4, v128.load(COMPACT + ((<usize>bits) << 4))));
      nh += <i32>popcnt(bits);
    }
    // Lanes past m (a start not a multiple of 4 from m) read pads: never listed. The count is rounded up
    // to a multiple of 4 with the pad's entry.
    v128.store(hits + ((<usize>nh) << 2), i32x4.splat(slots));
    // Second pass: the exact rule and the push, four listed candidates at a time (two independent f64x2
    // chains: the square root and division are slow, and the steps per item few), into the slots' sums.
    const si = load<i32>(rs + ((<usize>p) << 2));
    const pi = v128.load(xy + ((<usize>si) << 4));
    const xe = f64x2.splat(f64x2.extract_lane(pi, 0));
    const ye = f64x2.splat(f64x2.extract_lane(pi, 1));
    let n = zero;
    let px = zero;
    let py = zero;
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
      const sv = v128.load(kc, 48);
      const dxa = f64x2.mul(f64x2.sub(v128.shuffle<f64>(p0, p1, 0, 2), xe), sv);
      const dya = f64x2.mul(f64x2.sub(v128.shuffle<f64>(p0, p1, 1, 3), ye), sv);
      const dxb = f64x2.mul(f64x2.sub(v128.shuffle<f64>(p2, p3, 0, 2), xe), sv);
      const dyb = f64x2.mul(f64x2.sub(v128.shuffle<f64>(p2, p3, 1, 3), ye), sv);
      const d2a = f64x2.add(f64x2.mul(dxa, dxa), f64x2.mul(dya, dya));
      const d2b = f64x2.add(f64x2.mul(dxb, dxb), f64x2.mul(dyb, dyb));
      const r2 = v128.load(kc, 16);
      const ha = f64x2.le(d2a, r2);
      const hb = f64x2.le(d2b, r2);
      if (v128.any_true(v128.or(v128.and(ha, f64x2.eq(d2a, zero)), v128.and(hb, f64x2.eq(d2b, zero))))) {
        // Rare (coincident, or a square that underflowed): one by one.
        found += pairOne(xy, ids, sums, si, s0, i64x2.extract_lane(ha, 0), s, inverse, radius);
        found += pairOne(xy, ids, sums, si, s1, i64x2.extract_lane(ha, 1), s, inverse, radius);
        found += pairOne(xy, ids, sums, si, s2, i64x2.extract_lane(hb, 0), s, inverse, radius);
        found += pairOne(xy, ids, sums, si, s3, i64x2.extract_lane(hb, 1), s, inverse, radius);
        continue;
      }
      // A lane out of reach (listed by the wider test, or a pad) computes a weight too, masked to 0.
      const inv = v128.load(kc, 32);
      const wa = f64x2.sub(f64x2.div(one, f64x2.sqrt(d2a)), inv);
      const wb = f64x2.sub(f64x2.div(one, f64x2.sqrt(d2b)), inv);
      const uxa = v128.and(f64x2.mul(dxa, wa), ha);
      const uya = v128.and(f64x2.mul(dya, wa), ha);
      const uxb = v128.and(f64x2.mul(dxb, wb), hb);
      const uyb = v128.and(f64x2.mul(dyb, wb), hb);
      const ca = v128.and(one, ha);
      const cb = v128.and(one, hb);
      n = f64x2.add(n, f64x2.add(ca, cb));
      px = f64x2.sub(px, f64x2.add(uxa, uxb));
      py = f64x2.sub(py, f64x2.add(uya, uyb));
      addSlot(sums, s0, v128.shuffle<f64>(uxa, uya, 0, 2), f64x2.extract_lane(ca, 0));
      addSlot(sums, s1, v128.shuffle<f64>(uxa, uya, 1, 3), f64x2.extract_lane(ca, 1));
      addSlot(sums, s2, v128.shuffle<f64>(uxb, uyb, 0, 2), f64x2.extract_lane(cb, 0));
      addSlot(sums, s3, v128.shuffle<f64>(uxb, uyb, 1, 3), f64x2.extract_lane(cb, 1));
    }
    const ni = f64x2.extract_lane(n, 0) + f64x2.extract_lane(n, 1);
    addSlot(sums, si, f64x2.add(v128.shuffle<f64>(px, py, 0, 2), v128.shuffle<f64>(px, py, 1, 3)), ni);
    found += <i32>ni;
  }
  return found;
}

/** Adds the push (x, y) in `u` and the count c to the sums of `slot`. */
function addSlot(sums: usize, slot: i32, u: v128, c: f64): void {
  const q = sums + ((<usize>slot) << 5);
  v128.store(q, f64x2.add(v128.load(q), u));
  store<f64>(q, load<f64>(q, 16) + c, 16);
}

/** addPair of slots i, j where `hit` (a lane of the exact test) is set; returns 1 if so, else 0. */
function pairOne(
  xy: usize,
  ids: usize,
  sums: usize,
  i: i32,
  j: i32,
  hit: i64,
  s: f64,
  inverse: f64,
  radius: f64,
): i32 {
  if (hit === 0) return 0;
  addPair(xy, ids, sums, i, j, s, inverse, radius);
  return 1;
}
