/*
 * The pieces of a separation team's call (team.ts) that work on plain arrays: the cut of the leaf-pair list
 * by work, moving per-slot sums between the kernel and the shared buffer, and waiting for a helper.
 */

import { NODE } from './separation';
import { SEQ, type TeamViews } from './teamLayout';

/**
 * A spinning caller reads the clock once per this many + 1 spins (a tenth of a millisecond or so): each reading
 * is a new number object on the heap.
 */
const SPIN_CHECK = (1 << 16) - 1;

const clock = (globalThis as { performance?: { now(): number } }).performance;
export const now = (): number => (clock === undefined ? Date.now() : clock.now());

/**
 * Waits until control[word] is g, at most about `ms`; returns whether it got there. If `block`, sleeps in
 * Atomics.wait (the helpers notify when they store g; no clock is read, so nothing is allocated); else
 * spins on Atomics.load (a browser's main thread may not block), reading the clock once per SPIN_CHECK + 1
 * spins.
 */
export function waitFor(control: Int32Array, word: number, g: number, ms: number, block: boolean): boolean {
  if (block) {
    // A wake-up without g (none is expected: the word only ever changes to g) waits again, a few times.
    for (let tries = 0; tries < 4; tries++) {
      const value = Atomics.load(control, word);
      if (value === g) return true;
      if (Atomics.wait(control, word, value, ms) === 'timed-out') break;
    }
    return Atomics.load(control, word) === g;
  }
  let t0 = -1;
  let spins = 0;
  while (Atomics.load(control, word) !== g) {
    if ((++spins & SPIN_CHECK) !== 0) continue;
    if (t0 < 0) t0 = now();
    else if (now() - t0 > ms) return false;
  }
  return true;
}

/**
 * Whether this thread may block in Atomics.wait: a browser's main thread may not (it throws a TypeError
 * before comparing, so the probe, whose value differs, never blocks).
 */
export function blockingAllowed(control: Int32Array): boolean {
  try {
    Atomics.wait(control, SEQ, Atomics.load(control, SEQ) + 1, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Cuts the first `pairs` leaf pairs into `parts` ranges by work (items of a times items of b, half that
 * for a leaf with itself), the caller's (range 0) `share` times a helper's: range p is
 * [cuts[p], cuts[p + 1]).
 */
export function cutByWork(
  list: Int32Array,
  pairs: number,
  nodeCount: Int32Array,
  parts: number,
  share: number,
  cuts: Int32Array,
): void {
  let total = 0;
  for (let k = 0; k < pairs; k++) total += work(list, k, nodeCount);
  cuts[0] = 0;
  const unit = total / (share + parts - 1);
  let p = 1;
  let sum = 0;
  for (let k = 0; k < pairs && p < parts; k++) {
    sum += work(list, k, nodeCount);
    while (p < parts && sum >= unit * (share + p - 1)) cuts[p++] = k + 1;
  }
  while (p <= parts) cuts[p++] = pairs;
}

/*
 * The kernel keeps its per-slot sums as records (f64 sum x, sum y, count, unused: kernels/wasm.ts); the
 * shared regions hold three plain arrays per region. Measured at 100,000 slots (Node, CPU time): a helper's
 * strided copy of its records into the three arrays takes 0.15 ms against 0.12 ms for one copy of the
 * records, but the caller's adding of a region into its records then takes 0.11 ms against 0.25 ms from
 * records (0.55 ms adding all four entries): the caller's time is the frame's, so the helper converts.
 */

/** Per-slot records of the kernel (4 f64 per slot) into region r of the shared buffer: copied, or added. */
export function toRegion(records: Float64Array, v: TeamViews, r: number, add: boolean): void {
  const c = v.sumCount[r];
  const x = v.sumX[r];
  const y = v.sumY[r];
  const n = records.length >> 2;
  if (!add) {
    for (let i = 0; i < n; i++) {
      x[i] = records[4 * i];
      y[i] = records[4 * i + 1];
      c[i] = records[4 * i + 2];
    }
    return;
  }
  for (let i = 0; i < n; i++) {
    x[i] += records[4 * i];
    y[i] += records[4 * i + 1];
    c[i] += records[4 * i + 2];
  }
}

/** Region r's per-slot sums into the kernel's records (4 f64 per slot): added, or copied over them. */
export function addRegion(records: Float64Array, v: TeamViews, r: number, add: boolean): void {
  const c = v.sumCount[r];
  const x = v.sumX[r];
  const y = v.sumY[r];
  const n = records.length >> 2;
  if (add) {
    for (let i = 0; i < n; i++) {
      records[4 * i] += x[i];
      records[4 * i + 1] += y[i];
      records[4 * i + 2] += c[i];
    }
    return;
  }
  for (let i = 0; i < n; i++) {
    records[4 * i] = x[i];
    records[4 * i + 1] = y[i];
    records[4 * i + 2] = c[i];
  }
}

/** The work of leaf pair k: candidate item pairs (plus one, so that empty leaves cost something). */
function work(list: Int32Array, k: number, nodeCount: Int32Array): number {
  const a = list[2 * k] & NODE;
  const marked = list[2 * k + 1];
  const b = marked < 0 ? ~marked : marked;
  const na = nodeCount[a];
  return 1 + (a === b ? (na * (na - 1)) / 2 : na * nodeCount[b]);
}
