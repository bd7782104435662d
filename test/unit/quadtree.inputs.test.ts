/**
 * The input arrays of from() and moveAll() as a hostile caller hands them over (issue #30, the sweep beyond
 * its seven items): typed arrays that are subclasses, lie about their length, have no prototype, come from
 * another realm, or are detached. On both kernels (the tree is queried after).
 */
import vm from 'node:vm';
import { checkInvariants, PointQuadtree, setSeparationKernel } from 'point-quadtree';
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
  });
});
