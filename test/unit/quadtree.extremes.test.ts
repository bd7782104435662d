import { PointQuadtree } from 'point-quadtree';
import { CrowdQuadtree } from 'point-quadtree/crowd';
import { checkInvariants, visitCircle } from 'point-quadtree/debug';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';

/**
 * Distances that cannot overflow or underflow silently: huge radii, huge coordinates
 * and radius 0 answer as the closed rule dx² + dy² <= r² does in exact arithmetic.
 */
const bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };

/** Exact-arithmetic distance, good to a few ulps at any magnitude (Math.hypot scales internally). */
const dist = (ax: number, ay: number, bx: number, by: number) => Math.hypot(ax - bx, ay - by);

/**
 * How far apart two distances may be and still compare as equal in nearest, as docs/api.md promises: about
 * 2e-312 of the largest coordinate in play (the query's or the root's), and 1e-161 while that is below
 * 2^500. Why: differences are multiplied by s (1, or once coordinates pass 2^500 the power of two with
 * s * largest in (2^499, 2^500]) and squared; below the smallest normal double a squared distance rounds
 * in steps of 2^-1074, so a distance is off by at most about sqrt(3 * 2^-1074) / s, which is below
 * 2^-1035 * max(largest, 2^500). (Above that, distances compare to the last few bits, checked by the
 * relative 1e-15 beside it.)
 */
function nearestSlack(tree: PointQuadtree, x: number, y: number): number {
  const b = tree.bounds;
  const largest = Math.max(
    Math.abs(x),
    Math.abs(y),
    Math.abs(b.minX),
    Math.abs(b.minY),
    Math.abs(b.maxX),
    Math.abs(b.maxY),
  );
  return Math.max(largest, 2 ** 500) * 2 ** -1035;
}

describe('huge and tiny radii and coordinates: the cases that once went wrong unscaled', () => {
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

  it('nearest tells distances apart down to 1e-161 unscaled, and 2e-312 of the largest coordinate scaled', () => {
    for (const order of [
      [1, 2],
      [2, 1],
    ]) {
      const tree = new PointQuadtree({ bounds });
      const at = new Map([
        [1, 2e-161],
        [2, 1e-161],
      ]);
      for (const id of order) tree.insert(id, at.get(id)!, 0);
      expect(tree.nearest(0, 0, 2)).toEqual([2, 1]);
      // A far point puts the root past 2^500: now 1e-11 from the query is still told from 2e-11.
      tree.insert(3, 1.5e299, 0);
      expect(nearestSlack(tree, 0, 0)).toBeLessThan(1e-12);
      tree.move(order[0], at.get(order[0])! * 1e150, 0);
      tree.move(order[1], at.get(order[1])! * 1e150, 0);
      expect(tree.nearest(0, 0, 2)).toEqual([2, 1]);
    }
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
    // visitCircle at radius 0 visits the nodes whose closed rectangle holds the centre: here the root, a
    // leaf with all five items...
    const visits = (t: PointQuadtree) => {
      const seen: string[] = [];
      visitCircle(t, 0, 0, 0, (n) => {
        seen.push(
          `${n.depth}: ${n.minX} ${n.minY} ${n.maxX} ${n.maxY} ${n.isLeaf ? `leaf of ${n.count}` : 'inner'}`,
        );
      });
      return seen;
    };
    expect(visits(tree)).toEqual(['0: 0 0 100 100 leaf of 5']);
    // ...and with maxItems 1, the NW nodes down to the leaf at minSize that holds ids 3, 4 and 5.
    const deep = new PointQuadtree({ bounds, maxItems: 1 });
    for (const [id, x, y] of [
      [1, 50, 50],
      [2, 50 + 1e-13, 50],
      [3, 1e-200, 0],
      [4, 0, 0],
      [5, 5e-324, 0],
    ]) {
      deep.insert(id, x, y);
    }
    const side = (d: number) => 100 / 2 ** d;
    expect(visits(deep)).toEqual([
      ...[0, 1, 2, 3, 4, 5].map((d) => `${d}: 0 0 ${side(d)} ${side(d)} inner`),
      `6: 0 0 ${side(6)} ${side(6)} leaf of 3`,
    ]);
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
        const slack = nearestSlack(tree, cx, cy);
        for (let i = 0; i < k; i++) {
          // The i-th answer is as near as the true i-th nearest, to the precision docs/api.md promises.
          expect(Math.abs(nearD[i] - sortedD[i])).toBeLessThanOrEqual(sortedD[i] * 1e-15 + slack);
        }
      }
    });
  }
});

