import { describe, expect, it } from 'vitest';
import { deriveSeed, gaussian, mulberry32 } from '../../src/sim/random';

describe('seeded randomness', () => {
  it('mulberry32 repeats for a seed and differs between seeds', () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    const c = mulberry32(8);
    const sa = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(sa);
    expect(Array.from({ length: 5 }, c)).not.toEqual(sa);
    for (const v of sa) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(1);
    }
  });

  it('mulberry32 is spread evenly enough', () => {
    const r = mulberry32(1);
    const buckets = new Array(10).fill(0);
    for (let i = 0; i < 100_000; i++) buckets[Math.floor(r() * 10)]++;
    for (const b of buckets) expect(Math.abs(b - 10_000)).toBeLessThan(500);
  });

  it('derives distinct stream seeds', () => {
    const seeds = new Set([1, 2, 3, 4].map((s) => deriveSeed(7, s)));
    expect(seeds.size).toBe(4);
    expect(deriveSeed(7, 1)).toBe(deriveSeed(7, 1));
    expect(deriveSeed(7, 1)).not.toBe(deriveSeed(8, 1));
  });

  it('gaussian has mean 0 and deviation 1', () => {
    const r = mulberry32(3);
    let sum = 0;
    let sq = 0;
    const n = 50_000;
    let finite = true;
    for (let i = 0; i < n; i++) {
      const g = gaussian(r);
      finite &&= Number.isFinite(g);
      sum += g;
      sq += g * g;
    }
    expect(finite).toBe(true);
    expect(Math.abs(sum / n)).toBeLessThan(0.03);
    expect(Math.abs(Math.sqrt(sq / n) - 1)).toBeLessThan(0.03);
  });
});
