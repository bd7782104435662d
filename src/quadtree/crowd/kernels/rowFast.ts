// The second pass of a row (row.ts) at the fast precision (PRECISION 1, call.ts): the same exact f64 rule
// decides which pairs are within reach (so the counts and pairs are the exact pass's), and only the weight
// 1 / d of each pair is taken in f32x4 lanes, four pairs with one square root and one division where the
// exact pass takes two of each in f64x2 lanes (what it saves, measured: docs/crowd.md). The rest stays
// f64: the differences, the weight's 1 / (r s), the push dx w and the sums. The bound on the error (a push
// off by at most 2.5 2^-24 of its greatest length, 1) is in docs/crowd.md; the host (../wasm.ts) asks for
// this pass only where (r s)^2 is in [2^-100, 2^120], so that every square within reach that is not rare
// (below TINY) is a normal f32.

import { RADIUS, SCALE, SLOTS, SUMS, TEMP, XY } from './call';
import { addAt, addPair } from './pair';
import { rowCap, rowX } from './rowLayout';

/** Four f32 ones, and two f64 2^-120: squares below it go one by one in f64 (coincident or nearly so). */
const ONES = memory.data<f32>([1, 1, 1, 1], 16);
const TINY = memory.data<f64>([7.52316384526264e-37, 7.52316384526264e-37], 16);

/**
 * The second pass of a batch's items p0..p1-1, as row.ts's exactBatch (the same lists, the same exact
 * rule, the same masks, the same rare pairs, added one by one in f64), but the weight 1 / d - 1 / (r s) of
 * the four candidates of a step from one f32x4 square root and division of their squares (rounded to
 * f32), the subtraction and the rest in f64 (lanes out of reach or rare give 0, Infinity or NaN there:
 * masked to 0). Rare here: a square below TINY (2^-120), not only 0, so that every square the lanes take is
 * a normal f32 (a pad's NaN is below nothing; a lane out of reach is above r2 >= 2^-100 > TINY). Returns
 * the pairs.
 */
