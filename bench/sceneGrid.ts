/**
 * bench:scene's crowd frame against the uniform grid a game developer would write instead (bench/grid.ts).
 *
 * The scene's simulation wanders with crowd mode on, as in the rows above. After each of its frames, on the
 * positions that frame ended with, two contenders do a crowd frame's index work: the tree (one of its own,
 * made with the scene's options) `moveAll` to the new positions, then `querySeparationInto` at the crowd
 * radius; the grid rebuilds from scratch and computes the same counts and sums. Each is timed in CPU time
 * (the process's user + system), in alternating order from frame to frame, so load from elsewhere on the
 * machine hits both alike; their answers are compared id by id on every frame (counts exactly, sums within
 * float32 rounding: the outputs are the crowd's float32 pushes).
 */
import { CrowdQuadtree } from 'point-quadtree/crowd';
import type { Level } from '../src/sim/level';
import { DEFAULT_SETTINGS, type Settings } from '../src/sim/settings';
import { Simulation } from '../src/sim/simulation';
import { UniformGrid } from './grid';
import { gc, sink } from './timing';
import { checkSeparation } from './verify';

const DT = 1 / 60;
/** The issue's target (34): the tree's crowd frame at most this fraction of the grid's. */
export const GRID_TARGET = 0.5;

export const GRID_HEADER =
  ' enemies  level      tree cpu  grid cpu  tree/grid   tree wall  grid wall      pairs  target';

/** The crowd's outputs: per-id neighbour counts and float32 pushes. */
function outputs(n: number) {
  return { counts: new Int32Array(n), sumX: new Float32Array(n), sumY: new Float32Array(n) };
}

/** The upper median (the middle entry once sorted): the rows' medians. */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** CPU ms (user + system) since `from`. */
export function cpuSince(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
}

/**
 * The scene's simulation of `n` enemies wandering on `level` with crowd mode on (the scene's settings, then
 * the level's, then `overrides`), its settings, and the ids 0..n-1 its trees hold.
 */
export function wanderingScene(n: number, level: Level, overrides: Partial<Settings>) {
  const settings = { ...DEFAULT_SETTINGS, ...level.settings, enemies: n, moving: true, crowdMode: true };
  Object.assign(settings, overrides);
  const sim = new Simulation(level, settings, n);
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  return { sim, settings, ids };
}

/**
 * One row: `n` enemies on `level` (the scene's settings, then the level's, then `overrides`), `frames`
 * timed frames after `warmup`.
 */
export function gridRow(
  n: number,
  level: Level,
  levelName: string,
  overrides: Partial<Settings>,
  frames: number,
  warmup: number,
): string {
  const { sim, settings, ids } = wanderingScene(n, level, overrides);
  const r = settings.crowdRadius;
  const tree = CrowdQuadtree.from(sim.treeOptions(), ids, sim.xs, sim.zs);
  const grid = new UniformGrid();
  const ofTree = outputs(n);
  const ofGrid = outputs(n);
  const runTree = (): number => {
    tree.moveAll(sim.xs, sim.zs);
    return tree.querySeparationInto(r, ofTree.counts, ofTree.sumX, ofTree.sumY);
  };
  const runGrid = (): number =>
    grid.separationInto(sim.xs, sim.zs, n, r, ofGrid.counts, ofGrid.sumX, ofGrid.sumY);
  const cpu = { tree: [] as number[], grid: [] as number[] };
  const wall = { tree: [] as number[], grid: [] as number[] };
  const pairs: number[] = [];
  const time = (run: () => number, c: number[], w: number[]): number => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const found = run();
    w.push(performance.now() - t0);
    c.push(cpuSince(c0));
    return found;
  };
  gc();
  for (let f = 0; f < warmup + frames; f++) {
    sim.beginFrame();
    sim.step(DT, level.player.x, level.player.z);
    let byTree: number;
    let byGrid: number;
    if (f % 2 === 0) {
      byTree = time(runTree, cpu.tree, wall.tree);
      byGrid = time(runGrid, cpu.grid, wall.grid);
    } else {
      byGrid = time(runGrid, cpu.grid, wall.grid);
      byTree = time(runTree, cpu.tree, wall.tree);
    }
    if (byGrid !== byTree) throw new Error(`grid found ${byGrid} pairs, the tree ${byTree}, frame ${f}`);
    checkSeparation(`${levelName} ${n} frame ${f}: the grid`, ofTree, ofGrid, n, 1e-6);
    pairs.push(byTree);
    sink(byTree);
  }
  // the medians of the timed frames (the warm-up frames' figures are dropped)
  const ms = (v: number[]): number => median(v.slice(warmup));
  const ratio = ms(cpu.tree) / ms(cpu.grid);
  const verdict = ratio <= GRID_TARGET ? 'PASS' : 'MISS';
  const fmt = (v: number[]): string => ms(v).toFixed(2).padStart(9);
  return (
    `${n.toLocaleString('en-US').padStart(8)}  ${levelName.padEnd(8)} ${fmt(cpu.tree)} ${fmt(cpu.grid)} ` +
    `${`${ratio.toFixed(2)}x`.padStart(10)}   ${fmt(wall.tree)}  ${fmt(wall.grid)}  ${String(ms(pairs)).padStart(9)}  ` +
    `${verdict} (tree <= ${GRID_TARGET}x grid)`
  );
}
