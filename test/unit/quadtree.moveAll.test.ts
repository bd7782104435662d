import { type Bounds, PointQuadtree, type QuadtreeOptions } from 'point-quadtree';
import { checkInvariants, visitNodes } from 'point-quadtree/debug';
import { INTERNALS } from 'point-quadtree/internal/PointQuadtree';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { BruteForce, sorted } from '../helpers/oracle';

const WORLD = 100;
const bounds = { minX: 0, minY: 0, maxX: WORLD, maxY: WORLD };

/** Every node as "depth minX minY maxX maxY leaf count", parent first: two trees with equal dumps are equal. */
function dump(tree: PointQuadtree): string[] {
  const out: string[] = [];
  visitNodes(tree, (n) => {
    out.push(`${n.depth} ${n.minX} ${n.minY} ${n.maxX} ${n.maxY} ${n.isLeaf} ${n.count}`);
  });
  return out;
}

function expectAnswers(tree: PointQuadtree, oracle: BruteForce, rnd: () => number, where: string): void {
  const typed = new Int32Array(tree.size);
  for (let q = 0; q < 8; q++) {
    const x = rnd() * 140 - 20;
    const y = rnd() * 140 - 20;
    const r = q === 0 ? 0 : q === 1 ? 1e6 : rnd() * 25;
    const expected = oracle.circle(x, y, r);
    expect(sorted(tree.queryCircle(x, y, r)), `${where}: circle (${x}, ${y}) r ${r}`).toEqual(expected);
    const n = tree.queryCircleInto(x, y, r, typed);
    expect(sorted([...typed.subarray(0, n)]), `${where}: circleInto`).toEqual(expected);
    const x1 = x + rnd() * 40;
    const y1 = y + rnd() * 40;
    expect(sorted(tree.queryRect(x, y, x1, y1)), `${where}: rect`).toEqual(oracle.rect(x, y, x1, y1));
    const k = 1 + Math.floor(rnd() * 5);
    const got = tree.nearest(x, y, k);
    expect(
      got.map((id) => oracle.distance2(id, x, y)),
      `${where}: nearest`,
    ).toEqual(oracle.nearestDistances(x, y, k, Infinity));
  }
  // Every item is where the oracle says: radius 0 at its position finds it.
  for (const [id, p] of oracle.points) {
    expect(tree.queryCircle(p.x, p.y, 0), `${where}: id ${id} at (${p.x}, ${p.y})`).toContain(id);
  }
}

type Kind = 'uniform' | 'clustered' | 'grid';

function pointOf(kind: Kind, rnd: () => number, camps: number[][]): [number, number] {
  if (kind === 'uniform') return [rnd() * WORLD, rnd() * WORLD];
  // On split lines and the root's far edge; many coincide.
  if (kind === 'grid') return [Math.round(rnd() * 8) * (WORLD / 8), Math.round(rnd() * 8) * (WORLD / 8)];
  const c = camps[Math.floor(rnd() * camps.length)];
  return [c[0] + (rnd() - 0.5) * 4, c[1] + (rnd() - 0.5) * 4];
}

interface Case {
  seed: number;
  kind: Kind;
  options: QuadtreeOptions;
  typed: boolean;
}

const cases: Case[] = [];
for (const kind of ['uniform', 'clustered', 'grid'] as const) {
  const base = kind === 'uniform' ? 0 : kind === 'clustered' ? 100 : 200;
  cases.push({ seed: base + 1, kind, options: { bounds, maxItems: 1, minSize: 0.5 }, typed: true });
  cases.push({ seed: base + 2, kind, options: { bounds, maxItems: 4, minSize: 1 }, typed: false });
  cases.push({ seed: base + 3, kind, options: { bounds }, typed: true });
  cases.push({
    seed: base + 4,
    kind,
    options: { bounds, maxItems: 3, minSize: 1, looseness: 1.5 },
    typed: true,
  });
  cases.push({
    seed: base + 5,
    kind,
    options: { bounds, maxItems: 8, minSize: 0.25, looseness: 6 },
    typed: false,
  });
}

