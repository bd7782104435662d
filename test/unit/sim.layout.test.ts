import { describe, expect, it } from 'vitest';
import { drawClusters, EDGE_MARGIN, enemyArea, SpawnLayout, scatterAround } from '../../src/sim/layout';
import { defaultLevel, type Level } from '../../src/sim/level';
import { mulberry32 } from '../../src/sim/random';

function level(over: Partial<Level> = {}): Level {
  return { ...defaultLevel(), ...over };
}

function inside(layout: SpawnLayout, n: number, lv: Level): boolean {
  const a = enemyArea(lv);
  for (let i = 0; i < n; i++) {
    if (layout.xs[i] < a.minX || layout.xs[i] > a.maxX || layout.zs[i] < a.minZ || layout.zs[i] > a.maxZ)
      return false;
  }
  return true;
}

describe('SpawnLayout', () => {
  it.each(['uniform', 'clustered'] as const)(
    '%s: same seed, same spawns, whatever the count asked for',
    (d) => {
      const a = new SpawnLayout(level(), 5000);
      a.reset(7, d);
      a.ensure(5000);
      const b = new SpawnLayout(level(), 5000);
      b.reset(7, d);
      b.ensure(100);
      b.ensure(2000);
      b.ensure(5000);
      expect(b.xs).toEqual(a.xs);
      expect(b.zs).toEqual(a.zs);
      const c = new SpawnLayout(level(), 5000);
      c.reset(8, d);
      c.ensure(5000);
      expect(c.xs).not.toEqual(a.xs);
      expect(inside(a, 5000, level())).toBe(true);
    },
  );

  it('never exceeds its capacity', () => {
    const a = new SpawnLayout(level(), 10);
    a.reset(1, 'uniform');
    a.ensure(50);
    expect(a.filled).toBe(10);
  });

  it('keeps clustered spawns inside a small, non-square level', () => {
    const lv = level({ width: 40, depth: 24, clusters: [{ x: 19, z: -11, radius: 30, weight: 1 }] });
    const a = new SpawnLayout(lv, 3000);
    a.reset(3, 'clustered');
    a.ensure(3000);
    expect(inside(a, 3000, lv)).toBe(true);
  });

  it('follows the level clusters and their weights', () => {
    const lv = level({
      clusters: [
        { x: -50, z: -50, radius: 2, weight: 3 },
        { x: 50, z: 50, radius: 2, weight: 1 },
      ],
    });
    const a = new SpawnLayout(lv, 4000);
    a.reset(5, 'clustered');
    a.ensure(4000);
    let near1 = 0;
    let near2 = 0;
    for (let i = 0; i < 4000; i++) {
      if (Math.hypot(a.xs[i] + 50, a.zs[i] + 50) < 10) near1++;
      else if (Math.hypot(a.xs[i] - 50, a.zs[i] - 50) < 10) near2++;
    }
    expect(near1 + near2).toBe(4000);
    expect(near1 / 4000).toBeGreaterThan(0.7);
    expect(near1 / 4000).toBeLessThan(0.8);
  });

  it('draws clusters from the seed when the level has none', () => {
    const a = drawClusters(1, level());
    expect(a.length).toBeGreaterThanOrEqual(6);
    expect(drawClusters(1, level())).toEqual(a);
    expect(drawClusters(2, level())).not.toEqual(a);
    for (const c of a) {
      expect(Math.abs(c.x)).toBeLessThanOrEqual(100);
      expect(Math.abs(c.z)).toBeLessThanOrEqual(100);
    }
  });

  it('scatterAround writes n points from start, inside the area', () => {
    const xs = new Float32Array(20);
    const zs = new Float32Array(20);
    const area = enemyArea(level());
    scatterAround(mulberry32(1), 99, 99, 10, 3, area, xs, zs, 5);
    expect(Array.from(xs.subarray(0, 5))).toEqual([0, 0, 0, 0, 0]);
    for (let i = 5; i < 15; i++) {
      expect(xs[i]).toBeLessThanOrEqual(100 - EDGE_MARGIN);
      expect(xs[i]).toBeGreaterThan(80);
      expect(zs[i]).toBeLessThanOrEqual(100 - EDGE_MARGIN);
    }
    expect(xs[15]).toBe(0);
  });
});
