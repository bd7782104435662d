// A differential fuzz of SeparationTeam with real worker_threads helpers against the tree's own one-thread
// querySeparationInto, over many calls with structure changes, moves that keep the structure, radius changes,
// two trees on one team, the caller's kernel walking other lists between calls, and buffer growth; with a
// patient team (the helpers take part) and an impatient one (late helpers, takeovers, give-ups). Then the
// cases where the list stays while the published arrays change: a tree that grows without a new list (the
// helper lays its kernel out again with LIST unchanged), and two mirror-image trees of the same size (the
// caller's views of one must not stand for the other's). Written by the review of the team's publishing of
// only what changed (issue 34, item 4): without it, defects there passed every team suite.
import { CrowdQuadtree } from 'point-quadtree/crowd';
import { type SeparationHelperMessage, SeparationTeam } from 'point-quadtree/parallel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeHelpers, startNodeHelpers, untilReady } from '../../bench/nodeHelpers';
import { mulberry32 } from '../../src/sim/random';

const BOUNDS = { minX: 0, minY: 0, maxX: 100, maxY: 100 };
const ROOM = 12_000;

interface Crowd {
  tree: CrowdQuadtree;
  xs: Float64Array;
  ys: Float64Array;
  present: Uint8Array;
  next: number;
}

function crowd(seed: number, n: number, looseness: number, maxItems: number): Crowd {
  const rnd = mulberry32(seed);
  const tree = new CrowdQuadtree({ bounds: BOUNDS, maxItems, minSize: 0.25, looseness });
  const xs = new Float64Array(ROOM);
  const ys = new Float64Array(ROOM);
  const present = new Uint8Array(ROOM);
  for (let id = 0; id < n; id++) {
    xs[id] = rnd() * 100;
    ys[id] = rnd() * 100;
    tree.insert(id, xs[id], ys[id]);
    present[id] = 1;
  }
  return { tree, xs, ys, present, next: n };
}

const outs = {
  c: new Int32Array(ROOM),
  x: new Float64Array(ROOM),
  y: new Float64Array(ROOM),
  oc: new Int32Array(ROOM),
  ox: new Float64Array(ROOM),
  oy: new Float64Array(ROOM),
};

/** The team's answer against the tree's own; returns the first id that differs, or -1. */
function check(team: SeparationTeam, c: Crowd, r: number): { wrong: number; detail: string } {
  outs.c.fill(-7);
  outs.x.fill(-7);
  outs.y.fill(-7);
  outs.oc.fill(-7);
  outs.ox.fill(-7);
  outs.oy.fill(-7);
  const pairs = team.querySeparationInto(c.tree, r, outs.c, outs.x, outs.y);
  const own = c.tree.querySeparationInto(r, outs.oc, outs.ox, outs.oy);
  if (pairs !== own) return { wrong: -2, detail: `pairs ${pairs} own ${own}` };
  for (let id = 0; id < ROOM; id++) {
    const scale = Math.max(1, outs.oc[id]);
    if (
      outs.c[id] !== outs.oc[id] ||
      Math.abs(outs.x[id] - outs.ox[id]) > 1e-9 * scale ||
      Math.abs(outs.y[id] - outs.oy[id]) > 1e-9 * scale
    )
      return {
        wrong: id,
        detail: `id ${id}: ${outs.c[id]} ${outs.x[id]} vs own ${outs.oc[id]} ${outs.ox[id]}`,
      };
  }
  return { wrong: -1, detail: '' };
}

function jitter(c: Crowd, rnd: () => number, frac: number, step: number, all: boolean): void {
  if (all) {
    for (let id = 0; id < c.next; id++) {
      if (c.present[id] === 0) continue;
      c.xs[id] = Math.min(100, Math.max(0, c.xs[id] + (rnd() - 0.5) * step));
      c.ys[id] = Math.min(100, Math.max(0, c.ys[id] + (rnd() - 0.5) * step));
    }
    c.tree.moveAll(c.xs, c.ys);
    return;
  }
  for (let id = 0; id < c.next; id++) {
    if (c.present[id] === 0 || rnd() > frac) continue;
    c.xs[id] = Math.min(100, Math.max(0, c.xs[id] + (rnd() - 0.5) * step));
    c.ys[id] = Math.min(100, Math.max(0, c.ys[id] + (rnd() - 0.5) * step));
    c.tree.move(id, c.xs[id], c.ys[id]);
  }
}

