/**
 * Crowd mode, free of three.js: for every enemy, how many others are within the crowd radius and the
 * separation push that makes a wandering crowd spread into personal space, found in one pass (the tree's
 * fused join `querySeparationInto`, or an O(n²) scan) without storing the pairs; which enemies have a
 * neighbour (they are drawn in the crowd colour).
 *
 * The tree's join runs on this thread, or split over helper threads by a SeparationTeam (the library's
 * `point-quadtree/parallel`) that the app hands over with {@link Crowd.setTeam} where the page allows
 * threads (see threads.ts).
 *
 * Nothing here allocates per frame: the counts, pushes and flags are sized once for every enemy.
 */
import { type CrowdQuadtree, type SeparationOptions, separationKernel } from 'point-quadtree/crowd';
import type { OneThreadReason, SeparationTeam } from 'point-quadtree/parallel';
import type { ChangeList } from './detection';
import type { CrowdPrecision } from './settings';
import { clamp, type GroundRect } from './world';

/** Brute force is refused for the crowd when one all-pairs scan would take longer than this, ms. */
export const BRUTE_BUDGET_MS = 200;
/**
 * Nanoseconds per pair of the O(n²) scan before this page measured its own: measured in Node 20 on the
 * 2-core development machine, 1.67-1.76 ns (`npx tsx bench/scene.ts` prints it), rounded up: brute force is
 * refused from about 15,000 enemies. Replaced by the scan's own timing as soon
 * as it runs.
 */
export const DEFAULT_NS_PER_PAIR = 1.8;
/** Separation: how fast a pair at distance 0 pushes apart, as a multiple of the wandering speed. */
export const SEPARATION_GAIN = 3;

/** The tree's options for each precision (one object each, passed every frame). */
const F32: SeparationOptions = Object.freeze({ precision: 'f32' });
const F64: SeparationOptions = Object.freeze({ precision: 'f64' });

/** Pairs checked by one O(n²) scan over `n` enemies. */
export function pairsChecked(n: number): number {
  return (n * (n - 1)) / 2;
}

/** The HUD's words for why a team's call ran on one thread ('' when helpers took part). */
export const ONE_THREAD: Readonly<Record<OneThreadReason, string>> = {
  '': '',
  'no helpers': 'no workers',
  disposed: 'workers stopped',
  'JavaScript kernel': 'JavaScript kernel',
  'few pairs': 'too few pairs to share',
  'helpers not ready': 'workers starting',
  'helpers late': 'workers late',
  'helpers lost': 'workers lost',
};

export class Crowd {
  /** Pairs within the radius at the last {@link find} or {@link computePushes}. */
  pairs = 0;
  /** Time of the last {@link find} (the pairs, counts and pushes, then the flags), ms. */
  ms = 0;
  /** Whether the last find was an O(n²) scan (brute force asked for and not refused). */
  brute = false;
  /** Whether brute force was asked for and refused because one scan would exceed {@link BRUTE_BUDGET_MS}. */
  bruteRefused = false;
  /** What one O(n²) scan costs: measured when the last find scanned, else an estimate (see {@link nsPerPair}). */
  bruteMs = 0;
  bruteMeasured = false;
  /** The O(n²) scan's cost per pair, ns: {@link DEFAULT_NS_PER_PAIR} until a scan of this page measured it. */
  nsPerPair = DEFAULT_NS_PER_PAIR;
  /**
   * The tree's kernel of the last tree-based computation, as the tree recorded it: 'wasm-simd', or 'js'
   * where that did not compile, was turned off, or could not hold the call in its memory.
   */
  kernel: string = separationKernel();
  /** The precision asked of the tree's sums (the `crowdPrecision` setting; the simulation sets it). */
  precision: CrowdPrecision = 'f64';
  /**
   * The precision the last pairs' sums were computed at, as the tree recorded the call (its
   * `lastSeparation`): the one asked for on the WebAssembly kernel, 'f64' on the JavaScript kernel (also
   * when a call fell back to it) and by brute force (they compute in f64 either way).
   */
  precisionRan: CrowdPrecision = 'f64';
  /** Threads whose work found the last pairs: 1 (this one) plus the team's helpers that took part. */
  threads = 1;
  /** Why the last pairs were found on one thread ('' when helpers took part): see {@link ONE_THREAD}. */
  threadNote = 'no workers';
  /** Workers the team has given up on (their thread died, hangs, or failed): the team's `last.lost`. */
  lostWorkers = 0;
  /** Time of the last {@link separate}, ms (0 when it did not run this frame). */
  separateMs = 0;
  /** The radius the counts and pushes were last computed at (NaN before the first time). */
  radius = Number.NaN;
  /** Neighbours of each enemy within the radius (written by {@link computePushes}). */
  readonly counts: Int32Array;
  /**
   * Separation push of each enemy, world units per unit of push: the sum over its neighbours of a push away
   * from each of length (r - d) / r (1 when they coincide, 0 at the radius). Coincident enemies split along
   * x, the lower id to -x.
   */
  readonly pushX: Float32Array;
  readonly pushZ: Float32Array;
  /** 1 for an enemy with at least one neighbour within the radius, as of the last {@link find}. */
  private readonly flags: Uint8Array;
  /** Ids below this may have a flag set (the count at the last find). */
  private flaggedTop = 0;
  /** The O(n²) scan's sums (float64, like the tree's). */
  private readonly scanX: Float64Array;
  private readonly scanZ: Float64Array;
  /** Helper threads for the tree's join, or null; and why there are none. */
  private team: SeparationTeam | null = null;
  private noTeam = 'no workers';
  /** Whether the pushes are those of the current positions and enemies (see {@link separate}). */
  private pushesFresh = false;

