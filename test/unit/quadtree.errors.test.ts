import { PointQuadtree, type QuadtreeOptions } from 'point-quadtree';
import { checkInvariants, treeStats, visitCircle, visitNodes } from 'point-quadtree/debug';
import { describe, expect, it } from 'vitest';
import { bounds, fingerprint, populated } from '../helpers/trees';

/** The populated tree's coordinates on one axis (x: k = 37, y: k = 53), as moveAll takes them. */
const axis = (k: number): number[] => Array.from({ length: 40 }, (_, i) => (i * k) % 100);
const notArray = (v: unknown) => v as number[];

/** Runs `bad`, expects it to throw `type` with a message matching `message`, and the tree unchanged. */
function throwsAndKeeps(bad: (t: PointQuadtree) => unknown, type: ErrorConstructor, message: RegExp): void {
  const tree = populated();
  const before = fingerprint(tree);
  let thrown: unknown;
  try {
    bad(tree);
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(type);
  expect((thrown as Error).constructor).toBe(type); // exactly this type: Error is not a RangeError
  expect((thrown as Error).message).toMatch(/^PointQuadtree/);
  expect((thrown as Error).message).toMatch(message);
  checkInvariants(tree);
  expect(fingerprint(tree)).toEqual(before);
}

describe('bad input: a clear error and nothing changed', () => {
  const cases: [string, (t: PointQuadtree) => unknown, ErrorConstructor, RegExp][] = [
    [
      'insert with NaN x',
      (t) => t.insert(100, Number.NaN, 1),
      RangeError,
      /x must be a finite number, got NaN/,
    ],
    ['insert with Infinity y', (t) => t.insert(100, 1, Infinity), RangeError, /y must be .* got Infinity/],
    ['insert with -Infinity x', (t) => t.insert(100, -Infinity, 1), RangeError, /got -Infinity/],
    ['insert of an id already present', (t) => t.insert(3, 1, 1), Error, /id 3 is already in the tree/],
    ['insert with a negative id', (t) => t.insert(-1, 1, 1), RangeError, /id must be an integer .* got -1/],
    ['insert with a fractional id', (t) => t.insert(1.5, 1, 1), RangeError, /got 1.5/],
    ['insert with a NaN id', (t) => t.insert(Number.NaN, 1, 1), RangeError, /got NaN/],
    ['insert above MAX_ID', (t) => t.insert(PointQuadtree.MAX_ID + 1, 1, 1), RangeError, /33554431/],
    ['move of an absent id', (t) => t.move(100, 1, 1), Error, /cannot move id 100: it is not in the tree/],
    ['move with a negative id', (t) => t.move(-2, 1, 1), RangeError, /got -2/],
    ['move with NaN y', (t) => t.move(3, 1, Number.NaN), RangeError, /y must be a finite number, got NaN/],
    ['move with Infinity x', (t) => t.move(3, Infinity, 1), RangeError, /x must be .* got Infinity/],
    ['remove with a fractional id', (t) => t.remove(0.5), RangeError, /got 0.5/],
    ['remove with a negative id', (t) => t.remove(-1), RangeError, /got -1/],
    ['remove above MAX_ID', (t) => t.remove(PointQuadtree.MAX_ID + 1), RangeError, /33554431/],
    ['move above MAX_ID', (t) => t.move(PointQuadtree.MAX_ID + 1, 1, 1), RangeError, /33554431/],
    [
      'queryCircle with a negative radius',
      (t) => t.queryCircle(1, 1, -3),
      RangeError,
      /radius must be .* >= 0, got -3/,
    ],
    [
      'queryCircle with a NaN radius',
      (t) => t.queryCircle(1, 1, Number.NaN),
      RangeError,
      /radius .* got NaN/,
    ],
    ['queryCircle with an infinite radius', (t) => t.queryCircle(1, 1, Infinity), RangeError, /got Infinity/],
    ['queryCircle with a NaN centre', (t) => t.queryCircle(Number.NaN, 1, 1), RangeError, /x must be/],
    [
      'queryCircle with a NaN y (named y)',
      (t) => t.queryCircle(1, Number.NaN, 1),
      RangeError,
      /: y must be a finite number, got NaN$/,
    ],
    [
      'queryRect with a NaN minY (named minY)',
      (t) => t.queryRect(0, Number.NaN, 10, 10),
      RangeError,
      /: minY must be a finite number, got NaN$/,
    ],
    ['queryRect with minX > maxX', (t) => t.queryRect(5, 0, 4, 10), RangeError, /minX <= maxX/],
    ['queryRect with minY > maxY', (t) => t.queryRect(0, 5, 10, 4), RangeError, /minY <= maxY/],
    ['queryRect with an infinite edge', (t) => t.queryRect(0, 0, Infinity, 10), RangeError, /maxX/],
    [
      'queryCircleInto with an output too small for the answer',
      (t) => t.queryCircleInto(50, 50, 1000, new Int32Array(10)),
      RangeError,
      /too small/,
    ],
    [
      // The whole message: the output's length and the size that always suffices (the tree holds 40).
      'queryCircleInto with an output too small: its length and the size to give',
      (t) => t.queryCircleInto(50, 50, 1000, new Int32Array(10)),
      RangeError,
      /^PointQuadtree: the output array \(length 10\) is too small for the query's answer; give it length >= size \(40\)$/,
    ],
    [
      'queryRectInto with an output too small',
      (t) => t.queryRectInto(0, 0, 100, 100, new Uint32Array(3)),
      RangeError,
      /too small/,
    ],
    ['nearest with a negative k', (t) => t.nearest(1, 1, -1), RangeError, /k must be .* got -1/],
    ['nearest with an infinite k', (t) => t.nearest(1, 1, Infinity), RangeError, /k must be .* got Infinity/],
    ['nearest with a fractional k', (t) => t.nearest(1, 1, 1.5), RangeError, /k must be/],
    ['nearest with a NaN maxDistance', (t) => t.nearest(1, 1, 1, Number.NaN), RangeError, /maxDistance/],
    ['nearest with a negative maxDistance', (t) => t.nearest(1, 1, 1, -1), RangeError, /maxDistance/],
    ['nearest with a NaN centre', (t) => t.nearest(1, Number.NaN), RangeError, /y must be/],
    [
      'queryPairsInto with one array as both outputs',
      (t) => {
        const buf = new Int32Array(1000);
        return t.queryPairsInto(20, buf, buf);
      },
      RangeError,
      /outA and outB must be two arrays, got the same one twice/,
    ],
    [
      'queryPairsInto with overlapping views of one buffer',
      (t) => {
        const memory = new ArrayBuffer(4000);
        return t.queryPairsInto(20, new Int32Array(memory, 0, 600), new Uint32Array(memory, 2000, 400));
      },
      RangeError,
      /outA and outB must not share memory, got views of one buffer that overlap in its bytes 2000 to 2399/,
    ],
    [
      'queryPairsInto with a Proxy of an Int32Array',
      (t) => t.queryPairsInto(20, new Proxy(new Int32Array(1000), {}), new Int32Array(1000)),
      TypeError,
      /^PointQuadtree: outA must be an Int32Array or Uint32Array, got an object \(Object\)$/,
    ],
    [
      'queryCircleInto with a Proxy of an Int32Array',
      (t) => t.queryCircleInto(50, 50, 10, new Proxy(new Int32Array(64), {})),
      TypeError,
      /out must be an Int32Array or Uint32Array/,
    ],
    [
      'moveAll with a ys entry that reads "7", then 1 (the value read is the one checked and named)',
      (t) => {
        let reads = 0;
        const ys = new Proxy(axis(53), {
          get: (target, key, receiver) =>
            key === '4' ? (++reads === 1 ? '7' : 1) : Reflect.get(target, key, receiver),
        });
        return t.moveAll(axis(37), ys);
      },
      TypeError,
      /moveAll: ys\[4\] \(of id 4\) must be a number, got "7"/,
    ],
    [
      'moveAll with null xs',
      (t) => t.moveAll(notArray(null), axis(53)),
      TypeError,
      /xs must be an array or typed array, got null/,
    ],
    [
      'moveAll with a string ys',
      (t) => t.moveAll(axis(37), notArray('abc')),
      TypeError,
      /ys must be .* got "abc"/,
    ],
    [
      'moveAll with xs {} (no length)',
      (t) => t.moveAll(notArray({}), axis(53)),
      TypeError,
      /xs\.length must be a number, got undefined/,
    ],
    [
      'moveAll with ys of length -1',
      (t) => t.moveAll(axis(37), notArray({ length: -1 })),
      RangeError,
      /ys\.length must be an integer >= 0, got -1/,
    ],
  ];
  for (const [name, bad, type, message] of cases) {
    it(`${name}: ${type.name}, tree unchanged`, () => throwsAndKeeps(bad, type, message));
  }

  it('remove of an absent id returns false and changes nothing', () => {
    const tree = populated();
    const before = fingerprint(tree);
    expect(tree.remove(1000)).toBe(false);
    expect(tree.remove(PointQuadtree.MAX_ID)).toBe(false);
    expect(fingerprint(tree)).toEqual(before);
  });

  it('a point the root cannot cover with a finite size: the whole message, naming the span; tree unchanged', () => {
    const message = new RangeError(
      'PointQuadtree: the points span x -1.7e+308 .. 1.7e+308, y 0 .. 100: ' +
        'a root that wide or deep is not a finite number of units across',
    );
    for (const bad of [
      (t: PointQuadtree) => t.move(0, -1.7e308, 0),
      (t: PointQuadtree) => t.insert(101, -1.7e308, 50),
    ]) {
      const tree = populated();
      tree.insert(100, 1.7e308, 50);
      const before = fingerprint(tree);
      expect(() => bad(tree)).toThrow(message);
      checkInvariants(tree);
      expect(fingerprint(tree)).toEqual(before);
    }
  });

  it('has() of anything that is not an id is false', () => {
    const tree = populated();
    for (const v of [-1, 1.5, Number.NaN, Infinity, 1e12]) expect(tree.has(v)).toBe(false);
  });
});

// Options that are not objects and values that are not numbers: TypeError (quadtree.inputs.test.ts).
describe('bad options: RangeError from the constructor', () => {
  const bad: [string, unknown, RegExp][] = [
    [
      'NaN bounds',
      { bounds: { ...bounds, minX: Number.NaN } },
      /bounds.minX must be a finite number, got NaN/,
    ],
    ['infinite bounds', { bounds: { ...bounds, maxY: Infinity } }, /bounds.maxY must be .* got Infinity/],
    ['empty bounds (zero width)', { bounds: { minX: 0, minY: 0, maxX: 0, maxY: 10 } }, /must not be empty/],
    ['empty bounds (zero height)', { bounds: { minX: 0, minY: 5, maxX: 10, maxY: 5 } }, /must not be empty/],
    [
      'empty bounds: the message shows them',
      { bounds: { minX: 0, minY: 0, maxX: 0, maxY: 10 } },
      /^PointQuadtree: bounds must not be empty \(minX < maxX and minY < maxY\), got \{minX: 0, minY: 0, maxX: 0, maxY: 10\}$/,
    ],
    [
      'NaN bounds.minY',
      { bounds: { ...bounds, minY: Number.NaN } },
      /bounds\.minY must be a finite number, got NaN/,
    ],
    [
      'infinite bounds.maxX',
      { bounds: { ...bounds, maxX: Infinity } },
      /bounds\.maxX must be .* got Infinity/,
    ],
    ['inverted bounds', { bounds: { minX: 0, minY: 10, maxX: 10, maxY: 0 } }, /must not be empty/],
    [
      'bounds too large to measure',
      { bounds: { minX: -1.7e308, minY: 0, maxX: 1.7e308, maxY: 1 } },
      /too large/,
    ],
    [
      'bounds too tall to measure',
      { bounds: { minX: 0, minY: -1.7e308, maxX: 1, maxY: 1.7e308 } },
      /bounds are too large: their width and height must be finite/,
    ],
    ['maxItems 0', { bounds, maxItems: 0 }, /maxItems must be an integer from 1 .* got 0/],
    ['maxItems 2.5', { bounds, maxItems: 2.5 }, /maxItems .* got 2.5/],
    ['maxItems NaN', { bounds, maxItems: Number.NaN }, /maxItems .* got NaN/],
    [
      'maxItems 2147483648',
      { bounds, maxItems: 2 ** 31 },
      /maxItems must be .* to 2147483647, got 2147483648/,
    ],
    ['minSize 0', { bounds, minSize: 0 }, /minSize must be a finite number > 0, got 0/],
    // -0 is named as it is written (String(-0) would say 0, and 0 is no better a size).
    ['minSize -0', { bounds, minSize: -0 }, /minSize must be a finite number > 0, got -0$/],
    ['minSize -1', { bounds, minSize: -1 }, /minSize .* got -1/],
    ['minSize Infinity', { bounds, minSize: Infinity }, /minSize .* got Infinity/],
    ['minSize NaN', { bounds, minSize: Number.NaN }, /minSize .* got NaN/],
    ['looseness -0.5', { bounds, looseness: -0.5 }, /looseness must be a finite number >= 0, got -0.5/],
    ['looseness Infinity', { bounds, looseness: Infinity }, /looseness .* got Infinity/],
    ['looseness NaN', { bounds, looseness: Number.NaN }, /looseness .* got NaN/],
  ];
  for (const [name, options, message] of bad) {
    it(`${name}`, () => {
      expect(() => new PointQuadtree(options as QuadtreeOptions)).toThrow(RangeError);
      expect(() => new PointQuadtree(options as QuadtreeOptions)).toThrow(message);
    });
  }

  it('maxItems 2147483647, the largest, is taken', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 0x7fffffff });
    expect(tree.maxItems).toBe(2147483647);
  });

  it('defaults: maxItems 64, minSize 1, looseness 0 (also as PointQuadtree.DEFAULTS, frozen)', () => {
    const tree = new PointQuadtree({ bounds });
    expect(PointQuadtree.DEFAULTS).toEqual({ maxItems: 64, minSize: 1, looseness: 0 });
    expect(Object.isFrozen(PointQuadtree.DEFAULTS)).toBe(true);
    expect(tree.maxItems).toBe(64);
    expect(tree.minSize).toBe(1);
    expect(tree.looseness).toBe(0);
  });
});

