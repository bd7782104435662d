/**
 * The constructor's options and the input arrays of from() and moveAll() as a hostile caller hands them
 * over (issue #30, the sweep beyond its seven items): options that are not objects or hold values that are
 * not numbers (TypeError, as every other argument), options read once (a Proxy or getters), frozen options
 * and options without a prototype; typed arrays that are subclasses, lie about their length, have no
 * prototype, come from another realm, or are detached. On both kernels (the tree is queried after).
 */
import vm from 'node:vm';
import type { QuadtreeOptions } from 'point-quadtree';
// The crowd's tree (point-quadtree/crowd), on which these tests ran as PointQuadtree before the crowd became a subpath.
import { CrowdQuadtree as PointQuadtree, setSeparationKernel } from 'point-quadtree/crowd';
import { checkInvariants } from 'point-quadtree/debug';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };

/** A typed array that claims a length it does not have (reading it would run the caller's code). */
function lying<T extends Float64Array | Int32Array>(a: T): T {
  Object.defineProperty(a, 'length', { get: () => 1e9 });
  return a;
}

/** A detached typed array (its buffer transferred away). */
function detached(): Float64Array {
  const a = new Float64Array(8);
  structuredClone(a.buffer, { transfer: [a.buffer] });
  return a;
}

/** Pairs of the tree at radius 30 by querySeparationInto, which runs the kernel asked for. */
function pairs(tree: PointQuadtree): number {
  const n = 64;
  return tree.querySeparationInto(30, new Int32Array(n), new Float64Array(n), new Float64Array(n));
}

