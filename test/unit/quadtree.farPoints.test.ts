import { type Bounds, PointQuadtree, type QuadtreeOptions } from 'point-quadtree';
import { checkInvariants, treeStats, visitNodes } from 'point-quadtree/debug';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { BruteForce, sorted } from '../helpers/oracle';
import { bounds, fingerprint, populated } from '../helpers/trees';

// Far points: the root grows to cover any finite extent, and shrinks back to the smallest doubling of the
// constructor's bounds that holds the items once the far strays that grew it have left, also where
// halving toward the bounds' centre cannot reach it.

/** The four mirror images about the bounds' centre (x and y flipped or not), as [fx, fy]. */
const MIRRORS = [
  [1, 1],
  [-1, 1],
  [1, -1],
  [-1, -1],
] as const;

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

/**
 * The root is a doubling of `b` (the constructor's bounds) holding every point, as small as any can be. (The
 * bounds' widths must be exact in binary, as the tests' are, for the whole-widths check.)
 */
function expectSmallestRoot(
  tree: PointQuadtree,
  oracle: BruteForce,
  where: string,
  b: Bounds = bounds,
): void {
  const root = tree.bounds;
  const want = smallestDoubling(b, oracle.points.values());
  expect(
    { w: root.maxX - root.minX, h: root.maxY - root.minY },
    `${where}: root ${JSON.stringify(root)}`,
  ).toEqual(want);
  // A doubling: the constructor's bounds inside, whole widths away from its edges.
  expect(root.minX <= b.minX && root.maxX >= b.maxX, where).toBe(true);
  expect(root.minY <= b.minY && root.maxY >= b.maxY, where).toBe(true);
  expect(Number.isInteger((b.minX - root.minX) / (b.maxX - b.minX)), where).toBe(true);
  expect(Number.isInteger((b.minY - root.minY) / (b.maxY - b.minY)), where).toBe(true);
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

describe('far strays at awkward bounds: seeded fuzz, the invariants after every step', () => {
  // Bounds of widths that round (100.3, 0.1, 3.7e5), off 0 or not, loose or not; items near the bounds, on
  // their edges, and strays up to 1e150 away, inserted, moved, moved all at once and removed. Doublings and
  // halvings of such roots round: every node must still hold its items, and every answer stay exact.
  for (let seed = 1101; seed <= 1140; seed++) {
    it(`seed ${seed}`, () => {
      const rnd = mulberry32(seed);
      const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)];
      const w = pick([100, 100.3, 7, 1e-3, 3.7e5, 0.1]);
      const h = pick([w, w * 2, 100, 0.7]);
      const ox = pick([0, -50, 1000.1, -1e4, 0.3, -w]);
      const oy = pick([0, -50, 77.7, 1e4, -h]);
      const b = { minX: ox, minY: oy, maxX: ox + w, maxY: oy + h };
      const looseness = pick([0, 0, 1.5, 0.5]);
      const maxItems = pick([1, 2, 4, 8]);
      const tree = new PointQuadtree({ bounds: b, maxItems, minSize: pick([w / 1e6, w / 64]), looseness });
      const oracle = new BruteForce();
      const ids: number[] = [];
      const xs = new Float64Array(64);
      const ys = new Float64Array(64);
      const point = () => {
        const far = rnd();
        const reach = far < 0.6 ? 0.5 : far < 0.8 ? 3 : far < 0.9 ? 1e3 : far < 0.97 ? 1e8 : 1e150;
        const onEdge = rnd() < 0.1;
        let x = ox + w / 2 + (rnd() * 2 - 1) * w * reach;
        let y = oy + h / 2 + (rnd() * 2 - 1) * h * reach;
        if (onEdge) {
          x = pick([b.minX, b.maxX, x]);
          y = pick([b.minY, b.maxY, y]);
        }
        return [x, y];
      };
      for (let step = 0; step < 40; step++) {
        const op = rnd();
        const where = `seed ${seed}, step ${step}`;
        if (op < 0.4 || ids.length === 0) {
          if (ids.length === 64) continue;
          const id = ids.length;
          const [x, y] = point();
          tree.insert(id, x, y);
          oracle.insert(id, x, y);
          ids.push(id);
          xs[id] = x;
          ys[id] = y;
        } else if (op < 0.6) {
          const id = pick(ids);
          expect(tree.remove(id), where).toBe(oracle.remove(id));
        } else if (op < 0.85) {
          const id = pick(ids);
          const [x, y] = point();
          if (tree.has(id)) {
            tree.move(id, x, y);
            oracle.move(id, x, y);
            xs[id] = x;
            ys[id] = y;
          }
        } else {
          for (const id of ids) {
            if (rnd() < 0.5) {
              const [x, y] = point();
              xs[id] = x;
              ys[id] = y;
            }
          }
          tree.moveAll(xs, ys);
          for (const id of ids) if (tree.has(id)) oracle.move(id, xs[id], ys[id]);
        }
        checkInvariants(tree);
        const all = tree.queryRect(-Number.MAX_VALUE, -Number.MAX_VALUE, Number.MAX_VALUE, Number.MAX_VALUE);
        expect(sorted(all), where).toEqual(sorted([...oracle.points.keys()]));
        for (const [id, p] of oracle.points)
          expect(tree.queryCircle(p.x, p.y, 0), `${where}: id ${id}`).toContain(id);
      }
    });
  }
});

