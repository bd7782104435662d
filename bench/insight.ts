/**
 * What the top-down map's analysis costs per frame in Node (src/sim/insight.ts: no DOM): 100,000 enemies on
 * the default level, static (the player walks: a new circle every frame) and wandering (the tree changes
 * every frame: a new node copy plus the analysis). Also the enemy image's per-enemy loop (typed arrays only;
 * putImageData and the canvas draws are DOM work, timed in the browser by the HUD's "map + plot" row).
 *
 *   npx tsx --expose-gc bench/insight.ts [--frames 120] [--enemies 100000]
 */

import { QueryInsight } from '../src/sim/insight';
import { defaultLevel } from '../src/sim/level';
import { DEFAULT_SETTINGS } from '../src/sim/settings';
import { Simulation } from '../src/sim/simulation';
import { gc, sink } from './timing';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const FRAMES = arg('--frames', 120);
const ENEMIES = arg('--enemies', 100_000);
const DT = 1 / 60;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[s.length >> 1];
}

function run(moving: boolean, radius: number): string {
  const level = defaultLevel();
  const sim = new Simulation(level, { ...DEFAULT_SETTINGS, enemies: ENEMIES, moving, radius }, ENEMIES);
  const insight = new QueryInsight();
  const analyse: number[] = [];
  const copies: number[] = [];
  const dots: number[] = [];
  const size = 240;
  const density = new Uint16Array(size * size);
  const pixels = new Uint32Array(size * size);
  const shades = [0, 1, 2, 3, 4];
  let px = -40;
  for (let f = 0; f < FRAMES + 20; f++) {
    px += 0.5; // the player walks east: a new circle every frame
    sim.beginFrame();
    sim.step(DT, px, 0);
    const version = insight.revision;
    const t0 = performance.now();
    const tree = sim.tree;
    const fresh = tree.version;
    insight.analyse(tree, px, 0, radius, 0, true);
    const t1 = performance.now();
    // The map's enemy image loop (as src/ui/map.ts drawDots, without the DOM).
    const g = sim.ground;
    const scale = size / (g.maxX - g.minX);
    density.fill(0);
    const { xs, zs, count } = sim;
    const minX = g.minX;
    const minZ = g.minZ;
    const last = size - 1;
    for (let i = 0; i < count; i++) {
      let x = ((xs[i] - minX) * scale) | 0;
      let y = ((zs[i] - minZ) * scale) | 0;
      x = x < 0 ? 0 : x > last ? last : x;
      y = y < 0 ? 0 : y > last ? last : y;
      density[y * size + x]++;
    }
    for (let p = 0; p < pixels.length; p++) pixels[p] = shades[density[p] > 4 ? 4 : density[p]];
    const t2 = performance.now();
    sink(insight.visited + insight.pruned + insight.covered + pixels[f] + version + fresh);
    if (f >= 20) {
      analyse.push(t1 - t0);
      dots.push(t2 - t1);
      copies.push(insight.nodeCount);
    }
    if (f % 30 === 0) gc();
  }
  return (
    `${moving ? 'wandering' : 'static   '} r=${String(radius).padStart(3)}  nodes ${median(copies)}  ` +
    `analysis ${median(analyse).toFixed(3)} ms (max ${Math.max(...analyse).toFixed(3)})  ` +
    `enemy image loop ${median(dots).toFixed(3)} ms  ` +
    `last counts ${insight.visited}/${insight.pruned}/${insight.covered}`
  );
}

console.log(`${ENEMIES} enemies, ${FRAMES} frames, median per frame (Node ${process.version})`);
for (const moving of [false, true]) for (const r of [15, 100]) console.log(run(moving, r));