describe('PointQuadtree.moveAll against brute force and against move per id', () => {
  for (const c of cases) {
    const loose = c.options.looseness ? `, looseness ${c.options.looseness}` : '';
    const arrays = c.typed ? 'Float64Array' : 'plain arrays';
    it(`seed ${c.seed}: ${c.kind} data, maxItems ${c.options.maxItems ?? 'default'}${loose}, ${arrays}`, () => {
      const rnd = mulberry32(c.seed);
      const camps = Array.from({ length: 4 }, () => [rnd() * WORLD, rnd() * WORLD]);
      const idRange = 300;
      // Ids 0..idRange-1, some absent (their entries in xs / ys are garbage and must be ignored).
      const present: number[] = [];
      for (let id = 0; id < idRange; id++) if (rnd() < 0.8 || id === 0) present.push(id);
      const xs = c.typed ? new Float64Array(idRange) : new Array<number>(idRange).fill(0);
      const ys = c.typed ? new Float64Array(idRange) : new Array<number>(idRange).fill(0);
      const all = new PointQuadtree(c.options);
      const one = new PointQuadtree(c.options);
      const oracle = new BruteForce();
      for (const id of present) {
        [xs[id], ys[id]] = pointOf(c.kind, rnd, camps);
        all.insert(id, xs[id], ys[id]);
        one.insert(id, xs[id], ys[id]);
        oracle.insert(id, xs[id], ys[id]);
      }
      for (let frame = 0; frame < 25; frame++) {
        const where = `frame ${frame}`;
        for (let id = 0; id < idRange; id++) {
          if (!oracle.points.has(id)) {
            xs[id] = rnd() < 0.5 ? Number.NaN : Number.POSITIVE_INFINITY; // absent: ignored
            ys[id] = Number.NaN;
            continue;
          }
          const a = rnd();
          if (a < 0.85) {
            // A step of up to 1.5: mostly inside the leaf, often over an edge.
            xs[id] += (rnd() - 0.5) * 3;
            ys[id] += (rnd() - 0.5) * 3;
          } else if (a < 0.99) {
            [xs[id], ys[id]] = pointOf(c.kind, rnd, camps);
          } else if (frame % 10 === 7) {
            // Now and then far outside the root: it grows.
            xs[id] = -WORLD * (1 + rnd() * 3);
            ys[id] = WORLD * (1 + rnd() * 2);
          }
          oracle.move(id, xs[id], ys[id]);
        }
        all.moveAll(xs, ys);
        for (const id of present) if (one.has(id)) one.move(id, xs[id], ys[id]);
        checkInvariants(all);
        checkInvariants(one);
        expect(all.size, where).toBe(oracle.points.size);
        expect(all.bounds, `${where}: the root grows as with move`).toEqual(one.bounds);
        if (!c.options.looseness)
          expect(dump(all), `${where}: the same tree as move per id`).toEqual(dump(one));
        expectAnswers(all, oracle, rnd, where);
        // Between frames the tree stays fully dynamic: removes and inserts.
        if (frame % 5 === 4) {
          for (let k = 0; k < 10; k++) {
            const id = present[Math.floor(rnd() * present.length)];
            if (oracle.points.has(id)) {
              expect(all.remove(id)).toBe(true);
              one.remove(id);
              oracle.remove(id);
            } else {
              [xs[id], ys[id]] = pointOf(c.kind, rnd, camps);
              all.insert(id, xs[id], ys[id]);
              one.insert(id, xs[id], ys[id]);
              oracle.insert(id, xs[id], ys[id]);
            }
            checkInvariants(all);
          }
        }
      }
    });
  }

  it('seeds 31-90: strays leave and come back, the root grows and shrinks as with move per id', () => {
    for (let seed = 31; seed <= 90; seed++) {
      for (const looseness of [0, 1.5]) {
        const rnd = mulberry32(seed);
        const options = { bounds, maxItems: 2 + (seed % 4), looseness };
        const all = new PointQuadtree(options);
        const one = new PointQuadtree(options);
        const n = 30;
        const xs = new Float64Array(n);
        const ys = new Float64Array(n);
        // Mostly inside, sometimes on the far edge, sometimes far out on either side.
        const coordinate = () => (rnd() < 0.05 ? (rnd() - 0.3) * 2000 : rnd() < 0.05 ? WORLD : rnd() * WORLD);
        for (let i = 0; i < n; i++) {
          xs[i] = coordinate();
          ys[i] = coordinate();
          all.insert(i, xs[i], ys[i]);
          one.insert(i, xs[i], ys[i]);
        }
        for (let frame = 0; frame < 30; frame++) {
          const where = `seed ${seed}, looseness ${looseness}, frame ${frame}`;
          for (let i = 0; i < n; i++) {
            if (rnd() < 0.5) {
              xs[i] = coordinate();
              ys[i] = coordinate();
            }
          }
          all.moveAll(xs, ys);
          for (let i = 0; i < n; i++) one.move(i, xs[i], ys[i]);
          checkInvariants(all);
          expect(all.bounds, where).toEqual(one.bounds);
          if (looseness === 0) expect(dump(all), where).toEqual(dump(one));
          const inside = [...xs, ...ys].every((v) => v >= 0 && v <= WORLD);
          if (inside && looseness === 0) expect(all.bounds, `${where}: no strays`).toEqual(bounds);
        }
      }
    }
  });

  it('items that trade their x for their y inside a grown root: moveAll shrinks or not as move per id does', () => {
    // Whether moving one by one may shrink the root is bounded by each axis's own places, old and new
    // (rootFit.ts's outerBox): a new x must not stand in for a y, nor a place for its inverse. Seeds where a
    // wrong bound changes the answer, either way; the second bounds are one unit wide, across 0.
    const runs: [Bounds, number[]][] = [
      [bounds, [118, 441, 474, 1560, 1975, 2700]],
      [{ minX: -0.5, minY: 0, maxX: 0.5, maxY: 1 }, [16, 50, 189, 368]],
    ];
    for (const [b, seeds] of runs) {
      // Units of a hundredth of the bounds' width (both are square and start at y = 0).
      const s = (b.maxX - b.minX) / 100;
      for (const seed of seeds) {
        const rnd = mulberry32(seed);
        const n = 12;
        const xs: number[] = [];
        const ys: number[] = [];
        const all = new PointQuadtree({ bounds: b, maxItems: 2 });
        const one = new PointQuadtree({ bounds: b, maxItems: 2 });
        // Mostly inside the bounds, some up to four widths out (the root grows to 8 widths or less).
        const c = () => (rnd() < 0.7 ? b.minX + rnd() * 100 * s : b.minX + (rnd() * 700 - 300) * s);
        for (let i = 0; i < n; i++) {
          xs.push(c());
          ys.push(c());
          all.insert(i, xs[i], ys[i]);
          one.insert(i, xs[i], ys[i]);
        }
        const r = all.bounds;
        // New places inside the root: x and y swapped, inside the bounds, anywhere in the root, or the same.
        for (let i = 0; i < n; i++) {
          const k = rnd();
          if (k < 0.3) [xs[i], ys[i]] = [ys[i], xs[i]];
          else if (k < 0.6) [xs[i], ys[i]] = [b.minX + rnd() * 100 * s, rnd() * 100 * s];
          else if (k < 0.8) {
            xs[i] = r.minX + rnd() * (r.maxX - r.minX);
            ys[i] = r.minY + rnd() * (r.maxY - r.minY);
          }
        }
        all.moveAll(xs, ys);
        for (let i = 0; i < n; i++) one.move(i, xs[i], ys[i]);
        const where = `bounds ${JSON.stringify(b)}, seed ${seed}`;
        checkInvariants(all);
        expect(all.bounds, where).toEqual(one.bounds);
        expect(dump(all), where).toEqual(dump(one));
      }
    }
  });

  it('seed 7: a bulk-built tree of 3,000 clustered points, 30 frames of steps, equals move per id', () => {
    const rnd = mulberry32(7);
    const n = 3000;
    const ids = new Int32Array(n);
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    const camps = Array.from({ length: 6 }, () => [rnd() * WORLD, rnd() * WORLD]);
    for (let i = 0; i < n; i++) {
      ids[i] = i;
      [xs[i], ys[i]] = pointOf('clustered', rnd, camps);
    }
    const options = { bounds, maxItems: 16, minSize: 0.5 };
    const all = PointQuadtree.from(options, ids, xs, ys);
    const one = PointQuadtree.from(options, ids, xs, ys);
    for (let frame = 0; frame < 30; frame++) {
      for (let i = 0; i < n; i++) {
        xs[i] = Math.min(WORLD, Math.max(0, xs[i] + (rnd() - 0.5) * 2));
        ys[i] = Math.min(WORLD, Math.max(0, ys[i] + (rnd() - 0.5) * 2));
      }
      all.moveAll(xs, ys);
      for (let i = 0; i < n; i++) one.move(i, xs[i], ys[i]);
      checkInvariants(all);
      expect(dump(all), `frame ${frame}`).toEqual(dump(one));
    }
    const oracle = new BruteForce();
    for (let i = 0; i < n; i++) oracle.insert(i, xs[i], ys[i]);
    expectAnswers(all, oracle, rnd, 'after 30 frames');
  });

  it('moves a root leaf, and grows the root past its far edge (points on the old edge re-filed)', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 2, minSize: 1 });
    tree.insert(0, 100, 100); // on the root's closed far corner
    tree.insert(1, 100, 50);
    tree.moveAll([100, 100], [100, 50]); // nothing changes
    checkInvariants(tree);
    tree.insert(2, 10, 10);
    tree.moveAll([100, 100, 150], [100, 50, 20]); // id 2 leaves: the root doubles east and south
    checkInvariants(tree);
    expect(tree.bounds).toEqual({ minX: 0, minY: 0, maxX: 200, maxY: 200 });
    expect(sorted(tree.queryRect(100, 50, 100, 100))).toEqual([0, 1]);
    expect(tree.queryCircle(150, 20, 0)).toEqual([2]);
  });

  it('every item past one edge of the root (east, north, west or south): the root grows as with move per id', () => {
    // Each coordinate outside on one axis only, the other inside: the test of each entry must look at both
    // of its edges on each axis (no item is past another edge of the root to give the call away).
    const inside = [20, 50, 80];
    for (const [xs, ys] of [
      [[150, 160, 130], inside],
      [inside, [150, 160, 130]],
      [[-50, -60, -30], inside],
      [inside, [-50, -60, -30]],
    ] as const) {
      const all = new PointQuadtree({ bounds, maxItems: 2 });
      const one = new PointQuadtree({ bounds, maxItems: 2 });
      for (let id = 0; id < 3; id++) {
        all.insert(id, 10 + id * 30, 10 + id * 30);
        one.insert(id, 10 + id * 30, 10 + id * 30);
      }
      all.moveAll(xs, ys);
      for (let id = 0; id < 3; id++) one.move(id, xs[id], ys[id]);
      const where = `to (${xs}), (${ys})`;
      checkInvariants(all);
      expect(all.bounds, where).not.toEqual(bounds);
      expect(all.bounds, where).toEqual(one.bounds);
      expect(dump(all), where).toEqual(dump(one));
      for (let id = 0; id < 3; id++) expect(all.queryCircle(xs[id], ys[id], 0), where).toEqual([id]);
    }
  });

  it('ignores ids not in the tree, even with NaN entries, and an empty tree takes any arrays', () => {
    const empty = new PointQuadtree({ bounds });
    empty.moveAll([], []);
    expect(empty.size).toBe(0);
    const tree = new PointQuadtree({ bounds, maxItems: 1 });
    tree.insert(2, 5, 5);
    tree.insert(4, 6, 6);
    tree.moveAll([Number.NaN, Number.NaN, 50, Number.POSITIVE_INFINITY, 60], [Number.NaN, 0, 50, 0, 60]);
    checkInvariants(tree);
    expect(tree.has(0)).toBe(false);
    expect(tree.has(3)).toBe(false);
    expect(tree.queryCircle(50, 50, 0)).toEqual([2]);
    expect(tree.queryCircle(60, 60, 0)).toEqual([4]);
  });
});