function fuzz(team: SeparationTeam, seed: number, steps: number, stats: Record<string, number>): string[] {
  const rnd = mulberry32(seed);
  const trees = [crowd(seed * 7 + 1, 3000, 0, 4), crowd(seed * 7 + 2, 1500, 1, 6)];
  const radii = [0.5, 1, 1.5, 2, 3, 5];
  let cur = 0;
  let r = 2;
  const failures: string[] = [];
  for (let s = 0; s < steps; s++) {
    const c = trees[cur];
    const op = rnd();
    let what = '';
    if (op < 0.3) {
      jitter(c, rnd, 0.02 + rnd() * 0.3, 0.5 + rnd() * 3, false);
      what = 'move';
    } else if (op < 0.4) {
      jitter(c, rnd, 1, 0.5 + rnd() * 2, true);
      what = 'moveAll';
    } else if (op < 0.5) {
      const k = rnd() < 0.15 ? 1500 : 1 + Math.floor(rnd() * 100);
      for (let i = 0; i < k && c.next < ROOM; i++) {
        const id = c.next++;
        c.xs[id] = rnd() * 100;
        c.ys[id] = rnd() * 100;
        c.tree.insert(id, c.xs[id], c.ys[id]);
        c.present[id] = 1;
      }
      what = 'insert';
    } else if (op < 0.6) {
      const frac = rnd() * 0.3;
      for (let id = 0; id < c.next; id++) {
        if (c.present[id] === 1 && rnd() < frac) {
          c.tree.remove(id);
          c.present[id] = 0;
        }
      }
      what = 'remove';
    } else if (op < 0.7) {
      r = radii[Math.floor(rnd() * radii.length)];
      what = 'radius';
    } else if (op < 0.8) {
      cur = 1 - cur;
      what = 'switch';
    } else if (op < 0.87) {
      // The caller's kernel walks another list in between (another tree, another radius).
      const o = trees[1 - cur];
      o.tree.querySeparationInto(radii[Math.floor(rnd() * radii.length)], outs.oc, outs.ox, outs.oy);
      what = 'other';
    } else if (op < 0.9) {
      // queryPairsInto walks with another wide side on the caller's kernel.
      const a = new Int32Array(1 << 20);
      const b = new Int32Array(1 << 20);
      c.tree.queryPairsInto(r, a, b);
      what = 'pairs';
    } else {
      what = 'same';
    }
    const t = trees[cur];
    const res = check(team, t, r);
    stats[`threads${team.last.threads}`] = (stats[`threads${team.last.threads}`] ?? 0) + 1;
    stats[team.last.reason || 'ok'] = (stats[team.last.reason || 'ok'] ?? 0) + 1;
    if (res.wrong !== -1) {
      failures.push(`step ${s} after ${what} tree ${cur} r ${r} threads ${team.last.threads}: ${res.detail}`);
      if (failures.length > 5) break;
    }
  }
  return failures;
}

describe('team differential fuzz with two worker helpers', () => {
  let helpers: NodeHelpers;
  let posted = 0;
  const ports = () =>
    helpers.ports.map((port) => ({
      postMessage: (message: SeparationHelperMessage) => {
        posted++;
        port.postMessage(message);
      },
    }));
  beforeAll(() => {
    helpers = startNodeHelpers(2);
  });
  afterAll(async () => {
    await helpers.terminate();
  });

  it('patient team (helpers always take part): team equals the tree over 300 random steps', async () => {
    const team = new SeparationTeam(ports(), { claimWaitMs: 10_000, minPairs: 0 });
    const warm = crowd(99, 2000, 0, 4);
    await untilReady(
      () => team.last.ready,
      2,
      () => team.querySeparationInto(warm.tree, 2, outs.c, outs.x, outs.y),
      60_000,
    );
    const stats: Record<string, number> = {};
    const failures = fuzz(team, 5, 300, stats);
    team.dispose();
    expect(failures).toEqual([]);
    // The helpers took part (three threads) in most calls, and a new buffer was sent at least once.
    expect(stats.threads3 ?? 0).toBeGreaterThan(150);
    expect(posted).toBeGreaterThan(2);
  });
});

