/*
 * Circle and rectangle queries: an explicit-stack walk that prunes nodes by their (loose) rectangle, steps
 * straight down while the shape stays on one side of both split lines, hands over the items of a node the
 * shape covers without testing them (collectAll), and tests a leaf's items in pool order.
 */

import { outOfRoom } from '../core/checks';
import { distanceScale } from '../core/distance';
import { CIRCLE_APART, CIRCLE_COVERS, circleMeets, quadrant, rectDist2 } from '../core/geometry';
import type { TreeState } from '../core/state';
import type { QueryStats } from '../core/types';

/** The query results buffer, with room for every item. */
export function resultBuffer(t: TreeState): Int32Array {
  const q = t.query;
  if (q.results.length < t.size) q.results = new Int32Array(Math.max(t.size, q.results.length * 2));
  return q.results;
}

/** Appends `n` ids from a buffer to a plain array (one resize, then indexed writes: faster than push). */
export function appendResults(out: number[], results: Int32Array, n: number): void {
  const base = out.length;
  out.length = base + n;
  for (let i = 0; i < n; i++) out[base + i] = results[i];
}

/**
 * The ids within the closed circle q[2..4] (x, y, radius, checked) into `out` (of length `cap`, as the
 * output check read it) from index 0; returns the count and writes the walk's figures into `stats`.
 */
export function circleInto(
  t: TreeState,
  out: Int32Array | Uint32Array,
  cap: number,
  q: Float64Array,
  stats: QueryStats,
): number {
  const x = q[2];
  const y = q[3];
  const radius = q[4];
  let found = 0;
  let visited = 0;
  let tested = 0;
  if (t.size > 0) {
    // Every difference times s (1 at ordinary radii): squared distances cannot overflow or underflow.
    const s = distanceScale(radius);
    const r2 = radius * s * (radius * s);
    const lb = t.nodeLoose;
    const child = t.nodeChild;
    const count = t.nodeCount;
    const start = t.nodeStart;
    const xy = t.pool.xy;
    const ids = t.pool.ids;
    const walk = t.query.stack;
    let stack = walk.items;
    const strict = lb === t.nodeBounds; // looseness 0: the loose rectangles are the nodes' own
    // A leaf more than 8 times the circle's area (unscaled) holds few hits: test each point with a
    // branch (well predicted) instead of writing every id (see the leaf scan below).
    const sparse = 8 * Math.PI * radius * radius;
    let sp = 0;
    if (rectDist2(lb, 0, x, y, s) <= r2) stack[sp++] = 0;
    while (sp > 0) {
      let n = stack[--sp];
      visited++;
      let c = child[n];
      // Strict tree: while the circle is farther than r from both split lines of n, it meets only the
      // child on its side of them (circleMeets would find the other three apart, and that child
      // neither apart nor covered): step down without testing the four children. The split point is the
      // SE child's min corner, as in childFor.
      while (strict && c >= 0) {
        const m = (c + 3) << 2;
        const gx = (x - lb[m]) * s;
        const gy = (y - lb[m + 1]) * s;
        if (!(gx * gx > r2 && gy * gy > r2)) break;
        n = c + quadrant(x, y, lb[m], lb[m + 1]);
        if (count[n] === 0) break;
        visited++;
        c = child[n];
      }
      if (count[n] === 0) continue;
      if (c < 0) {
        const b = start[n];
        const e = b + count[n];
        tested += e - b;
        const o = n << 2;
        if (found + (e - b) <= cap && (lb[o + 2] - lb[o]) * (lb[o + 3] - lb[o + 1]) <= sparse) {
          // Room for the whole leaf (always, when out.length >= size) and a leaf (its loose rectangle) at
          // most 8 times the circle's area: write every id and step past the hits only. No branch to
          // mispredict: in dense data about half the points tested are hits.
          for (let i = b; i < e; i++) {
            const dx = (xy[i << 1] - x) * s;
            const dy = (xy[(i << 1) + 1] - y) * s;
            out[found] = ids[i];
            found += +(dx * dx + dy * dy <= r2);
          }
          continue;
        }
        for (let i = b; i < e; i++) {
          const dx = (xy[i << 1] - x) * s;
          const dy = (xy[(i << 1) + 1] - y) * s;
          if (dx * dx + dy * dy <= r2) {
            if (found === cap) outOfRoom(cap, t.size);
            out[found++] = ids[i];
          }
        }
        continue;
      }
      stack = walk.room(sp, 4);
      for (let k = c; k < c + 4; k++) {
        if (count[k] === 0) continue;
        const meets = circleMeets(lb, k, x, y, r2, s);
        if (meets === CIRCLE_APART) continue;
        if (meets === CIRCLE_COVERS) {
          found = collectAll(t, k, out, cap, found);
          visited += t.query.collected;
        } else {
          stack[sp++] = k;
        }
      }
    }
  }
  stats.nodesVisited = visited;
  stats.pointsTested = tested;
  stats.found = found;
  return found;
}

