import { PointQuadtree as PlainTree } from 'point-quadtree';
// The crowd's tree (point-quadtree/crowd), on which these tests ran as PointQuadtree before the crowd became a subpath.
import { CrowdQuadtree as PointQuadtree, setSeparationKernel } from 'point-quadtree/crowd';
import { INTERNALS } from 'point-quadtree/internal/PointQuadtree';
import {
  ATTACHED,
  createBuffer,
  helperWord,
  MESSAGE_KIND,
  RETIRED,
  STATE,
  STOP,
  STOPPED,
} from 'point-quadtree/internal/parallel/teamLayout';
import {
  type SeparationHelperPort,
  SeparationTeam,
  type SeparationTeamOptions,
  serveSeparation,
} from 'point-quadtree/parallel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';

describe('SeparationTeam and serveSeparation: bad input', () => {
  const rnd = mulberry32(42);
  const tree = new PointQuadtree({ bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 }, maxItems: 4 });
  for (let id = 0; id < 50; id++) tree.insert(id, rnd() * 100, rnd() * 100);
  const port = { postMessage: () => {} };

  it.each([
    [
      () => new SeparationTeam('x' as unknown as []),
      TypeError,
      'PointQuadtree: helpers must be an array of ports with postMessage, got "x"',
    ],
    [
      () => new SeparationTeam([port, {} as SeparationHelperPort]),
      TypeError,
      'PointQuadtree: helpers[1] must have a postMessage method, got an object (Object)',
    ],
    [
      () => new SeparationTeam(new Array(16).fill(port)),
      RangeError,
      'PointQuadtree: a team takes at most 15 helpers, got 16',
    ],
    [
      () => new SeparationTeam([port], { patienceMs: -1 }),
      RangeError,
      'PointQuadtree: options.patienceMs must be a finite number >= 0, got -1',
    ],
    [
      () => new SeparationTeam([port], { claimWaitMs: Number.NaN }),
      RangeError,
      'PointQuadtree: options.claimWaitMs must be a finite number >= 0, got NaN',
    ],
    [
      () => new SeparationTeam([port], { minPairs: 1.5 }),
      RangeError,
      'PointQuadtree: options.minPairs must be an integer >= 0, got 1.5',
    ],
  ])('constructor %#: %s', (make, type, message) => {
    expect(make).toThrow(type);
    expect(make).toThrow(message);
  });

  it('querySeparationInto rejects a non-tree, a bad radius and short outputs before writing anything', () => {
    const team = new SeparationTeam([port]);
    const c = new Int32Array(50);
    const s = new Float64Array(50);
    const s2 = new Float64Array(50);
    expect(() => team.querySeparationInto({} as PointQuadtree, 1, c, s, s2)).toThrow(
      'PointQuadtree: tree must be a PointQuadtree, got an object (Object)',
    );
    expect(() => team.querySeparationInto(null as unknown as PointQuadtree, 1, c, s, s2)).toThrow(
      'PointQuadtree: tree must be a PointQuadtree, got null',
    );
    expect(() => team.querySeparationInto(tree, -1, c, s, s2)).toThrow(
      'PointQuadtree: radius must be a finite number >= 0, got -1',
    );
    expect(() => team.querySeparationInto(tree, 1, new Int32Array(49), s, s2)).toThrow(
      'PointQuadtree: counts (length 49) is too short for id 49; give it length >= 50',
    );
    expect(() => team.querySeparationInto(tree, 1, c, [] as unknown as Float64Array, s2)).toThrow(TypeError);
    expect([...c, ...s, ...s2].every((v) => v === 0)).toBe(true);
  });

  it('querySeparationInto rejects a PointQuadtree that is not a CrowdQuadtree, naming the class it needs', () => {
    const team = new SeparationTeam([port]);
    const plain = new PlainTree({ bounds: { minX: 0, minY: 0, maxX: 10, maxY: 10 } });
    plain.insert(0, 1, 1);
    const c = new Int32Array(1);
    const s = new Float64Array(1);
    expect(() => team.querySeparationInto(plain as PointQuadtree, 1, c, s, s)).toThrow(TypeError);
    expect(() => team.querySeparationInto(plain as PointQuadtree, 1, c, s, s)).toThrow(
      'PointQuadtree: tree must be a CrowdQuadtree (point-quadtree/crowd), got a PointQuadtree: it has no separation join',
    );
    expect(c[0]).toBe(0);
  });

  it('serveSeparation rejects what is not a team message, naming it', () => {
    expect(() => serveSeparation({})).toThrow(
      "PointQuadtree: message must be a separation helper's message (kind 'point-quadtree/separation-helper'), got an object (Object)",
    );
    expect(() => serveSeparation({ kind: MESSAGE_KIND, buffer: new ArrayBuffer(4096), index: 0 })).toThrow(
      'PointQuadtree: message.buffer must be a SharedArrayBuffer, got an object (ArrayBuffer)',
    );
    const buffer = createBuffer({ xy: 8, ids: 4, nodes: 4, pairs: 4, slots: 4, helpers: 2 });
    expect(() => serveSeparation({ kind: MESSAGE_KIND, buffer, index: 2 })).toThrow(
      'PointQuadtree: message.index must be an integer from 0 to 1, got 2',
    );
  });

  it('serveSeparation returns at once on a replaced or stopped buffer', () => {
    const buffer = createBuffer({ xy: 8, ids: 4, nodes: 4, pairs: 4, slots: 4, helpers: 1 });
    const control = new Int32Array(buffer);
    control[STOP] = RETIRED;
    expect(serveSeparation({ kind: MESSAGE_KIND, buffer, index: 0 })).toBe('replaced');
    expect(control[helperWord(0, STATE)]).toBe(ATTACHED);
    control[STOP] = STOPPED;
    expect(serveSeparation({ kind: MESSAGE_KIND, buffer, index: 0 })).toBe('stopped');
  });
});