describe('team differential fuzz, impatient team (late helpers, takeovers, give-ups)', () => {
  let helpers: NodeHelpers;
  beforeAll(() => {
    helpers = startNodeHelpers(2);
  });
  afterAll(async () => {
    await helpers.terminate();
  });

  it('impatient team: team equals the tree over 400 random steps', async () => {
    const team = new SeparationTeam(helpers.ports, {
      claimWaitMs: 0.2,
      patienceMs: 1,
      minPairs: 0,
    });
    const warm = crowd(98, 2000, 0, 4);
    await untilReady(
      () => team.last.ready,
      2,
      () => team.querySeparationInto(warm.tree, 2, outs.c, outs.x, outs.y),
      60_000,
    );
    const stats: Record<string, number> = {};
    const failures = fuzz(team, 5 + 1000, 400, stats);
    team.dispose();
    expect(failures).toEqual([]);
    // Some calls with the helpers. How many ranges are taken over or given up on depends on the machine:
    // on a quiet one the helpers keep up even with 1 ms of patience, and every call may use them (a clean
    // CI run had no call on one thread). Takeovers and give-ups are made certain by the played helpers of
    // quadtree.team.lost and quadtree.team; here they are only what the timing gives.
    expect((stats.threads2 ?? 0) + (stats.threads3 ?? 0)).toBeGreaterThan(0);
  });
});

describe('the tree grows without a new list (inserts into leaves that do not split)', () => {
  let helpers: NodeHelpers;
  beforeAll(() => {
    helpers = startNodeHelpers(1);
  });
  afterAll(async () => {
    await helpers.terminate();
  });

  it('inserts one by one into big leaves: the helper relays out its kernel with LIST unchanged', async () => {
    const team = new SeparationTeam(helpers.ports, { claimWaitMs: 10_000, minPairs: 0 });
    const c = crowd(77, 600, 0, 64);
    await untilReady(
      () => team.last.ready,
      1,
      () => team.querySeparationInto(c.tree, 6, outs.c, outs.x, outs.y),
      60_000,
    );
    const rnd = mulberry32(78);
    const failures: string[] = [];
    let sameVersion = 0;
    let threads2 = 0;
    for (let s = 0; s < 400 && c.next < ROOM; s++) {
      const v0 = c.tree.version;
      for (let i = 0; i < 3; i++) {
        const id = c.next++;
        c.xs[id] = rnd() * 100;
        c.ys[id] = rnd() * 100;
        c.tree.insert(id, c.xs[id], c.ys[id]);
        c.present[id] = 1;
      }
      if (c.tree.version === v0) sameVersion++;
      const res = check(team, c, 6);
      if (team.last.threads === 2) threads2++;
      if (res.wrong !== -1)
        failures.push(`step ${s} (version ${c.tree.version === v0 ? 'same' : 'new'}): ${res.detail}`);
      if (failures.length > 5) break;
    }
    team.dispose();
    expect(failures).toEqual([]);
    // Mostly the same structure (the same list), and the helper took part.
    expect(sameVersion).toBeGreaterThan(300);
    expect(threads2).toBeGreaterThan(200);
  });
});

describe('two trees of the same size on one team', () => {
  let helpers: NodeHelpers;
  beforeAll(() => {
    helpers = startNodeHelpers(1);
  });
  afterAll(async () => {
    await helpers.terminate();
  });

  it('mirror images (the same pool.top and nodeTop): each call publishes its own tree', async () => {
    const team = new SeparationTeam(helpers.ports, { claimWaitMs: 10_000, minPairs: 0 });
    const a = crowd(55, 2000, 0, 4);
    const b = crowd(55, 0, 0, 4);
    for (let id = 0; id < 2000; id++) {
      b.xs[id] = 100 - a.xs[id];
      b.ys[id] = a.ys[id];
      b.tree.insert(id, b.xs[id], b.ys[id]);
      b.present[id] = 1;
    }
    b.next = 2000;
    await untilReady(
      () => team.last.ready,
      1,
      () => team.querySeparationInto(a.tree, 2, outs.c, outs.x, outs.y),
      60_000,
    );
    const failures: string[] = [];
    let helped = 0;
    for (let s = 0; s < 20; s++) {
      const c = s % 2 === 0 ? a : b;
      const res = check(team, c, 2);
      if (team.last.threads === 2) helped++;
      if (res.wrong !== -1) failures.push(`step ${s}: ${res.detail}`);
    }
    team.dispose();
    expect(failures).toEqual([]);
    expect(helped).toBeGreaterThan(10);
  });
});
