// One leaf against all its partners at once (see kernels/separation.ts): the items of leaf a and of the
// leaves it is paired with are gathered into one row, and each item of a scans the rest of the row in two
// passes. The first tests four candidates at a time in f32x4 lanes on f32 offsets (prepare.ts's, or the
// row's own from a's first item) and lists every candidate that may be within reach (a test made wider than
// the radius by more than its rounding error can reach, so no pair within reach is ever left out: the
// bound is in docs/crowd.md). The second takes the listed candidates four at a time in two f64x2 chains and
// applies the exact rule of src/quadtree/crowd/separation.ts to them (the same f64 differences, square and
// comparison as the JavaScript kernel), then the push math. So the pairs found are exactly the JavaScript
// kernel's, and the square root and division run on about a third of the candidates. The items go in
// batches: the first pass of each item of a batch, then the second pass of each, back to back.

import { COUNT, PRECISION, RADIUS, SCALE, SLOTS, SUMS, TEMP, XY } from './call';
import { addAt, addPair } from './pair';
import { buildRow } from './rowBuild';
import { COMPACT, rowCap, rowX } from './rowLayout';

/**
 * The pairs k..k2-1 of the grouped list (SORTED), all with first leaf a (not wide; see accumulate), on the
 * call's record `c` (call.ts): every pair of items within reach adds to the slot sums at SUMS. Returns the
 * pairs found. Phases: build the row (rowBuild.ts), set it up for the passes (loop constants, addresses),
 * then per batch of a's items the first pass of each (listBatch), then the second of each (secondPass, at the call's precision).
 */
export function rowJoin(c: usize, k: i32, k2: i32, a: i32): i32 {
  const na = load<i32>(load<usize>(c, COUNT) + ((<usize>a) << 2));
  if (na === 0) return 0;
  let m = buildRow(c, k, k2, a);
  const self = m < 0;
  if (self) m = ~m;
  setUpRow(c, m);
  let found: i32 = 0;
  // PRECISION 1: the second pass with the weights in f32x4 lanes (secondPass<f32>); the same pairs.
  const fast = load<i32>(c, PRECISION) !== 0;
  // The items in batches: the first pass of every item of a batch, then the second pass of each (so that
  // the second passes of consecutive items, long waits on the square root and division, overlap instead of
  // each waiting behind the next item's first pass).
  let p0 = 0;
  while (p0 < na) {
    const p1 = listBatch(c, p0, na, m, self);
    found += fast ? secondPass<f32>(c, p0, p1) : secondPass<f64>(c, p0, p1);
    p0 = p1;
  }
  return found;
}

/**
 * The row of length `m` made ready for its passes: its slots turned into the byte addresses of their x, y
 * (xy + 16 slot: the lists of the first pass then hold addresses, and the second pass loads a candidate's
 * x, y without a shift and an add), and the loop constants written at TEMP (80 bytes: reach, r2,
 * 1 / (radius s), s, 1), read from memory in the loops (TurboFan otherwise recomputes a division every
 * step, or a constant's four instructions).
 */
function setUpRow(c: usize, m: i32): void {
  const xy = load<usize>(c, XY);
  const radius = load<f64>(c, RADIUS);
  const s = load<f64>(c, SCALE);
  const kc = load<usize>(c, TEMP);
  const rx = rowX(kc);
  const rs = rx + (rowCap(load<i32>(c, SLOTS)) << 3);
  // buildRow's reach, in the last 16 bytes of the constants until read here.
  const reach = load<f32>(rx - 16);
  const xyv = i32x4.splat(<i32>xy);
  for (let t = 0; t < m + 4; t += 4) {
    const o = rs + ((<usize>t) << 2);
    v128.store(o, i32x4.add(i32x4.shl(v128.load(o), 4), xyv));
  }
  const rsc = radius * s;
  v128.store(kc, f32x4.splat(reach));
  v128.store(kc, f64x2.splat(rsc * rsc), 16);
  v128.store(kc, f64x2.splat(1 / rsc), 32);
  v128.store(kc, f64x2.splat(s), 48);
  v128.store(kc, f64x2.splat(1), 64);
}

/**
 * The first pass of a's items from p0 on, as many as the hits region holds: each lists (branch-free) the
 * candidates of the row that may be within reach (the f32 test, wider than its rounding can reach), at
 * hits + off: the list's length, then the listed addresses, padded to a multiple of 4 with the pad's.
 * Returns the item after the batch's last.
 */
