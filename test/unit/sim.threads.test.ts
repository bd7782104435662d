// The crowd's tree (point-quadtree/crowd), on which these tests ran as PointQuadtree before the crowd became a subpath.
import { CrowdQuadtree as PointQuadtree } from 'point-quadtree/crowd';
import { SeparationTeam } from 'point-quadtree/parallel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeHelpers, startNodeHelpers, untilReady } from '../../bench/nodeHelpers';
import { Crowd, ONE_THREAD } from '../../src/sim/crowd';
import { ChangeList } from '../../src/sim/detection';
import { defaultLevel } from '../../src/sim/level';
import { mulberry32 } from '../../src/sim/random';
import { DEFAULT_SETTINGS, type Settings } from '../../src/sim/settings';
import { Simulation } from '../../src/sim/simulation';
import { MAX_CROWD_WORKERS, planThreads } from '../../src/sim/threads';
import { threadsText } from '../../src/ui/hud';
import { leastBytesPerCall } from '../helpers/allocation';

describe('planThreads', () => {
  it.each([
    [{ crossOriginIsolated: false, sharedMemory: true, cores: 8 }, 0, 'page not cross-origin isolated'],
    [{ crossOriginIsolated: true, sharedMemory: false, cores: 8 }, 0, 'no SharedArrayBuffer'],
    [{ crossOriginIsolated: true, sharedMemory: true, cores: 1 }, 0, 'one core'],
    [{ crossOriginIsolated: true, sharedMemory: true, cores: Number.NaN }, 0, 'one core'],
    [{ crossOriginIsolated: true, sharedMemory: true, cores: 2 }, 1, ''],
    [{ crossOriginIsolated: true, sharedMemory: true, cores: 3 }, 2, ''],
    [{ crossOriginIsolated: true, sharedMemory: true, cores: 16 }, MAX_CROWD_WORKERS, ''],
  ])('%j: %i workers %j', (env, workers, reason) => {
    expect(planThreads(env)).toEqual({ workers, reason });
  });
});

describe('the HUD threads line', () => {
  it('names the workers, or why there are none', () => {
    expect(threadsText(3, '')).toBe('3 threads (main + 2 workers)');
    expect(threadsText(2, '')).toBe('2 threads (main + 1 worker)');
    expect(threadsText(1, 'page not cross-origin isolated')).toBe(
      '1 thread (page not cross-origin isolated)',
    );
    expect(threadsText(1, '')).toBe('1 thread (main)');
    expect(ONE_THREAD['helpers late']).toBe('workers late');
  });

  it('says how many workers were lost', () => {
    expect(threadsText(2, '', 1)).toBe('2 threads (main + 1 worker, 1 worker lost)');
    expect(threadsText(3, '', 2)).toBe('3 threads (main + 2 workers, 2 workers lost)');
    expect(threadsText(1, ONE_THREAD['helpers late'], 1)).toBe('1 thread (workers late, 1 worker lost)');
    // All of them lost: the count says it.
    expect(threadsText(1, ONE_THREAD['helpers lost'], 2)).toBe('1 thread (2 workers lost)');
    expect(threadsText(1, 'workers off', 0)).toBe('1 thread (workers off)');
  });
});

