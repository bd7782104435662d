import { separationKernel, setSeparationKernel } from 'point-quadtree/crowd';
import { setKernelMemoryCap } from 'point-quadtree/internal/crowd/wasmLayout';
import { describe, expect, it } from 'vitest';
import { BRUTE_BUDGET_MS, Crowd } from '../../src/sim/crowd';
import { ChangeList } from '../../src/sim/detection';
import { defaultLevel, parseLevel } from '../../src/sim/level';
import { DEFAULT_SETTINGS, SETTINGS, type Settings } from '../../src/sim/settings';
import { Simulation } from '../../src/sim/simulation';
import { parseUrlParams } from '../../src/sim/urlParams';

const CAPACITY = 4000;
const DT = 1 / 30;

function makeSim(settings: Partial<Settings> = {}) {
  return new Simulation(defaultLevel(), { ...DEFAULT_SETTINGS, ...settings }, CAPACITY);
}

/** Brute force: every unordered pair i < j within r (closed), as "i,j" strings, sorted. */
function brutePairs(xs: Float32Array, zs: Float32Array, n: number, r: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const dx = xs[j] - xs[i];
      const dz = zs[j] - zs[i];
      if (dx * dx + dz * dz <= r * r) out.push(`${i},${j}`);
    }
  return out.sort();
}

/** Neighbours of each of the first n enemies within r (closed), by brute force. */
function bruteCounts(xs: Float32Array, zs: Float32Array, n: number, r: number): number[] {
  const counts = new Array<number>(n).fill(0);
  for (const p of brutePairs(xs, zs, n, r)) {
    const [a, b] = p.split(',').map(Number);
    counts[a]++;
    counts[b]++;
  }
  return counts;
}

/** The crowd's counts of the first n enemies, as a plain array. */
function crowdCounts(sim: Simulation, n = sim.count): number[] {
  return Array.from(sim.crowd.counts.subarray(0, n));
}

/** The crowd's pushes equal brute force's at the current positions (float32 storage: 1e-4). */
function expectPushes(sim: Simulation, r: number, n = sim.count): void {
  const { px, pz } = brutePushes(sim.xs, sim.zs, n, r);
  for (let i = 0; i < n; i++) {
    expect(sim.crowd.pushX[i]).toBeCloseTo(px[i], 4);
    expect(sim.crowd.pushZ[i]).toBeCloseTo(pz[i], 4);
  }
}

/** Brute force separation: for every pair within r, each end pushed away by (r - d) / r. */
function brutePushes(xs: Float32Array, zs: Float32Array, n: number, r: number) {
  const px = new Float64Array(n);
  const pz = new Float64Array(n);
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const dx = xs[j] - xs[i];
      const dz = zs[j] - zs[i];
      const d = Math.hypot(dx, dz);
      if (d > r) continue;
      const ux = d > 0 ? (dx / d) * ((r - d) / r) : 1;
      const uz = d > 0 ? (dz / d) * ((r - d) / r) : 0;
      px[i] -= ux;
      pz[i] -= uz;
      px[j] += ux;
      pz[j] += uz;
    }
  return { px, pz };
}

function frame(sim: Simulation, dt = DT) {
  sim.beginFrame();
  sim.applyRequested();
  sim.step(dt, sim.playerX, sim.playerZ);
}