describe.each(['auto', 'js'] as const)(
  'kernel %s: a team’s options and helpers as a hostile caller hands them over',
  (kernel) => {
    beforeAll(() => setSeparationKernel(kernel));
    afterAll(() => setSeparationKernel('auto'));
    const port = { postMessage: () => {} };
    const make =
      (options: unknown, helpers: unknown[] = [port]) =>
      () =>
        new SeparationTeam(helpers as SeparationHelperPort[], options as SeparationTeamOptions);

    it.each([
      [null, 'options must be an object, got null'],
      [5, 'options must be an object, got 5'],
      ['fast', 'options must be an object, got "fast"'],
      [{ patienceMs: '5' }, 'options.patienceMs must be a number, got "5"'],
      [{ claimWaitMs: null }, 'options.claimWaitMs must be a number, got null'],
      [{ minPairs: 10n }, 'options.minPairs must be a number, got 10n (a BigInt)'],
      [
        { patienceMs: { valueOf: (): number => 5 } },
        'options.patienceMs must be a number, got an object (Object)',
      ],
      [{ timing: 'yes' }, 'options.timing must be true or false, got "yes"'],
      [{ spin: 1 }, 'options.spin must be true or false, got 1'],
    ])('options %#: the library’s TypeError (%s), worded by describe()', (options, message) => {
      expect(make(options)).toThrow(new TypeError(`PointQuadtree: ${message}`));
      expect(make(options, [])).toThrow(new TypeError(`PointQuadtree: ${message}`));
    });

    it('undefined, a frozen object, Object.create(null) and a Proxy are options; each option is read once', () => {
      const tree = new PointQuadtree({ bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 } });
      for (let id = 0; id < 300; id++) tree.insert(id, (id * 37) % 100, (id * 53) % 100);
      const bare = Object.assign(Object.create(null), { minPairs: 0, patienceMs: 5 });
      const reads = new Map<PropertyKey, number>();
      const proxy = new Proxy(
        { minPairs: 0, patienceMs: 7, claimWaitMs: 0, timing: false, spin: true },
        {
          get(target, key, receiver) {
            reads.set(key, (reads.get(key) ?? 0) + 1);
            // A second read would see a bad value.
            return reads.get(key) === 1 ? Reflect.get(target, key, receiver) : 'changed';
          },
        },
      );
      const want = tree.querySeparationInto(
        5,
        new Int32Array(300),
        new Float64Array(300),
        new Float64Array(300),
      );
      for (const options of [undefined, Object.freeze({ minPairs: 0, timing: true }), bare, proxy]) {
        const team = new SeparationTeam([], options as SeparationTeamOptions);
        const got = team.querySeparationInto(
          tree,
          5,
          new Int32Array(300),
          new Float64Array(300),
          new Float64Array(300),
        );
        expect(got).toBe(want);
      }
      expect([...reads.values()].every((n) => n === 1)).toBe(true);
      expect(reads.size).toBe(5);
    });

    it('helpers are read once: an array whose entries change after the check keeps the ports it checked', () => {
      const posted: string[] = [];
      const good = { postMessage: () => posted.push('good') };
      let reads = 0;
      const helpers = new Proxy([good], {
        get: (target, key, receiver) =>
          key === '0' ? (++reads === 1 ? good : { postMessage: 7 }) : Reflect.get(target, key, receiver),
      });
      const team = new SeparationTeam(helpers, { minPairs: 0 });
      expect(reads).toBe(1);
      const tree = new PointQuadtree({ bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 } });
      for (let id = 0; id < 300; id++) tree.insert(id, (id * 37) % 100, (id * 53) % 100);
      team.querySeparationInto(tree, 5, new Int32Array(300), new Float64Array(300), new Float64Array(300));
      expect(posted).toEqual(kernel === 'auto' ? ['good'] : []);
      // A port whose postMessage is swapped later still gets the method read at construction.
      team.dispose();
    });

    it('a Proxy of a tree that hands over something else is the library’s TypeError; an honest one works', () => {
      const tree = new PointQuadtree({ bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 } });
      for (let id = 0; id < 50; id++) tree.insert(id, (id * 37) % 100, (id * 53) % 100);
      const team = new SeparationTeam([]);
      const out = () => [new Int32Array(50), new Float64Array(50), new Float64Array(50)] as const;
      const liar = new Proxy(tree, {
        get: (target, key) => (key === INTERNALS ? () => ({ size: 1 }) : Reflect.get(target, key)),
      });
      expect(() => team.querySeparationInto(liar, 5, ...out())).toThrow(
        new TypeError('PointQuadtree: tree must be a PointQuadtree, got an object (Object)'),
      );
      expect(team.querySeparationInto(new Proxy(tree, {}), 5, ...out())).toBe(
        tree.querySeparationInto(5, ...out()),
      );
    });
  },
);

