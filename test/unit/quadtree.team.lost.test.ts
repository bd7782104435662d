/**
 * A SeparationTeam's helpers that stop: dispose() before the first call (the helpers must exit), and helpers
 * that die (a terminated worker): counted in `lost`, no longer waited for, back once they show they are
 * alive (issue #30, items 6 and 7). Real worker_threads helpers (bench/separationWorker.mjs) and helpers
 * played in this thread.
 */
import type { Worker } from 'node:worker_threads';
// The crowd's tree (point-quadtree/crowd), on which these tests ran as PointQuadtree before the crowd became a subpath.
import { CrowdQuadtree as PointQuadtree, setSeparationKernel } from 'point-quadtree/crowd';
import { ATTACHED, SEEN, STATE } from 'point-quadtree/internal/parallel/teamLayout';
import { type SeparationHelperPort, SeparationTeam } from 'point-quadtree/parallel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeHelpers, untilReady } from '../../bench/nodeHelpers';
import { mulberry32 } from '../../src/sim/random';
import { fakeHelpers } from '../helpers/teamFakes';

/** n seeded uniform points in 100 x 100 (maxItems 4: thousands of leaf pairs to share). */
function crowd(n: number, seed: number): PointQuadtree {
  const rnd = mulberry32(seed);
  const tree = new PointQuadtree({ bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 }, maxItems: 4 });
  for (let id = 0; id < n; id++) tree.insert(id, rnd() * 100, rnd() * 100);
  return tree;
}

/** The team's call into fresh outputs; checks the pair count against the tree's own call. */
function call(team: SeparationTeam, tree: PointQuadtree, r = 2) {
  const n = tree.size;
  const pairs = team.querySeparationInto(
    tree,
    r,
    new Int32Array(n),
    new Float64Array(n),
    new Float64Array(n),
  );
  expect(pairs).toBe(
    tree.querySeparationInto(r, new Int32Array(n), new Float64Array(n), new Float64Array(n)),
  );
  return { ...team.last };
}

const exited = (port: SeparationHelperPort) =>
  new Promise<number>((resolve) => (port as Worker).once('exit', resolve));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(['auto', 'js'] as const)('kernel %s', (kernel) => {
  beforeAll(() => setSeparationKernel(kernel));
  afterAll(() => setSeparationKernel('auto'));

  it('dispose() before the first call stops both helpers: their workers exit (a second dispose does nothing)', async () => {
    const helpers = startNodeHelpers(2);
    try {
      const exits = helpers.ports.map(exited);
      const team = new SeparationTeam(helpers.ports);
      team.dispose();
      team.dispose();
      // Without a word to the helpers they would wait for a first message for ever (and the process with them).
      await Promise.all(exits);
      expect(call(team, crowd(500, 1))).toMatchObject({ threads: 1, reason: 'disposed' });
    } finally {
      await helpers.terminate();
    }
  }, 60_000);

  it('dispose() right after the first call (the buffer sent, no helper attached yet) stops them too', async () => {
    const helpers = startNodeHelpers(2);
    try {
      const exits = helpers.ports.map(exited);
      const team = new SeparationTeam(helpers.ports, { minPairs: 0 });
      expect(call(team, crowd(2000, 2)).reason).toBe(
        kernel === 'auto' ? 'helpers not ready' : 'JavaScript kernel',
      );
      team.dispose();
      await Promise.all(exits);
    } finally {
      await helpers.terminate();
    }
  }, 60_000);

  it('a helper whose worker is terminated: counted lost at once (its exit), never waited for again', async () => {
    const helpers = startNodeHelpers(2);
    // The caller waits up to a minute for a helper's claim: waiting for the dead one would time the test out.
    const team = new SeparationTeam(helpers.ports, { claimWaitMs: 60_000, minPairs: 0 });
    const tree = crowd(3000, 3);
    try {
      if (kernel === 'auto')
        await untilReady(
          () => team.last.ready,
          2,
          () => call(team, tree),
        );
      await (helpers.ports[0] as Worker).terminate();
      for (let k = 0; k < 3; k++) {
        const last = call(team, tree);
        expect(last.lost).toBe(1);
        if (kernel === 'auto') expect(last).toMatchObject({ ready: 1, threads: 2, tookOver: 0, reason: '' });
        else expect(last).toMatchObject({ threads: 1, reason: 'JavaScript kernel' });
      }
      team.dispose();
    } finally {
      await helpers.terminate();
    }
  }, 60_000);
});

