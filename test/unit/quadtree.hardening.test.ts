import { Worker } from 'node:worker_threads';
import { PointQuadtree } from 'point-quadtree';
import { CrowdQuadtree } from 'point-quadtree/crowd';
import { checkInvariants, treeStats, visitCircle, visitNodes } from 'point-quadtree/debug';
import { isFixed } from 'point-quadtree/internal/core/checks';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';

/** Every node as "depth rectangle leaf count", parent first: equal dumps are equal trees. */
function nodes(tree: PointQuadtree): string[] {
  const out: string[] = [];
  visitNodes(tree, (n) => {
    out.push(`${n.depth} ${n.minX} ${n.minY} ${n.maxX} ${n.maxY} ${n.isLeaf} ${n.count}`);
  });
  return out;
}

describe('a refitted root comes back to the constructor bounds once every far item is gone', () => {
  const bounds = { minX: -500, minY: -500, maxX: 500, maxY: 500 };
  const N = 20_000;
  // Two far east (doubling toward 1e308 and then north would overflow: the root is refitted) and two far
  // north; they leave in an order where the first to leave from each edge has another far item behind it.
  const strays: [number, number, number][] = [
    [N, 1e308, 0],
    [N + 1, 0.9e308, 0],
    [N + 2, 0, -1e15],
    [N + 3, 0, -2e15],
  ];
  const leaving = [N, N + 3, N + 2, N + 1];

  /** 20,000 seeded uniform points inside the bounds, inserted one by one, and their coordinates. */
  function crowd() {
    const random = mulberry32(7);
    const tree = new PointQuadtree({ bounds, maxItems: 8 });
    const ids: number[] = [];
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < N; i++) {
      ids.push(i);
      xs.push(-500 + 1000 * random());
      ys.push(-500 + 1000 * random());
      tree.insert(i, xs[i], ys[i]);
    }
    return { tree, ids, xs, ys };
  }

  for (const how of ['remove', 'move'] as const) {
    it(`the strays ${how === 'remove' ? 'are removed' : 'move home'}: root, nodes and query cost as before`, () => {
      const { tree, ids, xs, ys } = crowd();
      for (const [id, x, y] of strays) tree.insert(id, x, y);
      checkInvariants(tree);
      expect(tree.bounds).toEqual({ minX: -500, minY: -2e15, maxX: 1e308, maxY: 500 });
      for (const id of leaving) {
        if (how === 'remove') tree.remove(id);
        else tree.move(id, 1, 2);
        checkInvariants(tree);
      }
      expect(tree.bounds).toEqual(bounds);
      // The same tree as a bulk build of the same items under the constructor's bounds.
      const home = how === 'remove' ? [] : leaving;
      const fresh = PointQuadtree.from(
        { bounds, maxItems: 8 },
        [...ids, ...home],
        [...xs, ...home.map(() => 1)],
        [...ys, ...home.map(() => 2)],
      );
      expect(nodes(tree)).toEqual(nodes(fresh));
      expect(treeStats(tree).depth).toBe(treeStats(fresh).depth);
      fresh.queryCircle(10, 20, 10);
      tree.queryCircle(10, 20, 10);
      expect(tree.lastQuery).toEqual(fresh.lastQuery);
    });
  }

  it('on the way back, the refitted root is the extent of the items left (never stretched by one gone)', () => {
    const { tree } = crowd();
    for (const [id, x, y] of strays) tree.insert(id, x, y);
    const after: Record<number, object> = {
      [N]: { minX: -500, minY: -2e15, maxX: 0.9e308, maxY: 500 },
      [N + 3]: { minX: -500, minY: -1e15, maxX: 0.9e308, maxY: 500 },
      [N + 2]: { minX: -500, minY: -500, maxX: 0.9e308, maxY: 500 },
      [N + 1]: bounds,
    };
    for (const id of leaving) {
      tree.remove(id);
      expect(tree.bounds, `after removing ${id}`).toEqual(after[id]);
    }
  });

  it('a refitted root grows by refitting, not doubling: no edge without an item, and it shrinks back', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 8 });
    for (let i = 0; i < 100; i++) tree.insert(i, ((i * 37) % 1000) - 500, ((i * 53) % 1000) - 500);
    tree.insert(100, 0.88e308, 0);
    tree.insert(101, 0, -1e15); // doubling north would overflow east: refitted
    expect(tree.bounds).toEqual({ minX: -500, minY: -1e15, maxX: 0.88e308, maxY: 500 });
    // Doubling this root north would fit (0.88e308 * 2 is finite), and would leave no item on its edges.
    tree.insert(102, 0, -1.5e15);
    expect(tree.bounds).toEqual({ minX: -500, minY: -1.5e15, maxX: 0.88e308, maxY: 500 });
    checkInvariants(tree);
    for (const id of [100, 101, 102]) {
      tree.remove(id);
      checkInvariants(tree);
    }
    expect(tree.bounds).toEqual(bounds);
  });
});

