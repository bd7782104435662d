import { PointQuadtree } from 'point-quadtree';
import { checkInvariants, treeStats } from 'point-quadtree/debug';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { BruteForce, sorted } from '../helpers/oracle';

/*
 * A tree small enough that its root is a single leaf: a move out of the root grows the root (it stays a
 * leaf) and re-files the item in place. Every move, query and the invariants checked against brute force.
 */

const bounds = { minX: 0, minY: 0, maxX: 10, maxY: 10 };

describe('a root that is one leaf', () => {
  it('moving id 0 outside the root: it is found at its new place, nowhere else, and the root still a leaf', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 4 });
    tree.insert(0, 1, 1);
    tree.insert(1, 2, 2);
    tree.insert(2, 3, 3);
    tree.move(0, 35, -12);
    checkInvariants(tree);
    expect(treeStats(tree).leaves).toBe(1);
    expect(tree.queryCircle(35, -12, 0.5)).toEqual([0]);
    expect(tree.queryCircle(1, 1, 0.5)).toEqual([]);
    expect(sorted(tree.queryCircle(2, 2, 1.5))).toEqual([1, 2]);
    expect(tree.nearest(34, -11, 1)).toEqual([0]);
    const b = tree.bounds;
    expect(b.minX <= 35 && 35 <= b.maxX && b.minY <= -12 && -12 <= b.maxY).toBe(true);
  });

  for (const seed of [21, 22, 23]) {
    it(`seed ${seed}: moves in and far out of a tiny tree, checked after every step`, () => {
      const rand = mulberry32(seed);
      const tree = new PointQuadtree({ bounds, maxItems: 6 });
      const oracle = new BruteForce();
      const n = 1 + Math.floor(rand() * 6);
      for (let id = 0; id < n; id++) {
        const x = rand() * 10;
        const y = rand() * 10;
        tree.insert(id, x, y);
        oracle.insert(id, x, y);
      }
      for (let step = 0; step < 200; step++) {
        const id = Math.floor(rand() * n);
        const far = rand() < 0.3 ? 10 ** (1 + rand() * 4) : 10;
        const x = (rand() * 2 - 0.5) * far;
        const y = (rand() * 2 - 0.5) * far;
        tree.move(id, x, y);
        oracle.move(id, x, y);
        checkInvariants(tree);
        const at = `step ${step}: id ${id} to (${x}, ${y})`;
        expect(tree.queryCircle(x, y, 0), at).toContain(id);
        expect(sorted(tree.queryCircle(x, y, far / 4)), at).toEqual(oracle.circle(x, y, far / 4));
        expect(sorted(tree.queryRect(-1e9, -1e9, 1e9, 1e9)), at).toEqual(oracle.rect(-1e9, -1e9, 1e9, 1e9));
        const near = tree.nearest(x, y, n);
        expect(
          near.map((i) => oracle.distance2(i, x, y)),
          at,
        ).toEqual(oracle.nearestDistances(x, y, n, Infinity));
      }
    });
  }
});
