/*
 * Nearest neighbours: best-first search over the nodes, nearest rectangle first, keeping the best k items
 * so far in a bounded heap (heap.ts); stops when the nearest unopened node is farther than the k-th best.
 */

import { spanScale } from '../core/distance';
import { rectDist2 } from '../core/geometry';
import type { TreeState } from '../core/state';
import type { QueryStats } from '../core/types';

/**
 * Appends to `out` up to `k` ids nearest to (x, y) within `maxDistance` (closed), nearest first (arguments
 * checked); writes the search's figures into `stats`.
 */
export function nearestInto(
  t: TreeState,
  x: number,
  y: number,
  k: number,
  maxDistance: number,
  out: number[],
  stats: QueryStats,
): void {
  let visited = 0;
  let tested = 0;
  let found = 0;
  const want = Math.min(k, t.size);
  if (want > 0) {
    const best = t.nearest.best;
    const queue = t.nearest.queue;
    best.reset(want);
    queue.clear();
    const lb = t.nodeLoose;
    const child = t.nodeChild;
    const count = t.nodeCount;
    const start = t.nodeStart;
    const xy = t.pool.xy;
    const ids = t.pool.ids;
    const s = spanScale(
      Math.max(Math.abs(x), Math.abs(y), Math.abs(lb[0]), Math.abs(lb[1]), Math.abs(lb[2]), Math.abs(lb[3])),
    );
    let bound = maxDistance * s * (maxDistance * s);
    // Nodes by distance to their (loose) rectangle, nearest first; stop when the nearest is past the bound.
    const d0 = rectDist2(lb, 0, x, y, s);
    if (d0 <= bound) queue.push(0, d0);
    while (queue.size > 0 && queue.topDist() <= bound) {
      const n = queue.topNode();
      queue.pop();
      visited++;
      const c = child[n];
      if (c < 0) {
        const b = start[n];
        const e = b + count[n];
        tested += e - b;
        for (let i = b; i < e; i++) {
          const dx = (xy[i << 1] - x) * s;
          const dy = (xy[(i << 1) + 1] - y) * s;
          const d2 = dx * dx + dy * dy;
          if (d2 > bound) continue;
          best.offer(ids[i], d2);
          if (best.full()) bound = best.worst();
        }
        continue;
      }
      for (let q = c; q < c + 4; q++) {
        if (count[q] === 0) continue;
        const dq = rectDist2(lb, q, x, y, s);
        if (dq <= bound) queue.push(q, dq);
      }
    }
    found = best.size;
    best.drainInto(out);
  }
  stats.nodesVisited = visited;
  stats.pointsTested = tested;
  stats.found = found;
}
