import type { QuadtreeOptions } from 'point-quadtree';
// The crowd's tree (point-quadtree/crowd), on which these tests ran as PointQuadtree before the crowd became a subpath.
import { CrowdQuadtree as PointQuadtree, setSeparationKernel } from 'point-quadtree/crowd';
import {
  ATTACHED,
  CLAIM,
  DONE,
  FAILED,
  LIST,
  MESSAGE_KIND,
  NO_KERNEL,
  NODES,
  PAIRS,
  publishedLength,
  SEEN,
  SEQ,
  SLOTS,
  STATE,
  TeamViews,
} from 'point-quadtree/internal/parallel/teamLayout';
import { type SeparationHelperMessage, SeparationTeam } from 'point-quadtree/parallel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeHelpers, startNodeHelpers, untilReady } from '../../bench/nodeHelpers';
import { gaussian, mulberry32 } from '../../src/sim/random';
import { bruteSeparation } from '../helpers/separationOracle';
import { fakeHelpers } from '../helpers/teamFakes';

const BOUNDS = { minX: 0, minY: 0, maxX: 100, maxY: 100 };

type Kind = 'uniform' | 'clustered' | 'coincident' | 'grid' | 'far';

/** n points of a kind, seeded; 'far' puts a third of them far outside BOUNDS (the root grows). */
function cloud(kind: Kind, n: number, seed: number): { xs: Float64Array; ys: Float64Array } {
  const rnd = mulberry32(seed);
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let x = rnd() * 100;
    let y = rnd() * 100;
    if (kind === 'clustered') {
      x = (rnd() < 0.5 ? 30 : 70) + gaussian(rnd) * 2;
      y = 50 + gaussian(rnd) * 2;
    } else if (kind === 'coincident') {
      x = Math.floor(rnd() * 4) * 25;
      y = 50;
    } else if (kind === 'grid') {
      // On the split lines of a 100 x 100 root (multiples of 12.5).
      x = Math.floor(rnd() * 9) * 12.5;
      y = Math.floor(rnd() * 9) * 12.5;
    } else if (kind === 'far' && i % 3 === 0) {
      x = -5000 + rnd() * 3;
      y = 1e6 + rnd() * 3;
    }
    xs[i] = x;
    ys[i] = y;
  }
  return { xs, ys };
}

function treeOf(
  xs: Float64Array,
  ys: Float64Array,
  options: Omit<QuadtreeOptions, 'bounds'> = {},
): PointQuadtree {
  const tree = new PointQuadtree({ bounds: BOUNDS, maxItems: 4, minSize: 0.25, ...options });
  for (let id = 0; id < xs.length; id++) tree.insert(id, xs[id], ys[id]);
  return tree;
}

/**
 * The team's answer: pairs and counts equal brute force exactly, sums equal the tree's own one-thread call
 * (and brute force) within rounding; the entry past the last id is left alone. Returns the team's figures.
 */
function expectTeam(
  team: SeparationTeam,
  tree: PointQuadtree,
  xs: Float64Array,
  ys: Float64Array,
  r: number,
  present?: Uint8Array,
) {
  const n = xs.length;
  const counts = new Int32Array(n + 1).fill(-7);
  const sumX = new Float64Array(n + 1).fill(-7);
  const sumY = new Float32Array(n + 1).fill(-7);
  const pairs = team.querySeparationInto(tree, r, counts, sumX, sumY);
  const want = bruteSeparation(xs, ys, r, present);
  const own = { c: new Int32Array(n), x: new Float64Array(n), y: new Float32Array(n) };
  expect(tree.querySeparationInto(r, own.c, own.x, own.y)).toBe(pairs);
  expect(pairs).toBe(want.pairs);
  expect([counts[n], sumX[n], sumY[n]]).toEqual([-7, -7, -7]);
  let wrong = -1;
  for (let id = 0; id < n && wrong < 0; id++) {
    const scale = Math.max(1, want.counts[id]);
    if (
      counts[id] !== want.counts[id] ||
      Math.abs(sumX[id] - want.sumX[id]) > 1e-9 * scale ||
      Math.abs(sumX[id] - own.x[id]) > 1e-9 * scale ||
      Math.abs(sumY[id] - own.y[id]) > 1e-6 * scale // float32 outputs
    ) {
      wrong = id;
    }
  }
  if (wrong >= 0)
    console.log(
      'WRONG',
      r,
      wrong,
      counts[wrong],
      want.counts[wrong],
      own.c[wrong],
      sumX[wrong],
      want.sumX[wrong],
      own.x[wrong],
      sumY[wrong],
      own.y[wrong],
    );
  expect(wrong, `first id whose answer differs: ${wrong}`).toBe(-1);
  return { ...team.last };
}