describe('seeded: far strays near the float limit come and go in any order', () => {
  const bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };
  for (const seed of [31, 32, 33]) {
    it(`seed ${seed}: the refitted root is the items' extent at every step, the bounds once all are home`, () => {
      const random = mulberry32(seed);
      const tree = new PointQuadtree({ bounds, maxItems: 4 });
      const xs = new Float64Array(208);
      const ys = new Float64Array(208);
      for (let i = 0; i < 200; i++) {
        xs[i] = random() * 100;
        ys[i] = random() * 100;
        tree.insert(i, xs[i], ys[i]);
      }
      // Strays east and north only (points at both ends of the doubles would not fit in a finite root),
      // some past where doubling overflows, some far but within it.
      const far = () => (random() < 0.5 ? (0.3 + 1.4 * random()) * 1e308 : 10 ** (6 + random() * 10));
      const place = (id: number, home: boolean) => {
        const r = random();
        xs[id] = home || r >= 0.4 ? random() * 100 : far();
        ys[id] = home || r < 0.4 ? random() * 100 : -far();
      };
      const out = new Set<number>();
      for (let step = 0; step < 400; step++) {
        const id = 200 + Math.floor(random() * 8);
        const op = random();
        if (op < 0.4) {
          place(id, false);
          if (tree.has(id)) tree.move(id, xs[id], ys[id]);
          else tree.insert(id, xs[id], ys[id]);
          out.add(id);
        } else if (op < 0.65) {
          tree.remove(id);
          out.delete(id);
        } else if (op < 0.9) {
          if (tree.has(id)) {
            place(id, true);
            tree.move(id, xs[id], ys[id]);
            out.delete(id);
          }
        } else {
          // Every present stray either goes home or somewhere far, in one call.
          for (const s of [...out]) {
            const home = random() < 0.5;
            place(s, home);
            if (home) out.delete(s);
          }
          tree.moveAll(xs, ys);
        }
        checkInvariants(tree);
        if (out.size === 0) expect(tree.bounds, `step ${step}`).toEqual(bounds);
      }
    });
  }
});

describe('from() takes only array-likes with a length that is an integer >= 0', () => {
  const options = { bounds: { minX: 0, minY: 0, maxX: 10, maxY: 10 } };
  const as = (v: unknown) => v as ArrayLike<number>;
  const cases: [string, unknown, unknown, unknown, ErrorConstructor, RegExp][] = [
    ['three {}', {}, {}, {}, TypeError, /^PointQuadtree: ids\.length must be a number, got undefined$/],
    ['three 5s', 5, 5, 5, TypeError, /^PointQuadtree: ids must be an array or typed array, got 5$/],
    [
      'three {length: -1}',
      { length: -1 },
      { length: -1 },
      { length: -1 },
      RangeError,
      /^PointQuadtree: ids\.length must be an integer >= 0, got -1$/,
    ],
    ['null ids', null, [1], [1], TypeError, /^PointQuadtree: ids must be an array or typed array, got null$/],
    ['undefined xs', [0], undefined, [1], TypeError, /^PointQuadtree: xs must be .*, got undefined$/],
    ['a string ys', [0], [1], '1', TypeError, /^PointQuadtree: ys must be .*, got "1"$/],
    ['a function ids', () => 0, [1], [1], TypeError, /^PointQuadtree: ids must be .*, got a function$/],
    ['a length "1"', { length: '1', 0: 0 }, [1], [1], TypeError, /^PointQuadtree: ids\.length .* got "1"$/],
    ['a length 1.5', [0], { length: 1.5, 0: 1 }, [1], RangeError, /^PointQuadtree: xs\.length .* got 1\.5$/],
    ['a length NaN', [0], [1], { length: Number.NaN }, RangeError, /^PointQuadtree: ys\.length .* got NaN$/],
    ['lengths 2, 1, 1', [0, 1], [1], [1], RangeError, /^PointQuadtree: from: .* same length, got 2, 1, 1$/],
  ];
  for (const [name, ids, xs, ys, type, message] of cases) {
    it(`${name}: ${type.name}, no tree`, () => {
      let thrown: unknown;
      try {
        PointQuadtree.from(options, as(ids), as(xs), as(ys));
      } catch (e) {
        thrown = e;
      }
      expect((thrown as Error).constructor).toBe(type);
      expect((thrown as Error).message).toMatch(message);
    });
  }

  it('an array-like object with a numeric length is read like an array', () => {
    const tree = PointQuadtree.from(options, as({ length: 2, 0: 7, 1: 8 }), [1, 2], new Float32Array([3, 4]));
    checkInvariants(tree);
    expect(tree.size).toBe(2);
    expect(tree.queryCircle(2, 4, 0)).toEqual([8]);
    tree.insert(1, 5, 5);
    expect(tree.size).toBe(3);
    expect(tree.queryCircle(5, 5, 3)).toEqual([1]);
  });
});