describe.each(['auto', 'js'] as const)('kernel %s: serveSeparation with a hostile message', (kernel) => {
  beforeAll(() => setSeparationKernel(kernel));
  afterAll(() => setSeparationKernel('auto'));
  const stopped = (helpers: number) => {
    const buffer = createBuffer({ xy: 8, ids: 4, nodes: 4, pairs: 4, slots: 4, helpers });
    new Int32Array(buffer)[STOP] = STOPPED;
    return buffer;
  };

  it('an index that reads 0, then 99: served as helper 0 (each field of the message is read once)', () => {
    const buffer = stopped(1);
    let reads = 0;
    const message = {
      kind: MESSAGE_KIND,
      buffer,
      get index() {
        return ++reads === 1 ? 0 : 99;
      },
    };
    expect(serveSeparation(message)).toBe('stopped');
    expect(reads).toBe(1);
    expect(new Int32Array(buffer)[helperWord(0, STATE)]).not.toBe(0);
  });

  it('a frozen message and one without a prototype are served', () => {
    expect(serveSeparation(Object.freeze({ kind: MESSAGE_KIND, buffer: stopped(2), index: 1 }))).toBe(
      'stopped',
    );
    const bare = Object.assign(Object.create(null), { kind: MESSAGE_KIND, buffer: stopped(1), index: 0 });
    expect(serveSeparation(bare)).toBe('stopped');
  });

  it.each([
    [
      'a Proxy of a SharedArrayBuffer',
      () => new Proxy(stopped(1), {}),
      TypeError,
      /message\.buffer must be a SharedArrayBuffer, got an object/,
    ],
    [
      'a view of one',
      () => new Int32Array(stopped(1)),
      TypeError,
      /message\.buffer must be a SharedArrayBuffer, got an object \(Int32Array\)/,
    ],
    [
      'a buffer whose header claims more than it holds',
      () => {
        const buffer = stopped(1);
        new Int32Array(buffer)[7] = 1e6; // the leaf pairs' capacity
        return buffer;
      },
      RangeError,
      // The header by its fields' names (not the record's own keys, which the package build may shorten).
      /message\.buffer is not a team's buffer \(\d+ bytes, header: xy \d+, ids \d+, nodes \d+, pairs 1000000, slots \d+, helpers 1\)/,
    ],
    [
      'a buffer whose header says 0 helpers',
      () => {
        const buffer = stopped(1);
        new Int32Array(buffer)[9] = 0;
        return buffer;
      },
      RangeError,
      /message\.buffer is not a team's buffer/,
    ],
    [
      'a SharedArrayBuffer of zeros',
      () => new SharedArrayBuffer(4096),
      RangeError,
      /message\.buffer is not a team's buffer/,
    ],
  ])('%s: the library’s error, nothing served', (_, buffer, type, message) => {
    const serve = () => serveSeparation({ kind: MESSAGE_KIND, buffer: buffer(), index: 0 });
    expect(serve).toThrow(type);
    expect(serve).toThrow(message);
  });

  it('a subclass of SharedArrayBuffer is a SharedArrayBuffer', () => {
    class Shared extends SharedArrayBuffer {
      override get byteLength(): number {
        return 1e9; // never read: the engine's own getter is
      }
    }
    const inner = stopped(1);
    const buffer = new Shared(inner.byteLength);
    new Int32Array(buffer).set(new Int32Array(inner));
    expect(serveSeparation({ kind: MESSAGE_KIND, buffer, index: 0 })).toBe('stopped');
  });
});
