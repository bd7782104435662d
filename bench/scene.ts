/**
 * The scene's frame in Node (the simulation is DOM-free): 10,000 and 100,000 wandering enemies on the
 * default level with crowd mode on at the default crowd radius, with the crowd's WebAssembly kernel (at the
 * scene's default precision, the fast f32, and at 100,000 also at the exact f64) and again with its JavaScript one.
 * Prints the median of each phase per frame, and the O(n²) crowd scan's cost per pair (where
 * DEFAULT_NS_PER_PAIR in src/sim/crowd.ts comes from).
 *
 *   npx tsx --expose-gc bench/scene.ts [--frames 60] [--maxItems 8]
 *
 * Columns: frame is wall time; frame cpu the process's CPU time over the same frame (user + system, which
 * other processes on a busy machine inflate less than wall time; it includes the GC's helper threads and,
 * in the rows with workers, the worker threads). The rows with workers split the crowd's join over
 * worker_threads helpers (a SeparationTeam, as the page does with Web Workers); threads is the median
 * number of threads whose work went into a frame's join. main is the main thread's own CPU time per frame
 * (the mean over the timed frames, from /proc, Linux only; the calling thread sleeps in Atomics.wait while
 * it waits for a helper, so it does not count that): what a frame would take with a free core for each
 * helper, whatever else the machine runs meanwhile.
 * crowd = (pairs) + (separ.); (pairs) is the fused join (neighbour counts and pushes at the
 * frame's end positions) and the flags; (separ.) applies the pushes at the frame's start.
 * Then the crowd frame's index work against a uniform grid's on the same positions (bench/sceneGrid.ts),
 * and last moveAll's pass in the kernel against its JavaScript pass (bench/sceneMove.ts).
 */

import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { separationKernel, setSeparationKernel } from 'point-quadtree/crowd';
import { SeparationTeam } from 'point-quadtree/parallel';
import { Crowd, pairsChecked } from '../src/sim/crowd';
import { ChangeList } from '../src/sim/detection';
import { defaultLevel, type Level, parseLevel } from '../src/sim/level';
import { DEFAULT_SETTINGS, type Settings } from '../src/sim/settings';
import { Simulation } from '../src/sim/simulation';
import { startNodeHelpers, untilReady } from './nodeHelpers';
import { GRID_HEADER, gridRow } from './sceneGrid';
import { MOVE_HEADER, moveRow } from './sceneMove';
import { gc, sink, sinkChecksum } from './timing';

const DT = 1 / 60;
const WARMUP_FRAMES = 30;
const framesArg = process.argv.indexOf('--frames');
const FRAMES = framesArg >= 0 ? Number(process.argv[framesArg + 1]) : 60;
const maxItemsArg = process.argv.indexOf('--maxItems');
const MAX_ITEMS = maxItemsArg >= 0 ? Number(process.argv[maxItemsArg + 1]) : DEFAULT_SETTINGS.maxItems;

/** CPU time of this process's main thread so far, ms (Linux /proc; NaN elsewhere). */
function mainThreadMs(): number {
  const file = `/proc/self/task/${process.pid}/stat`;
  if (!existsSync(file)) return Number.NaN;
  const text = readFileSync(file, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in ticks.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1000 / CLOCK_TICKS);
}
/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second. */
const CLOCK_TICKS = 100;

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

