/*
 * The pieces of a separation team (team.ts) that work on plain arrays and values: the checks of its
 * arguments, the cut of the leaf-pair list by work, moving per-slot sums between the kernel and the shared
 * buffer, and waiting for a helper.
 */

import { checkOptionsObject, describe, NAME, optionFlag, optionNumber } from '../core/checks';
import { TOUCH_SHIFT } from '../crowd/kernels/call';
import { NODE } from '../query/leafPairs';
import { MAX_HELPERS, SEQ, type SeparationHelperMessage, type TeamViews } from './teamLayout';

/** A port's postMessage as read when the team was made (called with the port as `this`). */
export type PostMessage = (this: unknown, message: SeparationHelperMessage) => void;

/** A team's helpers and options, checked; each read once, so a Proxy or a getter cannot change them after. */
export interface TeamArgs {
  readonly ports: readonly object[];
  readonly posts: readonly PostMessage[];
  readonly patienceMs: number;
  readonly minPairs: number;
  readonly claimWaitMs: number;
  readonly timing: boolean;
  readonly spin: boolean;
}

/**
 * Checks a SeparationTeam's helpers (an array of objects with a postMessage method, at most MAX_HELPERS)
 * and options (an object or undefined; numbers, and true / false for the flags), reading each once.
 * @throws TypeError for helpers that are not such an array, options that are not an object, an option of
 *   the wrong type, or an engine without SharedArrayBuffer; RangeError for too many helpers or a number
 *   out of range. Every message names the argument and the value (worded by describe).
 */
export function checkTeamArgs(helpers: unknown, options: unknown): TeamArgs {
  if (!Array.isArray(helpers)) {
    throw new TypeError(
      `${NAME}: helpers must be an array of ports with postMessage, got ${describe(helpers)}`,
    );
  }
  const n = helpers.length;
  if (n > MAX_HELPERS) throw new RangeError(`${NAME}: a team takes at most ${MAX_HELPERS} helpers, got ${n}`);
  const ports: object[] = [];
  const posts: PostMessage[] = [];
  for (let k = 0; k < n; k++) {
    const port: unknown = helpers[k];
    const post =
      port !== null && typeof port === 'object' ? (port as { postMessage?: unknown }).postMessage : 0;
    if (typeof post !== 'function') {
      throw new TypeError(`${NAME}: helpers[${k}] must have a postMessage method, got ${describe(port)}`);
    }
    ports.push(port as object);
    posts.push(post as PostMessage);
  }
  if (n > 0 && typeof SharedArrayBuffer === 'undefined') {
    throw new TypeError(
      `${NAME}: a team needs SharedArrayBuffer, which this engine lacks (a browser page must be cross-origin isolated)`,
    );
  }
  const o = checkOptionsObject(options, true) as Record<string, unknown>;
  const patienceMs = milliseconds('options.patienceMs', o.patienceMs, 250);
  const claimWaitMs = milliseconds('options.claimWaitMs', o.claimWaitMs, 0);
  const minPairs = optionNumber('options.minPairs', o.minPairs, 256);
  if (!Number.isInteger(minPairs) || minPairs < 0) {
    throw new RangeError(`${NAME}: options.minPairs must be an integer >= 0, got ${describe(minPairs)}`);
  }
  const timing = optionFlag('options.timing', o.timing);
  const spin = optionFlag('options.spin', o.spin);
  return { ports, posts, patienceMs, minPairs, claimWaitMs, timing, spin };
}

/** A duration option, ms: a finite number >= 0 (`fallback` where undefined). */
function milliseconds(name: string, value: unknown, fallback: number): number {
  const ms = optionNumber(name, value, fallback);
  if (!(ms >= 0) || ms === Number.POSITIVE_INFINITY) {
    throw new RangeError(`${NAME}: ${name} must be a finite number >= 0, got ${describe(ms)}`);
  }
  return ms;
}

/**
 * Calls `exited(k)` once helper k's thread has ended, where its port says so: a port with `once` (a Node
 * worker_threads Worker) emits 'exit'. A Web Worker says nothing when it ends; the team notices such a
 * helper by the hand-overs it misses (team.ts).
 */
export function watchExits(ports: readonly object[], exited: (k: number) => void): void {
  ports.forEach((port, k) => {
    const once = (port as { once?: unknown }).once;
    if (typeof once === 'function') once.call(port, 'exit', () => exited(k));
  });
}

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
 * Cuts the first `pairs` leaf pairs into `parts` ranges by work (items of a times items of b, n (n - 1) / 2
 * for a leaf of n items with itself, plus one per pair), the caller's (range 0) `share` times a helper's:
 * range p is [cuts[p], cuts[p + 1]), cut after the first pair whose running total of work reaches p's goal.
 * `prefix` holds at least pairs + 1 entries (the running totals; the caller keeps it, so that nothing is
 * allocated per call). One pass and a binary search per cut (a pass for the total and a second up to the
 * last cut took 0.83-1.0 ms on the scene's 81,154 leaf pairs at 100,000 enemies, this 0.42-0.61 ms:
 * the same cuts, the totals added in the same order). workPrefix and cutRanges are its two halves: a team
 * keeps the running totals while its list stays and cuts them anew each call.
 */