describe('SeparationTeam with two worker_threads helpers', () => {
  let helpers: NodeHelpers;
  let team: SeparationTeam;
  /** Messages the team posted (a new shared buffer each time it grows). */
  let posted = 0;
  // The helpers always take part (the caller waits for their claims), so every range is a helper's.
  beforeAll(async () => {
    helpers = startNodeHelpers(2);
    const ports = helpers.ports.map((port) => ({
      postMessage: (message: SeparationHelperMessage) => {
        posted++;
        port.postMessage(message);
      },
    }));
    // Spinning, as a browser's main thread must (sim.threads.test.ts runs a team that blocks).
    team = new SeparationTeam(ports, { claimWaitMs: 10_000, minPairs: 0, spin: true });
    const { xs, ys } = cloud('uniform', 2000, 1);
    const tree = treeOf(xs, ys);
    const c = new Int32Array(2000);
    const sx = new Float64Array(2000);
    const sy = new Float64Array(2000);
    await untilReady(
      () => team.last.ready,
      2,
      () => team.querySeparationInto(tree, 2, c, sx, sy),
    );
  });
  afterAll(async () => {
    team.dispose();
    await helpers.terminate();
  });

  it('a tree that outgrows the shared buffer: a new one is sent, the helpers take it up', async () => {
    const n = 20_000;
    const { xs, ys } = cloud('uniform', n, 38);
    const tree = treeOf(xs, ys, { maxItems: 2 });
    const before = posted;
    // The first call makes the new buffer (the helpers may or may not have attached to it before the
    // caller looks: they wake on the message at once); the answer is whole either way.
    expectTeam(team, tree, xs, ys, 1.5);
    expect(posted).toBe(before + 2);
    const c = new Int32Array(n);
    const sx = new Float64Array(n);
    const sy = new Float64Array(n);
    await untilReady(
      () => team.last.ready,
      2,
      () => team.querySeparationInto(tree, 1.5, c, sx, sy),
    );
    expect(expectTeam(team, tree, xs, ys, 1.5).threads).toBe(3);
    expect(posted).toBe(before + 2);
  });

  it.each([
    ['uniform', 31, 3000, [0, 1, 3]],
    ['clustered', 32, 3000, [0.5, 2]],
    ['coincident', 33, 400, [0, 1, 25]],
    ['grid', 34, 1500, [0, 12.5, 12.5 * Math.SQRT2]],
    ['far', 35, 1500, [0.5, 3, 2e6]],
  ] as const)(
    'seed %s %i: %i points, radii %j: counts equal brute force, three threads',
    async (kind, seed, n, radii) => {
      const { xs, ys } = cloud(kind, n, seed);
      const tree = treeOf(xs, ys);
      await untilReady(
        () => team.last.ready,
        2,
        () => team.querySeparationInto(tree, 1, new Int32Array(n), new Float64Array(n), new Float64Array(n)),
      );
      for (const r of radii) {
        const last = expectTeam(team, tree, xs, ys, r);
        expect(last.reason).toBe('');
        expect(last.threads).toBe(3);
      }
    },
  );

  it('a huge radius (every pair in one leaf pair list) and radius 0 on distinct points', async () => {
    const { xs, ys } = cloud('uniform', 600, 36);
    const tree = treeOf(xs, ys);
    await untilReady(
      () => team.last.ready,
      2,
      () =>
        team.querySeparationInto(
          tree,
          1e6,
          new Int32Array(600),
          new Float64Array(600),
          new Float64Array(600),
        ),
    );
    expect(expectTeam(team, tree, xs, ys, 1e6).threads).toBe(3);
    expect(expectTeam(team, tree, xs, ys, 0)).toMatchObject({ reason: '' });
  });

  it('looseness, moves and removals between calls', async () => {
    const { xs, ys } = cloud('uniform', 2000, 37);
    const tree = treeOf(xs, ys, { looseness: 2 });
    await untilReady(
      () => team.last.ready,
      2,
      () =>
        team.querySeparationInto(
          tree,
          2.5,
          new Int32Array(2000),
          new Float64Array(2000),
          new Float64Array(2000),
        ),
    );
    const present = new Uint8Array(2000).fill(1);
    const rnd = mulberry32(37);
    for (let round = 0; round < 4; round++) {
      for (let id = 0; id < 2000; id++) {
        if (present[id] === 0) continue;
        if (rnd() < 0.02) {
          tree.remove(id);
          present[id] = 0;
          continue;
        }
        xs[id] = Math.min(100, Math.max(0, xs[id] + (rnd() - 0.5) * 3));
        ys[id] = Math.min(100, Math.max(0, ys[id] + (rnd() - 0.5) * 3));
        tree.move(id, xs[id], ys[id]);
      }
      const last = expectTeam(team, tree, xs, ys, 2, present);
      expect(last.threads).toBe(3);
      // The caller's share of the work, tuned call by call, stays within its bounds.
      expect(last.share).toBeGreaterThanOrEqual(0.25);
      expect(last.share).toBeLessThanOrEqual(2);
    }
  });

  it('more helpers than leaf pairs: the extra ranges are empty, the answer whole', () => {
    const xs = new Float64Array([10, 10.5]);
    const ys = new Float64Array([10, 10]);
    const tree = treeOf(xs, ys);
    const last = expectTeam(team, tree, xs, ys, 1);
    expect(last).toMatchObject({ threads: 1, reason: 'few pairs' });
  });

  it('with the JavaScript kernel the caller works alone, and says why', () => {
    const { xs, ys } = cloud('clustered', 1000, 39);
    const tree = treeOf(xs, ys);
    setSeparationKernel('js');
    try {
      expect(expectTeam(team, tree, xs, ys, 2)).toMatchObject({
        threads: 1,
        reason: 'JavaScript kernel',
        kernel: 'js',
        precision: 'f64',
      });
      // Asked for f32 alone on the JavaScript kernel: it computed in f64, and the figures say so.
      const n = xs.length;
      const f32 = { precision: 'f32' } as const;
      team.querySeparationInto(tree, 2, new Int32Array(n), new Float64Array(n), new Float64Array(n), f32);
      expect(team.last).toMatchObject({ kernel: 'js', precision: 'f64' });
      expect(tree.lastSeparation).toEqual({ kernel: 'js', precision: 'f64' });
    } finally {
      setSeparationKernel('auto');
    }
  });
});