async function frameRow(
  n: number,
  level: Level = defaultLevel(),
  overrides: Partial<Settings> = {},
  team: SeparationTeam | null = null,
): Promise<string> {
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
  if (team !== null) {
    sim.crowd.setTeam(team, '');
    const changes = new ChangeList(n);
    const find = () => sim.crowd.find(sim.tree, sim.xs, sim.zs, n, settings.crowdRadius, false, changes);
    await untilReady(() => team.last.ready, team.helpers, find);
  }
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
  const threads: number[] = [];
  const phases: number[][] = [[], [], [], []];
  let main0 = 0;
  gc();
  for (let f = 0; f < WARMUP_FRAMES + FRAMES; f++) {
    if (f === WARMUP_FRAMES) main0 = mainThreadMs();
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
    threads.push(sim.crowd.threads);
    if (team !== null) {
      const l = team.last;
      phases[0].push(l.publishMs);
      phases[1].push(l.ownMs);
      phases[2].push(l.waitMs);
      phases[3].push(l.mergeMs);
    }
    sink(sim.crowd.pairs);
  }
  const main = (mainThreadMs() - main0) / FRAMES;
  // The kernel and the precision the crowd's sums ran at (the scene's default: f32), and moveAll's pass.
  const ran = `${separationKernel()} ${sim.crowd.precisionRan}, moveAll ${sim.tree.lastMove.kernel}`;
  const row =
    `${n.toLocaleString('en-US').padStart(8)} ${fmt(median(frame))} ${fmt(median(cpu))} ${fmt(main)} ${fmt(median(crowd))} ${fmt(median(find))} ` +
    `${fmt(median(separate))} ${fmt(median(wander))} ${fmt(median(tree))} ${String(Math.round(median(pairs))).padStart(9)}  ${String(median(threads)).padStart(7)}  ${ran}`;
  if (team === null) return row;
  return (
    `${row}\n    the join's main thread, medians: walk + publish ${median(phases[0]).toFixed(2)}, own range ` +
    `${median(phases[1]).toFixed(2)}, waiting ${median(phases[2]).toFixed(2)}, add + scatter ${median(phases[3]).toFixed(2)} ms; ` +
    `its share of the join at the end ${team.last.share.toFixed(2)} of a worker's`
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
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
console.log(`${cpus().length} cores; load average at the start ${load()} (1, 5, 15 min)`);
console.log(
  ' enemies    frame      cpu     main    crowd  (pairs) (separ.)   wander     tree     pairs  threads  kernel',
);
for (const kernel of ['auto', 'js'] as const) {
  setSeparationKernel(kernel);
  for (const n of [10_000, 100_000]) console.log(await frameRow(n));
  // The scene's default is the fast precision (crowdPrecision 'f32'); the exact sums beside it.
  if (kernel === 'auto') console.log(await frameRow(100_000, defaultLevel(), { crowdPrecision: 'f64' }));
}
setSeparationKernel('auto');
const swarm = levelFile('swarm');
const swarmLabel = `level swarm (${swarm.width} x ${swarm.depth}, ${swarm.settings.distribution}, its own maxItems ${swarm.settings.maxItems}, minSize ${swarm.settings.minSize})`;
console.log(`${swarmLabel}:`);
console.log(await frameRow(100_000, swarm, { maxItems: swarm.settings.maxItems }));
console.log(await frameRow(100_000, swarm, { maxItems: swarm.settings.maxItems, crowdPrecision: 'f64' }));
// The page's choice: one worker per core beyond the main thread's, at most 3 (src/sim/threads.ts).
const WORKERS = Math.max(1, Math.min(cpus().length - 1, 3));
const helpers = startNodeHelpers(WORKERS);
// As the page makes it (src/app/workers.ts).
const team = new SeparationTeam(helpers.ports, { claimWaitMs: 2, minPairs: 4096, timing: true });
console.log(
  `with ${WORKERS} worker thread${WORKERS > 1 ? 's' : ''} (worker_threads) beside the main thread:`,
);
console.log(await frameRow(100_000, defaultLevel(), {}, team));
console.log(`${swarmLabel}, with ${WORKERS} worker thread${WORKERS > 1 ? 's' : ''}:`);
console.log(await frameRow(100_000, swarm, { maxItems: swarm.settings.maxItems }, team));
team.dispose();
await helpers.terminate();
console.log(`load average at the end ${load()}`);
console.log(
  `the crowd frame against a uniform grid (bench/grid.ts; bench/sceneGrid.ts): on the same positions each frame, the tree's moveAll + querySeparationInto and the grid's rebuild + the same counts and sums, alternated; CPU and wall ms, medians of ${FRAMES} frames after ${WARMUP_FRAMES}; load ${load()}`,
);
console.log(`${GRID_HEADER}  kernel`);
for (const [name, level, own] of [
  ['default', defaultLevel(), { maxItems: MAX_ITEMS }],
  ['swarm', swarm, { maxItems: swarm.settings.maxItems }],
] as const) {
  for (const n of [10_000, 100_000]) {
    console.log(`${gridRow(n, level, name, own, FRAMES, WARMUP_FRAMES)}  ${separationKernel()}`);
  }
}
setSeparationKernel('js');
console.log(
  `${gridRow(100_000, defaultLevel(), 'default', { maxItems: MAX_ITEMS }, FRAMES, WARMUP_FRAMES)}  ${separationKernel()}`,
);
setSeparationKernel('auto');
console.log(
  `moveAll's pass over the ids in the kernel (a CrowdQuadtree's) against the JavaScript pass (a PointQuadtree's), on the same positions each frame, alternated (bench/sceneMove.ts); CPU and wall ms, medians of ${FRAMES} frames after ${WARMUP_FRAMES}; load ${load()}`,
);
console.log(MOVE_HEADER);
for (const [name, level, own] of [
  ['default', defaultLevel(), { maxItems: MAX_ITEMS }],
  ['swarm', swarm, { maxItems: swarm.settings.maxItems }],
] as const) {
  for (const n of [10_000, 100_000]) console.log(moveRow(n, level, name, own, FRAMES, WARMUP_FRAMES));
}
const ns = bruteNsPerPair(5000);
console.log(
  `O(n²) crowd scan: ${ns.toFixed(2)} ns per pair (5,000 enemies); 200 ms a frame reached at about ${Math.round(Math.sqrt((2 * 200e6) / ns)).toLocaleString('en-US')} enemies`,
);
console.log(`sink ${sinkChecksum()}`);