describe('Simulation crowd mode', () => {
  it.each([
    [11, 'uniform', 1.5, false],
    [12, 'clustered', 1.5, false],
    [13, 'clustered', 4, false],
    [14, 'uniform', 10, true],
    [15, 'clustered', 0.5, true],
  ] as const)(
    'seed %s: %s, radius %s, moving %s: pairs, counts and pushes equal brute force every frame',
    (seed, distribution, crowdRadius, moving) => {
      const sim = makeSim({ seed, distribution, crowdRadius, moving, enemies: 1500, crowdMode: true });
      for (let f = 0; f < 4; f++) {
        frame(sim);
        const expected = brutePairs(sim.xs, sim.zs, sim.count, crowdRadius);
        expect(sim.crowd.pairs).toBe(expected.length);
        expect(crowdCounts(sim)).toEqual(bruteCounts(sim.xs, sim.zs, sim.count, crowdRadius));
        expectPushes(sim, crowdRadius);
        const crowded = new Set(expected.flatMap((p) => p.split(',').map(Number)));
        for (let id = 0; id < sim.count; id++) expect(sim.crowd.has(id)).toBe(crowded.has(id));
      }
    },
  );

  it('the kernel and precision said are what the tree ran, also when a call falls back to JavaScript', () => {
    // The largest crowd of this file (the most enemies, clustered, the widest radius): its list of leaf
    // pairs is longer than any the kernel has laid out room for here before.
    const settings = { seed: 23, distribution: 'clustered', enemies: CAPACITY, crowdRadius: 10 } as const;
    const sim = makeSim({ ...settings, crowdMode: true, crowdPrecision: 'f32' });
    const small = makeSim({ seed: 23, enemies: 500, crowdMode: true, crowdPrecision: 'f32' });
    frame(small);
    expect([small.crowd.kernel, small.crowd.precisionRan]).toEqual(['wasm-simd', 'f32']);
    // A kernel memory cap below what the call needs: the tree answers on its JavaScript kernel, at f64,
    // while the kernel setting still says 'wasm-simd'; the HUD's fields follow the call, not the setting.
    setKernelMemoryCap(1);
    try {
      frame(sim);
      expect(separationKernel()).toBe('wasm-simd');
      expect([sim.crowd.kernel, sim.crowd.precisionRan]).toEqual(['js', 'f64']);
      expect(crowdCounts(sim)).toEqual(bruteCounts(sim.xs, sim.zs, sim.count, 10));
    } finally {
      setKernelMemoryCap();
    }
    frame(sim);
    expect([sim.crowd.kernel, sim.crowd.precisionRan]).toEqual(['wasm-simd', 'f32']);
  });

  it('seed 21: brute force gives the same counts and pushes as the tree (and is measured)', () => {
    const settings = { seed: 21, distribution: 'clustered', enemies: 2000, crowdMode: true } as const;
    const sim = makeSim({ ...settings, bruteForce: true });
    const tree = makeSim(settings);
    frame(sim);
    frame(tree);
    expect(sim.crowd.brute).toBe(true);
    expect(sim.crowd.bruteMeasured).toBe(true);
    expect(tree.crowd.brute).toBe(false);
    const r = DEFAULT_SETTINGS.crowdRadius;
    expect(sim.crowd.pairs).toBe(brutePairs(sim.xs, sim.zs, sim.count, r).length);
    expect(crowdCounts(sim)).toEqual(crowdCounts(tree));
    expect(crowdCounts(sim)).toEqual(bruteCounts(sim.xs, sim.zs, sim.count, r));
    expectPushes(sim, r);
    for (let i = 0; i < sim.count; i++) {
      expect(sim.crowd.pushX[i]).toBeCloseTo(tree.crowd.pushX[i], 5);
      expect(sim.crowd.pushZ[i]).toBeCloseTo(tree.crowd.pushZ[i], 5);
    }
  });

  it('seed 22: many pairs per enemy (radius 10, clustered): counts and pushes equal brute force', () => {
    const sim = makeSim({
      seed: 22,
      distribution: 'clustered',
      enemies: 3000,
      crowdMode: true,
      crowdRadius: 10,
    });
    frame(sim);
    const expected = brutePairs(sim.xs, sim.zs, sim.count, 10);
    expect(expected.length).toBeGreaterThan(100_000);
    expect(sim.crowd.pairs).toBe(expected.length);
    expect(crowdCounts(sim)).toEqual(bruteCounts(sim.xs, sim.zs, sim.count, 10));
    expectPushes(sim, 10);
  });

  it.each([
    ['auto', 'wasm-simd'],
    ['js', 'js'],
  ] as const)(
    'seed 23: the tree kernel asked as %s runs %s and gives brute force counts and pushes',
    (asked, runs) => {
      setSeparationKernel(asked);
      try {
        const sim = makeSim({
          seed: 23,
          distribution: 'clustered',
          enemies: 1500,
          crowdMode: true,
          moving: true,
        });
        frame(sim);
        frame(sim);
        expect(sim.crowd.kernel).toBe(runs);
        const r = DEFAULT_SETTINGS.crowdRadius;
        expect(crowdCounts(sim)).toEqual(bruteCounts(sim.xs, sim.zs, sim.count, r));
        expectPushes(sim, r);
      } finally {
        setSeparationKernel('auto');
      }
    },
  );

  it('refuses brute force where one scan would exceed the budget, and uses the tree', () => {
    const crowd = new Crowd(10);
    crowd.nsPerPair = (BRUTE_BUDGET_MS * 1e6) / ((10 * 9) / 2) + 1; // 10 enemies "cost" just over the budget
    const sim = makeSim({ seed: 3, enemies: 10 });
    const changes = new ChangeList(10);
    crowd.find(sim.tree, sim.xs, sim.zs, 10, 50, true, changes);
    expect(changes.length).toBeGreaterThan(0);
    expect(crowd.bruteRefused).toBe(true);
    expect(crowd.brute).toBe(false);
    expect(crowd.bruteMeasured).toBe(false);
    expect(crowd.pairs).toBe(brutePairs(sim.xs, sim.zs, 10, 50).length);
  });

  it('seed 31: computePushes at the current positions equals brute force, by the tree and by the scan', () => {
    const sim = makeSim({
      seed: 31,
      distribution: 'clustered',
      enemies: 1200,
      crowdMode: true,
      crowdRadius: 3,
    });
    frame(sim);
    for (const bruteForce of [false, true]) {
      sim.crowd.computePushes(sim.tree, sim.xs, sim.zs, sim.count, 3, bruteForce);
      expect(sim.crowd.brute).toBe(bruteForce);
      expect(sim.crowd.radius).toBe(3);
      expect(crowdCounts(sim)).toEqual(bruteCounts(sim.xs, sim.zs, sim.count, 3));
      expectPushes(sim, 3);
    }
  });

  it.each([false, true])(
    'separates coincident enemies along x, lower id to -x (brute force %s)',
    (bruteForce) => {
      const sim = makeSim({ seed: 1, enemies: 3 });
      sim.xs.set([5, 5, 40]);
      sim.zs.set([5, 5, 40]);
      sim.rebuildTree();
      const crowd = new Crowd(3);
      crowd.computePushes(sim.tree, sim.xs, sim.zs, 3, 1, bruteForce);
      expect(crowd.pairs).toBe(1);
      expect(Array.from(crowd.counts)).toEqual([1, 1, 0]);
      expect([...crowd.pushX, ...crowd.pushZ]).toEqual([-1, 1, 0, 0, 0, 0]);
    },
  );

  it('seed 41: with moving on, crowds spread into personal space (few pairs within half the radius)', () => {
    const settings = {
      seed: 41,
      distribution: 'clustered',
      enemies: 3000,
      moving: true,
      crowdRadius: 2,
    } as const;
    const crowded = makeSim({ ...settings, crowdMode: true });
    const plain = makeSim({ ...settings, crowdMode: false });
    for (let f = 0; f < 60; f++) {
      frame(crowded);
      frame(plain);
    }
    expect(crowded.crowd.pairs).toBe(brutePairs(crowded.xs, crowded.zs, crowded.count, 2).length);
    const close = brutePairs(crowded.xs, crowded.zs, crowded.count, 1).length;
    const plainClose = brutePairs(plain.xs, plain.zs, plain.count, 1).length;
    expect(plainClose).toBeGreaterThan(500);
    expect(close).toBeLessThan(plainClose * 0.25);
    expect(crowded.tree.size).toBe(crowded.count);
  });

  it('with moving off, crowd mode moves nobody', () => {
    const sim = makeSim({ seed: 5, enemies: 1000, crowdMode: true });
    const xs = Float32Array.from(sim.xs);
    for (let f = 0; f < 3; f++) frame(sim);
    expect(Array.from(sim.xs)).toEqual(Array.from(xs));
    expect(sim.crowd.pairs).toBeGreaterThan(0);
  });

  it('turning crowd mode off clears the pairs and puts every crowded enemy on the change list', () => {
    const sim = makeSim({ seed: 6, enemies: 1000, crowdMode: true });
    frame(sim);
    const crowded = new Set<number>();
    for (let id = 0; id < sim.count; id++) if (sim.crowd.has(id)) crowded.add(id);
    expect(crowded.size).toBeGreaterThan(0);
    sim.drainChanges(() => {});
    sim.request({ crowdMode: false });
    frame(sim);
    const changed = new Set<number>();
    sim.drainChanges((id) => changed.add(id));
    for (const id of crowded) expect(changed.has(id)).toBe(true);
    for (let id = 0; id < sim.count; id++) expect(sim.crowd.has(id)).toBe(false);
    expect(sim.crowd.pairs).toBe(0);
    expect(sim.crowdMs()).toBe(0);
  });

  it('shrinking the crowd forgets the flags of removed enemies', () => {
    const sim = makeSim({ seed: 7, enemies: 2000, crowdMode: true, crowdRadius: 5 });
    frame(sim);
    sim.request({ enemies: 10 });
    frame(sim);
    for (let id = 10; id < 2000; id++) expect(sim.crowd.has(id)).toBe(false);
    expect(sim.crowd.pairs).toBe(brutePairs(sim.xs, sim.zs, 10, 5).length);
    expect(crowdCounts(sim)).toEqual(bruteCounts(sim.xs, sim.zs, 10, 5));
    expectPushes(sim, 5, 10);
  });
});

