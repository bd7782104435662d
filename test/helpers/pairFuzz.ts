import type { PointQuadtree, QuadtreeOptions } from 'point-quadtree';
import { gaussian } from '../../src/sim/random';

/*
 * The seeded churn the all-pairs and separation tests share: the kinds of data, the cases (seed, kind,
 * options, radii) and one round of random inserts, moves and removals that keeps a map of the points.
 */

export type Points = Map<number, [number, number]>;

export type Kind = 'uniform' | 'clustered' | 'grid' | 'coincident';

export function makePoint(kind: Kind, rnd: () => number): [number, number] {
  if (kind === 'uniform') return [rnd() * 100, rnd() * 100];
  if (kind === 'grid') return [Math.round(rnd() * 20) * 5, Math.round(rnd() * 20) * 5];
  if (kind === 'coincident') return [Math.floor(rnd() * 4) * 25, 50];
  const cx = rnd() < 0.5 ? 30 : 70;
  return [cx + gaussian(rnd) * 3, 50 + gaussian(rnd) * 3];
}

export const FUZZ: { seed: number; kind: Kind; options: Omit<QuadtreeOptions, 'bounds'>; radii: number[] }[] =
  [
    { seed: 11, kind: 'uniform', options: {}, radii: [0, 2, 5, 10, 40] },
    { seed: 12, kind: 'uniform', options: { maxItems: 2, minSize: 0.5 }, radii: [0, 2, 5, 10] },
    { seed: 13, kind: 'clustered', options: { maxItems: 4, minSize: 0.25 }, radii: [0.5, 2, 5] },
    // A grid 5 apart: radius 5 is exactly the distance of every neighbouring pair.
    { seed: 14, kind: 'grid', options: { maxItems: 3, minSize: 1 }, radii: [0, 5, 5 * Math.SQRT2, 7.5] },
    { seed: 15, kind: 'coincident', options: { maxItems: 2, minSize: 1 }, radii: [0, 24.9, 25] },
    { seed: 16, kind: 'uniform', options: { maxItems: 4, minSize: 1, looseness: 0.75 }, radii: [0, 2, 8] },
    { seed: 17, kind: 'clustered', options: { maxItems: 8, minSize: 0.5, looseness: 5 }, radii: [1, 4] },
  ];

/**
 * `ops` random operations on ids 0..299: half inserts or far moves (now and then outside the root, so it
 * grows), small moves, removals; `points` follows the tree.
 */
export function churn(tree: PointQuadtree, points: Points, kind: Kind, rnd: () => number, ops: number): void {
  for (let k = 0; k < ops; k++) {
    const id = Math.floor(rnd() * 300);
    const op = rnd();
    if (op < 0.5 || !points.has(id)) {
      const p =
        rnd() < 0.03 ? ([rnd() * 300 - 100, rnd() * 300 - 100] as [number, number]) : makePoint(kind, rnd);
      if (points.has(id)) tree.move(id, p[0], p[1]);
      else tree.insert(id, p[0], p[1]);
      points.set(id, p);
    } else if (op < 0.8) {
      const [x, y] = points.get(id)!;
      const p: [number, number] = [x + (rnd() - 0.5) * 4, y + (rnd() - 0.5) * 4];
      tree.move(id, p[0], p[1]);
      points.set(id, p);
    } else {
      tree.remove(id);
      points.delete(id);
    }
  }
}
