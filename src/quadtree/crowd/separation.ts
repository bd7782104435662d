/**
 * Neighbour counts and separation sums: the pair join of pairs.ts fused with what a crowd does with its
 * pairs, so that no pair is ever stored.
 *
 * For every item p and every other item q within `radius` (closed, the rule of queryPairsInto), with
 * d = |q - p| and r = radius:
 *   count[p] += 1
 *   sum[p]   -= (q - p) * (1 / d - 1 / r)     a push away from q of length (r - d) / r: 1 at d = 0, 0 at r
 * Coincident items (d = 0) push along x by one unit, the lower id to -x, the higher to +x.
 *
 * Two steps. The walk (query/leafPairs.ts: node pairs from (root, root), pruned by the loose rectangles)
 * lists the pairs of leaves within reach, a leaf with itself as (leaf, leaf). Then a kernel scans the items of
 * each leaf pair and accumulates per slot (a leaf's slots are contiguous, so the writes of the inner loop
 * go to consecutive memory and the outer item's sums stay in registers); a last pass hands the slot sums
 * to the caller's per-id arrays. The kernel is plain JavaScript here (`accumulate`); its WebAssembly SIMD
 * twin (wasm.ts, which also walks the leaf pairs itself, the same walk) runs instead wherever it
 * compiles, unless {@link setSeparationKernel} asks for JavaScript. Both give the same counts; the sums may differ in the last bits (another order of adds).
 */

import {
  COUNT_OUTPUT,
  checkOptionsObject,
  checkOutput,
  checkRadius,
  checkSeparate,
  mustBe,
  NAME,
  SUM_OUTPUT,
} from '../core/checks';
import { distanceScale } from '../core/distance';
import { pointRectDist2 } from '../core/geometry';
import { idEnd } from '../core/nodes';
import type { TreeState } from '../core/state';
import { LeafPairList, leafPairsWithin, NODE } from '../query/leafPairs';
import { type SeparationWasm, separationWasm } from './wasm';
import { KernelRoomError } from './wasmLayout';

/** Per-id count output: any array type that holds a count exactly. */
export type CountArray = Int32Array | Uint32Array | Float32Array | Float64Array;
/** Per-id sum output. */
export type SumArray = Float32Array | Float64Array;

/**
 * The precision of querySeparationInto's sums: 'f64' (the default and the reference: exact float64
 * arithmetic) or 'f32' (fast: each pair's weight 1 / d from one f32x4 square root and division in the
 * WebAssembly kernel; the pairs and counts stay exact).
 */
export type SeparationPrecision = 'f64' | 'f32';

/** The options of querySeparationInto (a tree's and a team's). */
export interface SeparationOptions {
  /**
   * The sums' precision (default 'f64'). With 'f32' every count, and every pair found, is still exactly
   * the f64 call's (the test of the radius is the same f64 rule), and each sum differs from the f64 call's
   * by at most 1e-5 x that item's count (each push has length at most 1, so the count is the largest the
   * sum's magnitude can be). The JavaScript kernel computes in f64 for either.
   */
  precision?: SeparationPrecision;
}

/**
 * querySeparationInto's options, checked (each read once): 1 where they ask for the fast precision, else 0.
 * @throws TypeError if `options` is neither undefined nor an object, or `precision` is not a string;
 *   RangeError for a string other than 'f64' and 'f32'.
 */
export function checkSeparationOptions(options: unknown): number {
  if (options === undefined) return 0;
  const precision: unknown = (checkOptionsObject(options, true) as SeparationOptions).precision;
  if (precision === undefined || precision === 'f64') return 0;
  if (precision === 'f32') return 1;
  mustBe(typeof precision === 'string' ? RangeError : TypeError, 'precision', "'f64' or 'f32'", precision);
}

/** Which kernel runs the fused join: WebAssembly SIMD, or the JavaScript reference. */
export type SeparationKernel = 'wasm-simd' | 'js';