describe('PointQuadtree.from input errors', () => {
  const options = { bounds };
  it('arrays of different lengths', () => {
    expect(() => PointQuadtree.from(options, [0, 1], [1, 2], [1])).toThrow(RangeError);
  });
  it('arrays of different lengths, whichever is off: RangeError naming the three lengths', () => {
    const same = /^PointQuadtree: from: ids, xs and ys must have the same length, got /;
    expect(() => PointQuadtree.from(options, [0, 1], [1], [1, 2])).toThrow(same);
    expect(() => PointQuadtree.from(options, [0, 1], [1], [1, 2])).toThrow(/got 2, 1, 2$/);
    expect(() => PointQuadtree.from(options, [0, 1], [1, 2, 3], [1, 2])).toThrow(/got 2, 3, 2$/);
    expect(() => PointQuadtree.from(options, [0], [1, 2], [1, 2])).toThrow(/got 1, 2, 2$/);
  });
  it('a bad first entry (index 0) is reported like any other', () => {
    expect(() => PointQuadtree.from(options, [-4, 1], [1, 2], [1, 2])).toThrow(/id must be .*got -4$/);
    expect(() => PointQuadtree.from(options, [0, 1], [Number.NaN, 2], [1, 2])).toThrow(
      /xs\[0\] must be a finite number, got NaN$/,
    );
    expect(() => PointQuadtree.from(options, [0], [1], [Number.POSITIVE_INFINITY])).toThrow(
      /ys\[0\] must be a finite number, got Infinity$/,
    );
  });
  it('an id above MAX_ID: RangeError naming it', () => {
    expect(() => PointQuadtree.from(options, [0, PointQuadtree.MAX_ID + 1], [1, 2], [1, 2])).toThrow(
      /^PointQuadtree: id must be an integer from 0 to 33554431, got 33554432$/,
    );
  });
  it('MAX_ID itself is an id (from, remove, insert, move): the range is closed', () => {
    // Ids index dense arrays: this tree holds about 270 MB of id tables, for a moment.
    const max = PointQuadtree.MAX_ID;
    const tree = PointQuadtree.from(options, [max], [1], [2]);
    expect(tree.queryCircle(1, 2, 0)).toEqual([max]);
    expect(tree.remove(max)).toBe(true);
    tree.insert(max, 3, 4);
    tree.move(max, 5, 6);
    expect(tree.queryCircle(5, 6, 0)).toEqual([max]);
  });
  it('a non-finite y, named by its index', () => {
    expect(() => PointQuadtree.from(options, [0, 1], [1, 2], [1, Number.NaN])).toThrow(
      /^PointQuadtree: ys\[1\] must be a finite number, got NaN$/,
    );
  });
  it('a repeated id', () => {
    expect(() => PointQuadtree.from(options, [0, 1, 0], [1, 2, 3], [1, 2, 3])).toThrow(
      /id 0 appears more than once/,
    );
  });
  it('a non-finite coordinate', () => {
    expect(() => PointQuadtree.from(options, [0, 1], [1, Number.NaN], [1, 2])).toThrow(
      /xs\[1\] must be a finite/,
    );
  });
  it('a bad id', () => {
    expect(() => PointQuadtree.from(options, [0, -4], [1, 2], [1, 2])).toThrow(/got -4/);
  });
});