  constructor(capacity: number) {
    this.counts = new Int32Array(capacity);
    this.pushX = new Float32Array(capacity);
    this.pushZ = new Float32Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.scanX = new Float64Array(capacity);
    this.scanZ = new Float64Array(capacity);
  }

  /**
   * The tree's join from now on: split over `team`'s helper threads, or, with null, on this thread alone
   * because of `why` (shown on the HUD, e.g. 'page not cross-origin isolated').
   */
  setTeam(team: SeparationTeam | null, why: string): void {
    this.team = team;
    this.noTeam = why;
  }

  /** Forget the pushes: an enemy moved, appeared or left since they were computed. */
  markStale(): void {
    this.pushesFresh = false;
  }

  /** Whether enemy `id` had a neighbour within the radius at the last {@link find}. */
  has(id: number): boolean {
    return this.flags[id] === 1;
  }

  /** The estimated cost of one O(n²) scan over `n` enemies, ms. */
  estimateBruteMs(n: number): number {
    return (pairsChecked(n) * this.nsPerPair) / 1e6;
  }

  /**
   * Neighbour counts and pushes of the first `count` enemies at `radius` (closed, like the circle query)
   * and the pair count, by the tree or, when `bruteForce` is asked and one scan fits
   * {@link BRUTE_BUDGET_MS}, by an O(n²) scan; then update the neighbour flags (enemies whose flag changed
   * go to `changes`). Returns the pair count.
   */
  find(
    tree: CrowdQuadtree,
    xs: Float32Array,
    zs: Float32Array,
    count: number,
    radius: number,
    bruteForce: boolean,
    changes: ChangeList,
    workers = true,
  ): number {
    const t0 = performance.now();
    this.computePushes(tree, xs, zs, count, radius, bruteForce, workers);
    this.updateFlags(count, changes);
    this.pushesFresh = true;
    this.ms = performance.now() - t0;
    return this.pairs;
  }

  /**
   * Separation, before the wander: each of the first `count` enemies moves by its push times `step`, kept in
   * `area`. The pushes are those the last {@link find} computed at the positions the last frame ended
   * with; when anything moved, appeared or left since ({@link markStale}), or the radius changed, they are
   * computed again here first. Timed into {@link separateMs}.
   */
  separate(
    tree: CrowdQuadtree,
    xs: Float32Array,
    zs: Float32Array,
    count: number,
    radius: number,
    bruteForce: boolean,
    workers: boolean,
    step: number,
    area: GroundRect,
  ): void {
    const t0 = performance.now();
    if (!this.pushesFresh || this.radius !== radius) {
      this.computePushes(tree, xs, zs, count, radius, bruteForce, workers);
    }
    this.applyPushes(xs, zs, count, step, area);
    this.pushesFresh = false;
    this.separateMs = performance.now() - t0;
  }