describe('far points: the root covers any finite extent and shrinks back', () => {
  // The fit's arithmetic wherever the bounds lie: straddling 0 off centre, all negative, far from 0, under a
  // unit wide, and not square (each axis its own case), so that no sign or term of the rule above cancels out.
  const placed: Bounds[] = [
    { minX: -200, minY: -100, maxX: 100, maxY: -50 },
    { minX: -100, minY: -200, maxX: -50, maxY: 100 },
    { minX: -20, minY: 1000, maxX: 100, maxY: 1100 },
    { minX: 1000, minY: -20, maxX: 1100, maxY: 100 },
    { minX: -0.75, minY: 0.25, maxX: 0.25, maxY: 0.5 },
  ];
  for (const [at, b] of placed.entries()) {
    it(`bounds ${JSON.stringify(b)}: the same smallest doubling after far strays leave`, () => {
      const w = b.maxX - b.minX;
      const h = b.maxY - b.minY;
      for (let seed = 1; seed <= 8; seed++) {
        const rnd = mulberry32(100 * at + seed);
        const tree = new PointQuadtree({ bounds: b, maxItems: 2 + (seed % 3) });
        const oracle = new BruteForce();
        const put = (i: number, x: number, y: number) => {
          if (tree.has(i)) tree.move(i, x, y);
          else tree.insert(i, x, y);
          oracle.insert(i, x, y);
        };
        for (let i = 0; i < 40; i++) put(i, b.minX + rnd() * w, b.minY + rnd() * h);
        // Up to three widths out on either side, some exactly on a doubling's lines.
        const near = (lo: number, size: number) =>
          lo + (rnd() < 0.3 ? Math.round(rnd() * 8 - 3) : rnd() * 7 - 3) * size;
        for (let i = 0; i < 4; i++)
          put(i, near(b.minX, w), rnd() < 0.5 ? near(b.minY, h) : b.minY + rnd() * h);
        const far = [4, 5];
        for (const i of far)
          put(i, (rnd() < 0.5 ? -1 : 1) * 10 ** (4 + rnd() * 3), (rnd() < 0.5 ? -1 : 1) * 1e5);
        for (const i of far) {
          if (seed % 2 === 0) {
            tree.remove(i);
            oracle.remove(i);
          } else put(i, b.minX + rnd() * w, b.minY + rnd() * h);
        }
        const where = `seed ${seed}, ${seed % 2 === 0 ? 'remove' : 'move'}`;
        checkInvariants(tree);
        expectSmallestRoot(tree, oracle, where, b);
      }
    });
  }

  it('an item a rounding past the first doubling that should reach it: the next one up is the root', () => {
    // Bounds whose width rounds so that the doubling that covers `edge` by the rule (twice as wide, reaching
    // one width past the bounds on that side) computes its edge one unit in the last place short of it.
    const cases = [
      { side: 'upper', lo: -44.666666666666664, hi: -24.188849410526533, edge: -3.7110321543864004 },
      { side: 'lower', lo: 55.666666666666664, hi: 125.17385739763341, edge: -13.840524064300094 },
    ] as const;
    for (const { side, lo, hi, edge } of cases) {
      const w = hi - lo;
      if (side === 'upper') expect(hi + w).toBeLessThan(edge);
      else expect(lo - w).toBeGreaterThan(edge);
      for (const axis of ['x', 'y'] as const) {
        const where = `${side} ${axis}`;
        const tree = new PointQuadtree({ bounds: { minX: lo, minY: lo, maxX: hi, maxY: hi }, maxItems: 2 });
        const at = (i: number, u: number, v: number) =>
          axis === 'x' ? tree.insert(i, u, v) : tree.insert(i, v, u);
        for (let i = 0; i < 20; i++)
          at(i, lo + (w * ((i * 37) % 100)) / 100, lo + (w * ((i * 53) % 100)) / 100);
        // A far stray on the edge's side first, then an item half a width out on the other axis, on the
        // other side (the root doubles toward it from the stray's side: halving toward the bounds' centre
        // then cannot shrink the root while it is there), and the item at the edge.
        const far = side === 'upper' ? 1e6 : -1e6;
        tree.insert(22, far, far);
        at(20, lo + w / 2, side === 'upper' ? lo - w / 2 : hi + w / 2);
        at(21, edge, lo + w / 2);
        tree.remove(22);
        checkInvariants(tree);
        const root = tree.bounds;
        const [min, max] = axis === 'x' ? [root.minX, root.maxX] : [root.minY, root.maxY];
        expect(
          min <= Math.min(lo, edge) && max >= Math.max(hi, edge),
          `${where}: ${JSON.stringify(root)}`,
        ).toBe(true);
        const place: [number, number] = axis === 'x' ? [edge, lo + w / 2] : [lo + w / 2, edge];
        expect(tree.queryCircle(...place, 0), where).toEqual([21]);
        // Four widths: the doubling of two that the rule names falls short, so the fit takes the next.
        expect((max - min) / w, where).toBeCloseTo(4, 9);
      }
    }
  });

  it('removing a stray where no narrower doubling holds the rest changes nothing else (no rebuild, same version)', () => {
    // The items reach from x = -90 to 190 (the bounds 0..100, here and moved to each side of 0): a doubling
    // of the bounds that holds them is 400 wide, as the root is.
    for (const o of [0, 1000, -1100]) {
      const tree = new PointQuadtree({
        bounds: { minX: o, minY: o, maxX: o + 100, maxY: o + 100 },
        maxItems: 4,
      });
      for (let i = 0; i < 20; i++) tree.insert(i, o + ((i * 37) % 100), o + ((i * 53) % 100));
      tree.insert(20, o - 90, o + 50);
      tree.insert(21, o + 190, o + 50);
      tree.insert(22, o + 250, o + 50); // outside the constructor's bounds, inside the root: a stray's leaving
      const root = tree.bounds;
      expect(root.maxX - root.minX, `at ${o}`).toBe(400);
      const version = tree.version;
      const stats = treeStats(tree);
      tree.remove(22);
      checkInvariants(tree);
      expect(tree.bounds, `at ${o}`).toEqual(root);
      expect(tree.version, `at ${o}`).toBe(version);
      expect(treeStats(tree), `at ${o}`).toEqual({ ...stats, size: stats.size - 1 });
    }
  });

  it('insert(1, 1e308, 50) then insert(2, -1, 50) works (doubling would overflow: the root is refitted)', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 2 });
    tree.insert(1, 1e308, 50);
    tree.insert(2, -1, 50);
    checkInvariants(tree);
    expect(sorted(tree.queryRect(-2, 0, 1e308, 100))).toEqual([1, 2]);
    expect(tree.queryCircle(-1, 50, 0)).toEqual([2]);
    expect(tree.nearest(1e308, 50)).toEqual([1]);
    for (let i = 3; i < 60; i++) tree.insert(i, (i * 37) % 100, (i * 53) % 100);
    checkInvariants(tree);
    // When the far point leaves, the root comes back to a doubling of the constructor's bounds.
    tree.remove(1);
    checkInvariants(tree);
    expect(tree.bounds.maxX).toBeLessThan(1000);
    expect(tree.bounds.minX).toBeGreaterThanOrEqual(-1000);
    expect(sorted(tree.queryRect(-2, 0, 100, 100))).toHaveLength(58);
  });

  it('a root grown by doubling shrinks back to the constructor bounds when the stray is removed', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 2 });
    for (let i = 0; i < 40; i++) tree.insert(i, (i * 37) % 100, (i * 53) % 100);
    const before = treeStats(tree);
    tree.insert(100, 1e6, -3e5);
    expect(tree.bounds.maxX).toBeGreaterThanOrEqual(1e6);
    checkInvariants(tree);
    tree.remove(100);
    checkInvariants(tree);
    expect(tree.bounds).toEqual(bounds);
    expect(treeStats(tree)).toEqual(before);
  });

  it('a root leaf an ulp wider than awkward bounds on one edge comes back to them when its stray leaves', () => {
    // refitDown compared widths too: 100.6 - 0.29999999999999716 rounds like 100.6 - 0.3, and the root leaf
    // stayed an ulp wide of the bounds for good.
    const b = { minX: 0.3, minY: 77.7, maxX: 100.6, maxY: 278.3 };
    for (const leave of ['remove', 'move'] as const) {
      const u = new PointQuadtree({ bounds: b, maxItems: 1 });
      u.insert(4, 31.540374544961374, 139.41020079120062);
      u.insert(1, -8703424570.522945, 620179271.8246995);
      u.move(1, 0.29999999999999716, 161.25078690703958);
      expect(u.bounds.minX, leave).toBe(0.29999999999999716);
      if (leave === 'remove') u.remove(1);
      else u.move(1, 50, 160);
      expect(u.bounds, leave).toEqual(b);
      checkInvariants(u);
    }
  });

  it('a root whose doublings rounded comes back exactly to the constructor bounds (their edges, not only their width)', () => {
    // 0.3..100.6 doubled 27 times rounds; halving back lands an ulp wide of 0.3, a rectangle as wide as the
    // bounds once rounded, so a test of widths alone refused the snap and the root stayed grown for good.
    const b = { minX: 0.3, minY: 77.7, maxX: 100.6, maxY: 278.3 };
    for (const build of ['move', 'remove', 'moveAll'] as const) {
      const t = new PointQuadtree({ bounds: b, maxItems: 1 });
      t.insert(1, -8703424570.522945, 620179271.8246995); // a root leaf, doubled 27 times
      t.insert(4, 31.540374544961374, 139.41020079120062); // splits it at its (rounded) midpoints
      if (build === 'move') t.move(1, 54.11300152300391, 161.25078690703958);
      else if (build === 'remove') t.remove(1);
      else
        t.moveAll(
          [0, 54.11300152300391, 0, 0, 31.540374544961374],
          [0, 161.25078690703958, 0, 0, 139.41020079120062],
        );
      expect(t.bounds, build).toEqual(b);
      checkInvariants(t);
      t.remove(4);
      expect(t.bounds, build).toEqual(b);
    }
  });

  /** Every node as "depth rectangle leaf count", parent first: equal dumps are equal trees. */
  const nodes = (tree: PointQuadtree) => {
    const out: string[] = [];
    visitNodes(tree, (n) => {
      out.push(`${n.depth} ${n.minX} ${n.minY} ${n.maxX} ${n.maxY} ${n.isLeaf} ${n.count}`);
    });
    return out;
  };
  const grid40 = (options: QuadtreeOptions) => {
    const tree = new PointQuadtree(options);
    for (let i = 0; i < 40; i++) tree.insert(i, (i * 37) % 100, (i * 53) % 100);
    return tree;
  };

  it('a far stray moved home: halving that lands an ulp off an edge of the bounds snaps to them, on every edge', () => {
    // Halving a root of 1e53 to 1e196 back toward bounds of awkward widths lands an ulp off one of their
    // edges (minY here, maxX and maxY in the others) or a rounding outside them: the step that comes within
    // 1.5 times their size takes the bounds themselves, and the root is them, edge for edge.
    const cases: [Bounds, [number, number], [number, number], [number, number]][] = [
      [
        { minX: -423.698173, minY: -848.664982, maxX: -249.14987299999999, maxY: -565.756882 },
        [-418.38, -586.11],
        [-4.9659665860631476e53, 5.450910807461826e53],
        [-366.72, -702.89],
      ],
      [
        { minX: 258.993731, minY: -807.249556, maxX: 401.075931, maxY: -643.404856 },
        [276.38, -794.54],
        [4.7187582169788386e154, -3.662561239478716e154],
        [309.42, -771.24],
      ],
      [
        { minX: -442.860647, minY: 437.777087, maxX: -168.25944699999997, maxY: 488.353087 },
        [-290.01, 483.13],
        [9.951000197583199e195, 1.8012023310103425e195],
        [-205.68, 464.74],
      ],
    ];
    for (const [b, [ix, iy], [sx, sy], [hx, hy]] of cases) {
      for (const how of ['move', 'moveAll'] as const) {
        const t = new PointQuadtree({ bounds: b, maxItems: 1 });
        t.insert(1, ix, iy);
        t.insert(2, sx, sy);
        if (how === 'move') t.move(2, hx, hy);
        else t.moveAll([0, ix, hx], [0, iy, hy]);
        expect(t.bounds, `${how} ${JSON.stringify(b)}`).toEqual(b);
        checkInvariants(t);
      }
    }
  });

  it('a stray an ulp outside one edge of the bounds keeps the root off that edge alone; when it leaves, the root is the bounds', () => {
    // Halving back from a far stray lands an ulp outside one edge (minX, maxX, maxY here); an item there keeps
    // the root so, differing from the bounds in that one edge, and it is still grown: moved home, the root
    // shrinks to the bounds.
    const cases: [Bounds, [number, number], [number, number], [number, number], [number, number]][] = [
      [
        { minX: 0.3, minY: 77.7, maxX: 100.6, maxY: 278.3 },
        [31.540374544961374, 139.41020079120062],
        [-8703424570.522945, 620179271.8246995],
        [0.29999999999999716, 161.25078690703958],
        [54.11300152300391, 161.25078690703958],
      ],
      [
        { minX: 258.993731, minY: -807.249556, maxX: 401.075931, maxY: -643.404856 },
        [276.38, -794.54],
        [4.7187582169788386e154, -3.662561239478716e154],
        [401.0759310000001, -771.24],
        [309.42, -771.24],
      ],
      [
        { minX: -423.698173, minY: -848.664982, maxX: -249.14987299999999, maxY: -565.756882 },
        [-418.38, -586.11],
        [-4.9659665860631476e53, 5.450910807461826e53],
        [-366.72, -565.7568819999999],
        [-366.72, -702.89],
      ],
    ];
    for (const [b, [ix, iy], [sx, sy], [ex, ey], [hx, hy]] of cases) {
      const t = new PointQuadtree({ bounds: b, maxItems: 1 });
      t.insert(1, ix, iy);
      t.insert(2, sx, sy);
      t.move(2, ex, ey);
      const r = t.bounds;
      expect(r.minX <= ex && ex <= r.maxX && r.minY <= ey && ey <= r.maxY).toBe(true);
      expect(r, 'off one edge').not.toEqual(b);
      t.move(2, hx, hy);
      expect(t.bounds, JSON.stringify(b)).toEqual(b);
      checkInvariants(t);
    }
  });

  it('a stray that walks out and back with move: the root doubles, then is the constructor bounds again', () => {
    const tree = grid40({ bounds, maxItems: 2 });
    const before = nodes(tree);
    tree.move(5, 1e6, -3e5);
    expect(tree.bounds.maxX).toBeGreaterThanOrEqual(1e6);
    tree.move(5, 900, 20); // still out: the root stays as big as it must
    // Doubled east and north each time: 0..1600 x -1500..100 is the smallest of those doublings that
    // holds x = 900.
    expect(tree.bounds).toEqual({ minX: 0, minY: -1500, maxX: 1600, maxY: 100 });
    checkInvariants(tree);
    tree.move(5, (5 * 37) % 100, (5 * 53) % 100); // back home
    checkInvariants(tree);
    expect(tree.bounds).toEqual(bounds);
    expect(nodes(tree)).toEqual(before);
  });

  it('a stray that walks out and back with moveAll: the same, and the same tree as move per id', () => {
    const tree = grid40({ bounds, maxItems: 2 });
    const before = nodes(tree);
    const xs = Array.from({ length: 40 }, (_, i) => (i * 37) % 100);
    const ys = Array.from({ length: 40 }, (_, i) => (i * 53) % 100);
    xs[5] = 1e6;
    tree.moveAll(xs, ys);
    expect(tree.bounds.maxX).toBeGreaterThanOrEqual(1e6);
    checkInvariants(tree);
    xs[5] = (5 * 37) % 100;
    tree.moveAll(xs, ys);
    checkInvariants(tree);
    expect(tree.bounds).toEqual(bounds);
    expect(nodes(tree)).toEqual(before);
  });

  it('moveAll shrinks and grows in id order as move per id does (a stray back east, another out west)', () => {
    // id 0 is out east (the root doubled to 0..200); moveAll brings it back and sends id 1 west. Moved one
    // by one the root first shrinks to 0..100, then doubles west to -100..100, not to -200..200.
    const options = { bounds, maxItems: 2 };
    const all = new PointQuadtree(options);
    const one = new PointQuadtree(options);
    for (const t of [all, one]) {
      t.insert(0, 150, 150);
      for (let i = 1; i < 12; i++) t.insert(i, i * 8, 50);
    }
    const xs = [50, -50, ...Array.from({ length: 10 }, (_, i) => (i + 2) * 8)];
    const ys = Array.from({ length: 12 }, (_, i) => (i === 0 ? 60 : 50));
    all.moveAll(xs, ys);
    for (let i = 0; i < 12; i++) one.move(i, xs[i], ys[i]);
    checkInvariants(all);
    expect(one.bounds).toEqual({ minX: -100, minY: 0, maxX: 100, maxY: 200 });
    expect(all.bounds).toEqual(one.bounds);
    expect(nodes(all)).toEqual(nodes(one));
  });

  it("points on the constructor bounds' far edges do not keep a grown root (they are re-filed)", () => {
    const tree = new PointQuadtree({ bounds, maxItems: 2 });
    for (let i = 0; i < 20; i++) tree.insert(i, i % 2 === 0 ? 100 : i * 5, i % 3 === 0 ? 100 : i * 5);
    const before = nodes(tree);
    tree.move(3, 180, 170); // out: the root doubles east and south, the edge points go to new quadrants
    expect(tree.bounds).toEqual({ minX: 0, minY: 0, maxX: 200, maxY: 200 });
    checkInvariants(tree);
    tree.move(3, 15, 100); // back where it was, on the south edge
    checkInvariants(tree);
    expect(tree.bounds).toEqual(bounds);
    expect(nodes(tree)).toEqual(before);
    expect(sorted(tree.queryRect(100, 0, 100, 100))).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
  });

  it('with looseness the root shrinks back too, when the stray is re-filed inside', () => {
    const tree = grid40({ bounds, maxItems: 2, looseness: 3 });
    tree.move(7, -500, 40);
    expect(tree.bounds.minX).toBeLessThanOrEqual(-500);
    tree.move(7, 20, 40);
    checkInvariants(tree);
    expect(tree.bounds).toEqual(bounds);
    expect(tree.queryCircle(20, 40, 0)).toContain(7);
  });

  it("without promotion (looseness), a shrink keeps the half toward the bounds' centre that halving reaches, or the smallest doubling", () => {
    // PointQuadtree.remove's rule: a grown inner root is halved toward the constructor's bounds while every
    // item stays inside (each step the half on the side of their centre, in x and in y); only a smaller
    // doubling than that replaces it, not another of the same size. Items one or two widths out, in each
    // quadrant around the bounds, and a stray in each direction that grows the root, then leaves.
    const halved = (grown: Bounds, points: { x: number; y: number }[]): Bounds => {
      let r = grown;
      while (
        r.minX !== bounds.minX ||
        r.minY !== bounds.minY ||
        r.maxX !== bounds.maxX ||
        r.maxY !== bounds.maxY
      ) {
        const mx = (r.minX + r.maxX) / 2;
        const my = (r.minY + r.maxY) / 2;
        const east = mx > 50;
        const north = my > 50;
        const h = {
          minX: east ? r.minX : mx,
          minY: north ? r.minY : my,
          maxX: east ? mx : r.maxX,
          maxY: north ? my : r.maxY,
        };
        if (!points.every((p) => p.x >= h.minX && p.x <= h.maxX && p.y >= h.minY && p.y <= h.maxY)) break;
        r = h;
      }
      return r;
    };
    const sets = [
      [
        [-20, -150],
        [30, -190],
      ],
      [
        [-20, -150],
        [150, -190],
      ],
      [
        [150, 50],
        [-20, -150],
      ],
      [
        [-55, -200],
        [-50, -150],
        [-20, -40],
      ],
    ];
    let kept = 0;
    for (const [s, set] of sets.entries()) {
      for (const [fx, fy] of MIRRORS) {
        for (const [sx, sy] of [
          [-1e6, -1e6],
          [1e6, 1e6],
          [-1e6, 1e6],
          [1e6, -1e6],
        ]) {
          const tree = new PointQuadtree({ bounds, maxItems: 2, looseness: 1.5 });
          const oracle = new BruteForce();
          for (let i = 0; i < 10; i++) {
            tree.insert(i, 10 + i * 9, 15 + i * 7);
            oracle.insert(i, 10 + i * 9, 15 + i * 7);
          }
          for (const [k, [x, y]] of set.entries()) {
            tree.insert(20 + k, 50 + fx * (x - 50), 50 + fy * (y - 50));
            oracle.insert(20 + k, 50 + fx * (x - 50), 50 + fy * (y - 50));
          }
          tree.insert(99, sx, sy);
          const grown = tree.bounds;
          tree.remove(99);
          const where = `set ${s} mirrored ${fx}, ${fy}, stray at ${sx}, ${sy}`;
          checkInvariants(tree);
          expectSmallestRoot(tree, oracle, where);
          const half = halved(grown, [...oracle.points.values()]);
          const smallest = smallestDoubling(bounds, oracle.points.values());
          if (half.maxX - half.minX === smallest.w) {
            expect(tree.bounds, where).toEqual(half);
            kept++;
          }
        }
      }
    }
    // Most cases end where halving does; the others (the fit's smaller doubling) are checked by size above.
    expect(kept).toBeGreaterThan(40);
  });

  it("without promotion, halving goes on past a half with the bounds in its corner: that root, not the fit's of the same size", () => {
    // A stray far to the south-west grows the root with the bounds in its north-east corner, and so is every
    // half toward their centre. Halving goes on while the items allow, to [-300, 100]² here, the smallest
    // doubling; a halving that stopped at the first such half left the fit to pick another of that size
    // ([-200, 200]²). Mirrored into each corner.
    const sets = [
      [[-185, -116]],
      [
        [-175, -179],
        [45, -137],
      ],
      [[-153, -104]],
    ];
    for (const [s, set] of sets.entries()) {
      for (const [fx, fy] of MIRRORS) {
        const m = (v: number, f: number) => 50 + f * (v - 50);
        const tree = new PointQuadtree({ bounds, maxItems: 2, looseness: 1.5 });
        for (let i = 0; i < 10; i++) tree.insert(i, 10 + i * 9, 15 + i * 7);
        for (const [k, [x, y]] of set.entries()) tree.insert(20 + k, m(x, fx), m(y, fy));
        tree.insert(99, m(-1e6, fx), m(-1e6, fy));
        tree.remove(99);
        checkInvariants(tree);
        const [x0, x1] = [m(-300, fx), m(100, fx)].sort((a, b) => a - b);
        const [y0, y1] = [m(-300, fy), m(100, fy)].sort((a, b) => a - b);
        expect(tree.bounds, `set ${s} mirrored ${fx}, ${fy}`).toEqual({
          minX: x0,
          minY: y0,
          maxX: x1,
          maxY: y1,
        });
      }
    }
  });

  it("a stray on the grown root's edge leaving: halving's root too (the refit to the items is for a refitted root only)", () => {
    // A stray at y = 0 lies on the south edge of the root that grows toward it; when it comes back the inner
    // root is halved toward the bounds' centre as after any stray, to [-100, 300] x [0, 400], not set to
    // another doubling of that size.
    for (const [[ix, iy], [fx, fy], [hx, hy]] of [
      [
        [-18, 194],
        [7905, 0],
        [139, 42],
      ],
      [
        [-94, 36],
        [-7628, 0],
        [111, 20],
      ],
    ]) {
      const tree = new PointQuadtree({ bounds, maxItems: 2 });
      for (let i = 0; i < 10; i++) tree.insert(i, 10 + i * 9, 15 + i * 7);
      tree.insert(20, ix, iy);
      tree.insert(99, fx, fy);
      expect(tree.bounds.minY).toBe(fy); // on the root's edge
      tree.move(99, hx, hy);
      checkInvariants(tree);
      expect(tree.bounds, `item at ${ix}, ${iy}, stray from ${fx}`).toEqual({
        minX: -100,
        minY: 0,
        maxX: 300,
        maxY: 400,
      });
    }
  });

  it('an item inside the bounds (or on their edges) leaving does not fit the root to the items; a stray leaving does', () => {
    // Growth doubles toward each point in turn, so it can end wider than the smallest doubling: 800 wide for
    // items from -10 to 250, which [-100, 300] holds. Halving cannot shrink it while both strays stay (the
    // half toward the centre drops one), and the fit to the items runs only after an item outside the
    // constructor's bounds left (PointQuadtree.remove): removing or moving the others, those on the bounds'
    // edges too, leaves the root as it is.
    for (const looseness of [0, 1.5]) {
      const tree = new PointQuadtree({ bounds, maxItems: 2, looseness });
      for (let i = 0; i < 10; i++) tree.insert(i, 10 + i * 9, 15 + i * 7);
      const edges = [
        [0, 40],
        [100, 60],
        [30, 0],
        [70, 100],
      ];
      for (const [k, [x, y]] of edges.entries()) tree.insert(30 + k, x, y);
      tree.insert(20, 250, 50);
      tree.insert(21, -10, 50);
      const grown = { minX: -400, minY: 0, maxX: 400, maxY: 800 };
      expect(tree.bounds, `looseness ${looseness}`).toEqual(grown);
      tree.remove(3);
      tree.move(4, 60, 60);
      for (let k = 0; k < edges.length; k++) tree.remove(30 + k);
      checkInvariants(tree);
      expect(tree.bounds, `looseness ${looseness}`).toEqual(grown);
      tree.remove(21);
      checkInvariants(tree);
      expect(tree.bounds, `looseness ${looseness}`).toEqual({ minX: 0, minY: 0, maxX: 400, maxY: 400 });
    }
  });

  it('a stray past one edge only (west, east, south or north) leaving fits the root, as one past a corner does', () => {
    // Two items one past each side in one axis grow the root to 800 wide (doubling toward each in turn)
    // where a doubling 400 wide holds them; a third, past one edge only (inside the bounds in its other
    // coordinate), leaves: it was outside the bounds, so the fit runs and the root is the smallest doubling.
    const sides = [
      [
        [250, 50],
        [-10, 50],
        [-30, 50],
      ],
      [
        [-150, 50],
        [110, 50],
        [130, 50],
      ],
      [
        [50, 250],
        [50, -10],
        [50, -30],
      ],
      [
        [50, -150],
        [50, 110],
        [50, 130],
      ],
    ];
    for (const [a, b, c] of sides) {
      const where = `items at ${a}, ${b}, the stray at ${c}`;
      const tree = new PointQuadtree({ bounds, maxItems: 2 });
      const oracle = new BruteForce();
      for (let i = 0; i < 10; i++) {
        tree.insert(i, 10 + i * 9, 15 + i * 7);
        oracle.insert(i, 10 + i * 9, 15 + i * 7);
      }
      for (const [k, [x, y]] of [a, b].entries()) {
        tree.insert(20 + k, x, y);
        oracle.insert(20 + k, x, y);
      }
      tree.insert(30, c[0], c[1]);
      expect(Math.max(tree.bounds.maxX - tree.bounds.minX, tree.bounds.maxY - tree.bounds.minY), where).toBe(
        800,
      );
      tree.remove(30);
      checkInvariants(tree);
      expectSmallestRoot(tree, oracle, where);
    }
  });

  it('a root leaf and a refitted root shrink when their stray moves back', () => {
    const leaf = new PointQuadtree({ bounds });
    leaf.insert(1, 10, 10);
    leaf.insert(2, 5000, 20);
    expect(leaf.bounds.maxX).toBeGreaterThanOrEqual(5000);
    leaf.move(2, 30, 20);
    checkInvariants(leaf);
    expect(leaf.bounds).toEqual(bounds);
    const refit = grid40({ bounds, maxItems: 2 });
    refit.insert(100, 1e308, 50);
    refit.insert(101, -1, 50); // doubling would overflow: the root is the items' extent
    refit.move(100, 60, 50);
    checkInvariants(refit);
    expect(refit.bounds).toEqual({ minX: -100, minY: 0, maxX: 100, maxY: 200 });
    refit.move(101, 1, 50);
    expect(refit.bounds).toEqual(bounds);
  });

  it('a root leaf shrinks to the smallest doubling that holds its items, where halving toward the centre stops short', () => {
    // A far stray grows the root leaf; when it comes back the root is the smallest doubling that holds the two
    // items ([-100, 300]² and [0, 400] x [-100, 300] here), not a half toward the bounds' centre, which keeps
    // the far side of the items (6,400 and 3,200 wide) once its next half would leave one out.
    const cases = [
      [
        [-54, -42],
        [-4334, -2352],
        [-7, 118],
      ],
      [
        [82, -80],
        [4232, -924],
        [39, 137],
      ],
    ];
    for (const [[ax, ay], [fx, fy], [hx, hy]] of cases) {
      const where = `item at ${ax}, ${ay}, stray from ${fx}, ${fy} to ${hx}, ${hy}`;
      const tree = new PointQuadtree({ bounds, maxItems: 2 });
      const oracle = new BruteForce();
      tree.insert(1, ax, ay);
      oracle.insert(1, ax, ay);
      tree.insert(2, fx, fy);
      expect(treeStats(tree).nodes, where).toBe(1); // a root leaf
      tree.move(2, hx, hy);
      oracle.insert(2, hx, hy);
      checkInvariants(tree);
      expectSmallestRoot(tree, oracle, where);
    }
  });

  it('a root leaf: shrinking moves version on; a grown one that no narrower doubling holds stays as it is', () => {
    // At 0..100 and below 0 (where a sum of two edges is no width).
    for (const o of [0, -1100]) {
      const b = { minX: o, minY: o, maxX: o + 100, maxY: o + 100 };
      const leaf = new PointQuadtree({ bounds: b });
      leaf.insert(1, o + 10, o + 10);
      leaf.insert(2, o + 150, o + 20); // the root doubles to 200 x 200
      leaf.insert(3, o + 30, o + 30);
      const grown = leaf.bounds;
      expect(grown, `at ${o}`).toEqual({ minX: o, minY: o, maxX: o + 200, maxY: o + 200 });
      let version = leaf.version;
      leaf.remove(3); // the stray still needs the same doubling
      checkInvariants(leaf);
      expect(leaf.bounds, `at ${o}`).toEqual(grown);
      expect(leaf.version, `at ${o}`).toBe(version);
      version = leaf.version;
      leaf.move(2, o + 40, o + 20);
      checkInvariants(leaf);
      expect(leaf.bounds, `at ${o}`).toEqual(b);
      expect(leaf.version, `at ${o}`).toBeGreaterThan(version);
    }
  });

  it('a refitted root narrower than the doubling in one axis only: the smallest doubling once the far item leaves', () => {
    // The far item (past what doubling reaches) makes the root the items' extent: 150 wide, 1.7e308
    // tall. Once it leaves, the smallest doubling that holds the rest (200 x 200) is narrower in that axis
    // only, and is the root. At 0..100 and below 0, the far item in y, then in x.
    for (const o of [0, -1100]) {
      for (const axis of ['x', 'y'] as const) {
        const tree = new PointQuadtree({ bounds: { minX: o, minY: o, maxX: o + 100, maxY: o + 100 } });
        const at = (id: number, u: number, v: number) =>
          axis === 'y' ? tree.insert(id, u, v) : tree.insert(id, v, u);
        at(1, o + 10, o + 10);
        at(2, o + 150, o + 50);
        at(3, o + 50, o < 0 ? -1.7e308 : 1.7e308); // doubling toward it would overflow
        const where = `at ${o}, far in ${axis}`;
        tree.remove(3);
        checkInvariants(tree);
        expect(tree.bounds, where).toEqual({ minX: o, minY: o, maxX: o + 200, maxY: o + 200 });
      }
    }
  });

  it('a refitted root whose far item on one edge leaves, another far one staying: the new extent', () => {
    // Doubling toward 1e308 overflows, so the root stays the items' extent; only its west edge moves.
    const tree = new PointQuadtree({ bounds, maxItems: 2 });
    tree.insert(1, 1e308, 50);
    tree.insert(2, -1e307, 50);
    tree.insert(3, 50, 50);
    expect(tree.bounds).toEqual({ minX: -1e307, minY: 0, maxX: 1e308, maxY: 100 });
    tree.remove(2);
    checkInvariants(tree);
    expect(tree.bounds).toEqual({ minX: 0, minY: 0, maxX: 1e308, maxY: 100 });
    expect(tree.queryCircle(1e308, 50, 0)).toEqual([1]);
  });

  it('a refitted root: an item leaving its edge while another stays on it changes nothing, version included', () => {
    // Doubling toward 1.7e308 overflows: the root is the items' extent. It still is, so there is nothing to
    // refit: a move inside the (root) leaf leaves the node structure, and so `version`, as it was (api.md:
    // not on moves inside a leaf); a remove changes the size only.
    for (const how of ['move', 'remove'] as const) {
      const tree = new PointQuadtree({ bounds, maxItems: 8 });
      tree.insert(1, 1.7e308, 50);
      tree.insert(2, 1.7e308, 60);
      tree.insert(3, 50, 50);
      const root = { minX: 0, minY: 0, maxX: 1.7e308, maxY: 100 };
      expect(tree.bounds, how).toEqual(root);
      const version = tree.version;
      const stats = treeStats(tree);
      if (how === 'move') tree.move(1, 1.7e308, 55);
      else tree.remove(1);
      checkInvariants(tree);
      expect(tree.bounds, how).toEqual(root);
      expect(tree.version, how).toBe(version);
      expect(treeStats(tree), how).toEqual(how === 'move' ? stats : { ...stats, size: 2 });
    }
  });

  it('a refitted root over wide, short bounds: where doubling toward a far item overflows, no doubling is taken (the extent)', () => {
    // Bounds 4e6 wide and 0.03 tall: doubling toward y = -1e308 overflows in x first, the part-way box far
    // less tall than the root. When the west stray leaves, the root is the extent of the item at -1e308 and
    // the bounds, never that part-way box.
    const b = { minX: 0, minY: 0, maxX: 4e6, maxY: 0.03 };
    const tree = new PointQuadtree({ bounds: b, maxItems: 2 });
    tree.insert(0, 2e6, -1e308);
    tree.insert(1, -7e146, 0.01);
    expect(tree.bounds).toEqual({ minX: -7e146, minY: -1e308, maxX: 4e6, maxY: 0.03 });
    tree.remove(1);
    checkInvariants(tree);
    expect(tree.bounds).toEqual({ minX: 0, minY: -1e308, maxX: 4e6, maxY: 0.03 });
    expect(tree.queryCircle(2e6, -1e308, 0)).toEqual([0]);
  });

  it('the only far point moves from 1.7e308 to -1.7e308 (move and moveAll): the new extent is finite', () => {
    for (const how of ['move', 'moveAll'] as const) {
      const tree = grid40({ bounds, maxItems: 2 });
      tree.insert(40, 1.7e308, 50);
      if (how === 'move') {
        tree.move(40, -1.7e308, 50);
      } else {
        const xs = Array.from({ length: 41 }, (_, i) => (i * 37) % 100);
        const ys = Array.from({ length: 41 }, (_, i) => (i * 53) % 100);
        xs[40] = -1.7e308;
        ys[40] = 50;
        tree.moveAll(xs, ys);
      }
      checkInvariants(tree);
      expect(tree.bounds.minX, how).toBeLessThanOrEqual(-1.7e308);
      expect(tree.queryRect(-Number.MAX_VALUE, 0, -1e308, 100), how).toEqual([40]);
      expect(tree.queryRect(1e308, 0, Number.MAX_VALUE, 100), how).toEqual([]);
      expect(sorted(tree.queryRect(0, 0, 100, 100)), how).toHaveLength(40);
    }
  });

  it('moveAll reaches a finite extent that moving one by one could not (it refits to the new positions)', () => {
    const start = () => {
      const tree = grid40({ bounds, maxItems: 2 });
      tree.insert(40, 1.7e308, 50);
      return tree;
    };
    const xs = Array.from({ length: 41 }, (_, i) => (i * 37) % 100);
    const ys = Array.from({ length: 41 }, (_, i) => (i * 53) % 100);
    xs[0] = -1.7e308; // id 0 leaves west first, while id 40 is still far east: one by one, that throws
    xs[40] = 60;
    expect(() => start().move(0, -1.7e308, 0)).toThrow(/the points span x -1\.7e\+308 \.\. 1\.7e\+308/);
    const tree = start();
    tree.moveAll(xs, ys);
    checkInvariants(tree);
    expect(tree.queryRect(-Number.MAX_VALUE, -1, -1e308, 1)).toEqual([0]);
    expect(tree.queryCircle(60, (40 * 53) % 100, 0)).toEqual([40]);
    expect(tree.size).toBe(41);
  });

  it('from() with points whose doubling would overflow builds a root that covers them', () => {
    const tree = PointQuadtree.from({ bounds }, [0, 1, 2], [1.7e308, -1, 50], [1, 2, 3]);
    checkInvariants(tree);
    expect(sorted(tree.queryRect(-1, 0, 1.7e308, 5))).toEqual([0, 1, 2]);
  });

  it('from() where doubling would overflow: the refitted tree inserting one by one makes, and it shrinks back alike', () => {
    // The populated tree's points, a far stray in x and one just below the bounds.
    const ids = [...Array.from({ length: 40 }, (_, i) => i), 40, 41];
    const xs = [...ids.slice(0, 40).map((i) => (i * 37) % 100), 1.7e308, 30];
    const ys = [...ids.slice(0, 40).map((i) => (i * 53) % 100), 20, -1];
    const options = { bounds, maxItems: 2 };
    const bulk = PointQuadtree.from(options, ids, xs, ys);
    const oneByOne = new PointQuadtree(options);
    for (let i = 0; i < ids.length; i++) oneByOne.insert(ids[i], xs[i], ys[i]);
    const shape = (t: PointQuadtree) => ({ bounds: t.bounds, stats: treeStats(t) });
    expect(bulk.bounds).toEqual({ minX: 0, minY: -1, maxX: 1.7e308, maxY: 100 });
    expect(shape(bulk)).toEqual(shape(oneByOne));
    // The stray leaves: both come down to the smallest doubling that holds -1, then to the bounds.
    for (const id of [40, 41]) {
      const version = bulk.version;
      bulk.remove(id);
      oneByOne.remove(id);
      checkInvariants(bulk);
      expect(shape(bulk)).toEqual(shape(oneByOne));
      // The root shrank and the nodes were rebuilt under it: the version moved on.
      expect(bulk.version).toBeGreaterThan(version);
    }
    expect(bulk.bounds).toEqual(bounds);
  });

  const far: [string, (t: PointQuadtree) => unknown][] = [
    ['insert', (t) => t.insert(200, -1.7e308, 1)],
    ['move', (t) => t.move(3, -1.7e308, 1)],
    [
      'moveAll',
      (t) => {
        const xs: number[] = [];
        const ys: number[] = [];
        for (let i = 0; i < 101; i++) {
          xs.push(t.has(i) ? (i === 3 ? -1.7e308 : (i * 37) % 100) : 0);
          ys.push((i * 53) % 100);
        }
        xs[100] = 1.7e308;
        t.moveAll(xs, ys);
      },
    ],
  ];
  for (const [what, bad] of far) {
    it(`${what} past a finite extent: RangeError naming the extent, tree unchanged`, () => {
      const tree = populated();
      tree.insert(100, 1.7e308, 1);
      checkInvariants(tree);
      const before = fingerprint(tree);
      expect(() => bad(tree)).toThrow(/^PointQuadtree: .*the points span x -1\.7e\+308 \.\. 1\.7e\+308/);
      checkInvariants(tree);
      expect(fingerprint(tree)).toEqual(before);
    });
  }
  it('from() past a finite extent: RangeError naming the extent', () => {
    expect(() => PointQuadtree.from({ bounds }, [0, 1], [1.7e308, -1.7e308], [1, 2])).toThrow(
      /the points span x -1\.7e\+308 \.\. 1\.7e\+308/,
    );
  });
});
