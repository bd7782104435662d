// Building one row (see kernels/row.ts): the items of leaf a, then those of each leaf it is paired with, as
// f32 offsets and slots, followed by four pads. Shared by the kernels that scan rows.

import { COUNT, PREP, RADIUS, SLOTS, SORTED, START, TEMP, XY } from './call';
import { markTouched } from './pair';
import { prepCap, rowScale } from './prepare';
import { rowCap, rowX } from './rowLayout';

/**
 * The row of leaf a and its partners (the pairs k..k2-1 of the grouped list at SORTED, all with first leaf
 * a; a pair (a, a) is a's own items, already first), on the call's record `c` (call.ts), into the row's
 * arrays in TEMP (row.ts: rx, ry f32 offsets and rs i32 slots, per entry), then four pad entries that no
 * test accepts (NaN; their slot is SLOTS, the padding slot past the last). Prepared (PREP != 0 and
 * prepare.ts's reach > 0): prepare.ts's offsets, copied four at a time; else offsets (x - x0) h from a's
 * first item x0, h the power of two with radius h in [1, 2). The first pass's reach (the f32 squared radius,
 * made wider than the f32 rounding can reach: docs/crowd.md has the bound) goes into the f32 16 bytes
 * before rx. The blocks of the row's slots are marked in TOUCHED (pair.ts's markTouched). Returns the row's
 * length, as ~length when the run holds (a, a).
 */
export function buildRow(c: usize, k: i32, k2: i32, a: i32): i32 {
  const xy = load<usize>(c, XY);
  const start = load<usize>(c, START);
  const count = load<usize>(c, COUNT);
  const list = load<usize>(c, SORTED);
  const slots = load<i32>(c, SLOTS);
  const radius = load<f64>(c, RADIUS);
  const prep = load<usize>(c, PREP);
  const sa = load<i32>(start + ((<usize>a) << 2));
  const na = load<i32>(count + ((<usize>a) << 2));
  const rx = rowX(load<usize>(c, TEMP));
  const ry = rx + (rowCap(slots) << 2);
  const rs = ry + (rowCap(slots) << 2);
  let reach: f32 = prep !== 0 ? load<f32>(prep) : 0;
  const prepared = reach > 0;
  const gx = prep + 16;
  const gy = gx + (prepCap(slots) << 2);
  const h = rowScale(radius);
  const origin = v128.load(xy + ((<usize>sa) << 4));
  const hv = f64x2.splat(h);
  // a's items first, then each partner's; unprepared, their offsets' largest magnitude bounds the f32 rounding.
  let m = 0;
  let big = f64x2.splat(0);
  let self = false;
  for (let q = k - 1; q < k2; q++) {
    let sb = sa;
    let eb = sa + na;
    if (q >= k) {
      const marked = load<i32>(list + ((<usize>q) << 3), 4);
      const b = marked < 0 ? ~marked : marked;
      if (b === a) {
        self = true;
        continue;
      }
      sb = load<i32>(start + ((<usize>b) << 2));
      eb = sb + load<i32>(count + ((<usize>b) << 2));
    }
    markTouched(c, sb, eb);
    if (prepared) {
      // Up to three entries past this leaf's are written too: the next leaf's, or the pads, overwrite them.
      for (let j = sb; j < eb; j += 4) {
        const o = (<usize>(m + j - sb)) << 2;
        v128.store(rx + o, v128.load(gx + ((<usize>j) << 2)));
        v128.store(ry + o, v128.load(gy + ((<usize>j) << 2)));
        v128.store(rs + o, i32x4.add(i32x4.splat(j), i32x4(0, 1, 2, 3)));
      }
    } else {
      for (let j = sb; j < eb; j++) {
        const u = f64x2.mul(f64x2.sub(v128.load(xy + ((<usize>j) << 4)), origin), hv);
        big = f64x2.pmax(big, f64x2.abs(u));
        const f = f32x4.demote_f64x2_zero(u);
        const o = (<usize>(m + j - sb)) << 2;
        store<f32>(rx + o, f32x4.extract_lane(f, 0));
        store<f32>(ry + o, f32x4.extract_lane(f, 1));
        store<i32>(rs + o, j);
      }
    }
    m += eb - sb;
  }
  if (!prepared) {
    // With offsets within 256 (radius h is 1 to 2) the f32 distance is off by less than 2^-12 of the radius,
    // so a square wider by 2^-10 keeps every pair within reach (docs/crowd.md has the bound). Offsets
    // larger, or no scale: every candidate is listed (the rx, ry of 0 always pass).
    reach = <f32>(radius * h * (radius * h) * (1 + 1.0 / 1024));
    if (!(h > 0 && Math.max(f64x2.extract_lane(big, 0), f64x2.extract_lane(big, 1)) <= 256)) {
      reach = Infinity;
      for (let t = 0; t < m; t++) {
        store<f32>(rx + ((<usize>t) << 2), 0);
        store<f32>(ry + ((<usize>t) << 2), 0);
      }
    }
  }
  store<f32>(rx - 16, reach);
  // Four pads: NaN fails every test. Their slot is the padding slot past the last, whose x, y are NaN
  // (set by the caller) and whose records take only masked zeros.
  for (let t = m; t < m + 4; t++) {
    store<f32>(rx + ((<usize>t) << 2), NaN);
    store<f32>(ry + ((<usize>t) << 2), NaN);
    store<i32>(rs + ((<usize>t) << 2), slots);
  }
  return self ? ~m : m;
}