describe('seeded: nearest on the scaled path, with distances it can tell apart', () => {
  for (const seed of [4, 5, 6]) {
    it(`seed ${seed}: exactly the k nearest, nearest first, with a root past 2^500`, () => {
      const random = mulberry32(seed);
      const tree = new PointQuadtree({ bounds, maxItems: 4 });
      // Clusters at every scale, each spread over a millionth of its distance from 0 (or 1e-3 at 0): the
      // gaps between distances are far above the 2e-312 of the largest coordinate that could tie them.
      const centres = [0, 1, -7e5, 3e60, -2e150, 5e250, 1.5e299];
      const xs: number[] = [];
      const ys: number[] = [];
      for (let id = 0; id < 350; id++) {
        const c = centres[id % centres.length];
        const spread = c === 0 ? 1e-3 : Math.abs(c) * 1e-6;
        xs.push(c + (random() - 0.5) * spread);
        ys.push(-c + (random() - 0.5) * spread);
        tree.insert(id, xs[id], ys[id]);
      }
      checkInvariants(tree);
      expect(tree.bounds.maxX).toBeGreaterThan(2 ** 500); // every query below takes the scaled path
      for (let q = 0; q < 200; q++) {
        const c = centres[Math.floor(random() * centres.length)];
        const spread = c === 0 ? 1e-3 : Math.abs(c) * 1e-6;
        const cx = c + (random() - 0.5) * spread * 2;
        const cy = -c + (random() - 0.5) * spread * 2;
        const k = 1 + Math.floor(random() * 8);
        const byDistance = xs.map((x, id) => ({ id, d: dist(x, ys[id], cx, cy) })).sort((a, b) => a.d - b.d);
        // The order is unique: each of the k + 1 nearest is well apart from the next, at this precision.
        const slack = nearestSlack(tree, cx, cy);
        for (let i = 0; i < k; i++) {
          expect(byDistance[i + 1].d - byDistance[i].d).toBeGreaterThan(byDistance[i + 1].d * 1e-12 + slack);
        }
        const want = byDistance.slice(0, k).map((e) => e.id);
        expect(tree.nearest(cx, cy, k), `query ${q} at (${cx}, ${cy}), k ${k}`).toEqual(want);
        // maxDistance halfway between the k-th and the next: the same k; just below the k-th: one fewer.
        const between = (byDistance[k - 1].d + byDistance[k].d) / 2;
        expect(tree.nearest(cx, cy, k + 3, between)).toEqual(want);
        expect(tree.nearest(cx, cy, k, byDistance[k - 1].d * (1 - 1e-9))).toEqual(want.slice(0, k - 1));
      }
    });
  }
});

/** minX, minY, maxX, maxY. */
type Span = [number, number, number, number];

/** What points span together with the constructor's bounds (the smallest root a refit may set). */
function spanOf(points: Iterable<[number, number]>): Span {
  const s: Span = [bounds.minX, bounds.minY, bounds.maxX, bounds.maxY];
  for (const [x, y] of points) {
    s[0] = Math.min(s[0], x);
    s[1] = Math.min(s[1], y);
    s[2] = Math.max(s[2], x);
    s[3] = Math.max(s[3], y);
  }
  return s;
}

function sameSpan(b: typeof bounds, s: Span): boolean {
  return b.minX === s[0] && b.minY === s[1] && b.maxX === s[2] && b.maxY === s[3];
}

