/**
 * bench:scene's moveAll, on its two passes over the ids: a CrowdQuadtree's (the WebAssembly kernel's, where it
 * compiles: crowd/moveKernel.ts) against a PointQuadtree's (JavaScript), both made with the scene's options
 * and moved to the positions each frame of the scene's simulation ends with. Timed in CPU time (user +
 * system) and wall time, in alternating order from frame to frame; every tenth frame both trees answer three
 * circle queries, which must agree (the passes give the same tree: the unit suites check it node for node).
 */
import { PointQuadtree } from 'point-quadtree';
import { CrowdQuadtree } from 'point-quadtree/crowd';
import type { Level } from '../src/sim/level';
import type { Settings } from '../src/sim/settings';
import { cpuSince, median, wanderingScene } from './sceneGrid';
import { gc, sink } from './timing';

const DT = 1 / 60;

export const MOVE_HEADER = ' enemies  level     kernel cpu   js cpu  kernel/js  kernel wall  js wall   pass';

/** The ids within `r` of (x, y), sorted, as one string. */
function around(tree: PointQuadtree, x: number, y: number, r: number): string {
  return tree
    .queryCircle(x, y, r)
    .sort((a, b) => a - b)
    .join();
}

/**
 * One row: `n` enemies wandering on `level` with crowd mode on (the scene's settings, then the level's, then
 * `overrides`), `frames` timed frames after `warmup`.
 */
export function moveRow(
  n: number,
  level: Level,
  levelName: string,
  overrides: Partial<Settings>,
  frames: number,
  warmup: number,
): string {
  const { sim, ids } = wanderingScene(n, level, overrides);
  const options = sim.treeOptions();
  const kernel = CrowdQuadtree.from(options, ids, sim.xs, sim.zs);
  const js = PointQuadtree.from(options, ids, sim.xs, sim.zs);
  const cpu = { kernel: [] as number[], js: [] as number[] };
  const wall = { kernel: [] as number[], js: [] as number[] };
  const time = (tree: PointQuadtree, c: number[], w: number[]): void => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    tree.moveAll(sim.xs, sim.zs);
    w.push(performance.now() - t0);
    c.push(cpuSince(c0));
  };
  gc();
  for (let f = 0; f < warmup + frames; f++) {
    sim.beginFrame();
    sim.step(DT, level.player.x, level.player.z);
    if (f % 2 === 0) {
      time(kernel, cpu.kernel, wall.kernel);
      time(js, cpu.js, wall.js);
    } else {
      time(js, cpu.js, wall.js);
      time(kernel, cpu.kernel, wall.kernel);
    }
    if (f % 10 === 0) {
      for (let q = 0; q < 3; q++) {
        const x = sim.xs[q * 97];
        const y = sim.zs[q * 97];
        const a = around(kernel, x, y, 5);
        if (a !== around(js, x, y, 5)) throw new Error(`the passes' trees answer differently, frame ${f}`);
        sink(a.length);
      }
    }
  }
  const ms = (v: number[]): number => median(v.slice(warmup));
  const fmt = (v: number[], width: number): string => ms(v).toFixed(2).padStart(width);
  const ratio = ms(cpu.kernel) / ms(cpu.js);
  return (
    `${n.toLocaleString('en-US').padStart(8)}  ${levelName.padEnd(8)} ${fmt(cpu.kernel, 11)} ${fmt(cpu.js, 8)} ` +
    `${`${ratio.toFixed(2)}x`.padStart(10)}  ${fmt(wall.kernel, 11)} ${fmt(wall.js, 8)}   ${kernel.lastMove.kernel}`
  );
}