/** A value that records every conversion, so a test can assert that the tree never converted it. */
function spy(value: number) {
  const calls = { n: 0 };
  const obj = {
    valueOf() {
      calls.n++;
      return value;
    },
    toString() {
      calls.n++;
      return String(value);
    },
  };
  return { obj: obj as unknown as number, calls };
}

describe('non-numbers: TypeError naming the argument, nothing converted, tree unchanged', () => {
  // Each is what a caller might pass by mistake; none is a number, so none may be converted and used.
  const values: [string, unknown][] = [
    ['null', null],
    ['undefined', undefined],
    ['a numeric string', '7'],
    ['an empty string', ''],
    ['true', true],
    ['an array [3]', [3]],
    ['a BigInt', 7n],
    ['a Symbol', Symbol('s')],
    ['an object with valueOf', { valueOf: () => 7 }],
  ];
  const as = (v: unknown) => v as number;
  const calls: [string, (t: PointQuadtree, v: number) => unknown, RegExp][] = [
    ['insert x', (t, v) => t.insert(100, v, 1), /x must be a number/],
    ['insert y', (t, v) => t.insert(100, 1, v), /y must be a number/],
    ['insert id', (t, v) => t.insert(v, 1, 1), /id must be a number/],
    // Id 3 is at ((3 * 37) % 100, (3 * 53) % 100) = (11, 59): null and '' would convert to a point nearby.
    ['move x (fast path)', (t, v) => t.move(3, v, 59), /x must be a number/],
    ['move y (fast path)', (t, v) => t.move(3, 11, v), /y must be a number/],
    [
      'moveAll xs',
      (t, v) => t.moveAll(tweaked(v, 'x'), tweaked(10, 'y')),
      /xs\[5\] \(of id 5\) must be a number/,
    ],
    [
      'moveAll ys',
      (t, v) => t.moveAll(tweaked(10, 'x'), tweaked(v, 'y')),
      /ys\[5\] \(of id 5\) must be a number/,
    ],
    ['queryCircle radius', (t, v) => t.queryCircle(50, 50, v), /radius must be a number/],
    ['queryCircle x', (t, v) => t.queryCircle(v, 50, 5), /x must be a number/],
    [
      'queryCircleInto radius',
      (t, v) => t.queryCircleInto(50, 50, v, new Int32Array(64)),
      /radius must be a number/,
    ],
    ['queryRect minX', (t, v) => t.queryRect(v, 0, 50, 50), /minX must be a number/],
    ['queryRect maxY', (t, v) => t.queryRect(0, 0, 50, v), /maxY must be a number/],
    [
      'queryRectInto maxX',
      (t, v) => t.queryRectInto(0, 0, v, 50, new Int32Array(64)),
      /maxX must be a number/,
    ],
    ['nearest k', (t, v) => t.nearest(50, 50, v), /k must be a number/],
    ['nearest maxDistance', (t, v) => t.nearest(50, 50, 1, v), /maxDistance must be a number/],
    ['nearest x', (t, v) => t.nearest(v, 50), /x must be a number/],
    ['visitCircle radius', (t, v) => visitCircle(t, 50, 50, v, () => undefined), /radius must be a number/],
    [
      'queryPairsInto radius',
      (t, v) => t.queryPairsInto(v, new Int32Array(9), new Int32Array(9)),
      /radius must be/,
    ],
    ['forEachPair radius', (t, v) => t.forEachPair(v, () => undefined), /radius must be/],
  ];
  /** Arrays for moveAll: every id at a valid spot except id 5, which gets `v` on the axis named. */
  function tweaked(v: unknown, axis: 'x' | 'y'): number[] {
    const a: unknown[] = [];
    for (let i = 0; i < 40; i++) a.push(axis === 'x' ? (i * 37) % 100 : (i * 53) % 100);
    a[5] = v;
    return a as number[];
  }
  for (const [what, call, message] of calls) {
    for (const [label, value] of values) {
      // undefined is the documented default of nearest's k and maxDistance: not an error there.
      if (value === undefined && /^nearest (k|maxDistance)/.test(what)) continue;
      it(`${what} = ${label}: TypeError`, () =>
        throwsAndKeeps((t) => call(t, as(value)), TypeError, message));
    }
  }

  it('a valueOf of the caller is never called (move, queries, rectangles)', () => {
    const tree = populated();
    const { obj, calls: c } = spy(5);
    for (const f of [
      () => tree.move(3, obj, 59),
      () => tree.move(3, 11, obj),
      () => tree.queryCircle(50, 50, obj),
      () => tree.queryCircleInto(50, obj, 5, new Int32Array(64)),
      () => tree.queryRect(0, 0, obj, 50),
      () => tree.queryRectInto(obj, 0, 50, 50, new Int32Array(64)),
      () => tree.nearest(obj, 1),
      () => tree.insert(100, obj, 1),
    ]) {
      expect(f).toThrow(TypeError);
    }
    expect(c.n).toBe(0);
  });

  it('the reproduction of the issue: move(1, null, 1) throws and the item stays at (50, 50)', () => {
    const tree = new PointQuadtree({ bounds });
    tree.insert(1, 50, 50);
    expect(() => tree.move(1, as(null), 1)).toThrow(/PointQuadtree: x must be a number, got null/);
    expect(tree.queryCircle(50, 50, 0)).toEqual([1]);
    expect(tree.queryCircle(0, 1, 0.5)).toEqual([]);
  });

  it('the error message shows a BigInt and a Symbol without converting them', () => {
    const tree = populated();
    expect(() => tree.queryCircle(1, 1, as(3n))).toThrow(/radius must be a number, got 3n \(a BigInt\)/);
    expect(() => tree.insert(100, as(Symbol('here')), 1)).toThrow(/x must be a number, got Symbol\(here\)/);
  });
});

