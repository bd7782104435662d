// One leaf against all its partners at once (see kernels/separation.ts): the items of leaf a and of the
// leaves it is paired with are gathered into one row, and each item of a scans the rest of the row in two
// passes. The first tests four candidates at a time in f32x4 lanes on f32 offsets (prepare.ts's, or the
// row's own from a's first item) and lists every candidate that may be within reach (a test made wider than
// the radius by more than its rounding error can reach, so no pair within reach is ever left out: the
// bound is in docs/crowd.md). The second takes the listed candidates four at a time in two f64x2 chains and
// applies the exact rule of src/quadtree/separation.ts to them (the same f64 differences, square and
// comparison as the JavaScript kernel), then the push math. So the pairs found are exactly the JavaScript
// kernel's, and the square root and division run on about a third of the candidates. The items go in
// batches: the first pass of each item of a batch, then the second pass of each, back to back.

import { addPair } from './pair';
import { buildRow } from './rowBuild';

/**
 * The row's layout in `temp`, per entry, with `cap` = rowCap(slots) entries per array:
 *   rx, ry  f32 offsets (x - x0) h, (y - y0) h, h a power of two with radius h in [1, 2) and x0, y0 the
 *           middle of the items' extent (prepared) or a's first item
 *   slot    i32 the item's slot; before the passes, the byte address of its f64 x, y (xy + 16 slot), from
 *           which the second pass reads x, y and finds the sums record (sums + 32 slot)
 *   hits    per item of a batch: the length of its list, then the addresses the first pass listed, padded
 *           to a multiple of 4 with the padding slot's
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
  // Loop constants (80 bytes: reach, r2, 1 / (radius s), s, 1), read from memory in the loops (TurboFan
  // otherwise recomputes a division every step, or a constant's four instructions); the last 16 hold the
  // reach of buildRow (rowBuild.ts) until it is read.
  const kc = temp;
  const rx = temp + 80;
  const ry = rx + (cap << 2);
  const rs = ry + (cap << 2);
  const hits = rs + (cap << 2);
  let m = buildRow(xy, start, count, list, k, k2, a, sa, na, slots, radius, prep, rx, ry, rs);
  const self = m < 0;
  if (self) m = ~m;
  const reach = load<f32>(rx - 16);
  // The row's slots as the byte addresses of their x, y (xy + 16 slot): the lists of the first pass then
  // hold addresses, and the second pass loads a candidate's x, y without a shift and an add.
  const xyv = i32x4.splat(<i32>xy);
  for (let t = 0; t < m + 4; t += 4) {
    const o = rs + ((<usize>t) << 2);
    v128.store(o, i32x4.add(i32x4.shl(v128.load(o), 4), xyv));
  }
  const pad = <i32>xy + (slots << 4);
  // A slot's sums from the address a of its x, y: sums + 32 slot = 2 a + (sums - 2 xy).
  const toSums = <i32>sums - ((<i32>xy) << 1);
  const rsc = radius * s;
  const inverse = 1 / rsc;
  v128.store(kc, f32x4.splat(reach));
  v128.store(kc, f64x2.splat(rsc * rsc), 16);
  v128.store(kc, f64x2.splat(inverse), 32);
  v128.store(kc, f64x2.splat(s), 48);
  v128.store(kc, f64x2.splat(1), 64);
  const zero = f64x2.splat(0);
  let found: i32 = 0;
  // The items in batches: the first pass of every item of a batch, then the second pass of each (so that
  // the second passes of consecutive items, long waits on the square root and division, overlap instead of
  // each waiting behind the next item's first pass). An item's list at hits + off: its length, then the
  // listed addresses, padded to a multiple of 4.
  let p0 = 0;
  while (p0 < na) {
    let off = 0;
    let p1 = p0;
    while (p1 < na && off + m + 8 <= <i32>cap) {
      const xi = f32x4.splat(load<f32>(rx + ((<usize>p1) << 2)));
      const yi = f32x4.splat(load<f32>(ry + ((<usize>p1) << 2)));
      // First pass: the candidates that may be within reach, listed (branch-free).
      const list = hits + ((<usize>off + 1) << 2);
      let nh = 0;
      for (let t = self ? p1 + 1 : na; t < m; t += 4) {
        const dx = f32x4.sub(v128.load(rx + ((<usize>t) << 2)), xi);
        const dy = f32x4.sub(v128.load(ry + ((<usize>t) << 2)), yi);
        const d2 = f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy));
        const bits = i32x4.bitmask(f32x4.le(d2, v128.load(kc)));
        const slot4 = v128.load(rs + ((<usize>t) << 2));
        v128.store(
          list + ((<usize>nh) << 2),
          i8x16.swizzle(slot4, v128.load(COMPACT + ((<usize>bits) << 4))),
        );
        nh += <i32>popcnt(bits);
      }
      // Lanes past m (a start not a multiple of 4 from m) read pads: never listed. The count is rounded
      // up to a multiple of 4 with the pad's entry.
      v128.store(list + ((<usize>nh) << 2), i32x4.splat(pad));
      store<i32>(hits + ((<usize>off) << 2), nh);
      off += 1 + ((nh + 3) & ~3);
      p1++;
    }
    off = 0;
    for (let p = p0; p < p1; p++) {
      const nh = load<i32>(hits + ((<usize>off) << 2));
      const list = hits + ((<usize>off + 1) << 2);
      off += 1 + ((nh + 3) & ~3);
      // Second pass: the exact rule and the push, four listed candidates at a time (two independent f64x2
      // chains: the square root and division are slow, and the steps per item few), into the slots' sums.
      // No call inside the loop (TurboFan would spill every value live across it, on every step): the rare
      // pairs (coincident, or a square that underflowed) are masked out here and listed again at the front
      // of the item's list (entries already read: at most four per step of four), then added one by one
      // after the loop.
      const ai = load<i32>(rs + ((<usize>p) << 2));
      const pe = v128.load(<usize>ai);
      let n = zero;
      let px = zero;
      let py = zero;
      let nr = 0;
      for (let q = 0; q < nh; q += 4) {
        const hq = list + ((<usize>q) << 2);
        const a0 = load<i32>(hq);
        const a1 = load<i32>(hq, 4);
        const a2 = load<i32>(hq, 8);
        const a3 = load<i32>(hq, 12);
        // (x, y) of each candidate minus the item's: the JavaScript kernel's differences, then in lanes.
        const e0 = f64x2.sub(v128.load(<usize>a0), pe);
        const e1 = f64x2.sub(v128.load(<usize>a1), pe);
        const e2 = f64x2.sub(v128.load(<usize>a2), pe);
        const e3 = f64x2.sub(v128.load(<usize>a3), pe);
        let dxa = v128.shuffle<f64>(e0, e1, 0, 2);
        let dya = v128.shuffle<f64>(e0, e1, 1, 3);
        let dxb = v128.shuffle<f64>(e2, e3, 0, 2);
        let dyb = v128.shuffle<f64>(e2, e3, 1, 3);
        // Times s, unless s is 1 (distanceScale: a power of two other than 1 only where r² would underflow
        // or overflow). Its bits read from memory: a test of a local TurboFan makes again in the loop, with
        // the constant 1 built each time.
        if (load<i64>(kc, 48) !== 0x3ff0000000000000) {
          const sv = v128.load(kc, 48);
          dxa = f64x2.mul(dxa, sv);
          dya = f64x2.mul(dya, sv);
          dxb = f64x2.mul(dxb, sv);
          dyb = f64x2.mul(dyb, sv);
        }
        const d2a = f64x2.add(f64x2.mul(dxa, dxa), f64x2.mul(dya, dya));
        const d2b = f64x2.add(f64x2.mul(dxb, dxb), f64x2.mul(dyb, dyb));
        const r2 = v128.load(kc, 16);
        let ha = f64x2.le(d2a, r2);
        let hb = f64x2.le(d2b, r2);
        // A square of 0 in either chain: pmin(a, b) keeps a's lane unless b's is smaller, and a lane of a is
        // a pad (NaN) only where b's is too, the pads being last. One test on most steps instead of four.
        if (v128.any_true(f64x2.eq(f64x2.pmin(d2a, d2b), zero))) {
          // A square of 0 is within reach (r2 >= 0).
          const za = f64x2.eq(d2a, zero);
          const zb = f64x2.eq(d2b, zero);
          store<i32>(list + ((<usize>nr) << 2), a0);
          nr -= <i32>i64x2.extract_lane(za, 0);
          store<i32>(list + ((<usize>nr) << 2), a1);
          nr -= <i32>i64x2.extract_lane(za, 1);
          store<i32>(list + ((<usize>nr) << 2), a2);
          nr -= <i32>i64x2.extract_lane(zb, 0);
          store<i32>(list + ((<usize>nr) << 2), a3);
          nr -= <i32>i64x2.extract_lane(zb, 1);
          ha = v128.andnot(ha, za);
          hb = v128.andnot(hb, zb);
        }
        // A lane out of reach (listed by the wider test, a pad, or a rare pair) computes a weight too,
        // masked to 0.
        const one = v128.load(kc, 64);
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
        addAt((a0 << 1) + toSums, v128.shuffle<f64>(uxa, uya, 0, 2), f64x2.extract_lane(ca, 0));
        addAt((a1 << 1) + toSums, v128.shuffle<f64>(uxa, uya, 1, 3), f64x2.extract_lane(ca, 1));
        addAt((a2 << 1) + toSums, v128.shuffle<f64>(uxb, uyb, 0, 2), f64x2.extract_lane(cb, 0));
        addAt((a3 << 1) + toSums, v128.shuffle<f64>(uxb, uyb, 1, 3), f64x2.extract_lane(cb, 1));
      }
      const ni = f64x2.extract_lane(n, 0) + f64x2.extract_lane(n, 1);
      addAt(
        (ai << 1) + toSums,
        f64x2.add(v128.shuffle<f64>(px, py, 0, 2), v128.shuffle<f64>(px, py, 1, 3)),
        ni,
      );
      found += <i32>ni;
      const si = (ai - <i32>xy) >> 4;
      for (let q = 0; q < nr; q++) {
        const sj = (load<i32>(list + ((<usize>q) << 2)) - <i32>xy) >> 4;
        addPair(xy, ids, sums, si, sj, s, inverse, radius);
      }
      found += nr;
    }
    p0 = p1;
  }
  return found;
}

/** Adds the push (x, y) in `u` and the count c to the sums record at byte address `q`. */
function addAt(q: i32, u: v128, c: f64): void {
  v128.store(<usize>q, f64x2.add(v128.load(<usize>q), u));
  store<f64>(<usize>q, load<f64>(<usize>q, 16) + c, 16);
}
