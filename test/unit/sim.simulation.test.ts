import { checkInvariants } from 'point-quadtree/debug';
import { describe, expect, it, vi } from 'vitest';
import { scanCircle, scanRect } from '../../src/sim/detection';
import { enemyArea } from '../../src/sim/layout';
import { defaultLevel, type Level } from '../../src/sim/level';
import { mulberry32 } from '../../src/sim/random';
import { DEFAULT_SETTINGS, type Settings } from '../../src/sim/settings';
import { Simulation } from '../../src/sim/simulation';

const CAPACITY = 6000;

function makeSim(settings: Partial<Settings> = {}, level: Level = defaultLevel()) {
  return new Simulation(level, { ...DEFAULT_SETTINGS, ...settings }, CAPACITY);
}

/** A GUI edit, applied as the app applies it at the start of a frame. */
function edit(sim: Simulation, change: Partial<Settings>) {
  sim.request(change);
  sim.applyRequested();
}

/** Colours as the app keeps them: recomputed only for the ids in the change list. */
class ShadowColors {
  readonly colors = new Array<string>(CAPACITY).fill('enemy');
  apply(sim: Simulation) {
    sim.drainChanges((id) => {
      this.colors[id] = sim.found.has(id) ? 'detected' : sim.inRect.has(id) ? 'rect' : 'enemy';
    });
  }
}

/** A brute-force answer as a sorted plain array. */
function scanned(scan: (out: Int32Array) => number, capacity: number): number[] {
  const out = new Int32Array(capacity);
  return Array.from(out.subarray(0, scan(out))).sort((a, b) => a - b);
}

/** Everything the scene promises after a frame. */
function expectConsistent(sim: Simulation, shadow: ShadowColors) {
  const s = sim.settings;
  const found = sim.found.sorted();
  expect(found).toEqual(
    scanned(
      (out) => scanCircle(sim.xs, sim.zs, sim.count, sim.playerX, sim.playerZ, s.radius, out),
      sim.count,
    ),
  );
  const r = sim.rect;
  expect(sim.inRect.sorted()).toEqual(
    r === null
      ? []
      : scanned((out) => scanRect(sim.xs, sim.zs, sim.count, r.minX, r.minZ, r.maxX, r.maxZ, out), sim.count),
  );
  expect(sim.tree.size).toBe(sim.count);
  expect(s.enemies).toBe(sim.count);
  checkInvariants(sim.tree);
  const expected = shadow.colors.map((_, id) =>
    sim.found.has(id) ? 'detected' : sim.inRect.has(id) ? 'rect' : 'enemy',
  );
  expect(shadow.colors).toEqual(expected);
  for (let id = sim.count; id < CAPACITY; id++) {
    if (expected[id] !== 'enemy') throw new Error(`removed enemy ${id} still coloured ${expected[id]}`);
  }
  const a = sim.area;
  for (let i = 0; i < sim.count; i++) {
    if (!(sim.xs[i] >= a.minX && sim.xs[i] <= a.maxX && sim.zs[i] >= a.minZ && sim.zs[i] <= a.maxZ)) {
      throw new Error(`enemy ${i} left the level: ${sim.xs[i]}, ${sim.zs[i]}`);
    }
  }
}