/**
 * What a querySeparationInto call ran on: the kernel, and the precision its sums were computed at. Not
 * always what was asked for: a call whose list the WebAssembly kernel's memory cannot hold runs on the
 * JavaScript kernel, which computes in float64 whatever the precision asked for.
 */
export interface SeparationRun {
  kernel: SeparationKernel;
  precision: SeparationPrecision;
}

/** Asked for by {@link setSeparationKernel}: 'auto' (WebAssembly where it compiles) or 'js'. */
let wanted: 'auto' | 'js' = 'auto';

/**
 * Chooses the kernel of every crowd tree's pair joins, querySeparationInto and queryPairsInto (and so
 * forEachPair), and of moveAll's pass over the ids: 'auto' (the default: WebAssembly where this engine
 * compiles it, else JavaScript) or 'js' (the JavaScript reference, e.g. to compare the two). One switch for
 * all: they share the module (the joins also its leaf-pair walk), and either kernel gives the same answers.
 * @throws RangeError for anything else.
 */
export function setSeparationKernel(kind: 'auto' | 'js'): void {
  if (kind !== 'auto' && kind !== 'js') mustBe(RangeError, 'the separation kernel', "'auto' or 'js'", kind);
  wanted = kind;
}

/**
 * The kernel querySeparationInto and queryPairsInto run now: 'wasm-simd' when asked for and compiled here,
 * else 'js'.
 */
export function separationKernel(): SeparationKernel {
  return wanted === 'auto' && separationWasm() !== null ? 'wasm-simd' : 'js';
}

/** Whether the WebAssembly kernels are asked for ('auto'), whether or not they compile here. */
export function wasmWanted(): boolean {
  return wanted === 'auto';
}

/**
 * The WebAssembly kernel where it is asked for and compiles here, else null (the JavaScript kernels run):
 * the tree's own instance where it has one (`sc.own`), else the module's shared instance.
 */
export function wasmKernel(sc: SeparationScratch | null = null): SeparationWasm | null {
  const shared = separationWasm();
  if (wanted !== 'auto' || shared === null) return null;
  return sc?.own?.separation() ?? shared;
}

/** A tree's own instance of the fused-join kernel, where it has one (a crowd tree's moveAll kernel). */
export interface OwnKernel {
  separation(): SeparationWasm | null;
}

let serials = 0;

/** A crowd tree's scratch of the fused join: its leaf-pair list and the per-slot sums. */
export class SeparationScratch {
  /** What the last call ran on (the tree's lastSeparation): set by every call, the team's included. */
  readonly ran: SeparationRun = { kernel: 'js', precision: 'f64' };
  /** Tells this tree's list from another tree's (the WebAssembly copy of the list is shared). */
  readonly serial = serials++;
  /** The JavaScript kernel's list of leaf pairs (query/leafPairs.ts). */
  readonly list = new LeafPairList();
  /**
   * The tree's own instance of the WebAssembly kernel, in the memory where it keeps its arrays (moveKernel.ts),
   * or null: the module's shared one, into which each call copies the tree.
   */
  own: OwnKernel | null = null;
  /** Per slot: neighbour count and the sums, as numbers (the kernel's accumulators). */
  count = new Int32Array(0);
  sumX = new Float64Array(0);
  sumY = new Float64Array(0);
}

/**
 * The JavaScript kernel: for the first `pairs` leaf pairs of the tree's list (`sc.list`; a sparse pair's
 * second leaf stored as ~b: see leafPairsWithin), every pair of items within reach adds to the per-slot
 * count / sumX / sumY of `sc` (zeroed by the caller). Returns the number of item pairs. Differences
 * are taken times `s` (distanceScale) so squares neither overflow nor underflow; the push is the same
 * either way, since (dx s) (1 / (d s) - 1 / (r s)) = dx (1 / d - 1 / r).
 */