describe('seeded: far strays come and go; the root grows, refits and shrinks', () => {
  for (const [seed, looseness] of [
    [11, 0],
    [12, 0],
    [13, 2],
  ] as const) {
    it(`seed ${seed}, looseness ${looseness}: inserts, removes, moves and moveAll against brute force`, () => {
      const random = mulberry32(seed);
      const tree = new PointQuadtree({ bounds, maxItems: 3, looseness });
      const at = new Map<number, [number, number]>();
      // Far, and now and then near the largest double: two of those on opposite sides span more than a
      // double can hold (the operation throws), one alone needs a root doubling cannot reach (a refit).
      const far = () =>
        (random() < 0.5 ? -1 : 1) *
        (random() < 0.1 ? Number.MAX_VALUE * (0.4 + 0.6 * random()) : 10 ** (random() * 308));
      // Now and then exactly on the constructor bounds' edges (closed): those points must not pin the root.
      const near = () => (random() < 0.05 ? (random() < 0.5 ? 0 : 100) : random() * 100);
      const point = (): [number, number] =>
        random() < 0.1 ? [far(), near()] : [near(), random() < 0.1 ? far() : near()];
      const xs = new Float64Array(80);
      const ys = new Float64Array(80);
      let throws = 0;
      let refits = 0;
      for (let step = 0; step < 1500; step++) {
        const id = Math.floor(random() * 80);
        const op = random();
        // What the items span after the operation (with the constructor's bounds), if it changes that.
        let after: Span | undefined;
        let threw: unknown;
        if (op < 0.45) {
          const [x, y] = point();
          after = spanOf([...[...at].filter(([i]) => i !== id).map(([, p]) => p), [x, y]]);
          try {
            if (at.has(id)) tree.move(id, x, y);
            else tree.insert(id, x, y);
            at.set(id, [x, y]);
          } catch (e) {
            threw = e;
          }
        } else if (op < 0.9) {
          expect(tree.remove(id)).toBe(at.delete(id));
        } else {
          for (let i = 0; i < 80; i++) {
            const p = at.has(i) && random() < 0.3 ? point() : (at.get(i) ?? [0, 0]);
            xs[i] = p[0];
            ys[i] = p[1];
          }
          after = spanOf([...at.keys()].map((i): [number, number] => [xs[i], ys[i]]));
          try {
            tree.moveAll(xs, ys);
            for (const i of at.keys()) at.set(i, [xs[i], ys[i]]);
          } catch (e) {
            threw = e;
          }
        }
        if (after !== undefined) {
          // It throws exactly when the items would span a width or depth that is not a finite number (a
          // root that big cannot be): short of that, a root that doubling cannot reach is refitted.
          const finite = Number.isFinite(after[2] - after[0]) && Number.isFinite(after[3] - after[1]);
          expect(threw === undefined, `step ${step}: ${String(threw)}`).toBe(finite);
        }
        if (threw !== undefined) {
          throws++;
          expect(threw).toBeInstanceOf(RangeError);
          expect(String(threw)).toMatch(/^RangeError: PointQuadtree: the points span x /);
          // The tree is unchanged: every item is still where it was.
          for (const [i, [x, y]] of at)
            expect(tree.queryCircle(x, y, 0), `step ${step}, id ${i}`).toContain(i);
        } else if (
          after !== undefined &&
          sameSpan(tree.bounds, after) &&
          !sameSpan(tree.bounds, spanOf([]))
        ) {
          refits++;
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
      // Both ways out of a root that doubling cannot reach were taken.
      expect(throws).toBeGreaterThan(0);
      expect(refits).toBeGreaterThan(0);
    });
  }
});

// On both joins: PointQuadtree's JavaScript join and CrowdQuadtree's WebAssembly one.
describe.each([PointQuadtree, CrowdQuadtree])(
  'all pairs at extreme radii and coordinates (queryPairsInto scales like circle queries): %o',
  (Tree) => {
    const pairsOf = (tree: PointQuadtree, radius: number) => {
      const a = new Int32Array(64);
      const b = new Int32Array(64);
      const n = tree.queryPairsInto(radius, a, b);
      const out: string[] = [];
      for (let i = 0; i < n; i++) out.push(`${Math.min(a[i], b[i])}-${Math.max(a[i], b[i])}`);
      return out.sort();
    };
    it('radius 1e160 pairs points 1e159 apart but not 1e200 apart; radius 0 pairs only coincident points', () => {
      const tree = new Tree({ bounds });
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
    it('radii past 1.34e154 (their squares overflow, so differences are scaled): pairs across two leaves and in one', () => {
      // Leaves under 1.34e154 wide, so their areas stay finite: the joins that write every candidate (room
      // for all, the leaf no larger than the circle's area) run with scaled differences here.
      for (const axis of ['x', 'y'] as const) {
        const tree = new Tree({ bounds: { minX: 0, minY: 0, maxX: 2e154, maxY: 2e154 }, maxItems: 1 });
        const at = (id: number, u: number, v: number) =>
          axis === 'x' ? tree.insert(id, u, v) : tree.insert(id, v, u);
        at(1, 0.2e154, 0.5e154);
        at(2, 1.5e154, 0.5e154); // about 1.3e154 from id 1, in the neighbouring quadrant
        checkInvariants(tree);
        const d = 1.5e154 - 0.2e154;
        expect(pairsOf(tree, 1.4e154), axis).toEqual(['1-2']);
        expect(pairsOf(tree, d), axis).toEqual(['1-2']);
        expect(pairsOf(tree, 1.29e154), axis).toEqual([]);
      }
      const leaf = new Tree({ bounds: { minX: 0, minY: 0, maxX: 1e154, maxY: 1e154 }, maxItems: 4 });
      leaf.insert(1, 0, 0);
      leaf.insert(2, 1e154, 1e154); // 1.414e154 from id 1
      leaf.insert(3, 1e154, 0); // 1e154 from both
      leaf.insert(4, 0.5e154, 0.25e154); // 5.59e153 from ids 1 and 3, 9.01e153 from id 2
      expect(pairsOf(leaf, 1.35e154)).toEqual(['1-3', '1-4', '2-3', '2-4', '3-4']);
      expect(pairsOf(leaf, 1.5e154)).toEqual(['1-2', '1-3', '1-4', '2-3', '2-4', '3-4']);
    });
    it('radii under 1e-145 (their squares fall below 2^-960, so differences are scaled up): the same pairs', () => {
      // The case above at 1e-304 of its scale: leaves under the circle's area, and two leaves not wholly
      // within reach of each other (their farthest corners about 2.2e-150 apart), so no pair of them is taken
      // whole. (Under a radius of 2^-511, s² overflows, `dense` is 0 and the joins test each pair first.)
      const minSize = 1e-156;
      for (const axis of ['x', 'y'] as const) {
        const tree = new Tree({
          bounds: { minX: 0, minY: 0, maxX: 2e-150, maxY: 2e-150 },
          maxItems: 1,
          minSize,
        });
        const at = (id: number, u: number, v: number) =>
          axis === 'x' ? tree.insert(id, u, v) : tree.insert(id, v, u);
        at(1, 0.2e-150, 0.5e-150);
        at(2, 1.5e-150, 0.5e-150); // about 1.3e-150 from id 1, in the neighbouring quadrant
        checkInvariants(tree);
        const d = 1.5e-150 - 0.2e-150;
        expect(pairsOf(tree, 1.4e-150), axis).toEqual(['1-2']);
        expect(pairsOf(tree, d), axis).toEqual(['1-2']);
        expect(pairsOf(tree, 1.29e-150), axis).toEqual([]);
      }
      const leaf = new Tree({
        bounds: { minX: 0, minY: 0, maxX: 1e-150, maxY: 1e-150 },
        maxItems: 4,
        minSize,
      });
      leaf.insert(1, 0, 0);
      leaf.insert(2, 1e-150, 1e-150);
      leaf.insert(3, 1e-150, 0);
      leaf.insert(4, 0.5e-150, 0.25e-150);
      expect(pairsOf(leaf, 1.35e-150)).toEqual(['1-3', '1-4', '2-3', '2-4', '3-4']);
      expect(pairsOf(leaf, 1.5e-150)).toEqual(['1-2', '1-3', '1-4', '2-3', '2-4', '3-4']);
    });
    for (const seed of [21, 22]) {
      it(`seed ${seed}: pairs at radii from 0 to 1e300 against Math.hypot`, () => {
        const random = mulberry32(seed);
        const magnitude = () => (random() < 0.5 ? -1 : 1) * 10 ** (random() * 600 - 300);
        const xs: number[] = [];
        const ys: number[] = [];
        const tree = new Tree({ bounds, maxItems: 3 });
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
              else if (radius === 0 ? xs[i] === xs[j] && ys[i] === ys[j] : d <= radius)
                want.push(`${i}-${j}`);
            }
          }
          expect(got.filter((p) => !unsure.has(p)).sort()).toEqual(want.sort());
        }
      });
    }
  },
);
