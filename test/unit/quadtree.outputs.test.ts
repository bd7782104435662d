/**
 * Typed-array outputs as a hostile caller hands them over, on both kernels and through a SeparationTeam:
 * subclasses (a constructor that takes a length only), typed arrays whose own properties lie, a null
 * prototype, another realm, views of a SharedArrayBuffer or at an offset; outputs that share memory; a
 * Proxy; detached buffers. Every answer equals the one into plain arrays, every refusal is the library's
 * error with nothing written and the tree unchanged (issue #30, items 1 to 4).
 */
import vm from 'node:vm';
// The crowd's tree (point-quadtree/crowd), on which these tests ran as PointQuadtree before the crowd became a subpath.
import { CrowdQuadtree as PointQuadtree, separationKernel, setSeparationKernel } from 'point-quadtree/crowd';
import { ATTACHED, STATE } from 'point-quadtree/internal/parallel/teamLayout';
import { SeparationTeam } from 'point-quadtree/parallel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gaussian, mulberry32 } from '../../src/sim/random';
import { fakeHelpers } from '../helpers/teamFakes';
import { fingerprint } from '../helpers/trees';

type Out = Int32Array | Uint32Array | Float32Array | Float64Array;
type OutType = 'Int32Array' | 'Uint32Array' | 'Float32Array' | 'Float64Array';
const TYPES = { Int32Array, Uint32Array, Float32Array, Float64Array };

/** The subclasses: their constructor takes a length only (so `new C(buffer, at, n)` is wrong). */
class Ids extends Int32Array {
  constructor(n: number) {
    super(n);
  }
}
class Uids extends Uint32Array {
  constructor(n: number) {
    super(n);
  }
}
class Sums32 extends Float32Array {
  constructor(n: number) {
    super(n);
  }
}
class Sums extends Float64Array {
  constructor(n: number) {
    super(n);
  }
}
const SUBCLASSES = { Int32Array: Ids, Uint32Array: Uids, Float32Array: Sums32, Float64Array: Sums };

/** A typed array whose own `length`, `set`, `buffer` and `constructor` lie (reading them runs the caller's code). */
function liar(out: Out): Out {
  const boom = () => {
    throw new Error('the library called the caller’s code');
  };
  Object.defineProperty(out, 'length', { get: () => 1e9 });
  Object.defineProperty(out, 'set', { value: boom });
  Object.defineProperty(out, 'buffer', { get: () => new ArrayBuffer(8) });
  Object.defineProperty(out, 'constructor', { get: boom });
  return out;
}

/** Ways of making an output of a type and length that must be taken as that typed array. */
const ODD: [string, (type: OutType, n: number) => Out][] = [
  ['a subclass whose constructor takes a length only', (type, n) => new SUBCLASSES[type](n)],
  ['a typed array whose own length, set, buffer and constructor lie', (type, n) => liar(new TYPES[type](n))],
  ['a typed array with a null prototype', (type, n) => Object.setPrototypeOf(new TYPES[type](n), null)],
  ['a typed array of another realm (node:vm)', (type, n) => vm.runInNewContext(`new ${type}(${n})`)],
  [
    'a view of a SharedArrayBuffer',
    (type, n) => new TYPES[type](new SharedArrayBuffer(8 * n + 64) as unknown as ArrayBuffer, 8, n),
  ],
  [
    'a view at byte 24 of a larger ArrayBuffer',
    (type, n) => new TYPES[type](new ArrayBuffer(8 * n + 64), 24, n),
  ],
];

const BOUNDS = { minX: 0, minY: 0, maxX: 100, maxY: 100 };