describe('callbacks that are not functions and outputs that are not arrays: TypeError, tree unchanged', () => {
  const notFunctions: [string, unknown][] = [
    ['null', null],
    ['undefined', undefined],
    ['a number', 5],
    ['a string', 'f'],
    ['an object', { call: () => undefined }],
  ];
  const callbacks: [string, (t: PointQuadtree, f: () => void) => unknown][] = [
    ['visitNodes', (t, f) => visitNodes(t, f)],
    ['visitCircle (the circle meets the tree)', (t, f) => visitCircle(t, 50, 50, 10, f)],
    ['visitCircle (the circle misses the tree)', (t, f) => visitCircle(t, 1e6, 1e6, 1, f)],
    ['forEachPair (pairs found)', (t, f) => t.forEachPair(30, f)],
    ['forEachPair (no pair within the radius)', (t, f) => t.forEachPair(0, f)],
  ];
  for (const [what, call] of callbacks) {
    for (const [label, value] of notFunctions) {
      it(`${what} with callback = ${label}`, () =>
        throwsAndKeeps(
          (t) => call(t, value as () => void),
          TypeError,
          /: callback must be a function, got /,
        ));
    }
  }
  const notArrays: [string, unknown][] = [
    ['null', null],
    ['a string', 'x'],
    ['an object', { length: 0 }],
    ['an Int32Array', new Int32Array(64)],
  ];
  const outputs: [string, (t: PointQuadtree, out: number[]) => unknown][] = [
    ['queryCircle', (t, out) => t.queryCircle(50, 50, 10, out)],
    ['queryRect', (t, out) => t.queryRect(0, 0, 50, 50, out)],
    ['nearest', (t, out) => t.nearest(50, 50, 3, Infinity, out)],
  ];
  for (const [what, call] of outputs) {
    for (const [label, value] of notArrays) {
      it(`${what} with out = ${label}`, () =>
        throwsAndKeeps((t) => call(t, value as number[]), TypeError, /: out must be an array, got /));
    }
  }
  it("point-quadtree/debug's walks take a PointQuadtree: anything else is a TypeError naming the value", () => {
    const noop = () => undefined;
    const notTrees: [unknown, RegExp][] = [
      [null, /^PointQuadtree: tree must be a PointQuadtree, got null$/],
      [undefined, /^PointQuadtree: tree must be a PointQuadtree, got undefined$/],
      [5, /^PointQuadtree: tree must be a PointQuadtree, got 5$/],
      [{ visitNodes: noop }, /^PointQuadtree: tree must be a PointQuadtree, got an object \(Object\)$/],
    ];
    for (const [value, message] of notTrees) {
      const tree = value as PointQuadtree;
      expect(() => visitNodes(tree, noop)).toThrow(TypeError);
      expect(() => visitNodes(tree, noop)).toThrow(message);
      expect(() => visitCircle(tree, 0, 0, 1, noop)).toThrow(message);
      expect(() => treeStats(tree)).toThrow(message);
      expect(() => checkInvariants(tree)).toThrow(message);
    }
    // The tree is checked before the callback and the circle.
    expect(() => visitCircle(null as unknown as PointQuadtree, Number.NaN, 0, 1, null as never)).toThrow(
      /tree must be a PointQuadtree/,
    );
  });
  it('the message shows the value: visitNodes(null), queryRect(..., "x")', () => {
    const tree = populated();
    const f = null as unknown as () => void;
    expect(() => visitNodes(tree, f)).toThrow(/^PointQuadtree: callback must be a function, got null$/);
    expect(() => tree.queryRect(0, 0, 1, 1, 'x' as unknown as number[])).toThrow(
      /^PointQuadtree: out must be an array, got "x"$/,
    );
    expect(() => tree.nearest(0, 0, '5' as unknown as number)).toThrow(
      /^PointQuadtree: k must be a number, got "5"$/,
    );
  });
  it('lastQuery is not touched by a query whose out is bad', () => {
    const tree = populated();
    tree.queryCircle(50, 50, 10);
    const before = { ...tree.lastQuery };
    expect(() => tree.queryCircle(0, 0, 100, null as unknown as number[])).toThrow(TypeError);
    expect(tree.lastQuery).toEqual(before);
  });
});

