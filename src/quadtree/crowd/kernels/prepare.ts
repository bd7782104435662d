// Once per call, before the rows (see kernels/row.ts): every slot's offset from one origin for the whole
// tree, in f32, so that a row is built by copying instead of converting each item again for every leaf it
// is a partner of (about five times).

import { PREP, RADIUS, SLOTS, XY } from './call';

/** Entries per array of the prepared region (the slots, padding for four-wide copies, rounded to 4). */
export function prepCap(slots: i32): usize {
  return (<usize>slots + 8 + 3) & ~(<usize>3);
}

/** Bytes of the prepared region for `slots` slots. */
export function prepBytes(slots: i32): usize {
  return 16 + (prepCap(slots) << 3);
}

/**
 * Writes at PREP (call.ts: the call's record `c`) the reach of the rows' first pass (f32; 0 where the rows
 * must convert for themselves), then at PREP + 16 the f32 offsets (x - x0) h of the SLOTS slots at XY and
 * after prepCap(slots) entries the y ones, x0, y0 the middle of their extent and h the power of two with
 * RADIUS h in [1, 2). The offsets are then within 4096 where that holds of the extent (else reach 0): the
 * f32 distance of two items within reach is then off by less than 2^-9 of the radius, so a square wider by
 * 2^-8 keeps every pair within reach (docs/crowd.md has the bound).
 */
export function prepare(c: usize): void {
  const xy = load<usize>(c, XY);
  const slots = load<i32>(c, SLOTS);
  const radius = load<f64>(c, RADIUS);
  const prep = load<usize>(c, PREP);
  store<f32>(prep, 0);
  const h = rowScale(radius);
  if (!(h > 0) || slots <= 0) return;
  let lo = f64x2.splat(Infinity);
  let hi = f64x2.splat(-Infinity);
  for (let i = 0; i < slots; i++) {
    const v = v128.load(xy + ((<usize>i) << 4));
    lo = f64x2.pmin(lo, v);
    hi = f64x2.pmax(hi, v);
  }
  const span = f64x2.mul(f64x2.sub(hi, lo), f64x2.splat(h));
  if (!(Math.max(f64x2.extract_lane(span, 0), f64x2.extract_lane(span, 1)) <= 4096)) return;
  const half = f64x2.splat(0.5);
  const mid = f64x2.add(f64x2.mul(lo, half), f64x2.mul(hi, half));
  const hv = f64x2.splat(h);
  const gx = prep + 16;
  const gy = gx + (prepCap(slots) << 2);
  for (let i = 0; i < slots; i++) {
    const f = f32x4.demote_f64x2_zero(f64x2.mul(f64x2.sub(v128.load(xy + ((<usize>i) << 4)), mid), hv));
    store<f32>(gx + ((<usize>i) << 2), f32x4.extract_lane(f, 0));
    store<f32>(gy + ((<usize>i) << 2), f32x4.extract_lane(f, 1));
  }
  store<f32>(prep, <f32>(radius * h * (radius * h) * (1 + 1.0 / 256)));
}

/**
 * The power of two h with radius h in [1, 2), or 0 where there is none in range (radius 0, subnormal or
 * so large that h would be subnormal): then the first pass lists every candidate.
 */
export function rowScale(radius: f64): f64 {
  const e = <i32>((reinterpret<u64>(radius) >> 52) & 0x7ff);
  // radius = m 2^(e - 1023), so h = 2^(1023 - e); its biased exponent 2046 - e must be 1..2046.
  if (e === 0 || e === 0x7ff || e === 2046) return 0;
  return reinterpret<f64>((<u64>(2046 - e)) << 52);
}
