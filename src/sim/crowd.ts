/**
 * Crowd mode, free of three.js: every pair of enemies within the crowd radius (by the tree's all-pairs
 * join, or by an O(n²) scan), which enemies have a neighbour (they are drawn in the crowd colour), and the
 * separation push that makes a wandering crowd spread into personal space.
 *
 * Nothing here allocates per frame: the pair arrays grow by doubling when they run out of room and are
 * reused; the push arrays and the flags are sized once for every enemy.
 */
import type { PointQuadtree } from 'point-quadtree';
import type { ChangeList } from './detection';
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

/** Pairs checked by one O(n²) scan over `n` enemies. */
export function pairsChecked(n: number): number {
  return (n * (n - 1)) / 2;
}

export class Crowd {
  /** Ids of the pairs found last, in their first {@link pairs} entries (pair k is pairA[k], pairB[k]). */
  pairA = new Int32Array(1024);
  pairB = new Int32Array(1024);
  pairs = 0;
  /** Time of the last {@link find}, plus the separation when it ran, ms. */
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
  /** Separation push of each enemy, world units per unit of push (written by {@link computePushes}). */
  readonly pushX: Float32Array;
  readonly pushZ: Float32Array;
  /** 1 for an enemy with at least one neighbour within the radius, as of the last {@link find}. */
  private readonly flags: Uint8Array;
  /** Scratch of the flags being computed. */
  private readonly nextFlags: Uint8Array;
  /** Ids below this may have a flag set (the count at the last find). */
  private flaggedTop = 0;

  constructor(capacity: number) {
    this.pushX = new Float32Array(capacity);
    this.pushZ = new Float32Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.nextFlags = new Uint8Array(capacity);
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
   * Find every pair of the first `count` enemies within `radius` (closed, like the circle query), by the
   * tree or, when `bruteForce` is asked and one scan fits {@link BRUTE_BUDGET_MS}, by an O(n²) scan. Then
   * update the neighbour flags; enemies whose flag changed go to `changes`. Returns the pair count.
   */
  find(
    tree: PointQuadtree,
    xs: Float32Array,
    zs: Float32Array,
    count: number,
    radius: number,
    bruteForce: boolean,
    changes: ChangeList,
  ): number {
    const t0 = performance.now();
    const estimate = this.estimateBruteMs(count);
    this.bruteRefused = bruteForce && estimate > BRUTE_BUDGET_MS;
    this.brute = bruteForce && !this.bruteRefused;
    if (this.brute) {
      this.pairs = this.scan(xs, zs, count, radius);
      const ms = performance.now() - t0;
      this.bruteMs = ms;
      this.bruteMeasured = true;
      // Learn this machine's cost per pair from scans long enough to time (timers are coarse in browsers).
      if (ms >= 2) this.nsPerPair = (ms * 1e6) / Math.max(1, pairsChecked(count));
    } else {
      this.pairs = this.query(tree, radius);
      this.bruteMs = estimate;
      this.bruteMeasured = false;
    }
    this.updateFlags(count, changes);
    this.ms = performance.now() - t0;
    return this.pairs;
  }

  /** Forget every pair; enemies that had a neighbour go to `changes` (crowd mode turned off). */
  clear(changes: ChangeList): void {
    this.pairs = 0;
    this.ms = 0;
    this.bruteRefused = false;
    this.updateFlags(0, changes);
  }

  /**
   * Separation: for every pair found last, each end is pushed away from the other by (r - d) / r (1 when
   * they coincide, 0 at the radius), summed over its pairs into {@link pushX} / {@link pushZ}. Pairs are
   * re-measured at the current positions (pairs with an id at or past `count`, or now out of reach, push
   * nothing). Coincident enemies split along x, the lower id to -x.
   */
  computePushes(xs: Float32Array, zs: Float32Array, count: number, radius: number): void {
    const px = this.pushX;
    const pz = this.pushZ;
    px.fill(0, 0, count);
    pz.fill(0, 0, count);
    const a = this.pairA;
    const b = this.pairB;
    const r2 = radius * radius;
    const inverse = 1 / radius;
    for (let k = 0; k < this.pairs; k++) {
      const i = a[k];
      const j = b[k];
      if (i >= count || j >= count) continue;
      const dx = xs[j] - xs[i];
      const dz = zs[j] - zs[i];
      const d2 = dx * dx + dz * dz;
      if (d2 > r2) continue;
      let ux: number;
      let uz: number;
      let w: number;
      if (d2 > 0) {
        // Strength over length, (r - d) / r / d, as one division: (dx, dz) * w is the push.
        w = 1 / Math.sqrt(d2) - inverse;
        ux = dx * w;
        uz = dz * w;
      } else {
        ux = i < j ? 1 : -1;
        uz = 0;
      }
      px[i] -= ux;
      pz[i] -= uz;
      px[j] += ux;
      pz[j] += uz;
    }
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

  /** The tree's all-pairs join into the pair arrays, doubled until the answer fits. */
  private query(tree: PointQuadtree, radius: number): number {
    for (;;) {
      try {
        return tree.queryPairsInto(radius, this.pairA, this.pairB);
      } catch (error) {
        if (!(error instanceof RangeError) || !/too small/.test(error.message)) throw error;
        this.grow();
      }
    }
  }

  /** The O(n²) scan into the pair arrays (same closed rule as the tree), doubled until the answer fits. */
  private scan(xs: Float32Array, zs: Float32Array, count: number, radius: number): number {
    const r2 = radius * radius;
    for (;;) {
      const a = this.pairA;
      const b = this.pairB;
      const cap = a.length;
      let n = 0;
      for (let i = 0; i < count - 1 && n <= cap; i++) {
        const x = xs[i];
        const z = zs[i];
        for (let j = i + 1; j < count; j++) {
          const dx = xs[j] - x;
          const dz = zs[j] - z;
          if (dx * dx + dz * dz <= r2) {
            if (n === cap) {
              n = cap + 1; // out of room: grow and scan again
              break;
            }
            a[n] = i;
            b[n] = j;
            n++;
          }
        }
      }
      if (n <= cap) return n;
      this.grow();
    }
  }

  private grow(): void {
    const length = this.pairA.length * 2;
    this.pairA = new Int32Array(length);
    this.pairB = new Int32Array(length);
  }

  /** Flags from the pairs of the first `count` enemies; ids whose flag changed go to `changes`. */
  private updateFlags(count: number, changes: ChangeList): void {
    const next = this.nextFlags;
    const old = this.flags;
    const top = Math.max(count, this.flaggedTop);
    next.fill(0, 0, top);
    const a = this.pairA;
    const b = this.pairB;
    for (let k = 0; k < this.pairs; k++) {
      next[a[k]] = 1;
      next[b[k]] = 1;
    }
    for (let i = 0; i < top; i++) {
      if (next[i] !== old[i]) {
        old[i] = next[i];
        changes.add(i);
      }
    }
    this.flaggedTop = count;
  }
}