export function accumulate(t: TreeState, sc: SeparationScratch, pairs: number, radius: number): number {
  const list = sc.list.leafPairs;
  const rect = t.nodeLoose;
  const start = t.nodeStart;
  const nodeCount = t.nodeCount;
  const xy = t.pool.xy;
  const ids = t.pool.ids;
  const count = sc.count;
  const sumX = sc.sumX;
  const sumY = sc.sumY;
  const s = distanceScale(radius);
  const rs = radius * s;
  const r2 = rs * rs;
  const inverse = 1 / rs;
  let found = 0;
  for (let k = 0; k < pairs; k++) {
    const a = list[2 * k] & NODE;
    const marked = list[2 * k + 1];
    const sparse = marked < 0;
    const b = sparse ? ~marked : marked;
    const sa = start[a];
    const ea = sa + nodeCount[a];
    // A leaf with itself: j > i; two leaves: every j of b.
    const self = a === b;
    const sb = self ? sa : start[b];
    const eb = sb + nodeCount[b];
    const pb = b << 2;
    for (let i = sa; i < ea; i++) {
      const x = xy[i << 1];
      const y = xy[(i << 1) + 1];
      // Sparse pair: skip an item whose own distance to b's rectangle is already too far.
      if (
        sparse &&
        !self &&
        pointRectDist2(x, y, rect[pb], rect[pb + 1], rect[pb + 2], rect[pb + 3], s) > r2
      ) {
        continue;
      }
      let n = 0;
      let px = 0;
      let py = 0;
      for (let j = self ? i + 1 : sb; j < eb; j++) {
        const dx = (xy[j << 1] - x) * s;
        const dy = (xy[(j << 1) + 1] - y) * s;
        const d2 = dx * dx + dy * dy;
        if (d2 > r2) continue;
        let ux: number;
        let uy: number;
        if (d2 > 0) {
          const w = 1 / Math.sqrt(d2) - inverse;
          ux = dx * w;
          uy = dy * w;
        } else {
          // Coincident, or so close that the scaled square underflowed (rare): exact differences.
          ux = tinyPush(xy[j << 1] - x, xy[(j << 1) + 1] - y, ids[i] < ids[j], radius);
          uy = tinyPushY;
        }
        n++;
        px -= ux;
        py -= uy;
        count[j]++;
        sumX[j] += ux;
        sumY[j] += uy;
      }
      count[i] += n;
      sumX[i] += px;
      sumY[i] += py;
      found += n;
    }
  }
  return found;
}

/** The y of the last {@link tinyPush} (a second return value without an allocation). */
let tinyPushY = 0;

/**
 * The push (x returned, y in {@link tinyPushY}) of a pair whose scaled squared distance is 0: coincident
 * (dx = dy = 0) pairs split along x, `lower` (the first item has the lower id) sending the first to -x;
 * others take the exact weight 1 / d - 1 / radius, d by Math.hypot (no underflow).
 */
export function tinyPush(dx: number, dy: number, lower: boolean, radius: number): number {
  if (dx === 0 && dy === 0) {
    tinyPushY = 0;
    return lower ? 1 : -1;
  }
  const w = 1 / Math.hypot(dx, dy) - 1 / radius;
  tinyPushY = dy * w;
  return dx * w;
}

/** Room in the per-slot sums for every slot of the pool, zeroed below `slots`. */
function slotSums(sc: SeparationScratch, slots: number): void {
  if (sc.count.length < slots) {
    const size = Math.max(slots, sc.count.length * 2);
    sc.count = new Int32Array(size);
    sc.sumX = new Float64Array(size);
    sc.sumY = new Float64Array(size);
    return;
  }
  sc.count.fill(0, 0, slots);
  sc.sumX.fill(0, 0, slots);
  sc.sumY.fill(0, 0, slots);
}

/**
 * Checks the per-id outputs of a separation call (the tree's and a team's) before anything is written:
 * `counts` of COUNT_OUTPUT and the sums of SUM_OUTPUT (the one output check, checks.ts), each at least `end`
 * long, and no two of them sharing memory (each kernel writes them in its own order, so a shared byte would
 * end up holding one output's entry where another's belongs).
 */