describe('crowd mode with a worker that dies', () => {
  it('the HUD threads line says it was lost; the other worker carries on, the pairs equal one thread', async () => {
    const helpers = startNodeHelpers(2);
    // As a Web Worker looks to the team (no exit event): the team sees the hand-overs it misses.
    const ports = helpers.ports.map((worker) => ({ postMessage: worker.postMessage.bind(worker) }));
    // The live worker always has time to claim its range; the dead one is not waited for once it is missing.
    const team = new SeparationTeam(ports, { claimWaitMs: 1000, patienceMs: 100 });
    const n = 6000;
    const sim = crowdSim(n);
    sim.crowd.setTeam(team, '');
    const changes = new ChangeList(n);
    const frame = () => sim.crowd.find(sim.tree, sim.xs, sim.zs, n, 1.5, false, changes);
    try {
      await untilReady(() => team.last.ready, 2, frame);
      await (helpers.ports[0] as unknown as { terminate(): Promise<number> }).terminate();
      const t0 = Date.now();
      while (sim.crowd.lostWorkers === 0 && Date.now() - t0 < 30_000) {
        frame();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      frame();
      const alone = crowdSim(n);
      expect(sim.crowd.pairs).toBe(
        alone.tree.querySeparationInto(1.5, new Int32Array(n), new Float64Array(n), new Float64Array(n)),
      );
      expect(sim.crowd).toMatchObject({ lostWorkers: 1, threads: 2 });
      expect(threadsText(sim.crowd.threads, sim.crowd.threadNote, sim.crowd.lostWorkers)).toBe(
        '2 threads (main + 1 worker, 1 worker lost)',
      );
      team.dispose();
    } finally {
      await helpers.terminate();
    }
  }, 60_000);
});

/** A crowd of n on the default level, moving, crowd mode on, with the given settings. */
function crowdSim(n: number, settings: Partial<Settings> = {}) {
  return new Simulation(
    defaultLevel(),
    { ...DEFAULT_SETTINGS, enemies: n, moving: true, crowdMode: true, ...settings },
    n,
  );
}

describe('crowd mode with a team of worker_threads helpers', () => {
  let helpers: NodeHelpers;
  let team: SeparationTeam;
  beforeAll(() => {
    helpers = startNodeHelpers(1);
    team = new SeparationTeam(helpers.ports, { claimWaitMs: 10_000 });
  });
  afterAll(async () => {
    team.dispose();
    await helpers.terminate();
  });

  it('the same counts, pushes and walk as one thread, frame by frame; the workers setting turns it off', async () => {
    const n = 6000;
    const one = crowdSim(n);
    const two = crowdSim(n);
    one.crowd.setTeam(null, 'page not cross-origin isolated');
    two.crowd.setTeam(team, '');
    const changes = new ChangeList(n);
    await untilReady(
      () => team.last.ready,
      1,
      () => two.crowd.find(two.tree, two.xs, two.zs, n, 1.5, false, changes),
    );
    // Every frame's answer equals one thread's; most frames the worker takes part (not in a frame where
    // the shared buffer grew and the worker has not attached to the new one yet: "workers starting").
    let shared = 0;
    for (let frame = 0; frame < 30 && shared < 5; frame++) {
      for (const sim of [one, two]) {
        sim.beginFrame();
        sim.step(1 / 30, 0, 0);
      }
      if (two.crowd.threads === 2) shared++;
      else expect(two.crowd.threadNote).toBe('workers starting');
      expect(one.crowd).toMatchObject({ threads: 1, threadNote: 'page not cross-origin isolated' });
      expect(two.crowd.pairs).toBe(one.crowd.pairs);
      expect(Array.from(two.crowd.counts)).toEqual(Array.from(one.crowd.counts));
      // The pushes agree to float32 rounding (sums in another order), so the walks stay together.
      let worst = 0;
      for (let i = 0; i < n; i++) {
        worst = Math.max(worst, Math.abs(two.crowd.pushX[i] - one.crowd.pushX[i]));
        worst = Math.max(worst, Math.abs(two.xs[i] - one.xs[i]));
      }
      expect(worst).toBeLessThan(1e-3);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(shared).toBe(5);
    two.requested.workers = false;
    two.applyRequested();
    two.beginFrame();
    two.step(1 / 30, 0, 0);
    expect(two.crowd).toMatchObject({ threads: 1, threadNote: 'workers off' });
  });

  it('the team allocates no more per call than the one-thread call once its buffers have grown', async () => {
    const rnd = mulberry32(43);
    const tree = new PointQuadtree({ bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 }, maxItems: 8 });
    for (let id = 0; id < 4000; id++) tree.insert(id, rnd() * 100, rnd() * 100);
    const c = new Int32Array(4000);
    const sx = new Float64Array(4000);
    const sy = new Float64Array(4000);
    const calls = (count: number, call: () => number): number => {
      let pairs = 0;
      for (let k = 0; k < count; k++) pairs += call();
      return pairs;
    };
    const parallel = () => team.querySeparationInto(tree, 1.5, c, sx, sy);
    const alone = () => tree.querySeparationInto(1.5, c, sx, sy);
    await untilReady(() => team.last.ready, 1, parallel);
    // Warm (the compiler's optimised code in place: unoptimised code boxes numbers).
    calls(500, parallel);
    calls(500, alone);
    expect(team.last).toMatchObject({ threads: 2, reason: '' });
    // This team blocks while it waits (a spinning one, as on a browser's main thread, reads the clock every
    // 65,536 spins: a few number objects per millisecond waited). The least of twelve rounds, counted where
    // code's own objects go (test/helpers/allocation.ts: on a loaded machine the team's slower calls overlap
    // more of the compiler's late output, ~1,000 bytes per call in code space, which CI once counted). The
    // one-thread call boxes a few numbers per call; the team may add a few more, never an array or a view
    // (a subarray per call fails this).
    const least = (call: () => number) => leastBytesPerCall((count) => calls(count, call));
    const one = least(alone);
    const two = least(parallel);
    expect(two, `team ${two} bytes per call, one thread ${one}`).toBeLessThan(one + 64);
    expect(team.last).toMatchObject({ threads: 2, reason: '' });
  });

  it('brute force runs on one thread and says so', () => {
    const crowd = new Crowd(500);
    crowd.setTeam(team, '');
    const sim = crowdSim(500);
    crowd.find(sim.tree, sim.xs, sim.zs, 500, 1.5, true, new ChangeList(500));
    expect(crowd).toMatchObject({ threads: 1, threadNote: 'brute force', brute: true });
  });
});