describe('Simulation', () => {
  it('starts with the settings, a full tree and the right found set', () => {
    const sim = makeSim({ enemies: 2000, seed: 3 });
    expect(sim.count).toBe(2000);
    expect(sim.tree.size).toBe(2000);
    const shadow = new ShadowColors();
    expect(sim.step(0.016, 0, 0)).toBe(true);
    shadow.apply(sim);
    expectConsistent(sim, shadow);
    expect(sim.found.size).toBeGreaterThan(0);
    expect(sim.lastQuery.found).toBe(sim.found.size);
    expect(sim.lastQuery.pointsTested).toBeLessThan(2000);
  });

  it('runs no detection in a frame where nothing changed, and one after any change', () => {
    const sim = makeSim({ enemies: 500 });
    expect(sim.step(0.016, 0, 0)).toBe(true);
    expect(sim.step(0.016, 0, 0)).toBe(false);
    expect(sim.step(0.016, 1, 0)).toBe(true); // player moved
    expect(sim.step(0.016, 1, 0)).toBe(false);
    for (const change of [
      { radius: 30 },
      { bruteForce: true },
      { minSize: 4 },
      { maxItems: 3 },
      { looseness: 2 },
      { enemies: 600 },
    ]) {
      edit(sim, change);
      expect(sim.step(0.016, 1, 0), JSON.stringify(change)).toBe(true);
      expect(sim.step(0.016, 1, 0)).toBe(false);
    }
    edit(sim, { showNodes: false, showVisited: true, speed: 9 });
    expect(sim.step(0.016, 1, 0)).toBe(false); // display-only settings do not re-detect
    edit(sim, { moving: true });
    expect(sim.step(0.016, 1, 0)).toBe(true);
    expect(sim.step(0.016, 1, 0)).toBe(true); // wandering moves something every frame
  });

  it('builds every tree with the looseness setting: at start, on regenerate and on a bulk-loading count change', () => {
    const sim = makeSim({ enemies: 500, looseness: 1.5 });
    expect(sim.tree.looseness).toBe(1.5);
    expect(sim.treeOptions().looseness).toBe(1.5);
    edit(sim, { seed: 42 }); // regenerate
    expect(sim.tree.looseness).toBe(1.5);
    edit(sim, { enemies: 3000 }); // more than doubling: a bulk load
    expect(sim.tree.looseness).toBe(1.5);
    expect(sim.tree.size).toBe(3000);
    expect(makeSim({ enemies: 10 }).tree.looseness).toBe(0); // the default
  });

  it('a looseness change rebuilds the tree with it, keeps every enemy in place, and detection stays exact', () => {
    const sim = makeSim({ enemies: 3000, seed: 6, moving: true, speed: 8, distribution: 'clustered' });
    const shadow = new ShadowColors();
    let px = 0;
    const frames = (n: number) => {
      for (let f = 0; f < n; f++) {
        sim.beginFrame();
        sim.applyRequested();
        px = Math.min(px + 0.7, 60); // the player walks, so the found set keeps changing
        sim.step(0.05, px, 0);
        shadow.apply(sim);
      }
    };
    frames(10);
    sim.addBatch(px, 0); // enemies past the spawn layout: the rebuild must keep them too
    frames(1);
    expect(sim.tree.looseness).toBe(0);
    const count = sim.count;
    const xs = sim.xs.slice(0, count);
    const zs = sim.zs.slice(0, count);
    const found = sim.found.sorted();
    const strict = sim.tree;

    edit(sim, { looseness: 3 });
    expect(sim.tree).not.toBe(strict);
    expect(sim.tree.looseness).toBe(3);
    expect(sim.settings.looseness).toBe(3);
    expect(sim.count).toBe(count);
    expect(sim.tree.size).toBe(count);
    expect(sim.xs.slice(0, count)).toEqual(xs); // a rebuild moves nobody
    expect(sim.zs.slice(0, count)).toEqual(zs);
    for (let id = 0; id < count; id++) if (!sim.tree.has(id)) throw new Error(`enemy ${id} lost`);
    expect(sim.step(0, px, 0)).toBe(true); // no wandering (dt 0), but the rebuild makes it detect
    shadow.apply(sim);
    expect(sim.found.sorted()).toEqual(found); // same positions, same player: same answer
    expectConsistent(sim, shadow);

    // Wandering in the loose tree: items stray outside their leaves, queries stay exact.
    const loose = sim.tree;
    for (let round = 0; round < 6; round++) {
      frames(8);
      expectConsistent(sim, shadow);
    }
    expect(sim.tree).toBe(loose); // moves keep the tree; only settings changes rebuild it
    edit(sim, { looseness: 3 });
    expect(sim.tree).toBe(loose); // the same value: no rebuild

    edit(sim, { looseness: 0 });
    expect(sim.tree).not.toBe(loose);
    expect(sim.tree.looseness).toBe(0);
    expect(sim.tree.size).toBe(count);
    sim.step(0, px, 0);
    shadow.apply(sim);
    expectConsistent(sim, shadow);
  });

  it('the same settings give the same scene; count changes keep the first enemies in place', () => {
    const a = makeSim({ enemies: 3000, seed: 9, distribution: 'clustered' });
    const b = makeSim({ enemies: 1000, seed: 9, distribution: 'clustered' });
    expect(b.xs.subarray(0, 1000)).toEqual(a.xs.subarray(0, 1000));
    edit(b, { enemies: 3000 });
    expect(b.xs.subarray(0, 3000)).toEqual(a.xs.subarray(0, 3000));
    expect(b.zs.subarray(0, 3000)).toEqual(a.zs.subarray(0, 3000));
  });

  it('marks moved ids for the instance matrices', () => {
    const sim = makeSim({ enemies: 100 });
    const range = { from: -1, to: -1 };
    expect(sim.takeMovedRange(range)).toBe(true);
    expect([range.from, range.to]).toEqual([0, 100]);
    expect(sim.takeMovedRange(range)).toBe(false); // taken: nothing moved since
    sim.addBatch(0, 0);
    expect(sim.takeMovedRange(range)).toBe(true);
    expect([range.from, range.to]).toEqual([100, 200]);
  });

  it('adds a batch of 100 around a point, and no more than the capacity', () => {
    const sim = makeSim({ enemies: CAPACITY - 30 });
    expect(sim.addBatch(10, -10)).toBe(30);
    expect(sim.count).toBe(CAPACITY);
    expect(sim.addBatch(10, -10)).toBe(0);
    const small = makeSim({ enemies: 10 });
    expect(small.addBatch(50, 50)).toBe(100);
    for (let i = 10; i < 110; i++) expect(Math.hypot(small.xs[i] - 50, small.zs[i] - 50)).toBeLessThan(20);
  });

  it('counts only index work as tree update time; the random walk has its own time', () => {
    // A clock that advances 1 ms at every reading: a timed span is > 0 however coarse this machine's
    // performance.now() is (a real clock can read the same value before and after a short span).
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => ++now);
    try {
      const sim = makeSim({ enemies: 5000, moving: true, speed: 5 });
      sim.beginFrame();
      sim.step(0.016, 0, 0);
      expect(sim.wanderMs).toBeGreaterThan(0);
      expect(sim.treeUpdateMs).toBeGreaterThan(0);
      sim.beginFrame();
      expect([sim.wanderMs, sim.treeUpdateMs]).toEqual([0, 0]);
      edit(sim, { moving: false, enemies: 5100 }); // inserts: index work, no walk
      sim.step(0.016, 0, 0);
      expect(sim.wanderMs).toBe(0);
      expect(sim.treeUpdateMs).toBeGreaterThan(0);
    } finally {
      clock.mockRestore();
    }
  });

  it('times a query without changing the answer', () => {
    const sim = makeSim({ enemies: 2000 });
    sim.step(0.016, 0, 0);
    const before = sim.found.sorted();
    const ms = sim.measureQuery(0.2);
    // A duration, whatever this machine's speed: no wall-clock bound in a unit test.
    expect(Number.isFinite(ms) && ms >= 0).toBe(true);
    expect(sim.found.sorted()).toEqual(before);
  });

  it('wandering keeps everyone inside a small level and the tree in step', () => {
    const level: Level = { ...defaultLevel(), width: 30, depth: 20 };
    const sim = makeSim({ enemies: 1500, moving: true, speed: 25, seed: 4 }, level);
    const shadow = new ShadowColors();
    for (let f = 0; f < 60; f++) {
      sim.beginFrame();
      sim.step(0.1, 0, 0);
      shadow.apply(sim);
    }
    expectConsistent(sim, shadow);
    const a = enemyArea(level);
    expect(Math.min(...sim.xs.subarray(0, sim.count))).toBeGreaterThanOrEqual(a.minX);
    expect(Math.max(...sim.zs.subarray(0, sim.count))).toBeLessThanOrEqual(a.maxZ);
  });

  for (const seed of [1, 2, 3, 4, 5]) {
    it(`seeded fuzz of frames, settings and mouse actions against brute force (seed ${seed})`, () => {
      const random = mulberry32(seed);
      const level: Level = { ...defaultLevel(), width: 120, depth: 80 };
      const sim = makeSim({ enemies: 800, seed, maxItems: 4 }, level);
      const shadow = new ShadowColors();
      let px = 0;
      let pz = 0;
      const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
      const x = () => (random() - 0.5) * 130;
      const z = () => (random() - 0.5) * 90;
      for (let frame = 0; frame < 250; frame++) {
        sim.beginFrame();
        const s: Settings = { ...sim.settings };
        switch (Math.floor(random() * 13)) {
          case 0:
            s.radius = pick([0.5, 3, 10, 25, 100]);
            break;
          case 1:
            s.bruteForce = !s.bruteForce;
            break;
          case 2:
            s.enemies = Math.floor(random() * 3000);
            break;
          case 3:
            s.minSize = pick([0.25, 1, 5, 20]);
            break;
          case 4:
            s.maxItems = 1 + Math.floor(random() * 12);
            break;
          case 5:
            s.moving = !s.moving;
            s.speed = random() * 30;
            break;
          case 6:
            s.seed = Math.floor(random() * 1000);
            s.distribution = pick(['uniform', 'clustered'] as const);
            break;
          case 7:
            sim.addBatch(x(), z());
            break;
          case 8:
            sim.setRect(random() < 0.3 ? null : { minX: x(), minZ: z(), maxX: 0, maxZ: 0 });
            if (sim.rect) {
              sim.rect.maxX = sim.rect.minX + random() * 40;
              sim.rect.maxZ = sim.rect.minZ + random() * 40;
            }
            break;
          case 9:
            sim.regenerate();
            break;
          case 10:
            s.looseness = pick([0, 0.5, 2, 10]);
            break;
          default:
            // The player walks (and sometimes stays put).
            if (random() < 0.8) {
              px = Math.max(-59, Math.min(59, px + (random() - 0.5) * 20));
              pz = Math.max(-39, Math.min(39, pz + (random() - 0.5) * 20));
            }
        }
        edit(sim, s);
        sim.step(random() * 0.1, px, pz);
        shadow.apply(sim);
        if (frame % 5 === 0 || frame > 240) expectConsistent(sim, shadow);
      }
      expectConsistent(sim, shadow);
    });
  }
});