export function checkSeparationOutputs(counts: unknown, sumX: unknown, sumY: unknown, end: number): void {
  longEnough('counts', checkOutput('counts', counts, COUNT_OUTPUT), end);
  longEnough('sumX', checkOutput('sumX', sumX, SUM_OUTPUT), end);
  longEnough('sumY', checkOutput('sumY', sumY, SUM_OUTPUT), end);
  const c = counts as CountArray;
  const x = sumX as SumArray;
  const y = sumY as SumArray;
  checkSeparate('counts', c, 'sumX', x);
  checkSeparate('counts', c, 'sumY', y);
  checkSeparate('sumX', x, 'sumY', y);
}

/** Throws if a per-id output of `length` entries cannot hold ids below `end`. */
function longEnough(name: string, length: number, end: number): void {
  if (length < end) {
    throw new RangeError(
      `${NAME}: ${name} (length ${length}) is too short for id ${end - 1}; give it length >= ${end}`,
    );
  }
}

/**
 * Checks the arguments of {@link separationInto} (throwing before anything is written), then runs it.
 */
export function querySeparation(
  t: TreeState,
  sc: SeparationScratch,
  radius: number,
  counts: CountArray,
  sumX: SumArray,
  sumY: SumArray,
  options: SeparationOptions | undefined,
): number {
  checkRadius('radius', radius);
  const end = idEnd(t);
  checkSeparationOutputs(counts, sumX, sumY, end);
  const fast = checkSeparationOptions(options) === 1;
  return separationInto(t, sc, radius, counts, sumX, sumY, end, fast);
}

/**
 * Counts and separation sums of every item at `radius` into the per-id outputs (at least `end` =
 * {@link idEnd} long): every id below `end` is written, 0 for ids not in the tree. `fast`: the sums at the
 * fast precision on the WebAssembly kernel (the JavaScript kernel computes in f64 either way). Returns the
 * number of unordered pairs within reach.
 */
export function separationInto(
  t: TreeState,
  sc: SeparationScratch,
  radius: number,
  counts: CountArray,
  sumX: SumArray,
  sumY: SumArray,
  end: number,
  fast: boolean,
): number {
  const pool = t.pool;
  const slots = pool.top;
  const wasm = wasmKernel(sc);
  if (wasm !== null) {
    try {
      // The WebAssembly module walks the leaf pairs itself (the same walk) and keeps its list like ours.
      const found = wasm.run(t, sc.serial, radius, counts, sumX, sumY, end, fast);
      ranOn(sc, 'wasm-simd', wasm.fastRan);
      return found;
    } catch (e) {
      // The kernel's memory cannot hold this call (a radius far wider than the leaves): the JavaScript kernel.
      if (!(e instanceof KernelRoomError)) throw e;
    }
  }
  ranOn(sc, 'js', false);
  const leafPairs = leafPairsWithin(t, radius, sc.list);
  slotSums(sc, slots);
  const found = accumulate(t, sc, leafPairs, radius);
  scatterSlots(t, sc, end, counts, sumX, sumY);
  return found;
}

/** Records what a call ran on (`fast`: the fast precision) in `sc.ran`. */
export function ranOn(sc: SeparationScratch, kernel: SeparationKernel, fast: boolean): void {
  sc.ran.kernel = kernel;
  sc.ran.precision = fast ? 'f32' : 'f64';
}

/** The per-slot sums of `sc` handed to the per-id outputs: every id below `end`, 0 for an absent one. */
function scatterSlots(
  t: TreeState,
  sc: SeparationScratch,
  end: number,
  counts: CountArray,
  sumX: SumArray,
  sumY: SumArray,
): void {
  const idSlot = t.idSlot;
  const count = sc.count;
  const sx = sc.sumX;
  const sy = sc.sumY;
  for (let id = 0; id < end; id++) {
    const slot = idSlot[id];
    if (slot < 0) {
      counts[id] = 0;
      sumX[id] = 0;
      sumY[id] = 0;
      continue;
    }
    counts[id] = count[slot];
    sumX[id] = sx[slot];
    sumY[id] = sy[slot];
  }
}
