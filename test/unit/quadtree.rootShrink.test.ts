import { type Bounds, checkInvariants, PointQuadtree } from 'point-quadtree';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { BruteForce, sorted } from '../helpers/oracle';

// A grown root shrinks back to the smallest doubling of the constructor's bounds that holds the items once
// the far strays that grew it have left, also where halving toward the bounds' centre cannot reach it.

const bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };

/**
 * Brute force: the width and height of the smallest doubling of `b` (2^k times it, the bounds at a corner
 * after any sequence of doublings: [minX - m w, maxX + (2^k - 1 - m) w] for some m in 0..2^k - 1, likewise y)
 * that covers every point.
 */
function smallestDoubling(b: Bounds, points: Iterable<{ x: number; y: number }>): { w: number; h: number } {
  let loX = b.minX;
  let loY = b.minY;
  let hiX = b.maxX;
  let hiY = b.maxY;
  for (const p of points) {
    loX = Math.min(loX, p.x);
    loY = Math.min(loY, p.y);
    hiX = Math.max(hiX, p.x);
    hiY = Math.max(hiY, p.y);
  }
  const w = b.maxX - b.minX;
  const h = b.maxY - b.minY;
  const fits = (span: number, a0: number, a1: number, size: number, lo: number, hi: number) => {
    for (let m = 0; m < span; m++) if (a0 - m * size <= lo && a1 + (span - 1 - m) * size >= hi) return true;
    return false;
  };
  for (let span = 1; ; span *= 2) {
    if (fits(span, b.minX, b.maxX, w, loX, hiX) && fits(span, b.minY, b.maxY, h, loY, hiY)) {
      return { w: span * w, h: span * h };
    }
  }
}

/** The root is a doubling of `bounds` holding every point, as small as any can be. */
function expectSmallestRoot(tree: PointQuadtree, oracle: BruteForce, where: string): void {
  const root = tree.bounds;
  const want = smallestDoubling(bounds, oracle.points.values());
  expect(
    { w: root.maxX - root.minX, h: root.maxY - root.minY },
    `${where}: root ${JSON.stringify(root)}`,
  ).toEqual(want);
  // A doubling: the constructor's bounds inside, whole widths away from its edges.
  expect(root.minX <= bounds.minX && root.maxX >= bounds.maxX, where).toBe(true);
  expect(root.minY <= bounds.minY && root.maxY >= bounds.maxY, where).toBe(true);
  expect(Number.isInteger((bounds.minX - root.minX) / 100), where).toBe(true);
  expect(Number.isInteger((bounds.minY - root.minY) / 100), where).toBe(true);
  for (const [id, p] of oracle.points) {
    expect(
      p.x >= root.minX && p.x <= root.maxX && p.y >= root.minY && p.y <= root.maxY,
      `${where}: id ${id}`,
    ).toBe(true);
  }
}

function expectAnswers(tree: PointQuadtree, oracle: BruteForce, rnd: () => number, where: string): void {
  for (let q = 0; q < 6; q++) {
    const x = rnd() * 500 - 200;
    const y = rnd() * 500 - 200;
    const r = q === 0 ? 0 : rnd() * 120;
    expect(sorted(tree.queryCircle(x, y, r)), `${where}: circle (${x}, ${y}) r ${r}`).toEqual(
      oracle.circle(x, y, r),
    );
  }
  for (const [id, p] of oracle.points)
    expect(tree.queryCircle(p.x, p.y, 0), `${where}: id ${id}`).toContain(id);
}

describe('a grown root shrinks to the smallest doubling that holds the items', () => {
  it('bounds 0..100, an item at y = -50, a stray at 1e6 that comes back: the root is 200 x 200 again', () => {
    for (const how of ['move', 'remove', 'moveAll'] as const) {
      const tree = new PointQuadtree({ bounds });
      const oracle = new BruteForce();
      const xs = new Float64Array(200);
      const ys = new Float64Array(200);
      for (let i = 0; i < 200; i++) {
        xs[i] = (i * 37) % 100;
        ys[i] = (i * 53) % 100;
        tree.insert(i, xs[i], ys[i]);
      }
      tree.move(0, 1e6, 1e6);
      tree.move(1, 50, -50);
      xs[1] = 50;
      ys[1] = -50;
      expect(tree.bounds.maxX - tree.bounds.minX, how).toBeGreaterThan(1e6);
      if (how === 'move') tree.move(0, 10, 10);
      else if (how === 'remove') tree.remove(0);
      else {
        xs[0] = 10;
        ys[0] = 10;
        tree.moveAll(xs, ys);
      }
      if (how !== 'remove') xs[0] = 10;
      if (how !== 'remove') ys[0] = 10;
      for (let i = how === 'remove' ? 1 : 0; i < 200; i++) oracle.insert(i, xs[i], ys[i]);
      checkInvariants(tree);
      // Halving toward the bounds' centre keeps y >= 0 and stops at once; the smallest doubling is one step.
      expect(tree.bounds, how).toEqual({ minX: 0, minY: -100, maxX: 200, maxY: 100 });
      expectAnswers(tree, oracle, mulberry32(5), how);
    }
  });

  for (let seed = 1; seed <= 24; seed++) {
    for (const looseness of [0, 1.5]) {
      it(`seed ${seed}, looseness ${looseness}: items near the bounds stay, far strays leave by move, remove or moveAll`, () => {
        const rnd = mulberry32(seed);
        const n = 80;
        const tree = new PointQuadtree({ bounds, maxItems: 2 + (seed % 5), looseness });
        const oracle = new BruteForce();
        const xs = new Float64Array(n);
        const ys = new Float64Array(n);
        const put = (i: number, x: number, y: number) => {
          xs[i] = x;
          ys[i] = y;
          if (tree.has(i)) tree.move(i, x, y);
          else tree.insert(i, x, y);
          oracle.insert(i, x, y);
        };
        for (let i = 0; i < n; i++) put(i, rnd() * 100, rnd() * 100);
        // Items just outside the bounds, on any side, up to three widths out (some on the grown root's lines).
        const near = () => (rnd() < 0.2 ? Math.round(rnd() * 8 - 4) * 100 : rnd() * 700 - 300);
        for (let i = 0; i < 10; i++) put(i, near(), rnd() < 0.5 ? near() : rnd() * 100);
        // Far strays, one by one: the root doubles toward each.
        const far = [10, 11, 12];
        for (const i of far) {
          const out = () => (rnd() < 0.5 ? -1 : 1) * 10 ** (3 + rnd() * 6);
          put(i, out(), out());
        }
        checkInvariants(tree);
        const how = seed % 3;
        if (how === 0) {
          for (const i of far) put(i, rnd() * 100, near());
        } else if (how === 1) {
          for (const i of far) {
            tree.remove(i);
            oracle.remove(i);
          }
        } else {
          for (const i of far) {
            xs[i] = near();
            ys[i] = rnd() * 100;
            oracle.insert(i, xs[i], ys[i]);
          }
          tree.moveAll(xs, ys);
        }
        const where = `seed ${seed}, ${['move', 'remove', 'moveAll'][how]}`;
        checkInvariants(tree);
        expectSmallestRoot(tree, oracle, where);
        expectAnswers(tree, oracle, rnd, where);
      });
    }
  }
});