/** 1,500 points in two Gaussian camps and a uniform spread, with coincident pairs; seeded. */
function crowd(seed: number): PointQuadtree {
  const rnd = mulberry32(seed);
  const tree = new PointQuadtree({ bounds: BOUNDS, maxItems: 6, minSize: 0.5 });
  for (let id = 0; id < 1500; id++) {
    const camp = id % 3;
    const x = camp === 2 ? rnd() * 100 : (camp === 0 ? 30 : 70) + gaussian(rnd) * 4;
    const y = camp === 2 ? rnd() * 100 : 50 + gaussian(rnd) * 4;
    tree.insert(id, id % 50 === 0 ? 50 : x, id % 50 === 0 ? 50 : y);
  }
  return tree;
}

/** Entries 0..n-1, read by index (an odd output's `length`, iterator or methods are not to be trusted). */
function entries(a: ArrayLike<number>, n: number): number[] {
  return Array.from({ length: n }, (_, i) => a[i]);
}

/** The pairs written as sorted "a-b" strings. */
function pairList(a: ArrayLike<number>, b: ArrayLike<number>, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${Math.min(a[i], b[i])}-${Math.max(a[i], b[i])}`).sort();
}

/**
 * A team whose helpers (played in this thread) are attached and never claim: the caller does every range
 * itself, through the team's path (with the JavaScript kernel the team runs the tree's call, and no buffer
 * is ever sent).
 */
function idleTeam(tree: PointQuadtree): SeparationTeam {
  const fake = fakeHelpers(2);
  const team = new SeparationTeam(fake.ports, { minPairs: 0, patienceMs: 600_000 });
  const n = tree.size;
  team.querySeparationInto(tree, 1, new Int32Array(n), new Float64Array(n), new Float64Array(n));
  if (fake.messages[0] !== null) for (let k = 0; k < 2; k++) fake.set(k, STATE, ATTACHED);
  return team;
}

/** A Float64Array over a buffer that has been transferred away (detached): its length reads 0. */
function detachedArray(type: OutType = 'Float64Array'): Out {
  const a = new TYPES[type](16);
  structuredClone(a.buffer, { transfer: [a.buffer] });
  expect(a.length).toBe(0);
  return a;
}

describe.each(['auto', 'js'] as const)('kernel %s', (kernel) => {
  beforeAll(() => setSeparationKernel(kernel));
  afterAll(() => setSeparationKernel('auto'));
  const tree = crowd(30);
  const n = tree.size;

  /** querySeparationInto through the tree, or through a team whose helpers leave every range to the caller. */
  const ways: [string, (r: number, c: Out, x: Out, y: Out) => number][] = [
    ['the tree', (r, c, x, y) => tree.querySeparationInto(r, c, x as Float64Array, y as Float64Array)],
    [
      'a team',
      (r, c, x, y) => idleTeam(tree).querySeparationInto(tree, r, c, x as Float64Array, y as Float64Array),
    ],
  ];

  it(`runs the kernel asked for (${kernel})`, () => {
    expect(separationKernel()).toBe(kernel === 'auto' ? 'wasm-simd' : 'js');
  });

  it('the issue’s example: subclass outputs give the JavaScript kernel’s pairs and sums', () => {
    const t = PointQuadtree.from(
      { bounds: { minX: 0, minY: 0, maxX: 10, maxY: 10 } },
      [0, 1, 2],
      [1, 2, 5],
      [1, 1, 5],
    );
    const a = new Ids(4);
    const b = new Ids(4);
    expect(t.queryPairsInto(2, a, b)).toBe(1);
    expect(pairList(a, b, 1)).toEqual(['0-1']);
    const sumX = new Sums(3);
    const sumY = new Sums(3);
    expect(t.querySeparationInto(2, new Int32Array(3), sumX, sumY)).toBe(1);
    expect([...sumX]).toEqual([-0.5, 0.5, 0]);
    expect([...sumY]).toEqual([0, 0, 0]);
  });

  describe.each(ODD)('%s', (_, make) => {
    for (const [how, call] of ways) {
      it(`querySeparationInto through ${how}: the answer into plain arrays, bit for bit`, () => {
        for (const [r, ct, st] of [
          [1.5, 'Int32Array', 'Float64Array'],
          [4, 'Float32Array', 'Float32Array'],
          [0, 'Uint32Array', 'Float64Array'],
        ] as const) {
          const want = [new TYPES[ct](n), new TYPES[st](n), new TYPES[st](n)];
          // The same way into plain arrays (a team's sums may differ from the tree's in the last bits).
          const pairs = call(r, want[0], want[1], want[2]);
          const got = [make(ct, n), make(st, n), make(st, n)];
          expect(call(r, got[0], got[1], got[2]), `r = ${r}`).toBe(pairs);
          for (let k = 0; k < 3; k++)
            expect(entries(got[k], n), `r = ${r}, output ${k}`).toEqual(entries(want[k], n));
        }
      });
    }

    it('queryPairsInto, with room to spare and with room for the pairs exactly: the pairs into plain arrays', () => {
      const plainA = new Int32Array(200_000);
      const plainB = new Int32Array(200_000);
      for (const r of [1, 3]) {
        const count = tree.queryPairsInto(r, plainA, plainB);
        const want = pairList(plainA, plainB, count);
        for (const room of [200_000, count]) {
          const a = make('Int32Array', room);
          const b = make('Uint32Array', room);
          expect(tree.queryPairsInto(r, a as Int32Array, b as Uint32Array), `r = ${r}, room ${room}`).toBe(
            count,
          );
          expect(pairList(a, b, count)).toEqual(want);
        }
        // One short: the library's RangeError (the real length counts, not what `length` says).
        const a = make('Int32Array', count - 1) as Int32Array;
        expect(() => tree.queryPairsInto(r, a, make('Int32Array', count) as Int32Array)).toThrow(
          new RegExp(
            `^PointQuadtree: outA and outB \\(length ${count - 1}\\) are too small for the ${count} pairs`,
          ),
        );
      }
    });

    it('queryCircleInto and queryRectInto: the ids into plain arrays; too short is the library’s RangeError', () => {
      const want = tree.queryCircleInto(40, 50, 12, new Int32Array(n));
      const out = make('Uint32Array', n) as Uint32Array;
      expect(tree.queryCircleInto(40, 50, 12, out)).toBe(want);
      expect(entries(out, want).sort()).toEqual(tree.queryCircle(40, 50, 12).sort());
      const inRect = tree.queryRect(20, 40, 60, 60).length;
      expect(tree.queryRectInto(20, 40, 60, 60, make('Int32Array', n) as Int32Array)).toBe(inRect);
      expect(() => tree.queryCircleInto(40, 50, 12, make('Int32Array', 3) as Int32Array)).toThrow(
        /^PointQuadtree: the output array \(length 3\) is too small/,
      );
    });
  });

  describe('outputs that share memory: a RangeError naming them, nothing written, the tree unchanged', () => {
    const memory = new ArrayBuffer(8 * n * 3);
    const cases: [string, () => [Out, Out, Out], RegExp][] = [
      [
        'the same sums twice',
        () => {
          const s = new Float64Array(n);
          return [new Int32Array(n), s, s];
        },
        /^PointQuadtree: sumX and sumY must be two arrays, got the same one twice$/,
      ],
      [
        'one Float64Array as all three',
        () => {
          const f = new Float64Array(n);
          return [f, f, f];
        },
        /^PointQuadtree: counts and sumX must be two arrays, got the same one twice$/,
      ],
      [
        'counts overlapping sumX in one buffer',
        () => [
          new Int32Array(memory, 0, n),
          new Float64Array(memory, 4 * n - 8 * 10, n),
          new Float64Array(n),
        ],
        new RegExp(
          `^PointQuadtree: counts and sumX must not share memory, .* bytes ${4 * n - 80} to ${4 * n - 1}$`,
        ),
      ],
      [
        'sumY overlapping counts (a Float32Array over the same bytes)',
        () => [new Float32Array(memory, 16, n), new Float64Array(n), new Float32Array(memory, 0, n)],
        new RegExp(`^PointQuadtree: counts and sumY must not share memory, .* bytes 16 to ${4 * n - 1}$`),
      ],
      [
        'sumX and sumY one byte apart in a SharedArrayBuffer',
        () => {
          const shared = new SharedArrayBuffer(8 * n * 2);
          return [new Int32Array(n), new Float64Array(shared, 0, n), new Float64Array(shared, 8 * n - 8, n)];
        },
        new RegExp(
          `^PointQuadtree: sumX and sumY must not share memory, .* bytes ${8 * n - 8} to ${8 * n - 1}$`,
        ),
      ],
    ];
    for (const [how, call] of ways) {
      it.each(cases)(`through ${how}: %s`, (_, outputs, message) => {
        const [c, x, y] = outputs();
        for (const o of [c, x, y]) o.fill(-7);
        const written = () => [c, x, y].map((o) => Array.from(o));
        const was = written();
        const before = fingerprint(tree);
        expect(() => call(2, c, x, y)).toThrow(RangeError);
        expect(() => call(2, c, x, y)).toThrow(message);
        expect(written()).toEqual(was);
        expect(fingerprint(tree)).toEqual(before);
      });

      it(`through ${how}: views of one buffer that do not overlap give the answer into three arrays`, () => {
        const want = [new Int32Array(n), new Float64Array(n), new Float64Array(n)] as const;
        const pairs = call(2, ...want);
        const got = [
          new Int32Array(memory, 0, n),
          new Float64Array(memory, 8 * n, n),
          new Float64Array(memory, 16 * n, n),
        ];
        expect(call(2, got[0], got[1], got[2])).toBe(pairs);
        for (let k = 0; k < 3; k++) expect(entries(got[k], n)).toEqual(entries(want[k], n));
      });
    }
  });

  describe('a Proxy, an object without a prototype, a DataView: the library’s TypeError, nothing written', () => {
    const bad: [string, () => unknown, string][] = [
      ['a Proxy of an Int32Array', () => new Proxy(new Int32Array(n), {}), 'an object (Object)'],
      ['a Proxy of a Float64Array', () => new Proxy(new Float64Array(n), {}), 'an object (Object)'],
      ['Object.create(null)', () => Object.create(null), 'an object (Object)'],
      ['a frozen plain array', () => Object.freeze(new Array(n).fill(0)), 'an object (Array)'],
      ['a DataView', () => new DataView(new ArrayBuffer(8 * n)), 'an object (DataView)'],
    ];
    for (const [how, call] of ways) {
      it.each(bad)(`through ${how}: %s as counts, sumX or sumY`, (_, value, shown) => {
        const before = fingerprint(tree);
        for (const slot of [0, 1, 2]) {
          const outputs: unknown[] = [new Int32Array(n), new Float64Array(n), new Float64Array(n)];
          outputs[slot] = value();
          const name = ['counts', 'sumX', 'sumY'][slot];
          const types =
            slot === 0
              ? 'an Int32Array, Uint32Array, Float32Array or Float64Array'
              : 'a Float32Array or Float64Array';
          expect(() => call(2, ...(outputs as [Out, Out, Out]))).toThrow(
            new TypeError(`PointQuadtree: ${name} must be ${types}, got ${shown}`),
          );
          for (const o of outputs)
            if (o !== outputs[slot]) expect((o as Out).every((v) => v === 0)).toBe(true);
        }
        expect(fingerprint(tree)).toEqual(before);
      });
    }

    it.each(bad)(
      '%s as an id output of queryPairsInto, queryCircleInto, queryRectInto',
      (_, value, shown) => {
        const out = value() as Int32Array;
        const message = `must be an Int32Array or Uint32Array, got ${shown}`;
        expect(() => tree.queryPairsInto(2, out, new Int32Array(n))).toThrow(
          new TypeError(`PointQuadtree: outA ${message}`),
        );
        expect(() => tree.queryPairsInto(2, new Int32Array(n), out)).toThrow(
          new TypeError(`PointQuadtree: outB ${message}`),
        );
        expect(() => tree.queryCircleInto(50, 50, 5, out)).toThrow(
          new TypeError(`PointQuadtree: out ${message}`),
        );
        expect(() => tree.queryRectInto(0, 0, 5, 5, out)).toThrow(
          new TypeError(`PointQuadtree: out ${message}`),
        );
      },
    );
  });

  describe('detached outputs: the library’s TypeError on an empty tree and on a full one', () => {
    const empty = new PointQuadtree({ bounds: BOUNDS });
    const detached = (name: string, type: OutType) =>
      new TypeError(
        `PointQuadtree: ${name} must be over a buffer that is not detached, got an object (${type}) over a detached buffer`,
      );
    for (const [label, t] of [
      ['empty', empty],
      ['full', tree],
    ] as const) {
      it(`${label} tree: querySeparationInto (tree and team), each output`, () => {
        const m = t.size;
        const call = (c: Out, x: Out, y: Out) =>
          t.querySeparationInto(2, c, x as Float64Array, y as Float64Array);
        const team = (c: Out, x: Out, y: Out) =>
          idleTeam(tree).querySeparationInto(t, 2, c, x as Float64Array, y as Float64Array);
        for (const f of [call, team]) {
          expect(() => f(detachedArray('Int32Array'), new Float64Array(m), new Float64Array(m))).toThrow(
            detached('counts', 'Int32Array'),
          );
          expect(() => f(new Int32Array(m), detachedArray(), new Float64Array(m))).toThrow(
            detached('sumX', 'Float64Array'),
          );
          expect(() => f(new Int32Array(m), new Float64Array(m), detachedArray('Float32Array'))).toThrow(
            detached('sumY', 'Float32Array'),
          );
        }
        expect(t.size).toBe(m);
      });

      it(`${label} tree: queryPairsInto, queryCircleInto, queryRectInto`, () => {
        const m = Math.max(1, t.size);
        expect(() =>
          t.queryPairsInto(2, detachedArray('Int32Array') as Int32Array, new Int32Array(m)),
        ).toThrow(detached('outA', 'Int32Array'));
        expect(() =>
          t.queryPairsInto(2, new Int32Array(m), detachedArray('Uint32Array') as Uint32Array),
        ).toThrow(detached('outB', 'Uint32Array'));
        expect(() => t.queryCircleInto(5, 5, 1, detachedArray('Int32Array') as Int32Array)).toThrow(
          detached('out', 'Int32Array'),
        );
        expect(() => t.queryRectInto(0, 0, 1, 1, detachedArray('Int32Array') as Int32Array)).toThrow(
          detached('out', 'Int32Array'),
        );
      });
    }

    it('zero-length outputs that are not detached are fine on an empty tree', () => {
      expect(empty.querySeparationInto(2, new Int32Array(0), new Float64Array(0), new Float64Array(0))).toBe(
        0,
      );
      expect(empty.queryPairsInto(2, new Int32Array(0), new Int32Array(0))).toBe(0);
      const shared = new Float64Array(new SharedArrayBuffer(8), 8, 0);
      expect(empty.querySeparationInto(2, new Int32Array(0), shared, new Float64Array(0))).toBe(0);
    });

    it('a zero-length output over a SharedArrayBuffer of zero bytes is not taken for detached', () => {
      // A SharedArrayBuffer is never detached, however small: the check asks its size first (0 is a size).
      const none = new SharedArrayBuffer(0) as unknown as ArrayBuffer;
      expect(empty.queryCircleInto(1, 1, 1, new Int32Array(none))).toBe(0);
      expect(
        empty.querySeparationInto(2, new Int32Array(0), new Float64Array(none), new Float64Array(0)),
      ).toBe(0);
    });
  });
});