describe('SeparationTeam: dispose', () => {
  it('stops the helpers (their workers exit) and later calls run on the caller alone', async () => {
    const helpers = startNodeHelpers(1);
    const team = new SeparationTeam(helpers.ports, { claimWaitMs: 10_000, minPairs: 0 });
    const { xs, ys } = cloud('uniform', 1000, 40);
    const tree = treeOf(xs, ys);
    await untilReady(
      () => team.last.ready,
      1,
      () =>
        team.querySeparationInto(
          tree,
          3,
          new Int32Array(1000),
          new Float64Array(1000),
          new Float64Array(1000),
        ),
    );
    expect(expectTeam(team, tree, xs, ys, 3).threads).toBe(2);
    const exited = new Promise((resolve) =>
      (helpers.ports[0] as unknown as { once(e: string, f: (code: number) => void): void }).once(
        'exit',
        resolve,
      ),
    );
    team.dispose();
    await exited;
    expect(expectTeam(team, tree, xs, ys, 3)).toMatchObject({ threads: 1, reason: 'disposed' });
  });
});

describe('SeparationTeam: helpers that do not start, are late, or fail (played in this thread)', () => {
  const { xs, ys } = cloud('uniform', 2000, 41);
  const tree = treeOf(xs, ys);

  it('helpers that never attach: the caller does all, "helpers not ready"', () => {
    const fake = fakeHelpers(2);
    const team = new SeparationTeam(fake.ports, { minPairs: 0 });
    expect(expectTeam(team, tree, xs, ys, 2)).toMatchObject({
      threads: 1,
      ready: 0,
      reason: 'helpers not ready',
    });
    expect(fake.messages.every((m) => m !== null && m.kind === MESSAGE_KIND)).toBe(true);
  });

  it('attached helpers that never claim their range: the caller takes both over', () => {
    const fake = fakeHelpers(2);
    // Patience far beyond the test: these helpers never pick up a hand-over, which patienceMs later gives
    // them up (quadtree.team.lost.test.ts); here only the takeover is tested.
    const team = new SeparationTeam(fake.ports, { minPairs: 0, patienceMs: 600_000 });
    team.querySeparationInto(tree, 5, new Int32Array(2000), new Float64Array(2000), new Float64Array(2000));
    fake.set(0, STATE, ATTACHED);
    fake.set(1, STATE, ATTACHED);
    for (const r of [0, 2, 5]) {
      expect(expectTeam(team, tree, xs, ys, r)).toMatchObject({
        threads: 1,
        ready: 2,
        tookOver: 2,
        lost: 0,
        reason: 'helpers late',
      });
    }
  });

  it('timing: the calling thread’s four figures are measured only when the options ask for them, else 0', () => {
    const figures = (options: { timing?: boolean }) => {
      const fake = fakeHelpers(2);
      // The helpers attach and never claim: the caller publishes, takes both ranges over and merges.
      const team = new SeparationTeam(fake.ports, {
        minPairs: 0,
        patienceMs: 600_000,
        ...options,
      });
      team.querySeparationInto(tree, 5, new Int32Array(2000), new Float64Array(2000), new Float64Array(2000));
      fake.set(0, STATE, ATTACHED);
      fake.set(1, STATE, ATTACHED);
      const last = expectTeam(team, tree, xs, ys, 5);
      expect(last).toMatchObject({ ready: 2, tookOver: 2 });
      return [last.publishMs, last.ownMs, last.waitMs, last.mergeMs];
    };
    for (const options of [{}, { timing: false }]) expect(figures(options)).toEqual([0, 0, 0, 0]);
    const timed = figures({ timing: true });
    for (const ms of timed) expect(ms).toBeGreaterThanOrEqual(0);
    // Measured with performance.now() (fractions of a millisecond): the call's time, more than nothing.
    expect(timed[0] + timed[1] + timed[2] + timed[3]).toBeGreaterThan(0);
  });

  it.each([
    ['blocking', false],
    ['spinning', true],
  ])(
    'a helper that claims and never finishes is given up on after patienceMs (%s), until it catches up; one that fails, for good',
    (_, spin) => {
      const fake = fakeHelpers(3);
      const team = new SeparationTeam(fake.ports, { minPairs: 0, patienceMs: 20, spin });
      team.querySeparationInto(tree, 3, new Int32Array(2000), new Float64Array(2000), new Float64Array(2000));
      for (let k = 0; k < 3; k++) fake.set(k, STATE, ATTACHED);
      const g = fake.next(0);
      fake.set(0, CLAIM, g); // claimed, never done: late
      fake.set(1, CLAIM, g); // claimed, done with a failure
      fake.set(1, DONE, g);
      fake.set(1, FAILED, g);
      expect(expectTeam(team, tree, xs, ys, 2)).toMatchObject({ threads: 1, ready: 3, tookOver: 1, lost: 2 });
      // Helper 2 is alive: it picks up each generation, too late to claim its range (else, patienceMs after
      // a call found it missing one, it would be given up on too: quadtree.team.lost.test.ts).
      fake.set(2, SEEN, 2 * g);
      // Only helper 2 gets a range now: helper 1 failed (for good), helper 0 is late.
      expect(expectTeam(team, tree, xs, ys, 3)).toMatchObject({ ready: 1, tookOver: 1, lost: 2 });
      fake.set(2, SEEN, 2 * (g + 1));
      // Helper 0 picks up a later generation (it finished the late one): it is used again.
      fake.set(0, SEEN, 2 * (g + 1));
      expect(expectTeam(team, tree, xs, ys, 3)).toMatchObject({ ready: 2, tookOver: 2, lost: 1 });
    },
  );

  it('publishes only the slots and nodes in use, and the leaf-pair list only when it changed', () => {
    const fake = fakeHelpers(1);
    // The helper never claims: the caller takes its range over each call (the answers are checked elsewhere).
    const team = new SeparationTeam(fake.ports, { minPairs: 0, patienceMs: 600_000 });
    const own = treeOf(xs, ys);
    const call = (r: number) =>
      team.querySeparationInto(own, r, new Int32Array(2000), new Float64Array(2000), new Float64Array(2000));
    // The wider radius first: the buffer made then has room for every later list (a new buffer would need
    // the helper to attach again).
    call(5);
    const buffer = fake.messages[0]!.buffer;
    fake.set(0, STATE, ATTACHED);
    const v = new TeamViews(buffer);
    const c = v.control;
    const published = (r: number): number => {
      call(r);
      expect(fake.messages[0]!.buffer).toBe(buffer);
      expect(team.last.ready).toBe(1);
      return c[SEQ] >> 1;
    };
    let g = published(5);
    expect(c[LIST]).toBe(g);
    g = published(3);
    expect(c[LIST]).toBe(g);
    const top = c[SLOTS];
    const nodes = c[NODES];
    const pairs = c[PAIRS];
    expect(v.xy.length > 2 * top && v.start.length > nodes && v.list.length > 2 * pairs).toBe(true);
    // Marks past what is in use (and the few entries more that a view takes), and over the whole list.
    const list = v.list.slice(0, 2 * pairs);
    const past = (a: Float64Array | Int32Array, n: number) => a.subarray(publishedLength(n));
    expect(v.xy.length > publishedLength(2 * top) && v.start.length > publishedLength(nodes)).toBe(true);
    past(v.xy, 2 * top).fill(-1);
    past(v.ids, top).fill(-1);
    for (const a of [v.start, v.count, v.child]) past(a, nodes).fill(-1);
    v.list.fill(-3);
    // The same tree and radius: the same list, not published again; nothing written past what is in use.
    expect(published(3)).toBe(g + 1);
    expect(c[LIST]).toBe(g);
    expect(v.list.every((e) => e === -3)).toBe(true);
    expect(past(v.xy, 2 * top).every((e) => e === -1)).toBe(true);
    expect(past(v.ids, top).every((e) => e === -1)).toBe(true);
    for (const a of [v.start, v.count, v.child]) expect(past(a, nodes).every((e) => e === -1)).toBe(true);
    expect(v.xy[0]).not.toBe(-1);
    // Another radius walks another list: published (only its pairs).
    g = published(5);
    expect(c[LIST]).toBe(g);
    expect(v.list.subarray(0, 2 * c[PAIRS]).includes(-3)).toBe(false);
    expect(v.list.subarray(publishedLength(2 * c[PAIRS])).every((e) => e === -3)).toBe(true);
    // Back to the first radius: its list again.
    g = published(3);
    expect(c[LIST]).toBe(g);
    expect([...v.list.subarray(0, 2 * pairs)]).toEqual([...list]);
    // A change of structure (the points of a corner removed: leaves merge): published again.
    for (let id = 0; id < 2000; id++) if (xs[id] < 40 && ys[id] < 40) own.remove(id);
    g = published(3);
    expect(c[LIST]).toBe(g);
    expect(c[PAIRS]).toBeLessThan(pairs);
  });

  it('a helper that cannot run the kernel says so and is never given a range', () => {
    const fake = fakeHelpers(1);
    const team = new SeparationTeam(fake.ports, { minPairs: 0 });
    team.querySeparationInto(tree, 2, new Int32Array(2000), new Float64Array(2000), new Float64Array(2000));
    fake.set(0, STATE, NO_KERNEL);
    expect(expectTeam(team, tree, xs, ys, 2)).toMatchObject({ threads: 1, ready: 0, lost: 1 });
  });

  it('no helpers at all: one thread, "no helpers"', () => {
    expect(expectTeam(new SeparationTeam([]), tree, xs, ys, 2)).toMatchObject({
      threads: 1,
      reason: 'no helpers',
    });
  });
});