  /**
   * What {@link find} computes, without touching the flags: the counts, the pushes and the pair count of
   * the first `count` enemies at `radius`. The tree must hold exactly ids 0..count-1 at xs, zs. `workers`:
   * whether the team's helper threads may take part (the `workers` setting).
   */
  computePushes(
    tree: CrowdQuadtree,
    xs: Float32Array,
    zs: Float32Array,
    count: number,
    radius: number,
    bruteForce: boolean,
    workers = true,
  ): number {
    const t0 = performance.now();
    const estimate = this.estimateBruteMs(count);
    this.bruteRefused = bruteForce && estimate > BRUTE_BUDGET_MS;
    this.brute = bruteForce && !this.bruteRefused;
    this.radius = radius;
    if (this.brute) {
      this.pairs = this.scan(xs, zs, count, radius);
      const ms = performance.now() - t0;
      this.bruteMs = ms;
      this.bruteMeasured = true;
      // Learn this machine's cost per pair from scans long enough to time (timers are coarse in browsers).
      if (ms >= 2) this.nsPerPair = (ms * 1e6) / Math.max(1, pairsChecked(count));
      this.threads = 1;
      this.threadNote = 'brute force';
      this.precisionRan = 'f64';
    } else {
      // Tree x, y are world x, z (world.ts): the tree's sums are the pushes along world x and z.
      const team = this.team;
      // One options object per precision, made once: nothing is allocated per frame.
      const options = this.precision === 'f32' ? F32 : F64;
      if (team !== null && workers) {
        this.pairs = team.querySeparationInto(tree, radius, this.counts, this.pushX, this.pushZ, options);
        this.threads = team.last.threads;
        this.threadNote = ONE_THREAD[team.last.reason];
        this.lostWorkers = team.last.lost;
      } else {
        this.pairs = tree.querySeparationInto(radius, this.counts, this.pushX, this.pushZ, options);
        this.threads = 1;
        this.threadNote = team === null ? this.noTeam : 'workers off';
        this.lostWorkers = 0;
      }
      // What ran, as the tree recorded it (a call the kernel's memory cannot hold runs in JavaScript, f64).
      const ran = tree.lastSeparation;
      this.kernel = ran.kernel;
      this.precisionRan = ran.precision;
      this.bruteMs = estimate;
      this.bruteMeasured = false;
    }
    return this.pairs;
  }

  /** Forget every pair; enemies that had a neighbour go to `changes` (crowd mode turned off). */
  clear(changes: ChangeList): void {
    this.pairs = 0;
    this.ms = 0;
    this.bruteRefused = false;
    this.radius = Number.NaN;
    this.counts.fill(0);
    this.updateFlags(0, changes);
  }

  /**
   * Move the first `count` enemies by their push times `step` (world units at push 1), kept inside `area`
   * (clamped, in the same pass).
   */
  applyPushes(xs: Float32Array, zs: Float32Array, count: number, step: number, area: GroundRect): void {
    const px = this.pushX;
    const pz = this.pushZ;
    const { minX, maxX, minZ, maxZ } = area;
    for (let i = 0; i < count; i++) {
      xs[i] = clamp(xs[i] + px[i] * step, minX, maxX);
      zs[i] = clamp(zs[i] + pz[i] * step, minZ, maxZ);
    }
  }

  /**
   * The O(n²) scan: counts and pushes of the first `count` enemies (the tree's rule: closed, weight
   * 1 / d - 1 / r, coincident ones split along x by id); returns the pair count.
   */
  private scan(xs: Float32Array, zs: Float32Array, count: number, radius: number): number {
    const r2 = radius * radius;
    const inverse = 1 / radius;
    const counts = this.counts;
    const sx = this.scanX;
    const sz = this.scanZ;
    counts.fill(0, 0, count);
    sx.fill(0, 0, count);
    sz.fill(0, 0, count);
    let pairs = 0;
    for (let i = 0; i < count - 1; i++) {
      const x = xs[i];
      const z = zs[i];
      for (let j = i + 1; j < count; j++) {
        const dx = xs[j] - x;
        const dz = zs[j] - z;
        const d2 = dx * dx + dz * dz;
        if (d2 > r2) continue;
        let ux = 1; // coincident: i < j, so i goes to -x
        let uz = 0;
        if (d2 > 0) {
          // Strength over length, (r - d) / r / d, as one division: (dx, dz) * w is the push.
          const w = 1 / Math.sqrt(d2) - inverse;
          ux = dx * w;
          uz = dz * w;
        }
        pairs++;
        counts[i]++;
        counts[j]++;
        sx[i] -= ux;
        sz[i] -= uz;
        sx[j] += ux;
        sz[j] += uz;
      }
    }
    for (let i = 0; i < count; i++) {
      this.pushX[i] = sx[i];
      this.pushZ[i] = sz[i];
    }
    return pairs;
  }

  /** Flags from the counts of the first `count` enemies; ids whose flag changed go to `changes`. */
  private updateFlags(count: number, changes: ChangeList): void {
    const old = this.flags;
    const counts = this.counts;
    const top = Math.max(count, this.flaggedTop);
    for (let i = 0; i < top; i++) {
      const next = i < count && counts[i] > 0 ? 1 : 0;
      if (next !== old[i]) {
        old[i] = next;
        changes.add(i);
      }
    }
    this.flaggedTop = count;
  }
}
