/** The scene's settings: their defaults and their valid ranges (shared by the URL, level files and GUI). */

/** Instances allocated once for the enemy mesh; `enemies` can never exceed it. */
export const MAX_ENEMIES = 100_000;

export type Distribution = 'uniform' | 'clustered';
export const DISTRIBUTIONS: readonly Distribution[] = ['uniform', 'clustered'];

/** Everything the GUI edits. World units are metres-ish; the default level is 200 x 200. */
export interface Settings {
  /** Detect radius around the player, world units. */
  radius: number;
  /** Quadtree `minSize`: no node is split below this width/depth, world units. */
  minSize: number;
  /** Quadtree `maxItems`: a leaf with more items splits (when it may). */
  maxItems: number;
  /**
   * Quadtree `looseness`: how far an enemy may stray outside its leaf before `move` re-files it, world
   * units. 0 keeps every enemy inside its leaf; a few steps' length makes wandering crowds cheaper to keep
   * up to date. Detection stays exact either way.
   */
  looseness: number;
  /** Enemies in the scene. */
  enemies: number;
  /** Enemies wander (seeded random walk). */
  moving: boolean;
  /** Wandering speed, world units per second. */
  speed: number;
  distribution: Distribution;
  showNodes: boolean;
  showVisited: boolean;
  /** Detect by scanning every enemy instead of asking the tree. */
  bruteForce: boolean;
  /** Seed of every random choice (layout, clusters, wandering, click batches). */
  seed: number;
}

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  radius: 15,
  minSize: 1,
  maxItems: 8,
  looseness: 0,
  enemies: 2000,
  moving: false,
  speed: 4,
  distribution: 'uniform',
  showNodes: true,
  showVisited: false,
  bruteForce: false,
  seed: 1,
});

/** Inclusive ranges, also the GUI sliders' ranges and steps. */
export const LIMITS = Object.freeze({
  radius: { min: 0.5, max: 100, step: 0.5 },
  minSize: { min: 0.25, max: 50, step: 0.25 },
  maxItems: { min: 1, max: 64, step: 1 },
  looseness: { min: 0, max: 10, step: 0.25 },
  enemies: { min: 0, max: MAX_ENEMIES, step: 1 },
  speed: { min: 0, max: 30, step: 0.5 },
  seed: { min: 0, max: 0xffffffff, step: 1 },
});
