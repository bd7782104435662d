// The team's caller adds a helper's records only in the blocks of 64 slots its range marked (issue 34, item
// 4): a differential test with two real worker_threads helpers against the tree's own one-thread
// querySeparationInto, on the shapes where a mark could be missed or misplaced: sizes around multiples of
// 64 slots, leaves from 2 to 200 items, pairs straddling a split line (wide pairs across cuts), coincident
// points (the rare path), three radii, and each tree halved and grown again. Written by the review of that
// change.
import { CrowdQuadtree } from 'point-quadtree/crowd';
import { type SeparationHelperMessage, SeparationTeam } from 'point-quadtree/parallel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeHelpers, startNodeHelpers, untilReady } from '../../bench/nodeHelpers';
import { mulberry32 } from '../../src/sim/random';

const ROOM = 6000;
const team3 = { c: new Int32Array(ROOM), x: new Float64Array(ROOM), y: new Float64Array(ROOM) };
const one = { c: new Int32Array(ROOM), x: new Float64Array(ROOM), y: new Float64Array(ROOM) };

/** '' where the team's answer is the tree's own (counts equal, sums to rounding), else the first difference. */
function differs(team: SeparationTeam, tree: CrowdQuadtree, r: number, n: number): string {
  for (const o of [team3, one]) for (const a of [o.c, o.x, o.y]) a.fill(-7);
  const pairs = team.querySeparationInto(tree, r, team3.c, team3.x, team3.y);
  const own = tree.querySeparationInto(r, one.c, one.x, one.y);
  if (pairs !== own) return `pairs ${pairs}, the tree's ${own}`;
  for (let id = 0; id < n; id++) {
    const s = Math.max(1, one.c[id]);
    const far = Math.max(Math.abs(team3.x[id] - one.x[id]), Math.abs(team3.y[id] - one.y[id]));
    if (team3.c[id] !== one.c[id] || far > 1e-9 * s) {
      return `id ${id}: ${team3.c[id]} ${team3.x[id]} ${team3.y[id]}, the tree's ${one.c[id]} ${one.x[id]} ${one.y[id]}`;
    }
  }
  return '';
}

describe('SeparationTeam: the helpers records added only where their ranges wrote', () => {
  let helpers: NodeHelpers;
  let team: SeparationTeam;
  beforeAll(async () => {
    helpers = startNodeHelpers(2);
    const ports = helpers.ports.map((port) => ({
      postMessage: (m: SeparationHelperMessage) => port.postMessage(m),
    }));
    // Patient: the helpers always take part (claimWaitMs), so every call is split three ways.
    team = new SeparationTeam(ports, { claimWaitMs: 10_000, minPairs: 0, spin: true });
    const tree = new CrowdQuadtree({ bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 }, maxItems: 4 });
    const rnd = mulberry32(1);
    for (let id = 0; id < ROOM; id++) tree.insert(id, rnd() * 100, rnd() * 100);
    await untilReady(
      () => team.last.ready,
      2,
      () => team.querySeparationInto(tree, 2, team3.c, team3.x, team3.y),
    );
  });
  afterAll(async () => {
    team.dispose();
    await helpers.terminate();
  });

  it('sizes around multiples of 64, leaves of 2 to 200, split-line and coincident pairs, halved and grown', () => {
    const rnd = mulberry32(7);
    let calls = 0;
    let split = 0;
    for (const maxItems of [2, 8, 40, 200]) {
      for (const n of [63, 64, 65, 127, 128, 129, 640, 1000, 3000]) {
        for (const kind of ['uniform', 'lines', 'coincident']) {
          const tree = new CrowdQuadtree({
            bounds: { minX: 0, minY: 0, maxX: 1000, maxY: 1000 },
            maxItems,
            minSize: 1,
          });
          for (let id = 0; id < n; id++) {
            let x = rnd() * 1000;
            let y = rnd() * 1000;
            if (kind === 'lines' && id % 2 === 0) x = 500 + (rnd() - 0.5);
            if (kind === 'coincident' && id % 3 !== 0) {
              x = 250 + Math.floor(rnd() * 3);
              y = 250;
            }
            tree.insert(id, x, y);
          }
          const where = `maxItems ${maxItems}, ${n} ${kind}`;
          for (const r of [0.5, 3, 40]) {
            expect(differs(team, tree, r, n), `${where}, r ${r}`).toBe('');
            calls++;
            if (team.last.threads === 3) split++;
          }
          for (let id = n - 1; id >= n >> 1; id--) tree.remove(id);
          expect(differs(team, tree, 3, n), `${where}, halved`).toBe('');
          for (let id = n >> 1; id < n; id++) tree.insert(id, rnd() * 1000, rnd() * 1000);
          expect(differs(team, tree, 3, n), `${where}, grown again`).toBe('');
        }
      }
    }
    // Most calls were split three ways (the rest had too few pairs to cut in three).
    expect(split).toBeGreaterThan(calls * 0.6);
  });
});