/**
 * The ids within the closed rectangle q[2..5] (minX, minY, maxX, maxY, checked) into `out` (of length
 * `cap`) from index 0; returns the count and writes the walk's figures into `stats`.
 */
export function rectInto(
  t: TreeState,
  out: Int32Array | Uint32Array,
  cap: number,
  q: Float64Array,
  stats: QueryStats,
): number {
  const minX = q[2];
  const minY = q[3];
  const maxX = q[4];
  const maxY = q[5];
  let found = 0;
  let visited = 0;
  let tested = 0;
  if (t.size > 0) {
    const lb = t.nodeLoose;
    const child = t.nodeChild;
    const count = t.nodeCount;
    const start = t.nodeStart;
    const xy = t.pool.xy;
    const ids = t.pool.ids;
    const walk = t.query.stack;
    let stack = walk.items;
    let sp = 0;
    if (lb[0] <= maxX && lb[1] <= maxY && lb[2] >= minX && lb[3] >= minY) stack[sp++] = 0;
    const strict = lb === t.nodeBounds; // looseness 0: the loose rectangles are the nodes' own
    while (sp > 0) {
      let n = stack[--sp];
      visited++;
      let c = child[n];
      // Strict tree: while the rectangle lies off both split lines of n, it meets only the child on its
      // side of them, and that child is never wholly inside the rectangle: step down without testing the
      // four children (split point as in childFor).
      while (strict && c >= 0) {
        const m = (c + 3) << 2;
        const mx = lb[m];
        const my = lb[m + 1];
        if (!((minX > mx || maxX < mx) && (minY > my || maxY < my))) break;
        n = c + quadrant(minX, minY, mx, my);
        if (count[n] === 0) break;
        visited++;
        c = child[n];
      }
      if (count[n] === 0) continue;
      if (c < 0) {
        const s = start[n];
        const e = s + count[n];
        tested += e - s;
        if (found + (e - s) <= cap) {
          // As in circleInto: write every id, step past the hits only (no branch).
          for (let i = s; i < e; i++) {
            const px = xy[i << 1];
            const py = xy[(i << 1) + 1];
            out[found] = ids[i];
            found += +(px >= minX) & +(px <= maxX) & +(py >= minY) & +(py <= maxY);
          }
          continue;
        }
        for (let i = s; i < e; i++) {
          const px = xy[i << 1];
          const py = xy[(i << 1) + 1];
          if (px >= minX && px <= maxX && py >= minY && py <= maxY) {
            if (found === cap) outOfRoom(cap, t.size);
            out[found++] = ids[i];
          }
        }
        continue;
      }
      stack = walk.room(sp, 4);
      for (let k = c; k < c + 4; k++) {
        if (count[k] === 0) continue;
        const b = k << 2;
        if (lb[b] > maxX || lb[b + 1] > maxY || lb[b + 2] < minX || lb[b + 3] < minY) continue;
        if (lb[b] >= minX && lb[b + 1] >= minY && lb[b + 2] <= maxX && lb[b + 3] <= maxY) {
          found = collectAll(t, k, out, cap, found);
          visited += t.query.collected;
        } else {
          stack[sp++] = k;
        }
      }
    }
  }
  stats.nodesVisited = visited;
  stats.pointsTested = tested;
  stats.found = found;
  return found;
}

/**
 * Writes every id below node `n` into `out` (of length `cap`) from index `found` without testing them;
 * returns the new count and leaves the number of nodes visited in `t.query.collected`.
 */
function collectAll(
  t: TreeState,
  n: number,
  out: Int32Array | Uint32Array,
  cap: number,
  found: number,
): number {
  const child = t.nodeChild;
  const count = t.nodeCount;
  const start = t.nodeStart;
  const ids = t.pool.ids;
  // Every item below `n` is in the answer, so this check is exact.
  if (found + count[n] > cap) outOfRoom(cap, t.size);
  const walk = t.query.collect;
  let stack = walk.items;
  let sp = 0;
  let visited = 0;
  stack[sp++] = n;
  while (sp > 0) {
    const m = stack[--sp];
    visited++;
    const c = child[m];
    if (c < 0) {
      const s = start[m];
      const e = s + count[m];
      for (let i = s; i < e; i++) out[found++] = ids[i];
      continue;
    }
    stack = walk.room(sp, 4);
    for (let k = c; k < c + 4; k++) if (count[k] > 0) stack[sp++] = k;
  }
  t.query.collected = visited;
  return found;
}
