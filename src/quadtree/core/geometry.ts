/*
 * The geometry rules of the tree, each defined once. All are small enough that the JIT inlines them into
 * the loops that call them. Rectangles are stored with stride 4 (minX, minY, maxX, maxY) in a Float64Array.
 */

/** The split line of a node spanning lo..hi (children store it, so it is computed only when splitting). */
export function midpoint(lo: number, hi: number): number {
  return lo + (hi - lo) * 0.5;
}

/** Quadrant of (x, y) in a node split at (mx, my): on or past a split line goes east (1) / south (2). */
export function quadrant(x: number, y: number, mx: number, my: number): number {
  return (x >= mx ? 1 : 0) | (y >= my ? 2 : 0);
}

/**
 * Whether (x, y) lies in the rectangle minX..maxX, minY..maxY, half-open (max edges excluded) except on the
 * root's far edges (rootMaxX, rootMaxY), which are closed. Used for a node's loose rectangle (its own
 * rectangle when looseness is 0): `move` keeps an item in its leaf while this holds.
 */
export function holds(
  x: number,
  y: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  rootMaxX: number,
  rootMaxY: number,
): boolean {
  return (
    x >= minX &&
    y >= minY &&
    (x < maxX || (x === maxX && x === rootMaxX)) &&
    (y < maxY || (y === maxY && y === rootMaxY))
  );
}

/** Whether rectangle `k` of `r` (stride 4) contains (x, y), edges included. */
export function covers(r: Float64Array, k: number, x: number, y: number): boolean {
  const b = k << 2;
  return x >= r[b] && x <= r[b + 2] && y >= r[b + 1] && y <= r[b + 3];
}

/**
 * The child (of the group starting at `g`) that holds the point (p[0], p[1]): the SE child's min corner is
 * the split point. The point comes in an array: a call the engine does not inline would box doubles.
 */
export function childFor(nb: Float64Array, g: number, p: Float64Array): number {
  const m = (g + 3) << 2;
  return g + quadrant(p[0], p[1], nb[m], nb[m + 1]);
}

/**
 * Squared distance from (x, y) to the rectangle minX..maxX, minY..maxY, every difference times `s` (see
 * distance.ts); 0 inside. The point-to-rectangle rule of every pruning test (circle queries, nearest,
 * visitCircle, the pair join's per-item test), written once.
 */
export function pointRectDist2(
  x: number,
  y: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  s: number,
): number {
  const dx = (x < minX ? minX - x : x > maxX ? x - maxX : 0) * s;
  const dy = (y < minY ? minY - y : y > maxY ? y - maxY : 0) * s;
  return dx * dx + dy * dy;
}

/** {@link pointRectDist2} to rectangle `k` of `r` (stride 4). */
export function rectDist2(r: Float64Array, k: number, x: number, y: number, s: number): number {
  const b = k << 2;
  return pointRectDist2(x, y, r[b], r[b + 1], r[b + 2], r[b + 3], s);
}

/** The circle meets rectangle `k` not at all: the node and its subtree are pruned. */
export const CIRCLE_APART = 0;
/** The circle overlaps rectangle `k`: its children are examined (a leaf's points are tested). */
export const CIRCLE_OVERLAPS = 1;
/** Rectangle `k` lies wholly inside the circle: every item below is found without a test. */
export const CIRCLE_COVERS = 2;

/**
 * How the closed disc at (x, y) meets rectangle `k` of `r`: the pruning rule of circle queries (and of
 * visitCircle). `s` is distanceScale of the radius and `r2` the squared scaled radius `(radius * s) ** 2`.
 * Uses the squared distance to the nearest and the farthest corner.
 */
export function circleMeets(r: Float64Array, k: number, x: number, y: number, r2: number, s: number): number {
  if (rectDist2(r, k, x, y, s) > r2) return CIRCLE_APART;
  const b = k << 2;
  const fx = Math.max(x - r[b], r[b + 2] - x) * s;
  const fy = Math.max(y - r[b + 1], r[b + 3] - y) * s;
  return fx * fx + fy * fy <= r2 ? CIRCLE_COVERS : CIRCLE_OVERLAPS;
}

/**
 * One doubling of rectangle `b` (stride 4 from 0) toward (x, y), which lies outside it: the rectangle
 * doubles its width away from the side x is on (west if x < minX, else east) and its height likewise (north
 * if y < minY, else south), so the old rectangle is exactly one quadrant of the new one. Returns that
 * quadrant: 1 if it grew west, plus 2 if it grew north (the old rectangle is then NE / SW / SE).
 */
export function doubleToward(b: Float64Array, x: number, y: number): number {
  const w = b[2] - b[0];
  const h = b[3] - b[1];
  const west = x < b[0];
  const north = y < b[1];
  if (west) b[0] -= w;
  else b[2] += w;
  if (north) b[1] -= h;
  else b[3] += h;
  return (west ? 1 : 0) | (north ? 2 : 0);
}

/**
 * Doubles `b` (minX, minY, maxX, maxY) toward (x, y) until it covers it; false (with `b` part-way) if that
 * would make a coordinate or the width or height infinite.
 */
export function growToCover(b: Float64Array, x: number, y: number): boolean {
  while (!covers(b, 0, x, y)) {
    doubleToward(b, x, y);
    if (!(Number.isFinite(b[2] - b[0]) && Number.isFinite(b[3] - b[1]))) return false;
  }
  return true;
}

/** Sets `box` (stride 4 from 0) to the rectangle that covers it and (x, y): one step of an extent. */
export function extendBox(box: Float64Array, x: number, y: number): void {
  box[0] = Math.min(box[0], x);
  box[1] = Math.min(box[1], y);
  box[2] = Math.max(box[2], x);
  box[3] = Math.max(box[3], y);
}