it('moveAll checks its arrays even on an empty tree (nothing to move is no excuse for a bad argument)', () => {
  const tree = new PointQuadtree({ bounds: { minX: 0, minY: 0, maxX: 10, maxY: 10 } });
  expect(() => tree.moveAll(null as unknown as number[], [])).toThrow(/^PointQuadtree: xs must be an array/);
  tree.moveAll([], new Float64Array(0));
  expect(tree.size).toBe(0);
});

describe('each entry of from and moveAll is read once: an input that changes under the call cannot break the tree', () => {
  const bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };

  /** A Proxy over `values` that answers each index with its value the first time, NaN after; counts reads. */
  function fickle(values: number[]) {
    const reads = new Map<number, number>();
    const proxy = new Proxy(values, {
      get(target, key, receiver) {
        if (typeof key !== 'string' || !/^\d+$/.test(key)) return Reflect.get(target, key, receiver);
        const i = Number(key);
        reads.set(i, (reads.get(i) ?? 0) + 1);
        return reads.get(i) === 1 ? target[i] : Number.NaN;
      },
    });
    return { proxy, reads };
  }

  it('moveAll with xs that turn to NaN on a second read: the first values are stored, each read once', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 4 });
    for (let i = 0; i < 50; i++) tree.insert(i, i * 2, 50);
    const x = fickle(Array.from({ length: 50 }, (_, i) => 99 - i * 2));
    tree.moveAll(x.proxy, new Array(50).fill(30));
    checkInvariants(tree);
    expect([...x.reads.values()].every((n) => n === 1)).toBe(true);
    expect(x.reads.size).toBe(50);
    for (let i = 0; i < 50; i++) expect(tree.queryCircle(99 - i * 2, 30, 0)).toEqual([i]);
  });

  it('moveAll that grows the root (the one-by-one path) reads each entry once too', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 4 });
    for (let i = 0; i < 50; i++) tree.insert(i, i * 2, 50);
    const y = fickle(Array.from({ length: 50 }, (_, i) => (i === 7 ? 5000 : 40)));
    tree.moveAll(new Array(50).fill(10), y.proxy);
    checkInvariants(tree);
    expect([...y.reads.values()].every((n) => n === 1)).toBe(true);
    expect(tree.queryCircle(10, 5000, 0)).toEqual([7]);
  });

  it('from with ids, xs and ys that turn to NaN on a second read builds the first values', () => {
    const ids = fickle([3, 1, 2, 0]);
    const xs = fickle([10, 20, 30, 40]);
    const ys = fickle([5, 6, 7, 8]);
    const tree = PointQuadtree.from({ bounds, maxItems: 1 }, ids.proxy, xs.proxy, ys.proxy);
    checkInvariants(tree);
    for (const r of [ids.reads, xs.reads, ys.reads]) expect([...r.values()]).toEqual([1, 1, 1, 1]);
    expect(tree.nearest(0, 0, 4)).toEqual([3, 1, 2, 0]);
  });

  it('a bad entry is reported with the value read, and the tree is unchanged', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 4 });
    for (let i = 0; i < 10; i++) tree.insert(i, i, i);
    let reads = 0;
    const ys = new Proxy(new Array(10).fill(1), {
      get(target, key, receiver) {
        if (key !== '4') return Reflect.get(target, key, receiver);
        reads++;
        return reads === 1 ? '7' : 1; // a string first, a good number after
      },
    });
    expect(() => tree.moveAll(new Array(10).fill(2), ys)).toThrow(
      /^PointQuadtree: moveAll: ys\[4\] \(of id 4\) must be a number, got "7"$/,
    );
    checkInvariants(tree);
    expect(tree.queryCircle(4, 4, 0)).toEqual([4]);
  });

  it('only typed arrays over an ArrayBuffer are read twice (isFixed)', () => {
    expect(isFixed(new Float64Array(4))).toBe(true);
    expect(isFixed(new Int32Array(new ArrayBuffer(16), 4, 2))).toBe(true);
    expect(isFixed(new Float64Array(new SharedArrayBuffer(32)))).toBe(false);
    expect(isFixed(new Proxy(new Float64Array(4), {}))).toBe(false);
    expect(isFixed([1, 2, 3])).toBe(false);
    expect(isFixed(new DataView(new ArrayBuffer(8)))).toBe(false);
    // A typed array over shared memory that claims an ordinary buffer is still shared.
    const shared = new Float64Array(new SharedArrayBuffer(32));
    Object.defineProperty(shared, 'buffer', { value: new ArrayBuffer(32) });
    expect(isFixed(shared)).toBe(false);
  });

  it('a view of a SharedArrayBuffer that a worker thread writes: every call throws cleanly or stores a value read', async () => {
    const n = 2000;
    const xs = new Float64Array(new SharedArrayBuffer(8 * n));
    const ys = new Float64Array(n).fill(50);
    const ids = Int32Array.from({ length: n }, (_, i) => i);
    for (let i = 0; i < n; i++) xs[i] = (i * 37) % 100;
    const control = new Int32Array(new SharedArrayBuffer(8));
    // The worker flips xs[n - 1] between NaN and 60 until told to stop; control[1] says it has started.
    const worker = new Worker(
      `const { workerData } = require('node:worker_threads');
       const xs = new Float64Array(workerData.xs);
       const control = new Int32Array(workerData.control);
       Atomics.store(control, 1, 1);
       let i = 0;
       while (Atomics.load(control, 0) === 0) xs[xs.length - 1] = i++ % 2 === 0 ? NaN : 60;`,
      { eval: true, workerData: { xs: xs.buffer, control: control.buffer } },
    );
    try {
      while (Atomics.load(control, 1) === 0) await new Promise((r) => setTimeout(r, 1));
      const tree = PointQuadtree.from({ bounds, maxItems: 8 }, ids, new Float64Array(n).fill(1), ys);
      let threw = 0;
      let moved = 0;
      // Many calls: the two threads share 2 cores with other work, so they overlap only now and then.
      const until = Date.now() + 10_000;
      for (let call = 0; call < 2000 && Date.now() < until; call++) {
        try {
          tree.moveAll(xs, ys);
          moved++;
        } catch (e) {
          expect(String(e)).toMatch(/xs\[1999\] \(of id 1999\) must be a finite number, got NaN/);
          threw++;
        }
        checkInvariants(tree);
        if (moved > 0) expect(tree.queryCircle(60, 50, 0)).toContain(n - 1);
        try {
          if (call % 10 === 0) checkInvariants(PointQuadtree.from({ bounds }, ids, xs, ys));
        } catch (e) {
          expect(String(e)).toMatch(/xs\[1999\] must be a finite number, got NaN/);
        }
      }
      // Both outcomes seen: the worker really wrote while the calls ran.
      expect(Math.min(threw, moved)).toBeGreaterThan(0);
    } finally {
      Atomics.store(control, 0, 1);
      await worker.terminate();
    }
  }, 20_000);
});