export function cutByWork(
  list: Int32Array,
  pairs: number,
  nodeCount: Int32Array,
  parts: number,
  share: number,
  cuts: Int32Array,
  prefix: Float64Array,
): void {
  workPrefix(list, pairs, nodeCount, prefix);
  cutRanges(prefix, pairs, parts, share, cuts);
}

/** cutByWork's running totals of work of the first `pairs` leaf pairs into prefix[0..pairs]. */
export function workPrefix(
  list: Int32Array,
  pairs: number,
  nodeCount: Int32Array,
  prefix: Float64Array,
): void {
  let total = 0;
  prefix[0] = 0;
  for (let k = 0; k < pairs; k++) {
    total += work(list, k, nodeCount);
    prefix[k + 1] = total;
  }
}

/** cutByWork's cuts, from the running totals workPrefix left in `prefix`. */
export function cutRanges(
  prefix: Float64Array,
  pairs: number,
  parts: number,
  share: number,
  cuts: Int32Array,
): void {
  cuts[0] = 0;
  const unit = prefix[pairs] / (share + parts - 1);
  for (let p = 1; p < parts; p++)
    cuts[p] = cutAt(prefix, Math.max(0, cuts[p - 1] - 1), pairs, unit * (share + p - 1));
  cuts[parts] = pairs;
}

/** 1 + the first k from `from` on whose running total prefix[k + 1] reaches `goal`; `pairs` if none does. */
function cutAt(prefix: Float64Array, from: number, pairs: number, goal: number): number {
  let lo = from;
  let hi = pairs;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (prefix[mid + 1] >= goal) hi = mid;
    else lo = mid + 1;
  }
  return Math.min(pairs, lo + 1);
}

/*
 * Per-slot sums move as the kernel's records (f64 sum x, sum y, count, unused: kernels/wasm.ts), in the
 * shared regions too. Measured on the scene's tree at 100,000 enemies (182,843 slots, Node, CPU time,
 * medians of 35 alternated calls): a helper's copy of its records into its region 0.21 ms, against 0.84 ms
 * for a strided copy into three plain arrays; the caller's adding of a region into its records 0.72 ms
 * (three entries of four; all four entries 1.44 ms), against 0.95 ms from three plain arrays.
 */

/** The kernel's per-slot records into region r of the shared buffer: copied, or added to what it holds. */
export function toRegion(records: Float64Array, v: TeamViews, r: number, add: boolean): void {
  const region = v.sums[r];
  if (add) addRecords(region, records);
  else region.set(records);
}

/** Region r's records copied over the kernel's (entry by entry: no subarray view). */
export function fromRegion(records: Float64Array, v: TeamViews, r: number): void {
  const region = v.sums[r];
  const n = records.length;
  for (let i = 0; i < n; i += 4) {
    records[i] = region[i];
    records[i + 1] = region[i + 1];
    records[i + 2] = region[i + 2];
  }
}

/**
 * Helper region r's records added into the kernel's, only in the blocks of slots its range wrote (the
 * region's touched bytes; elsewhere its records are 0). With h helpers each writes about 1 / (h + 1) of the
 * blocks, so the caller's adding stays under about one region's worth (h / (h + 1) and the overlap) however many
 * helpers there are (adding every region whole grew by one region per helper).
 */
export function addTouchedRegion(records: Float64Array, v: TeamViews, r: number): void {
  const region = v.sums[r];
  const touched = v.touched[r];
  const n = Math.min(records.length, region.length);
  // A block's records: four entries per slot.
  const shift = 2 + TOUCH_SHIFT;
  const blocks = Math.min(touched.length, (n >> shift) + 1);
  for (let b = 0; b < blocks; b++) {
    if (touched[b] === 0) continue;
    const end = Math.min(n, (b + 1) << shift);
    for (let i = b << shift; i < end; i += 4) {
      records[i] += region[i];
      records[i + 1] += region[i + 1];
      records[i + 2] += region[i + 2];
    }
  }
}

/** `from`'s records added to `to`'s, over `to`'s length or `from`'s, whichever is shorter (the unused entry left). */
function addRecords(to: Float64Array, from: Float64Array): void {
  const n = Math.min(to.length, from.length);
  for (let i = 0; i < n; i += 4) {
    to[i] += from[i];
    to[i + 1] += from[i + 1];
    to[i + 2] += from[i + 2];
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
