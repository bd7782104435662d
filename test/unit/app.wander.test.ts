import { describe, expect, it } from 'vitest';
import { TURN_RATE, wanderStep } from '../../src/sim/movement';
import { mulberry32 } from '../../src/sim/random';
import type { GroundRect } from '../../src/sim/world';

const AREA: GroundRect = { minX: -10, minZ: -8, maxX: 10, maxZ: 8 };
const DT = 1 / 60;

/** The walk as it was written with trigonometry: heading in radians, cos / sin of it per step. */
function trigStep(
  xs: Float64Array,
  zs: Float64Array,
  headings: Float64Array,
  random: () => number,
  step: number,
  turn: number,
  a: GroundRect,
): void {
  for (let i = 0; i < xs.length; i++) {
    let h = headings[i] + (random() - 0.5) * 2 * turn;
    let x = xs[i] + Math.cos(h) * step;
    let z = zs[i] + Math.sin(h) * step;
    if (x < a.minX) {
      x = 2 * a.minX - x;
      h = Math.PI - h;
    } else if (x > a.maxX) {
      x = 2 * a.maxX - x;
      h = Math.PI - h;
    }
    if (z < a.minZ) {
      z = 2 * a.minZ - z;
      h = -h;
    } else if (z > a.maxZ) {
      z = 2 * a.maxZ - z;
      h = -h;
    }
    xs[i] = Math.min(a.maxX, Math.max(a.minX, x));
    zs[i] = Math.min(a.maxZ, Math.max(a.minZ, z));
    headings[i] = h;
  }
}

function start(n: number, seed: number) {
  const rnd = mulberry32(seed);
  const xs = new Float32Array(n);
  const zs = new Float32Array(n);
  const angles = new Float64Array(n);
  const headX = new Float32Array(n);
  const headZ = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    xs[i] = (rnd() - 0.5) * 20;
    zs[i] = (rnd() - 0.5) * 16;
    angles[i] = rnd() * Math.PI * 2;
    headX[i] = Math.cos(angles[i]);
    headZ[i] = Math.sin(angles[i]);
  }
  return { xs, zs, angles, headX, headZ };
}

describe('wanderStep: the enemies random walk without trigonometry', () => {
  it('seed 7: follows the trigonometric walk for 300 frames with the same random numbers (bounces included)', () => {
    const n = 500;
    const s = start(n, 7);
    const refX = Float64Array.from(s.xs);
    const refZ = Float64Array.from(s.zs);
    const refH = Float64Array.from(s.angles);
    const rndA = mulberry32(99);
    const rndB = mulberry32(99);
    const step = 4 * DT;
    let bounces = 0;
    for (let f = 0; f < 300; f++) {
      const before = Float32Array.from(s.headX);
      wanderStep(s.xs, s.zs, s.headX, s.headZ, n, rndA, step, TURN_RATE * DT, AREA);
      trigStep(refX, refZ, refH, rndB, step, TURN_RATE * DT, AREA);
      for (let i = 0; i < n; i++) if (Math.sign(before[i]) !== Math.sign(s.headX[i])) bounces++;
    }
    expect(bounces).toBeGreaterThan(100); // the walk did meet the edges
    let worst = 0;
    for (let i = 0; i < n; i++) {
      worst = Math.max(worst, Math.abs(s.xs[i] - refX[i]), Math.abs(s.zs[i] - refZ[i]));
      expect(s.headX[i]).toBeCloseTo(Math.cos(refH[i]), 3);
      expect(s.headZ[i]).toBeCloseTo(Math.sin(refH[i]), 3);
    }
    expect(worst).toBeLessThan(1e-3);
  });

  it('seed 8: each turn is uniform in [-turn, turn] and headings stay unit vectors for 5,000 frames', () => {
    const n = 200;
    const s = start(n, 8);
    const rnd = mulberry32(8);
    const turn = TURN_RATE * DT;
    const big: GroundRect = { minX: -1e9, minZ: -1e9, maxX: 1e9, maxZ: 1e9 }; // no bounces
    const turns: number[] = [];
    for (let f = 0; f < 5000; f++) {
      const hx = Float64Array.from(s.headX);
      const hz = Float64Array.from(s.headZ);
      wanderStep(s.xs, s.zs, s.headX, s.headZ, n, rnd, 0.05, turn, big);
      for (let i = 0; i < n; i++) {
        turns.push(
          Math.atan2(hx[i] * s.headZ[i] - hz[i] * s.headX[i], hx[i] * s.headX[i] + hz[i] * s.headZ[i]),
        );
      }
    }
    for (let i = 0; i < n; i++) expect(Math.abs(Math.hypot(s.headX[i], s.headZ[i]) - 1)).toBeLessThan(1e-6);
    const m = turns.length;
    const mean = turns.reduce((a, b) => a + b, 0) / m;
    const variance = turns.reduce((a, b) => a + (b - mean) ** 2, 0) / m;
    let widest = 0;
    for (const t of turns) widest = Math.max(widest, Math.abs(t));
    expect(widest).toBeLessThanOrEqual(turn * (1 + 1e-5));
    expect(widest).toBeGreaterThan(turn * 0.999);
    expect(Math.abs(mean)).toBeLessThan(0.01 * turn);
    expect(variance / ((turn * turn) / 3)).toBeCloseTo(1, 2); // uniform on [-t, t]: variance t² / 3
    // Ten equal bins over [-turn, turn] each get a tenth of the turns, to within 2%.
    const bins = new Array<number>(10).fill(0);
    for (const t of turns) bins[Math.min(9, Math.floor(((t + turn) / (2 * turn)) * 10))]++;
    for (const b of bins) expect(Math.abs(b / m - 0.1)).toBeLessThan(0.002);
  });

  it('keeps every enemy inside the area, mirroring off the edges', () => {
    const n = 300;
    const s = start(n, 9);
    const rnd = mulberry32(9);
    let outside = 0;
    for (let f = 0; f < 600; f++) {
      wanderStep(s.xs, s.zs, s.headX, s.headZ, n, rnd, 0.5, TURN_RATE * DT, AREA);
      for (let i = 0; i < n; i++) {
        const x = s.xs[i];
        const z = s.zs[i];
        if (x < AREA.minX || x > AREA.maxX || z < AREA.minZ || z > AREA.maxZ) outside++;
      }
    }
    expect(outside).toBe(0);
  });
});
