// One pair of slots added one by one (see kernels/separation.ts).

import { IDS, RADIUS, SCALE, SUMS, TOUCH_SHIFT, TOUCHED, XY } from './call';

/**
 * Adds the pair of slots i, j (one by one: coincident or nearly so, so the lanes' math does not apply) to the
 * sums at SUMS of the call's record `c` (call.ts); `inverse` is 1 / (RADIUS SCALE).
 */
export function addPair(c: usize, i: i32, j: i32, inverse: f64): void {
  const xy = load<usize>(c, XY);
  const ids = load<usize>(c, IDS);
  const sums = load<usize>(c, SUMS);
  const s = load<f64>(c, SCALE);
  const radius = load<f64>(c, RADIUS);
  const pi = xy + ((<usize>i) << 4);
  const pj = xy + ((<usize>j) << 4);
  const ex = load<f64>(pj) - load<f64>(pi);
  const ey = load<f64>(pj, 8) - load<f64>(pi, 8);
  const dx = ex * s;
  const dy = ey * s;
  const d2 = dx * dx + dy * dy;
  let ux: f64 = 0;
  let uy: f64 = 0;
  if (d2 > 0) {
    const w = 1 / Math.sqrt(d2) - inverse;
    ux = dx * w;
    uy = dy * w;
  } else if (ex === 0 && ey === 0) {
    ux = load<i32>(ids + ((<usize>i) << 2)) < load<i32>(ids + ((<usize>j) << 2)) ? 1 : -1;
  } else {
    // The scaled square underflowed: the exact differences.
    const w = 1 / Math.hypot(ex, ey) - 1 / radius;
    ux = ex * w;
    uy = ey * w;
  }
  addSums(sums, i, -ux, -uy, 1);
  addSums(sums, j, ux, uy, 1);
}

/** Adds the push (x, y) in `u` and the count c to the sums record at byte address `q`. */
export function addAt(q: i32, u: v128, c: f64): void {
  v128.store(<usize>q, f64x2.add(v128.load(<usize>q), u));
  store<f64>(<usize>q, load<f64>(<usize>q, 16) + c, 16);
}

/** Adds (x, y) and c to the sums of slot i (records of 32 bytes: f64 sum x, sum y, count, unused). */
export function addSums(sums: usize, i: i32, x: f64, y: f64, c: f64): void {
  const p = sums + ((<usize>i) << 5);
  v128.store(p, f64x2.add(v128.load(p), f64x2(x, y)));
  store<f64>(p, load<f64>(p, 16) + c, 16);
}

/**
 * Marks the blocks of slots [from, to) in the call's TOUCHED bytes (call.ts): records of those slots may be
 * written. Nothing for an empty range.
 */
export function markTouched(c: usize, from: i32, to: i32): void {
  if (from >= to) return;
  const touched = load<usize>(c, TOUCHED);
  for (let b = from >> TOUCH_SHIFT; b <= (to - 1) >> TOUCH_SHIFT; b++) store<u8>(touched + <usize>b, 1);
}