describe.each(['auto', 'js'] as const)('kernel %s', (kernel) => {
  beforeAll(() => setSeparationKernel(kernel));
  afterAll(() => setSeparationKernel('auto'));

  describe('the constructor’s options', () => {
    it.each([
      ['no options', undefined, 'options must be an object, got undefined'],
      ['null options', null, 'options must be an object, got null'],
      ['a string', 'big', 'options must be an object, got "big"'],
      ['no bounds', {}, 'bounds must be {minX, minY, maxX, maxY}, got undefined'],
      ['bounds 5', { bounds: 5 }, 'bounds must be {minX, minY, maxX, maxY}, got 5'],
      ['bounds null', { bounds: null }, 'bounds must be {minX, minY, maxX, maxY}, got null'],
      ['a bound "0"', { bounds: { ...bounds, minX: '0' } }, 'bounds.minX must be a number, got "0"'],
      ['a bound null', { bounds: { ...bounds, maxY: null } }, 'bounds.maxY must be a number, got null'],
      ['maxItems "8"', { bounds, maxItems: '8' }, 'maxItems must be a number, got "8"'],
      ['minSize 1n', { bounds, minSize: 1n }, 'minSize must be a number, got 1n (a BigInt)'],
      ['looseness "2"', { bounds, looseness: '2' }, 'looseness must be a number, got "2"'],
      ['looseness true', { bounds, looseness: true }, 'looseness must be a number, got true'],
      [
        'maxItems with valueOf',
        { bounds, maxItems: { valueOf: (): number => 8 } },
        'maxItems must be a number, got an object (Object)',
      ],
    ])('%s: the library’s TypeError, worded by describe()', (_, options, message) => {
      expect(() => new PointQuadtree(options as QuadtreeOptions)).toThrow(
        new TypeError(`PointQuadtree: ${message}`),
      );
    });

    it('each option and bound is read once: getters that turn bad on a second read cannot reach the tree', () => {
      const reads = new Map<string, number>();
      const once = (key: string, value: number) => ({
        get: () => {
          reads.set(key, (reads.get(key) ?? 0) + 1);
          return reads.get(key)! <= 2 ? value : Number.NaN;
        },
        enumerable: true,
      });
      const b = Object.defineProperties(
        {},
        { minX: once('minX', 0), minY: once('minY', 0), maxX: once('maxX', 100), maxY: once('maxY', 100) },
      );
      const options = new Proxy(
        { bounds: b, maxItems: 4 },
        {
          get(target, key, receiver) {
            reads.set(String(key), (reads.get(String(key)) ?? 0) + 1);
            return Reflect.get(target, key, receiver);
          },
        },
      );
      const tree = new PointQuadtree(options as unknown as QuadtreeOptions);
      expect(tree.bounds).toEqual(bounds);
      expect(Object.fromEntries(reads)).toEqual({
        bounds: 1,
        minX: 1,
        minY: 1,
        maxX: 1,
        maxY: 1,
        maxItems: 1,
        minSize: 1,
        looseness: 1,
      });
      for (let id = 0; id < 20; id++) tree.insert(id, id * 5, 50);
      checkInvariants(tree);
      expect(pairs(tree)).toBe(19 + 18 + 17 + 16 + 15 + 14); // 5 apart, r = 30: up to 6 neighbours on each side
    });

    it('frozen options and options without a prototype make the same tree', () => {
      const bare = Object.assign(Object.create(null), {
        bounds: Object.assign(Object.create(null), bounds),
        maxItems: 2,
      });
      for (const options of [Object.freeze({ bounds: Object.freeze({ ...bounds }), maxItems: 2 }), bare]) {
        const tree = new PointQuadtree(options);
        expect([tree.bounds, tree.maxItems, tree.minSize, tree.looseness]).toEqual([bounds, 2, 1, 0]);
        for (let id = 0; id < 20; id++) tree.insert(id, id * 5, 50);
        checkInvariants(tree);
      }
    });
  });

  describe('from() and moveAll() with odd typed arrays', () => {
    const ids = Int32Array.from({ length: 20 }, (_, i) => i);
    const xs = Float64Array.from({ length: 20 }, (_, i) => i * 5);
    const ys = new Float64Array(20).fill(50);
    const want = pairs(PointQuadtree.from({ bounds, maxItems: 2 }, ids, xs, ys));
    const odd: [string, <T extends Float64Array | Int32Array>(a: T) => T][] = [
      ['a typed array whose own length lies', (a) => lying(a.slice() as typeof a)],
      ['a typed array with a null prototype', (a) => Object.setPrototypeOf(a.slice(), null)],
      [
        'a typed array of another realm',
        (a) => vm.runInNewContext(`new ${a[Symbol.toStringTag]}([${Array.from(a).join(',')}])`),
      ],
      [
        'a subclass',
        (a) => {
          class Sub extends (a.constructor as Float64ArrayConstructor) {}
          return new Sub(a) as unknown as typeof a;
        },
      ],
    ];

    it.each(odd)('%s: read as the typed array it is', (_, make) => {
      const tree = PointQuadtree.from({ bounds, maxItems: 2 }, make(ids), make(xs), make(ys));
      checkInvariants(tree);
      expect(tree.size).toBe(20);
      expect(pairs(tree)).toBe(want);
      const moved = xs.map((x) => 100 - x);
      tree.moveAll(make(moved), make(ys));
      checkInvariants(tree);
      expect(tree.queryCircle(100, 50, 0)).toEqual([0]);
      expect(pairs(tree)).toBe(want);
    });

    it('a detached array: the library’s TypeError, naming it, even with nothing to read', () => {
      const message = (name: string) =>
        new TypeError(
          `PointQuadtree: ${name} must be over a buffer that is not detached, got an object (Float64Array) over a detached buffer`,
        );
      expect(() => PointQuadtree.from({ bounds }, detached(), detached(), detached())).toThrow(
        message('ids'),
      );
      expect(() => PointQuadtree.from({ bounds }, [], [], detached())).toThrow(message('ys'));
      const empty = new PointQuadtree({ bounds });
      expect(() => empty.moveAll(detached(), new Float64Array(0))).toThrow(message('xs'));
      const tree = PointQuadtree.from({ bounds, maxItems: 2 }, ids, xs, ys);
      expect(() => tree.moveAll(xs, detached())).toThrow(message('ys'));
      expect(tree.queryCircle(95, 50, 0)).toEqual([19]);
    });

    it('BigInt64Array positions for moveAll: the TypeError naming the first entry, the tree unchanged', () => {
      // Inside the root as numbers (1n..20n), so only moveAll's typeof test tells them from numbers.
      const tree = PointQuadtree.from({ bounds, maxItems: 2 }, ids, xs, ys);
      const big = BigInt64Array.from({ length: 20 }, (_, i) => BigInt(i + 1));
      const before = tree.queryRect(0, 0, 100, 100).sort((a, b) => a - b);
      expect(() => tree.moveAll(big as unknown as Float64Array, ys)).toThrow(
        new TypeError('PointQuadtree: moveAll: xs[0] (of id 0) must be a number, got 1n (a BigInt)'),
      );
      expect(() => tree.moveAll(xs, big as unknown as Float64Array)).toThrow(
        new TypeError('PointQuadtree: moveAll: ys[0] (of id 0) must be a number, got 1n (a BigInt)'),
      );
      checkInvariants(tree);
      expect(tree.queryRect(0, 0, 100, 100).sort((a, b) => a - b)).toEqual(before);
      expect(tree.queryCircle(95, 50, 0)).toEqual([19]);
      expect(pairs(tree)).toBe(want);
    });
  });
});