it('an empty or one-item tree checks its callbacks and outputs too (nothing to visit is no excuse)', () => {
  const tree = new PointQuadtree({ bounds: { minX: 0, minY: 0, maxX: 10, maxY: 10 } });
  const f = null as unknown as () => void;
  const out = null as unknown as number[];
  expect(() => visitNodes(tree, f)).toThrow(/^PointQuadtree: callback must be a function/);
  expect(() => visitCircle(tree, 5, 5, 1, f)).toThrow(/^PointQuadtree: callback must be a function/);
  expect(() => tree.nearest(5, 5, 1, Infinity, out)).toThrow(/^PointQuadtree: out must be an array/);
  expect(() => tree.queryCircle(5, 5, 1, out)).toThrow(/^PointQuadtree: out must be an array/);
  tree.insert(0, 1, 1);
  expect(() => tree.forEachPair(1, f)).toThrow(/^PointQuadtree: callback must be a function/);
  expect(tree.size).toBe(1);
});

// On both joins: PointQuadtree's JavaScript join and CrowdQuadtree's WebAssembly one.
it.each([PointQuadtree, CrowdQuadtree])(
  'queryPairsInto into two views of one buffer that do not overlap: the same pairs as into two arrays (%o)',
  (Tree) => {
    const tree = new Tree({ bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 }, maxItems: 4 });
    for (let i = 0; i < 60; i++) tree.insert(i, (i * 37) % 100, (i * 53) % 100);
    const pairs = (a: Int32Array | Uint32Array, b: Int32Array | Uint32Array) => {
      const n = tree.queryPairsInto(15, a, b);
      return Array.from({ length: n }, (_, i) => `${Math.min(a[i], b[i])}-${Math.max(a[i], b[i])}`).sort();
    };
    const memory = new ArrayBuffer(8000);
    const want = pairs(new Int32Array(1000), new Int32Array(1000));
    expect(want.length).toBeGreaterThan(10);
    expect(pairs(new Int32Array(memory, 0, 1000), new Uint32Array(memory, 4000, 1000))).toEqual(want);
  },
);
