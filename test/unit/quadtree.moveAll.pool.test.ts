import { PointQuadtree } from 'point-quadtree';
import { INTERNALS } from 'point-quadtree/internal/PointQuadtree';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';

describe('PointQuadtree.moveAll and the item pool', () => {
  it('seed 11: a crowd wandering inside the bounds stops replacing the pool arrays (compaction in place)', () => {
    const n = 20_000;
    const rnd = mulberry32(11);
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      xs[i] = rnd() * 1000;
      ys[i] = rnd() * 1000;
    }
    const tree = PointQuadtree.from(
      { bounds: { minX: 0, minY: 0, maxX: 1000, maxY: 1000 } },
      Int32Array.from({ length: n }, (_, i) => i),
      xs,
      ys,
    );
    const pool = tree[INTERNALS]().pool;
    let replaced = 0;
    let compactions = 0;
    let xy = pool.xy;
    for (let frame = 0; frame < 400; frame++) {
      for (let i = 0; i < n; i++) {
        xs[i] = Math.min(Math.max(xs[i] + 2 * rnd() - 1, 0), 1000);
        ys[i] = Math.min(Math.max(ys[i] + 2 * rnd() - 1, 0), 1000);
      }
      const top = pool.top;
      tree.moveAll(xs, ys);
      if (pool.top < top) compactions++;
      // The first frames grow the exact-size blocks of the bulk build; after them, nothing.
      if (frame >= 100 && pool.xy !== xy) replaced++;
      xy = pool.xy;
    }
    expect(compactions).toBeGreaterThan(0);
    expect(replaced).toBe(0);
    expect(tree.queryRect(0, 0, 1000, 1000)).toHaveLength(n);
  });
});