function listBatch(c: usize, p0: i32, na: i32, m: i32, self: bool): i32 {
  const kc = load<usize>(c, TEMP);
  const slots = load<i32>(c, SLOTS);
  const cap = rowCap(slots);
  const rx = rowX(kc);
  const ry = rx + (cap << 2);
  const rs = ry + (cap << 2);
  const hits = rs + (cap << 2);
  const pad = <i32>load<usize>(c, XY) + (slots << 4);
  let off = 0;
  let p1 = p0;
  while (p1 < na && off + m + 8 <= <i32>cap) {
    const xi = f32x4.splat(load<f32>(rx + ((<usize>p1) << 2)));
    const yi = f32x4.splat(load<f32>(ry + ((<usize>p1) << 2)));
    const list = hits + ((<usize>off + 1) << 2);
    let nh = 0;
    for (let t = self ? p1 + 1 : na; t < m; t += 4) {
      const dx = f32x4.sub(v128.load(rx + ((<usize>t) << 2)), xi);
      const dy = f32x4.sub(v128.load(ry + ((<usize>t) << 2)), yi);
      const d2 = f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy));
      const bits = i32x4.bitmask(f32x4.le(d2, v128.load(kc)));
      const slot4 = v128.load(rs + ((<usize>t) << 2));
      v128.store(list + ((<usize>nh) << 2), i8x16.swizzle(slot4, v128.load(COMPACT + ((<usize>bits) << 4))));
      nh += <i32>popcnt(bits);
    }
    // Lanes past m (a start not a multiple of 4 from m) read pads: never listed. The count is rounded
    // up to a multiple of 4 with the pad's entry.
    v128.store(list + ((<usize>nh) << 2), i32x4.splat(pad));
    store<i32>(hits + ((<usize>off) << 2), nh);
    off += 1 + ((nh + 3) & ~3);
    p1++;
  }
  return p1;
}

/**
 * A square below the first of these is rare (secondPass): at the exact precision the least f64 above 0, so
 * that only a square of 0 is (the squares are >= 0; a pad's NaN is below nothing); at the fast one 2^-120.
 */
const LEAST = memory.data<f64>([5e-324, 5e-324], 16);
const TINY = memory.data<f64>([7.52316384526264e-37, 7.52316384526264e-37], 16);
/** Four f32 ones (the fast precision's 1 / sqrt). */
const ONES = memory.data<f32>([1, 1, 1, 1], 16);

/** 1 / sqrt of four squares (two f64x2), rounded to f32, in one f32x4 root and one division. */
function inverseRoots(d2a: v128, d2b: v128): v128 {
  const d4 = v128.shuffle<i32>(f32x4.demote_f64x2_zero(d2a), f32x4.demote_f64x2_zero(d2b), 0, 1, 4, 5);
  return f32x4.div(v128.load(ONES), f32x4.sqrt(d4));
}

/** The upper two f32 lanes of `k4` as f64x2. */
function promoteHigh(k4: v128): v128 {
  return f64x2.promote_low_f32x4(v128.shuffle<i32>(k4, k4, 2, 3, 2, 3));
}

/**
 * The second pass of a batch's items p0..p1-1: each item's list at hits + off (its length, then the listed
 * addresses, padded to a multiple of 4), the item's x, y at the address in its slot entry. The exact rule and
 * the push, four listed candidates at a time (two independent f64x2 chains: the square root and division are
 * slow, and the steps per item few), into the slots' sums, the differences as the JavaScript kernel takes
 * them; times s unless s is 1 (its bits read from memory: a test of a local TurboFan makes again in the
 * loop, with the constant 1 built each time). No call inside the loop (TurboFan would spill every value live
 * across it, on every step): the rare pairs are masked out and listed again at the front of the item's list
 * (entries already read: at most four per step of four), then added one by one after it (in a loop of
 * its own after the item's, not a call: binaryen inlines no function with a loop that has two callers; its
 * 1 / (r s) is read there, as a value live across the item's loop would cost that loop a register). A lane
 * out of reach (listed by the wider test, a pad, or a rare pair) computes a weight too, masked to 0. Returns
 * the pairs.
 *
 * Two instances, by the type P of the weight's lanes (PRECISION in call.ts; which one is fixed when the
 * module is compiled, and each is a function of its own, so neither tests the precision in its loop):
 * - f64 (exact): 1 / d from two f64x2 square roots and divisions. Rare: a square of 0 (coincident, or a
 *   square that underflowed; one test of pmin(a, b) finds one in either chain, a lane of a being a pad only
 *   where b's is too; a square of 0 is within reach, r2 >= 0).
 * - f32 (fast): the same exact f64 rule decides which pairs are within reach (so the counts and pairs are
 *   the exact pass's), and only the weight 1 / d is taken in f32x4 lanes, four pairs with one square root and
 *   one division of their squares rounded to f32 (what it saves, measured: docs/crowd.md); the rest stays
 *   f64: the differences, the weight's 1 / (r s), the push dx w and the sums. The bound on the error (a push
 *   off by at most 2.5 2^-24 of its greatest length, 1) is in docs/crowd.md; the host (../wasm.ts) asks for
 *   this pass only where (r s)^2 is in [2^-100, 2^120], so that every square within reach that is not rare
 *   is a normal f32. Rare here: a square below TINY (2^-120), not only 0 (a pad's NaN is below nothing; a
 *   lane out of reach is above r2 >= 2^-100 > TINY); lanes out of reach or rare give 0, Infinity or NaN in
 *   f32: masked to 0.
 */
