import { describe, expect, it } from 'vitest';
import { checkInvariants, PointQuadtree } from '../../src/quadtree';
import { mulberry32 } from '../../src/sim/random';

/**
 * Distances that cannot overflow or underflow silently (issue 12, item 3): huge radii, huge coordinates
 * and radius 0 answer as the closed rule dx² + dy² <= r² does in exact arithmetic.
 */
const bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };

/** Exact-arithmetic distance, good to a few ulps at any magnitude (Math.hypot scales internally). */
const dist = (ax: number, ay: number, bx: number, by: number) => Math.hypot(ax - bx, ay - by);

describe('the reproductions of issue 12', () => {
  it('queryCircle(0, 0, 1e160) does not find a point at (1e200, 1e200), but finds one at (1e159, 1e159)', () => {
    const tree = new PointQuadtree({ bounds });
    tree.insert(1, 1e200, 1e200);
    tree.insert(2, 1e159, 1e159);
    tree.insert(3, 50, 50);
    checkInvariants(tree);
    expect(tree.queryCircle(0, 0, 1e160).sort()).toEqual([2, 3]);
    expect(tree.queryCircleInto(0, 0, 1e160, new Int32Array(3))).toBe(2);
    expect(tree.queryCircle(0, 0, 1.5e200).sort()).toEqual([1, 2, 3]);
  });

  it('nearest(0, 0, 2) puts a point 2e154 away before one 9e299 away', () => {
    const tree = new PointQuadtree({ bounds });
    tree.insert(1, 9e299, 0);
    tree.insert(2, 0, 2e154);
    expect(tree.nearest(0, 0, 2)).toEqual([2, 1]);
    expect(tree.nearest(0, 0, 2, 1e200)).toEqual([2]);
  });

  it('radius 0 finds exactly the points at the centre, not one 1e-200 away', () => {
    const tree = new PointQuadtree({ bounds });
    tree.insert(1, 50, 50);
    tree.insert(2, 50 + 1e-13, 50); // the nearest double above 50 is 50 + 7.1e-15: this is 14 ulps away
    tree.insert(3, 1e-200, 0);
    tree.insert(4, 0, 0);
    tree.insert(5, 5e-324, 0); // the smallest double there is
    expect(tree.queryCircle(50, 50, 0)).toEqual([1]);
    expect(tree.queryCircle(0, 0, 0)).toEqual([4]);
    expect(tree.queryCircle(1e-200, 0, 0)).toEqual([3]);
    expect(tree.queryCircle(0, 0, 1e-200).sort()).toEqual([3, 4, 5]);
    expect(tree.queryCircle(0, 0, 1e-201).sort()).toEqual([4, 5]);
    const seen: number[] = [];
    tree.visitCircle(0, 0, 0, (n) => {
      if (n.isLeaf) seen.push(n.count);
    });
    expect(seen.length).toBeGreaterThan(0);
  });
});