describe('a helper that dies without a word (a Web Worker says nothing when it ends)', () => {
  it('is given up on once it has missed a hand-over for patienceMs; the other helper carries on', async () => {
    const helpers = startNodeHelpers(2);
    // Ports without `once`: the team cannot hear the worker exit, only see it miss its hand-overs.
    const ports = helpers.ports.map((worker) => ({ postMessage: worker.postMessage.bind(worker) }));
    const team = new SeparationTeam(ports, { claimWaitMs: 50, patienceMs: 100, minPairs: 0 });
    const tree = crowd(3000, 4);
    try {
      await untilReady(
        () => team.last.ready,
        2,
        () => call(team, tree),
      );
      await (helpers.ports[1] as unknown as Worker).terminate();
      // A frame or so apart, until the dead helper is given up on (within a few patienceMs).
      const t0 = Date.now();
      while (call(team, tree).lost === 0 && Date.now() - t0 < 30_000) await sleep(20);
      const last = call(team, tree);
      expect(last).toMatchObject({ lost: 1, ready: 1 });
      // Its range is no longer handed out, so none is taken over.
      expect(last.tookOver).toBe(0);
      team.dispose();
    } finally {
      await helpers.terminate();
    }
  }, 60_000);
});

describe('hand-overs missed, played in this thread', () => {
  // Far longer than a call here takes, even on a busy machine: before the sleep nothing is given up on.
  const PATIENCE = 1000;
  const tree = crowd(2000, 5);

  it('attached helpers that never pick up their ranges: lost after patienceMs ("helpers lost"), back once one picks up', async () => {
    const fake = fakeHelpers(2);
    const team = new SeparationTeam(fake.ports, { minPairs: 0, patienceMs: PATIENCE });
    call(team, tree);
    fake.set(0, STATE, ATTACHED);
    fake.set(1, STATE, ATTACHED);
    // Handed a range each; the next call finds them missing it, and gives them up patienceMs later.
    expect(call(team, tree)).toMatchObject({ ready: 2, tookOver: 2, lost: 0 });
    expect(call(team, tree)).toMatchObject({ ready: 2, tookOver: 2, lost: 0 });
    await sleep(PATIENCE + 100);
    expect(call(team, tree)).toMatchObject({ threads: 1, ready: 0, lost: 2, reason: 'helpers lost' });
    expect(call(team, tree)).toMatchObject({ ready: 0, lost: 2, reason: 'helpers lost' });
    // Helper 1 is alive after all: it picks up the latest generation (the team still publishes one with no
    // range, so that it can).
    fake.set(1, SEEN, 2 * (fake.next(1) - 1));
    expect(call(team, tree)).toMatchObject({ ready: 1, lost: 1, tookOver: 1 });
  });

  it('a helper that attached once and never attaches to the team’s new buffer: lost after patienceMs', async () => {
    const fake = fakeHelpers(1);
    const team = new SeparationTeam(fake.ports, { minPairs: 0, patienceMs: PATIENCE });
    const small = crowd(500, 6);
    call(team, small);
    fake.set(0, STATE, ATTACHED);
    expect(call(team, small)).toMatchObject({ ready: 1 });
    fake.set(0, SEEN, 2 * (fake.next(0) - 1));
    // A tree that outgrows the buffer: a new one is sent, which this helper never takes up.
    const big = crowd(20_000, 7);
    expect(call(team, big)).toMatchObject({ ready: 0, lost: 0, reason: 'helpers not ready' });
    expect(call(team, big)).toMatchObject({ ready: 0, lost: 0 });
    await sleep(PATIENCE + 100);
    expect(call(team, big)).toMatchObject({ ready: 0, lost: 1, reason: 'helpers lost' });
    // It attaches at last and picks up a generation: used again.
    fake.set(0, STATE, ATTACHED);
    fake.set(0, SEEN, 2 * (fake.next(0) - 1));
    expect(call(team, big)).toMatchObject({ ready: 1, lost: 0 });
  });

  it('helpers still starting (never attached) are not lost, however long they take', async () => {
    const fake = fakeHelpers(2);
    const team = new SeparationTeam(fake.ports, { minPairs: 0, patienceMs: 10 });
    call(team, tree);
    await sleep(40);
    expect(call(team, tree)).toMatchObject({ ready: 0, lost: 0, reason: 'helpers not ready' });
  });
});