function secondPass<P>(c: usize, p0: i32, p1: i32): i32 {
  const fast = sizeof<P>() === 4;
  const xy = load<usize>(c, XY);
  const kc = load<usize>(c, TEMP);
  const cap = rowCap(load<i32>(c, SLOTS));
  const rs = rowX(kc) + (cap << 3);
  const hits = rs + (cap << 2);
  // A slot's sums from the address a of its x, y: sums + 32 slot = 2 a + (sums - 2 xy).
  const toSums = <i32>load<usize>(c, SUMS) - ((<i32>xy) << 1);
  const zero = f64x2.splat(0);
  const rare = fast ? TINY : LEAST;
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
      if (v128.any_true(f64x2.lt(f64x2.pmin(d2a, d2b), v128.load(rare)))) {
        const za = f64x2.lt(d2a, v128.load(rare));
        const zb = f64x2.lt(d2b, v128.load(rare));
        nr = listRare(list + ((<usize>nr) << 2), a0, a1, a2, a3, za, zb) + nr;
        ha = v128.andnot(ha, za);
        hb = v128.andnot(hb, zb);
      }
      const one = v128.load(kc, 64);
      // 1 / d of the four: at the fast precision from one f32x4 root and division (k4), else two of each.
      const k4 = fast ? inverseRoots(d2a, d2b) : zero;
      const ka = fast ? f64x2.promote_low_f32x4(k4) : f64x2.div(one, f64x2.sqrt(d2a));
      const kb = fast ? promoteHigh(k4) : f64x2.div(one, f64x2.sqrt(d2b));
      const wa = f64x2.sub(ka, v128.load(kc, 32));
      const wb = f64x2.sub(kb, v128.load(kc, 32));
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
    const own = f64x2.add(v128.shuffle<f64>(px, py, 0, 2), v128.shuffle<f64>(px, py, 1, 3));
    addAt((ai << 1) + toSums, own, ni);
    const si = (ai - <i32>xy) >> 4;
    for (let q = 0; q < nr; q++) {
      const inverse = 1 / (load<f64>(c, RADIUS) * load<f64>(c, SCALE));
      addPair(c, si, (load<i32>(list + ((<usize>q) << 2)) - <i32>xy) >> 4, inverse);
    }
    found += <i32>ni + nr;
  }
  return found;
}

/**
 * Lists the rare ones of a step's four candidates (a0..a3; za, zb: their lanes' masks, all ones where rare)
 * from `at` on, in their order; returns how many. Small and loop-free, so binaryen inlines it into both
 * instances of secondPass (a call in the loop would make V8 spill the loop's values on every step).
 */
function listRare(at: usize, a0: i32, a1: i32, a2: i32, a3: i32, za: v128, zb: v128): i32 {
  let n = 0;
  store<i32>(at, a0);
  n -= <i32>i64x2.extract_lane(za, 0);
  store<i32>(at + ((<usize>n) << 2), a1);
  n -= <i32>i64x2.extract_lane(za, 1);
  store<i32>(at + ((<usize>n) << 2), a2);
  n -= <i32>i64x2.extract_lane(zb, 0);
  store<i32>(at + ((<usize>n) << 2), a3);
  n -= <i32>i64x2.extract_lane(zb, 1);
  return n;
}