describe('seeded: every magnitude from 1e-300 to 1e300 against Math.hypot', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: circle queries and nearest at radii from 0 to 1e300`, () => {
      const random = mulberry32(seed);
      const magnitude = () => (random() < 0.5 ? -1 : 1) * 10 ** (random() * 600 - 300);
      const tree = new PointQuadtree({ bounds, maxItems: 4 });
      const xs: number[] = [];
      const ys: number[] = [];
      for (let id = 0; id < 400; id++) {
        // Clusters at several scales: around 0, around a huge point, around a tiny offset.
        const base = id % 4 === 0 ? 0 : id % 4 === 1 ? 3e250 : id % 4 === 2 ? 1e-250 : magnitude();
        xs.push(base + magnitude() * (id % 3 === 0 ? 1e-10 : 1));
        ys.push(id % 5 === 0 ? xs[id] : magnitude());
        tree.insert(id, xs[id], ys[id]);
      }
      checkInvariants(tree);
      for (let q = 0; q < 300; q++) {
        const from = Math.floor(random() * xs.length);
        const cx = random() < 0.5 ? xs[from] : magnitude();
        const cy = random() < 0.5 ? ys[from] : magnitude();
        const radius = q % 10 === 0 ? 0 : Math.abs(magnitude());
        const got = tree.queryCircle(cx, cy, radius).sort((a, b) => a - b);
        const want: number[] = [];
        const unsure = new Set<number>();
        for (let id = 0; id < xs.length; id++) {
          const d = dist(xs[id], ys[id], cx, cy);
          // Within a few ulps of the radius either answer is right: leave those out of the comparison.
          if (radius > 0 && Math.abs(d - radius) <= radius * 1e-12) unsure.add(id);
          else if (radius === 0 ? xs[id] === cx && ys[id] === cy : d <= radius) want.push(id);
        }
        expect(got.filter((id) => !unsure.has(id))).toEqual(want);

        const k = 5;
        const near = tree.nearest(cx, cy, k);
        const sortedD = xs.map((x, id) => dist(x, ys[id], cx, cy)).sort((a, b) => a - b);
        const nearD = near.map((id) => dist(xs[id], ys[id], cx, cy));
        expect(near.length).toBe(k);
        for (let i = 0; i < k; i++) {
          // The i-th answer is as near as the true i-th nearest (to rounding; below ~1e-300 of the root's
          // extent distances compare as equal: see the README).
          const slack = sortedD[i] * 1e-9 + Math.abs(tree.bounds.maxX - tree.bounds.minX) * 1e-290;
          expect(Math.abs(nearD[i] - sortedD[i])).toBeLessThanOrEqual(slack);
        }
      }
    });
  }
});

describe('seeded: far strays come and go; the root grows, refits and shrinks (issue 12, item 2)', () => {
  for (const [seed, looseness] of [
    [11, 0],
    [12, 0],
    [13, 2],
  ] as const) {
    it(`seed ${seed}, looseness ${looseness}: inserts, removes, moves and moveAll against brute force`, () => {
      const random = mulberry32(seed);
      const tree = new PointQuadtree({ bounds, maxItems: 3, looseness });
      const at = new Map<number, [number, number]>();
      const far = () => (random() < 0.5 ? -1 : 1) * 10 ** (random() * 308);
      // Now and then exactly on the constructor bounds' edges (closed): those points must not pin the root.
      const near = () => (random() < 0.05 ? (random() < 0.5 ? 0 : 100) : random() * 100);
      const point = (): [number, number] =>
        random() < 0.1 ? [far(), near()] : [near(), random() < 0.1 ? far() : near()];
      const xs = new Float64Array(80);
      const ys = new Float64Array(80);
      for (let step = 0; step < 1500; step++) {
        const id = Math.floor(random() * 80);
        const op = random();
        try {
          if (op < 0.45) {
            const [x, y] = point();
            if (at.has(id)) tree.move(id, x, y);
            else tree.insert(id, x, y);
            at.set(id, [x, y]);
          } else if (op < 0.9) {
            expect(tree.remove(id)).toBe(at.delete(id));
          } else {
            for (let i = 0; i < 80; i++) {
              const p = at.has(i) && random() < 0.3 ? point() : (at.get(i) ?? [0, 0]);
              xs[i] = p[0];
              ys[i] = p[1];
            }
            tree.moveAll(xs, ys);
            for (const i of at.keys()) at.set(i, [xs[i], ys[i]]);
          }
        } catch (e) {
          // Only a real overflow may throw: points at both ends of the doubles. The tree is unchanged then.
          expect(String(e)).toMatch(/the points span/);
        }
        checkInvariants(tree);
        expect(tree.size).toBe(at.size);
        if (step % 10 === 0) {
          const got = tree.queryRect(-Number.MAX_VALUE, -Number.MAX_VALUE, Number.MAX_VALUE, 100);
          const want = [...at].filter(([, [, y]]) => y <= 100).map(([i]) => i);
          expect(got.sort((a, b) => a - b)).toEqual(want.sort((a, b) => a - b));
          const wantNear = [...at]
            .filter(([, [x, y]]) => x >= 0 && x <= 100 && y >= 0 && y <= 100)
            .map(([i]) => i);
          expect(tree.queryRect(0, 0, 100, 100).sort((a, b) => a - b)).toEqual(
            wantNear.sort((a, b) => a - b),
          );
        }
        // With no strays left (after a remove, a move or a moveAll), a strict tree is back to its
        // constructor bounds.
        if (looseness === 0 && [...at.values()].every(([x, y]) => x >= 0 && x <= 100 && y >= 0 && y <= 100)) {
          expect(tree.bounds, `step ${step}`).toEqual(bounds);
        }
      }
    });
  }
});

describe('all pairs at extreme radii and coordinates (issue 12, item 3, for queryPairsInto)', () => {
  const pairsOf = (tree: PointQuadtree, radius: number) => {
    const a = new Int32Array(64);
    const b = new Int32Array(64);
    const n = tree.queryPairsInto(radius, a, b);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(`${Math.min(a[i], b[i])}-${Math.max(a[i], b[i])}`);
    return out.sort();
  };
  it('radius 1e160 pairs points 1e159 apart but not 1e200 apart; radius 0 pairs only coincident points', () => {
    const tree = new PointQuadtree({ bounds });
    tree.insert(1, 0, 0);
    tree.insert(2, 1e159, 0);
    tree.insert(3, 1e200, 1e200);
    tree.insert(4, 1e-200, 0);
    tree.insert(5, 0, 0);
    expect(pairsOf(tree, 1e160)).toEqual(['1-2', '1-4', '1-5', '2-4', '2-5', '4-5']);
    expect(pairsOf(tree, 0)).toEqual(['1-5']);
    expect(pairsOf(tree, 1e-200)).toEqual(['1-4', '1-5', '4-5']);
    expect(pairsOf(tree, 1e-201)).toEqual(['1-5']);
  });
  for (const seed of [21, 22]) {
    it(`seed ${seed}: pairs at radii from 0 to 1e300 against Math.hypot`, () => {
      const random = mulberry32(seed);
      const magnitude = () => (random() < 0.5 ? -1 : 1) * 10 ** (random() * 600 - 300);
      const xs: number[] = [];
      const ys: number[] = [];
      const tree = new PointQuadtree({ bounds, maxItems: 3 });
      for (let id = 0; id < 120; id++) {
        xs.push(id % 3 === 0 ? magnitude() : (xs[id - 1] ?? 0) + magnitude() * 1e-5);
        ys.push(id % 4 === 0 ? magnitude() : (ys[id - 1] ?? 0));
        tree.insert(id, xs[id], ys[id]);
      }
      const a = new Int32Array(8000);
      const b = new Int32Array(8000);
      for (let q = 0; q < 60; q++) {
        const radius = q % 6 === 0 ? 0 : Math.abs(magnitude());
        const n = tree.queryPairsInto(radius, a, b);
        const got: string[] = [];
        for (let i = 0; i < n; i++) got.push(`${Math.min(a[i], b[i])}-${Math.max(a[i], b[i])}`);
        const want: string[] = [];
        const unsure = new Set<string>();
        for (let i = 0; i < xs.length; i++) {
          for (let j = i + 1; j < xs.length; j++) {
            const d = dist(xs[i], ys[i], xs[j], ys[j]);
            if (radius > 0 && Math.abs(d - radius) <= radius * 1e-12) unsure.add(`${i}-${j}`);
            else if (radius === 0 ? xs[i] === xs[j] && ys[i] === ys[j] : d <= radius) want.push(`${i}-${j}`);
          }
        }
        expect(got.filter((p) => !unsure.has(p)).sort()).toEqual(want.sort());
      }
    });
  }
});
