/**
 * The benchmark's one source of data: every contender sees exactly these arrays.
 *
 * All randomness comes from seeded mulberry32, so every run (and every machine) sees the same points,
 * query centres and steps. Positions live in two `Float64Array`s (`xs`, `ys`); the id of point `i` is `i`.
 */

import { gaussian, mulberry32 } from '../src/sim/random';
/** Side of the square world, in world units: points live in [0, WORLD] x [0, WORLD]. */
export const WORLD = 1000;

/** Number of Gaussian camps in the clustered data set. */
export const CAMPS = 20;

/** Standard deviation of each camp, in world units. */
export const CAMP_SIGMA = 15;

/** Frames in the step table (each frame is one step per point). */
export const STEP_FRAMES = 16;

/**
 * After each pass over the step table, point i takes the steps of point i + k * STEP_SHIFT (mod n) on the
 * k-th pass, so no point repeats its own steps: the walk is a true random walk, not a periodic one.
 */
const STEP_SHIFT = 7919;

/**
 * Side of the open world's square ('world' data, W6 only): CAMPS camps spread over it, as a game's camps or
 * cities lie in a world without fixed bounds.
 */
export const OPEN_WORLD = 1e6;

export type DataKind = 'uniform' | 'clustered' | 'world';

export const DATA_KINDS: readonly DataKind[] = ['uniform', 'clustered'];

/** A point set: positions of points 0..n-1 and their ids (`ids[i] === i`). */
export interface Points {
  readonly kind: DataKind;
  readonly n: number;
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  readonly ids: Int32Array;
}

/** A seed that differs per purpose, data kind and size, so data sets are independent of each other. */
function seedFor(purpose: number, kind: DataKind, n: number): number {
  const k = kind === 'uniform' ? 1 : kind === 'clustered' ? 2 : 3;
  return (purpose * 0x9e3779b1 + k * 0x85ebca6b + n) >>> 0;
}

function clampToWorld(v: number): number {
  return Math.min(Math.max(v, 0), WORLD);
}

/**
 * `n` points of the given kind in the WORLD x WORLD square.
 * - uniform: x and y uniform in [0, WORLD).
 * - clustered: CAMPS camp centres uniform in [3 sigma, WORLD - 3 sigma]; each point picks a camp at random
 *   and lies at a Gaussian offset (sigma CAMP_SIGMA) from it, clamped to the world.
 * - world (not in DATA_KINDS: W6 only): the same camps, their centres uniform in [0, OPEN_WORLD), nothing
 *   clamped: an open world, its points far outside [0, WORLD].
 */
export function makePoints(kind: DataKind, n: number): Points {
  const rand = mulberry32(seedFor(1, kind, n));
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  if (kind === 'uniform') {
    for (let i = 0; i < n; i++) {
      xs[i] = rand() * WORLD;
      ys[i] = rand() * WORLD;
    }
  } else {
    const open = kind === 'world';
    const margin = open ? 0 : 3 * CAMP_SIGMA;
    const side = open ? OPEN_WORLD : WORLD;
    const cx = new Float64Array(CAMPS);
    const cy = new Float64Array(CAMPS);
    for (let c = 0; c < CAMPS; c++) {
      cx[c] = margin + rand() * (side - 2 * margin);
      cy[c] = margin + rand() * (side - 2 * margin);
    }
    const place = open ? (v: number) => v : clampToWorld;
    for (let i = 0; i < n; i++) {
      const c = Math.floor(rand() * CAMPS);
      xs[i] = place(cx[c] + CAMP_SIGMA * gaussian(rand));
      ys[i] = place(cy[c] + CAMP_SIGMA * gaussian(rand));
    }
  }
  return { kind, n, xs, ys, ids };
}

/** A fresh copy of a point set's positions (each contender's game state starts from the same place). */
export function copyPoints(p: Points): Points {
  return { kind: p.kind, n: p.n, xs: p.xs.slice(), ys: p.ys.slice(), ids: p.ids };
}

/** `count` query centres uniform in the world (the same for every contender and data kind of size n). */
export function makeCentres(count: number, n: number): { cx: Float64Array; cy: Float64Array } {
  const rand = mulberry32(seedFor(2, 'uniform', n));
  const cx = new Float64Array(count);
  const cy = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    cx[i] = rand() * WORLD;
    cy[i] = rand() * WORLD;
  }
  return { cx, cy };
}

/**
 * The random steps of W4/W5: STEP_FRAMES frames of one step per point, interleaved (dx, dy), precomputed
 * so that drawing random numbers costs nothing inside the timed frame. Each step has length <= 1 (uniform
 * length, uniform direction), independent of every other. {@link applySteps} hands them out so that the
 * walk never repeats itself: points really wander off (a point's mean squared displacement after f frames
 * is f/3), as a periodic walk would not, and an index cannot profit from points coming back to where
 * they were. The price: the data slowly diffuses (after 300 frames a camp's sigma of 15 is about 16.6).
 */
export function makeSteps(kind: DataKind, n: number): Float64Array {
  const rand = mulberry32(seedFor(3, kind, n));
  const steps = new Float64Array(STEP_FRAMES * n * 2);
  for (let k = 0; k < STEP_FRAMES * n; k++) {
    const len = rand();
    const angle = 2 * Math.PI * rand();
    steps[2 * k] = len * Math.cos(angle);
    steps[2 * k + 1] = len * Math.sin(angle);
  }
  return steps;
}

/** The step-table column point 0 uses in `frame` (point i uses the next ones, wrapping at n). */
export function stepShift(frame: number, n: number): number {
  return (Math.floor(frame / STEP_FRAMES) * STEP_SHIFT) % n;
}

/**
 * One frame of the game: every point takes its step for `frame`, kept inside the world. This is shared by
 * every contender (brute force included), so it costs the same in every row of W4/W5.
 */
export function applySteps(
  xs: Float64Array,
  ys: Float64Array,
  n: number,
  steps: Float64Array,
  frame: number,
): void {
  const shift = stepShift(frame, n);
  // point i takes column i + shift: the row from its start (i < n - shift), then from the row's start
  let base = (frame % STEP_FRAMES) * n * 2 + 2 * shift;
  const wrap = n - shift;
  for (let i = 0; i < n; i++) {
    if (i === wrap) base -= 2 * n;
    // clamp: the world is closed, points stop at its edge
    xs[i] = Math.min(Math.max(xs[i] + steps[base + 2 * i], 0), WORLD);
    ys[i] = Math.min(Math.max(ys[i] + steps[base + 2 * i + 1], 0), WORLD);
  }
}
