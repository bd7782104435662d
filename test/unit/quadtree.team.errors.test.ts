import { PointQuadtree as PlainTree } from 'point-quadtree';
// The crowd's tree (point-quadtree/crowd), on which these tests ran as PointQuadtree before the crowd became a subpath.
import { CrowdQuadtree as PointQuadtree } from 'point-quadtree/crowd';
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
import { type SeparationHelperPort, SeparationTeam, serveSeparation } from 'point-quadtree/parallel';
import { describe, expect, it } from 'vitest';
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
      'PointQuadtree: helpers must be an array of ports with postMessage, got string',
    ],
    [
      () => new SeparationTeam([port, {} as SeparationHelperPort]),
      TypeError,
      'PointQuadtree: helpers[1] must have a postMessage method',
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
    expect(() => team.querySeparationInto({} as PointQuadtree, 1, c, s, s)).toThrow(
      'PointQuadtree: tree must be a PointQuadtree, got object',
    );
    expect(() => team.querySeparationInto(tree, -1, c, s, s)).toThrow(
      'PointQuadtree: radius must be a finite number >= 0, got -1',
    );
    expect(() => team.querySeparationInto(tree, 1, new Int32Array(49), s, s)).toThrow(
      'PointQuadtree: counts (length 49) is too short for id 49; give it length >= 50',
    );
    expect(() => team.querySeparationInto(tree, 1, c, [] as unknown as Float64Array, s)).toThrow(TypeError);
    expect([...c, ...s].every((v) => v === 0)).toBe(true);
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
