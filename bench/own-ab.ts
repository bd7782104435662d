/*
 * A crowd tree's fused join in its own instance of the kernel (the tree's arrays read where its moveAll
 * pass keeps them: docs/crowd.md, "One memory per crowd tree") against the same join in the module's shared
 * instance (every array copied in, as before), alternated frame by frame in one process on two trees that
 * make the same moves: the second tree's `own` is cut after each moveAll, so its join takes the shared
 * instance. The crowd wanders as the scene's does (straight walks at the scene's speed, bouncing off the
 * edges; Float32Array positions and sums), at the scene's options (maxItems 16, minSize 1, radius 1.5).
 *
 *   npx tsx --conditions=point-quadtree-source bench/own-ab.ts [frames]
 *
 * Prints per row the median ms of each call and the median of the frames' ratios (own / shared), after 60
 * untimed frames, and checks that both trees found the same pairs every frame.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { CrowdQuadtree } from 'point-quadtree/crowd';
import { CROWD } from 'point-quadtree/internal/crowd/CrowdQuadtree';
import { mulberry32 } from '../src/sim/random';
import { median } from './timing';

const WARMUP = 60;
const SPEED = 4 / 60;

function row(n: number, side: number, frames: number, precision: 'f64' | 'f32'): string {
  const rnd = mulberry32(7);
  const xs = new Float32Array(n);
  const ys = new Float32Array(n);
  const vx = new Float32Array(n);
  const vy = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    xs[i] = rnd() * side;
    ys[i] = rnd() * side;
    const a = rnd() * 2 * Math.PI;
    vx[i] = Math.cos(a) * SPEED;
    vy[i] = Math.sin(a) * SPEED;
  }
  const ids = Int32Array.from({ length: n }, (_, i) => i);
  const options = { bounds: { minX: 0, minY: 0, maxX: side, maxY: side }, maxItems: 16, minSize: 1 };
  const own = CrowdQuadtree.from(options, ids, xs, ys);
  const shared = CrowdQuadtree.from(options, ids, xs, ys);
  const counts = new Int32Array(n);
  const sumX = new Float32Array(n);
  const sumY = new Float32Array(n);
  const asked = { precision } as const;
  const ownMs: number[] = [];
  const sharedMs: number[] = [];
  for (let f = 0; f < frames + WARMUP; f++) {
    for (let i = 0; i < n; i++) {
      const x = xs[i] + vx[i];
      const y = ys[i] + vy[i];
      if (x < 0 || x > side) vx[i] = -vx[i];
      else xs[i] = x;
      if (y < 0 || y > side) vy[i] = -vy[i];
      else ys[i] = y;
    }
    own.moveAll(xs, ys);
    shared.moveAll(xs, ys);
    shared[CROWD]().own = null;
    let pairs = -1;
    for (let k = 0; k < 2; k++) {
      const tree = (k ^ (f & 1)) === 0 ? own : shared;
      const t0 = performance.now();
      const found = tree.querySeparationInto(1.5, counts, sumX, sumY, asked);
      const ms = performance.now() - t0;
      if (pairs >= 0 && found !== pairs) throw new Error(`frame ${f}: ${found} pairs against ${pairs}`);
      pairs = found;
      if (f >= WARMUP) (tree === own ? ownMs : sharedMs).push(ms);
    }
  }
  const ratio = median(ownMs.map((ms, i) => ms / sharedMs[i]));
  const where = `${n.toLocaleString('en-US')} in ${side} x ${side}, ${precision}`;
  return `${where.padEnd(28)} own ${median(ownMs).toFixed(3)} ms, shared ${median(sharedMs).toFixed(3)} ms, own / shared ${ratio.toFixed(3)}`;
}

const frames = Number(process.argv[2] ?? 300);
console.log(
  `${frames} frames after ${WARMUP}; load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`,
);
console.log(row(10_000, 200, 3 * frames, 'f64'));
console.log(row(100_000, 200, frames, 'f64'));
console.log(row(100_000, 200, frames, 'f32'));
console.log(row(100_000, 600, frames, 'f64'));