describe('crowd settings rows', () => {
  it('defaults: off, radius 1.5 in 0.5 … 10', () => {
    expect(DEFAULT_SETTINGS.crowdMode).toBe(false);
    expect(DEFAULT_SETTINGS.crowdRadius).toBe(1.5);
    expect(SETTINGS.crowdRadius).toMatchObject({
      min: 0.5,
      max: 10,
      url: 'crowdRadius',
      label: 'crowd radius',
    });
    expect(SETTINGS.crowdMode).toMatchObject({ url: 'crowd', level: 'crowd', label: 'crowd' });
  });

  it('URL crowd=1&crowdRadius=4 and the ends of the range', () => {
    expect(parseUrlParams('?crowd=1&crowdRadius=4')).toEqual({
      settings: { crowdMode: true, crowdRadius: 4 },
      messages: [],
    });
    expect(parseUrlParams('?crowd=0&crowdRadius=0.5').settings).toEqual({
      crowdMode: false,
      crowdRadius: 0.5,
    });
    expect(parseUrlParams('?crowdRadius=10').settings).toEqual({ crowdRadius: 10 });
  });

  it.each(['0.4', '10.5', '-1', 'abc', 'NaN', ''])(
    'URL crowdRadius=%s: a message, the default kept',
    (raw) => {
      const r = parseUrlParams(`?crowd=1&crowdRadius=${raw}`);
      expect(r.settings).toEqual({ crowdMode: true });
      expect(r.messages).toEqual([
        `URL parameter crowdRadius=${JSON.stringify(raw)} ignored: expected a number from 0.5 to 10.`,
      ]);
    },
  );

  it('URL crowd=maybe: a message, the default kept', () => {
    const r = parseUrlParams('?crowd=maybe');
    expect(r.settings).toEqual({});
    expect(r.messages).toEqual(['URL parameter crowd="maybe" ignored: expected 1 or 0 (true or false).']);
  });

  it('level fields crowd and crowdRadius', () => {
    const { level, messages } = parseLevel('c', { crowd: true, crowdRadius: 2.5 });
    expect(messages).toEqual([]);
    expect(level.settings).toEqual({ crowdMode: true, crowdRadius: 2.5 });
  });

  it('bad level fields: a message each, the defaults kept', () => {
    const { level, messages } = parseLevel('c', { crowd: 'yes', crowdRadius: 11, radius: 9 });
    expect(level.settings).toEqual({ radius: 9 });
    expect(messages).toHaveLength(2);
    expect(messages.some((m) => m.startsWith('Level "c": crowd must be true or false'))).toBe(true);
    expect(messages).toContain(
      'Level "c": crowdRadius must be a number from 0.5 to 10, got 11; using the default.',
    );
  });
});
