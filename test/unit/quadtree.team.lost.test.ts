/**
 * A SeparationTeam's helpers that stop: dispose() before the first call (the helpers must exit) (issue #30,
 * item 6). Real worker_threads helpers (bench/separationWorker.mjs).
 */
import type { Worker } from 'node:worker_threads';
import { PointQuadtree, setSeparationKernel } from 'point-quadtree';
import { type SeparationHelperPort, SeparationTeam } from 'point-quadtree/parallel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeHelpers } from '../../bench/nodeHelpers';
import { mulberry32 } from '../../src/sim/random';

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
});
