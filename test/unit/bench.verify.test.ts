// The benchmark's own correctness checker (bench/verify.ts) and its data (bench/data.ts): a harness that
// cannot see a wrong answer would time wrong code happily.
import { describe, expect, it } from 'vitest';
import type { Built } from '../../bench/contender';
import { applySteps, makeCentres, makePoints, makeSteps, STEP_FRAMES, WORLD } from '../../bench/data';
import { bruteCircle, Expectation, Mismatch } from '../../bench/verify';
import { mulberry32 } from '../../src/sim/random';

/** A contender that answers by brute force, then lets `tamper` spoil the answer. */
function fakeIndex(
  xs: Float64Array,
  ys: Float64Array,
  n: number,
  tamper: (ids: number[], q: { x: number; y: number; r: number }) => void = () => {},
): Built {
  return {
    collect(x, y, r, out) {
      const ids = bruteCircle(xs, ys, n, x, y, r).reverse(); // any order must be accepted
      tamper(ids, { x, y, r });
      out.push(...ids);
    },
    queryCentres: () => 0,
    queryPoints: () => 0,
    updates: [],
  };
}

const site = { workload: 'test', data: 'uniform', n: 0 };

describe('bench data (seed 1 per kind and size)', () => {
  it('mulberry32 is deterministic and in [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    for (let i = 0; i < 1000; i++) {
      const v = a();
      expect(v).toBe(b());
      expect(v >= 0 && v < 1).toBe(true);
    }
  });

  it('makes the same points every time, inside the world', () => {
    for (const kind of ['uniform', 'clustered'] as const) {
      const p = makePoints(kind, 5000);
      const q = makePoints(kind, 5000);
      expect(Array.from(p.xs)).toEqual(Array.from(q.xs));
      for (let i = 0; i < p.n; i++) {
        expect(p.xs[i] >= 0 && p.xs[i] <= WORLD && p.ys[i] >= 0 && p.ys[i] <= WORLD).toBe(true);
        expect(p.ids[i]).toBe(i);
      }
    }
  });

  it('steps are at most 1 long, and the walk never repeats: points wander off like a random walk', () => {
    const n = 2000;
    const p = makePoints('uniform', n);
    const steps = makeSteps('uniform', n);
    for (let k = 0; k < steps.length; k += 2)
      expect(Math.hypot(steps[k], steps[k + 1])).toBeLessThanOrEqual(1);
    const xs = p.xs.slice();
    const ys = p.ys.slice();
    const frames = 4 * STEP_FRAMES;
    const step = (f: number, i: number) => {
      const x0 = xs[i];
      const y0 = ys[i];
      applySteps(xs, ys, n, steps, f);
      return [xs[i] - x0, ys[i] - y0];
    };
    // Point 7 far from the edges (never clamped): its steps in frame f and f + STEP_FRAMES differ.
    xs[7] = ys[7] = WORLD / 2;
    const taken: number[][] = [];
    for (let f = 0; f < frames; f++) taken.push(step(f, 7));
    for (let f = 0; f + STEP_FRAMES < frames; f++) expect(taken[f + STEP_FRAMES]).not.toEqual(taken[f]);
    // Mean squared displacement of unclamped points after `frames` frames is frames * E[len^2] = frames / 3.
    let sum = 0;
    let m = 0;
    for (let i = 0; i < n; i++) {
      if (p.xs[i] > 100 && p.xs[i] < WORLD - 100 && p.ys[i] > 100 && p.ys[i] < WORLD - 100 && i !== 7) {
        sum += (xs[i] - p.xs[i]) ** 2 + (ys[i] - p.ys[i]) ** 2;
        m++;
      }
    }
    const msd = sum / m;
    expect(msd).toBeGreaterThan((frames / 3) * 0.8);
    expect(msd).toBeLessThan((frames / 3) * 1.2);
  });
});

describe('Expectation (the brute-force checker), seed-fixed data', () => {
  const n = 3000;
  const p = makePoints('clustered', n);
  const { cx, cy } = makeCentres(300, n);

  it('accepts a right answer in any order, for small and large radii', () => {
    for (const r of [0, 10, 50, 400]) {
      const exp = new Expectation(site, p.xs, p.ys, n, cx, cy, 300, r);
      expect(() => exp.check(fakeIndex(p.xs, p.ys, n), 'right')).not.toThrow();
    }
  });

  it('counts: the total of a timed pass must match', () => {
    const exp = new Expectation(site, p.xs, p.ys, n, cx, cy, 300, 50);
    let total = 0;
    for (let q = 0; q < 300; q++) total += bruteCircle(p.xs, p.ys, n, cx[q], cy[q], 50).length;
    expect(exp.total()).toBe(total);
    expect(() => exp.checkTotal(total, 1, 'right')).not.toThrow();
    expect(() => exp.checkTotal(total + 1, 1, 'off by one')).toThrow(Mismatch);
  });

  const spoilers: [string, (ids: number[]) => void][] = [
    ['a missing id', (ids) => ids.pop()],
    ['an extra id', (ids) => ids.push(ids.length ? (ids[0] + 1) % n : 0)],
    [
      'a repeated id',
      (ids) => {
        if (ids.length) ids.push(ids[0]);
      },
    ],
    [
      'a wrong id',
      (ids) => {
        if (ids.length) ids[0] = (ids[0] + 1) % n;
      },
    ],
  ];
  for (const [what, spoil] of spoilers) {
    it(`rejects ${what}, on sampled and fingerprinted queries alike`, () => {
      // 300 queries x 3000 points is within the brute budget: every query is compared as a sorted set
      const exp = new Expectation(site, p.xs, p.ys, n, cx, cy, 300, 50);
      expect(exp.sampleStride).toBe(1);
      expect(() => exp.check(fakeIndex(p.xs, p.ys, n, spoil), what)).toThrow(Mismatch);
      // every point queries: 3000 x 3000 is still sampled in full, so also force the fingerprint path
      const big = makePoints('uniform', 40000);
      const centres = makeCentres(2000, 40000);
      const fp = new Expectation(site, big.xs, big.ys, big.n, centres.cx, centres.cy, 2000, 30);
      expect(fp.sampleStride).toBeGreaterThan(1);
      // spoil only one query that is outside the brute-force sample and has hits
      let target = 1;
      while (
        target % fp.sampleStride === 0 ||
        bruteCircle(big.xs, big.ys, big.n, centres.cx[target], centres.cy[target], 30).length === 0
      ) {
        target++;
      }
      const tampered = fakeIndex(big.xs, big.ys, big.n, (ids, q) => {
        if (q.x === centres.cx[target] && q.y === centres.cy[target]) spoil(ids);
      });
      expect(() => fp.check(tampered, what)).toThrow(/fingerprint/);
    });
  }

  it('names the contender, the workload and the query in the error', () => {
    const exp = new Expectation(
      { workload: 'W2 r=50', data: 'clustered', n },
      p.xs,
      p.ys,
      n,
      cx,
      cy,
      300,
      50,
    );
    expect(() =>
      exp.check(
        fakeIndex(p.xs, p.ys, n, (ids) => ids.push(n - 1)),
        'somebody',
      ),
    ).toThrow(/somebody is wrong in W2 r=50 clustered N=3000: circle/);
  });
});