describe('PointQuadtree.moveAll errors', () => {
  function setup(): { tree: PointQuadtree; before: string[]; xs: Float64Array; ys: Float64Array } {
    const tree = new PointQuadtree({ bounds, maxItems: 2, minSize: 1 });
    const xs = new Float64Array(8);
    const ys = new Float64Array(8);
    for (let id = 0; id < 8; id += 1) {
      if (id === 5) continue; // absent
      xs[id] = id * 10 + 1;
      ys[id] = 90 - id * 10;
      tree.insert(id, xs[id], ys[id]);
    }
    // Everyone would move (and many leave their leaves) if the call went through.
    for (let id = 0; id < 8; id++) {
      xs[id] = 99 - xs[id];
      ys[id] = 99 - ys[id];
    }
    const before = [
      ...dump(tree),
      ...tree
        .queryCircle(0, 0, 1e3)
        .sort((a, b) => a - b)
        .map(String),
    ];
    return { tree, before, xs, ys };
  }
  const unchanged = (tree: PointQuadtree, before: string[]) => {
    checkInvariants(tree);
    expect([
      ...dump(tree),
      ...tree
        .queryCircle(0, 0, 1e3)
        .sort((a, b) => a - b)
        .map(String),
    ]).toEqual(before);
    // Positions unchanged too: each id still at its old place.
    for (let id = 0; id < 8; id++) {
      if (id !== 5) expect(tree.queryCircle(id * 10 + 1, 90 - id * 10, 0)).toEqual([id]);
    }
  };

  it('a NaN coordinate of a present id is a RangeError naming the id; nothing moves', () => {
    const { tree, before, xs, ys } = setup();
    xs[6] = Number.NaN;
    expect(() => tree.moveAll(xs, ys)).toThrow(RangeError);
    expect(() => tree.moveAll(xs, ys)).toThrow(
      /PointQuadtree: moveAll: xs\[6\] \(of id 6\) must be a finite number, got NaN/,
    );
    unchanged(tree, before);
  });

  it('an infinite y of a present id is a RangeError naming the id; nothing moves', () => {
    const { tree, before, xs, ys } = setup();
    ys[7] = Number.NEGATIVE_INFINITY;
    expect(() => tree.moveAll(xs, ys)).toThrow(/ys\[7\] \(of id 7\) must be a finite number, got -Infinity/);
    unchanged(tree, before);
  });

  // Each kind of array moveAll takes, and a mixed pair, must reject the same bad values and move the
  // same way (an engine may compile the checking loop for one kind of array).
  const kinds: [string, (a: Float64Array) => ArrayLike<number>, (a: Float64Array) => ArrayLike<number>][] = [
    ['Float64Array', (a) => a, (a) => a],
    ['Float32Array', (a) => Float32Array.from(a), (a) => Float32Array.from(a)],
    ['Float64Array and Float32Array', (a) => a, (a) => Float32Array.from(a)],
    ['plain arrays', (a) => Array.from(a), (a) => Array.from(a)],
  ];
  for (const [kind, makeX, makeY] of kinds) {
    for (const [label, bad] of [
      ['NaN', Number.NaN],
      ['Infinity', Number.POSITIVE_INFINITY],
    ] as const) {
      it(`${kind}: ${label} at a present id is a RangeError naming it; nothing moves`, () => {
        const { tree, before, xs, ys } = setup();
        ys[6] = bad;
        expect(() => tree.moveAll(makeX(xs), makeY(ys))).toThrow(
          new RegExp(`ys\\[6\\] \\(of id 6\\) must be a finite number, got ${label}`),
        );
        unchanged(tree, before);
      });
    }
    it(`${kind}: moves every present id (the same tree as move per id)`, () => {
      const { tree, xs, ys } = setup();
      const byMove = new PointQuadtree({ bounds, maxItems: 2, minSize: 1 });
      for (let id = 0; id < 8; id++) if (id !== 5) byMove.insert(id, 99 - xs[id], 99 - ys[id]);
      for (let id = 0; id < 8; id++) if (id !== 5) byMove.move(id, xs[id], ys[id]);
      tree.moveAll(makeX(xs), makeY(ys));
      checkInvariants(tree);
      expect(dump(tree)).toEqual(dump(byMove));
      for (let id = 0; id < 8; id++) {
        if (id !== 5) expect(tree.queryCircle(xs[id], ys[id], 0)).toContain(id);
      }
    });
  }

  it('arrays too short for the largest present id are a RangeError naming it; nothing moves', () => {
    const { tree, before, xs, ys } = setup();
    expect(() => tree.moveAll(xs.subarray(0, 7), ys)).toThrow(RangeError);
    expect(() => tree.moveAll(xs, [...ys].slice(0, 3))).toThrow(
      /PointQuadtree: moveAll needs xs and ys of length > 7 \(id 7 is in the tree\), got 8 and 3/,
    );
    unchanged(tree, before);
  });

  it('arrays one entry short of the largest present id, either of them: a RangeError; nothing moves', () => {
    const { tree, before, xs, ys } = setup();
    expect(() => tree.moveAll(xs, ys.subarray(0, 7))).toThrow(
      /PointQuadtree: moveAll needs xs and ys of length > 7 \(id 7 is in the tree\), got 8 and 7/,
    );
    expect(() => tree.moveAll(xs.subarray(0, 7), ys)).toThrow(/got 7 and 8/);
    unchanged(tree, before);
  });

  it('plain arrays: a string at the first id filed (slot 0) is the TypeError naming it; nothing moves', () => {
    // Plain arrays are read once into a copy, checked as they are read: the value named is the one read.
    const { tree, before, xs, ys } = setup();
    const first = tree[INTERNALS]().idSlot.indexOf(0);
    expect(first).toBeGreaterThanOrEqual(0);
    const plainX: unknown[] = Array.from(xs);
    plainX[first] = '12';
    expect(() => tree.moveAll(plainX as number[], Array.from(ys))).toThrow(
      new TypeError(`PointQuadtree: moveAll: xs[${first}] (of id ${first}) must be a number, got "12"`),
    );
    unchanged(tree, before);
  });

  it('points too far apart for any finite root are a RangeError naming the extent; nothing moves', () => {
    const { tree, before, xs, ys } = setup();
    xs[3] = 1.7e308;
    xs[6] = -1.7e308;
    expect(() => tree.moveAll(xs, ys)).toThrow(
      /PointQuadtree: the points span x -1\.7e\+308 \.\. 1\.7e\+308/,
    );
    unchanged(tree, before);
  });

  it('a point past where doubling overflows, but within a finite extent, moves (the root is refitted)', () => {
    const { tree, xs, ys } = setup();
    xs[3] = 1.7e308;
    tree.moveAll(xs, ys);
    checkInvariants(tree);
    expect(tree.queryCircle(1.7e308, ys[3], 0)).toEqual([3]);
  });
});