export function fastBatch(c: usize, p0: i32, p1: i32): i32 {
  const xy = load<usize>(c, XY);
  const kc = load<usize>(c, TEMP);
  const cap = rowCap(load<i32>(c, SLOTS));
  const rs = rowX(kc) + (cap << 3);
  const hits = rs + (cap << 2);
  // A slot's sums from the address a of its x, y: sums + 32 slot = 2 a + (sums - 2 xy).
  const toSums = <i32>load<usize>(c, SUMS) - ((<i32>xy) << 1);
  const zero = f64x2.splat(0);
  let found: i32 = 0;
  let off = 0;
  for (let p = p0; p < p1; p++) {
    const nh = load<i32>(hits + ((<usize>off) << 2));
    const list = hits + ((<usize>off + 1) << 2);
    off += 1 + ((nh + 3) & ~3);
    const ai = load<i32>(rs + ((<usize>p) << 2));
    const pe = v128.load(<usize>ai);
    let n = zero;
    let px = zero;
    let py = zero;
    let nr = 0;
    for (let q = 0; q < nh; q += 4) {
      const a0 = load<i32>(list + ((<usize>q) << 2));
      const a1 = load<i32>(list + ((<usize>q) << 2), 4);
      const a2 = load<i32>(list + ((<usize>q) << 2), 8);
      const a3 = load<i32>(list + ((<usize>q) << 2), 12);
      const e0 = f64x2.sub(v128.load(<usize>a0), pe);
      const e1 = f64x2.sub(v128.load(<usize>a1), pe);
      const e2 = f64x2.sub(v128.load(<usize>a2), pe);
      const e3 = f64x2.sub(v128.load(<usize>a3), pe);
      let dxa = v128.shuffle<f64>(e0, e1, 0, 2);
      let dya = v128.shuffle<f64>(e0, e1, 1, 3);
      let dxb = v128.shuffle<f64>(e2, e3, 0, 2);
      let dyb = v128.shuffle<f64>(e2, e3, 1, 3);
      if (load<i64>(kc, 48) !== 0x3ff0000000000000) {
        const sv = v128.load(kc, 48);
        dxa = f64x2.mul(dxa, sv);
        dya = f64x2.mul(dya, sv);
        dxb = f64x2.mul(dxb, sv);
        dyb = f64x2.mul(dyb, sv);
      }
      const d2a = f64x2.add(f64x2.mul(dxa, dxa), f64x2.mul(dya, dya));
      const d2b = f64x2.add(f64x2.mul(dxb, dxb), f64x2.mul(dyb, dyb));
      let ha = f64x2.le(d2a, v128.load(kc, 16));
      let hb = f64x2.le(d2b, v128.load(kc, 16));
      if (v128.any_true(f64x2.lt(f64x2.pmin(d2a, d2b), v128.load(TINY)))) {
        const za = f64x2.lt(d2a, v128.load(TINY));
        const zb = f64x2.lt(d2b, v128.load(TINY));
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
      const d4a = f32x4.demote_f64x2_zero(d2a);
      const d4 = v128.shuffle<i32>(d4a, f32x4.demote_f64x2_zero(d2b), 0, 1, 4, 5);
      const k4 = f32x4.div(v128.load(ONES), f32x4.sqrt(d4));
      const wa = f64x2.sub(f64x2.promote_low_f32x4(k4), v128.load(kc, 32));
      const wb = f64x2.sub(f64x2.promote_low_f32x4(v128.shuffle<i32>(k4, k4, 2, 3, 2, 3)), v128.load(kc, 32));
      const uxa = v128.and(f64x2.mul(dxa, wa), ha);
      const uya = v128.and(f64x2.mul(dya, wa), ha);
      const uxb = v128.and(f64x2.mul(dxb, wb), hb);
      const uyb = v128.and(f64x2.mul(dyb, wb), hb);
      const ca = v128.and(v128.load(kc, 64), ha);
      const cb = v128.and(v128.load(kc, 64), hb);
      n = f64x2.add(n, f64x2.add(ca, cb));
      px = f64x2.sub(px, f64x2.add(uxa, uxb));
      py = f64x2.sub(py, f64x2.add(uya, uyb));
      addAt((a0 << 1) + toSums, v128.shuffle<f64>(uxa, uya, 0, 2), f64x2.extract_lane(ca, 0));
      addAt((a1 << 1) + toSums, v128.shuffle<f64>(uxa, uya, 1, 3), f64x2.extract_lane(ca, 1));
      addAt((a2 << 1) + toSums, v128.shuffle<f64>(uxb, uyb, 0, 2), f64x2.extract_lane(cb, 0));
      addAt((a3 << 1) + toSums, v128.shuffle<f64>(uxb, uyb, 1, 3), f64x2.extract_lane(cb, 1));
    }
    const ni = f64x2.extract_lane(n, 0) + f64x2.extract_lane(n, 1);
    const own = f64x2.add(v128.shuffle<f64>(px, py, 0, 2), v128.shuffle<f64>(px, py, 1, 3));
    addAt((ai << 1) + toSums, own, ni);
    found += <i32>ni + addRareFast(c, list, nr, ai);
  }
  return found;
}

/**
 * row.ts's addRare (the rare pairs of an item, one by one in f64), a copy: binaryen inlines a function with a
 * loop only where it has one caller, and a call per item makes V8 spill the item loop's values.
 */
function addRareFast(c: usize, list: usize, nr: i32, ai: i32): i32 {
  const xy = <i32>load<usize>(c, XY);
  const inverse = 1 / (load<f64>(c, RADIUS) * load<f64>(c, SCALE));
  const si = (ai - xy) >> 4;
  for (let q = 0; q < nr; q++) addPair(c, si, (load<i32>(list + ((<usize>q) << 2)) - xy) >> 4, inverse);
  return nr;
}
