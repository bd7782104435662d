/**
 * Where enemies spawn: a seeded layout that is generated lazily and never depends on how many enemies are
 * asked for (enemy i always spawns at the same place for the same seed, level and distribution), so moving
 * the `enemies` slider down and up again brings back the same enemies.
 */
import type { Cluster, Level } from './level';
import { deriveSeed, gaussian, mulberry32, type Random } from './random';
import type { Distribution } from './settings';
import { clamp, type GroundRect, levelGround } from './world';

/** Enemies keep this far from the level's edge (their own radius), world units. */
export const EDGE_MARGIN = 0.5;

/** Random streams derived from the seed, one per use, so one use never shifts another. */
export const STREAM = Object.freeze({ layout: 1, clusters: 2, wander: 3, batches: 4 });

/** The ground rectangle enemies may occupy in `level`. */
export function enemyArea(level: Level): GroundRect {
  const g = levelGround(level.width, level.depth);
  return {
    minX: g.minX + EDGE_MARGIN,
    minZ: g.minZ + EDGE_MARGIN,
    maxX: g.maxX - EDGE_MARGIN,
    maxZ: g.maxZ - EDGE_MARGIN,
  };
}

/** Cluster centres drawn from the seed, for levels that do not list their own. */
export function drawClusters(seed: number, level: Level): Cluster[] {
  const random = mulberry32(deriveSeed(seed, STREAM.clusters));
  const size = Math.min(level.width, level.depth);
  const count = 6 + Math.floor(random() * 6);
  const clusters: Cluster[] = [];
  for (let i = 0; i < count; i++) {
    clusters.push({
      x: (random() - 0.5) * level.width * 0.85,
      z: (random() - 0.5) * level.depth * 0.85,
      radius: size * (0.02 + random() * 0.05),
      weight: 0.5 + random(),
    });
  }
  return clusters;
}

export class SpawnLayout {
  /** Spawn positions, world x and z; valid for ids below {@link filled}. */
  readonly xs: Float32Array;
  readonly zs: Float32Array;
  /** How many spawn positions have been generated. */
  filled = 0;
  clusters: Cluster[] = [];
  private random: Random = mulberry32(0);
  private cumulative: number[] = [];
  private area: GroundRect;
  private distribution: Distribution = 'uniform';

  constructor(
    readonly level: Level,
    capacity: number,
  ) {
    this.xs = new Float32Array(capacity);
    this.zs = new Float32Array(capacity);
    this.area = enemyArea(level);
  }

  /** Start over with a seed and distribution (keeps the arrays). */
  reset(seed: number, distribution: Distribution): void {
    this.distribution = distribution;
    this.random = mulberry32(deriveSeed(seed, STREAM.layout));
    this.clusters = this.level.clusters ?? drawClusters(seed, this.level);
    let total = 0;
    this.cumulative = this.clusters.map((c) => {
      total += c.weight;
      return total;
    });
    this.filled = 0;
  }

  /** Generate spawn positions up to id `count - 1`. */
  ensure(count: number): void {
    const n = Math.min(count, this.xs.length);
    const a = this.area;
    const random = this.random;
    for (let i = this.filled; i < n; i++) {
      if (this.distribution === 'uniform' || this.clusters.length === 0) {
        this.xs[i] = a.minX + random() * (a.maxX - a.minX);
        this.zs[i] = a.minZ + random() * (a.maxZ - a.minZ);
        continue;
      }
      const total = this.cumulative[this.cumulative.length - 1];
      const pick = random() * total;
      let c = 0;
      while (c < this.cumulative.length - 1 && this.cumulative[c] <= pick) c++;
      const cluster = this.clusters[c];
      let x = 0;
      let z = 0;
      // A few redraws keep the cluster round near an edge; the clamp is the last resort.
      for (let attempt = 0; attempt < 8; attempt++) {
        x = cluster.x + gaussian(random) * cluster.radius;
        z = cluster.z + gaussian(random) * cluster.radius;
        if (x >= a.minX && x <= a.maxX && z >= a.minZ && z <= a.maxZ) break;
      }
      this.xs[i] = clamp(x, a.minX, a.maxX);
      this.zs[i] = clamp(z, a.minZ, a.maxZ);
    }
    if (n > this.filled) this.filled = n;
  }
}

/**
 * Scatter `n` positions around (cx, cz) (normal spread, kept inside `area`) into xs/zs from index `start`.
 * Used by "click to add 100 enemies".
 */
export function scatterAround(
  random: Random,
  cx: number,
  cz: number,
  n: number,
  spread: number,
  area: GroundRect,
  xs: Float32Array,
  zs: Float32Array,
  start: number,
): void {
  for (let i = start; i < start + n; i++) {
    xs[i] = clamp(cx + gaussian(random) * spread, area.minX, area.maxX);
    zs[i] = clamp(cz + gaussian(random) * spread, area.minZ, area.maxZ);
  }
}
