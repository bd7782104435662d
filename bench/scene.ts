/**
 * The scene's frame in Node (the simulation is DOM-free): 10,000 and 100,000 wandering enemies on the
 * default level with crowd mode on at the default crowd radius, with the crowd's WebAssembly kernel and again
 * with its JavaScript one. Prints the median of each phase per frame, and the O(n²) crowd scan's cost per
 * pair (where DEFAULT_NS_PER_PAIR in src/sim/crowd.ts comes from).
 *
 *   npx tsx --expose-gc bench/scene.ts [--frames 60] [--maxItems 8]
 *
 * Columns: frame is wall time; frame cpu the process's CPU time over the same frame (user + system, which
 * other processes on a busy machine inflate less than wall time; it includes the GC's helper threads).
 * crowd = (pairs) + (separ.); (pairs) is the fused join (neighbour counts and pushes at the
 * frame's end positions) and the flags; (separ.) applies the pushes at the frame's start.
 */

import { readFileSync } from 'node:fs';
import { separationKernel, setSeparationKernel } from 'point-quadtree';
import { Crowd, pairsChecked } from '../src/sim/crowd';
import { ChangeList } from '../src/sim/detection';
import { defaultLevel, type Level, parseLevel } from '../src/sim/level';
import { DEFAULT_SETTINGS } from '../src/sim/settings';
import { Simulation } from '../src/sim/simulation';
import { gc, sink, sinkChecksum } from './timing';

const DT = 1 / 60;
const WARMUP_FRAMES = 30;
const framesArg = process.argv.indexOf('--frames');
const FRAMES = framesArg >= 0 ? Number(process.argv[framesArg + 1]) : 60;
const maxItemsArg = process.argv.indexOf('--maxItems');
const MAX_ITEMS = maxItemsArg >= 0 ? Number(process.argv[maxItemsArg + 1]) : DEFAULT_SETTINGS.maxItems;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[s.length >> 1];
}

const fmt = (ms: number): string => ms.toFixed(2).padStart(8);

/** A level of assets/levels by name, with its settings over the defaults. */
function levelFile(name: string): Level {
  const text = readFileSync(new URL(`../assets/levels/${name}.json`, import.meta.url), 'utf8');
  return parseLevel(name, JSON.parse(text)).level;
}

function frameRow(n: number, level: Level = defaultLevel(), overrides: { maxItems?: number } = {}): string {
  const settings = {
    ...DEFAULT_SETTINGS,
    ...level.settings,
    enemies: n,
    moving: true,
    crowdMode: true,
    maxItems: MAX_ITEMS,
    ...overrides,
  };
  const sim = new Simulation(level, settings, n);
  const px = level.player.x;
  const pz = level.player.z;
  const frame: number[] = [];
  const cpu: number[] = [];
  const crowd: number[] = [];
  const separate: number[] = [];
  const find: number[] = [];
  const wander: number[] = [];
  const tree: number[] = [];
  const pairs: number[] = [];
  gc();
  for (let f = 0; f < WARMUP_FRAMES + FRAMES; f++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    sim.beginFrame();
    sim.applyRequested();
    sim.step(DT, px, pz);
    const ms = performance.now() - t0;
    const used = process.cpuUsage(c0);
    if (f < WARMUP_FRAMES) continue;
    frame.push(ms);
    cpu.push((used.user + used.system) / 1000);
    crowd.push(sim.crowdMs());
    separate.push(sim.crowd.separateMs);
    find.push(sim.crowd.ms);
    wander.push(sim.wanderMs);
    tree.push(sim.treeUpdateMs);
    pairs.push(sim.crowd.pairs);
    sink(sim.crowd.pairs);
  }
  return (
    `${n.toLocaleString('en-US').padStart(8)} ${fmt(median(frame))} ${fmt(median(cpu))} ${fmt(median(crowd))} ${fmt(median(find))} ` +
    `${fmt(median(separate))} ${fmt(median(wander))} ${fmt(median(tree))} ${String(Math.round(median(pairs))).padStart(9)}`
  );
}

/** ns per pair of the crowd's O(n²) scan over `n` uniform points, median of 5 scans. */
function bruteNsPerPair(n: number): number {
  const level = defaultLevel();
  const sim = new Simulation(level, { ...DEFAULT_SETTINGS, enemies: n }, n);
  const crowd = new Crowd(n);
  const changes = new ChangeList(n);
  const times: number[] = [];
  for (let k = 0; k < 7; k++) {
    crowd.find(sim.tree, sim.xs, sim.zs, n, DEFAULT_SETTINGS.crowdRadius, true, changes);
    changes.clear();
    if (k >= 2) times.push(crowd.bruteMs);
    sink(crowd.pairs);
  }
  return (median(times) * 1e6) / pairsChecked(n);
}

console.log(
  `scene frame in Node ${process.version}, default level 200 x 200, crowd radius ${DEFAULT_SETTINGS.crowdRadius}, moving at speed ${DEFAULT_SETTINGS.speed}, maxItems ${MAX_ITEMS}, minSize ${DEFAULT_SETTINGS.minSize}`,
);
console.log(`median of ${FRAMES} frames after ${WARMUP_FRAMES} warm-up frames, ms per frame`);
console.log(' enemies    frame      cpu    crowd  (pairs) (separ.)   wander     tree     pairs  kernel');
for (const kernel of ['auto', 'js'] as const) {
  setSeparationKernel(kernel);
  for (const n of [10_000, 100_000]) console.log(`${frameRow(n)}  ${separationKernel()}`);
}
setSeparationKernel('auto');
const swarm = levelFile('swarm');
console.log(
  `level swarm (${swarm.width} x ${swarm.depth}, ${swarm.settings.distribution}, its own maxItems ${swarm.settings.maxItems}, minSize ${swarm.settings.minSize}):`,
);
console.log(`${frameRow(100_000, swarm, { maxItems: swarm.settings.maxItems })}  ${separationKernel()}`);
const ns = bruteNsPerPair(5000);
console.log(
  `O(n²) crowd scan: ${ns.toFixed(2)} ns per pair (5,000 enemies); 200 ms a frame reached at about ${Math.round(Math.sqrt((2 * 200e6) / ns)).toLocaleString('en-US')} enemies`,
);
console.log(`sink ${sinkChecksum()}`);