describe('options are fixed for the life of the tree', () => {
  for (const key of ['maxItems', 'minSize', 'looseness'] as const) {
    it(`assigning ${key} throws a TypeError and the tree keeps working`, () => {
      const tree = populated();
      const before = tree[key];
      expect(() => {
        (tree as unknown as Record<string, number>)[key] = 0;
      }).toThrow(TypeError);
      expect(tree[key]).toBe(before);
      for (let i = 100; i < 160; i++) tree.insert(i, (i * 7) % 100, (i * 11) % 100);
      checkInvariants(tree);
    });
  }
});

describe('output buffers that cannot hold every id are rejected', () => {
  const narrow: [string, unknown][] = [
    ['Int8Array', new Int8Array(64)],
    ['Uint8Array', new Uint8Array(64)],
    ['Int16Array', new Int16Array(64)],
    ['Uint16Array', new Uint16Array(64)],
    ['Float32Array', new Float32Array(64)],
    ['a plain array', new Array(64).fill(0)],
    ['an object without a prototype', Object.create(null)],
    ['a DataView', new DataView(new ArrayBuffer(256))],
  ];
  for (const [label, out] of narrow) {
    const o = out as Int32Array;
    it(`${label}: TypeError from queryCircleInto, queryRectInto and queryPairsInto, tree unchanged`, () => {
      throwsAndKeeps(
        (t) => t.queryCircleInto(50, 50, 10, o),
        TypeError,
        /out must be an Int32Array or Uint32Array/,
      );
      throwsAndKeeps(
        (t) => t.queryRectInto(0, 0, 50, 50, o),
        TypeError,
        /out must be an Int32Array or Uint32Array/,
      );
      throwsAndKeeps((t) => t.queryPairsInto(5, o, new Int32Array(64)), TypeError, /outA must be/);
    });
  }
});
