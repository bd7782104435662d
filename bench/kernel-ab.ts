/*
 * Two builds of the WebAssembly separation kernel on the same tree, alternated in one process and timed by
 * CPU time: for a kernel change's before and after on a busy machine (bench:ab does this for the library's
 * JavaScript; the kernel's module is a singleton there). Each build is a folder holding its wasm.ts and
 * separationWasm.ts, e.g. `git archive <commit> src/quadtree/crowd | tar -x -C /tmp/a` (then A_DIR is /tmp/a/src/quadtree/crowd; before the v4 layout, src/quadtree/kernels). The tree is the
 * scene's after 30 frames (moved by the JavaScript kernel, so both builds see the same positions).
 *
 *   npx tsx --conditions=point-quadtree-source bench/kernel-ab.ts A_DIR B_DIR [default|swarm] [enemies]
 *
 * FLUSH=1 writes 16 MB between calls (the caches as cold as in the scene, where the frame's other work
 * runs in between); F64=1 asks for Float64Array sums (default: the scene's Float32Array); FAST=B (or A, or
 * AB) runs that build at the fast precision ({ precision: 'f32' }; a build from before the option ignores
 * it), so A_DIR and B_DIR may be one folder, to time the two precisions. Prints the
 * median CPU ms per call of each build over 8 alternations of 10 calls, and checks that both give the
 * same counts and (to rounding) the same sums. Builds from before SeparationWasm.run took the sparse and
 * wide leaf sides in radii (SPARSE, WIDE_SIDE) took them in coordinates (times the radius): compare such a
 * build only with another of its time.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setSeparationKernel } from 'point-quadtree/crowd';
import { distanceScale } from 'point-quadtree/internal/core/distance';
import type { TreeState } from 'point-quadtree/internal/core/state';
import { SPARSE, WIDE_SIDE } from 'point-quadtree/internal/query/leafPairs';
import { defaultLevel, parseLevel } from '../src/sim/level';
import { DEFAULT_SETTINGS } from '../src/sim/settings';
import { Simulation } from '../src/sim/simulation';

interface Kernel {
  run(...args: unknown[]): number;
}

const [dirA, dirB, which = 'default', nArg = '100000'] = process.argv.slice(2);
if (!dirA || !dirB) throw new Error('usage: kernel-ab.ts A_DIR B_DIR [default|swarm] [enemies]');
async function load(dir: string): Promise<Kernel> {
  const mod = await import(pathToFileURL(resolve(dir, 'wasm.ts')).href);
  const kernel = mod.separationWasm() as Kernel | null;
  if (kernel === null) throw new Error(`${dir}: the kernel does not compile here`);
  return kernel;
}
const builds = [await load(dirA), await load(dirB)];
const level =
  which === 'swarm'
    ? parseLevel(
        'swarm',
        JSON.parse(readFileSync(new URL('../assets/levels/swarm.json', import.meta.url), 'utf8')),
      ).level
    : defaultLevel();
const n = Number(nArg);
const sim = new Simulation(
  level,
  { ...DEFAULT_SETTINGS, ...level.settings, enemies: n, moving: true, crowdMode: true },
  n,
);
setSeparationKernel('js');
for (let f = 0; f < 30; f++) {
  sim.beginFrame();
  sim.applyRequested();
  sim.step(1 / 60, level.player.x, level.player.z);
}
setSeparationKernel('auto');
// The tree's state (the library's internals: this bench calls the kernel's run() directly).
const t = (sim.tree as unknown as { t: TreeState }).t;
const r = level.settings.crowdRadius ?? DEFAULT_SETTINGS.crowdRadius;
const Sum = process.env.F64 ? Float64Array : Float32Array;
const outs = builds.map(() => ({ c: new Int32Array(n), x: new Sum(n), y: new Sum(n) }));
const junk = new Float64Array(2 << 20);
/**
 * One call of a build's run(): since the v4 layout it takes the tree's state and the outputs (7 arguments);
 * before, the tree's arrays one by one (19), as here.
 */
function runBuild(kernel: Kernel, serial: number, o: (typeof outs)[number], fast: boolean): number {
  if (kernel.run.length <= 8) return kernel.run(t, serial, r, o.c, o.x, o.y, n, fast);
  return kernel.run(
    t.pool.xy,
    t.pool.ids,
    t.pool.top,
    t.nodeStart,
    t.nodeCount,
    t.idSlot,
    t.nodeLoose,
    t.nodeChild,
    t.nodeTop,
    serial,
    t.version,
    r,
    distanceScale(r),
    SPARSE,
    WIDE_SIDE,
    o.c,
    o.x,
    o.y,
    n,
  );
}
const fastFor = ['A', 'B'].map((b) => (process.env.FAST ?? '').includes(b));
const times: number[][] = [[], []];
const pairs = [0, 0];
for (let round = 0; round < 8; round++) {
  for (let b = 0; b < 2; b++) {
    const o = outs[b];
    for (let i = 0; i < 12; i++) {
      if (process.env.FLUSH) junk.fill(i);
      const c0 = process.cpuUsage();
      pairs[b] = runBuild(builds[b], -2 - b, o, fastFor[b]);
      const used = process.cpuUsage(c0);
      if (i >= 2) times[b].push((used.user + used.system) / 1000);
    }
  }
}
let countsDiffer = 0;
let sumsDiffer = 0;
for (let id = 0; id < n; id++) {
  if (outs[0].c[id] !== outs[1].c[id]) countsDiffer++;
  sumsDiffer = Math.max(
    sumsDiffer,
    Math.abs(outs[0].x[id] - outs[1].x[id]),
    Math.abs(outs[0].y[id] - outs[1].y[id]),
  );
}
const median = (v: number[]): number => [...v].sort((a, b) => a - b)[v.length >> 1];
const [ma, mb] = times.map(median);
console.log(
  `${which} ${n.toLocaleString('en-US')}: A ${ma.toFixed(3)} ms  B ${mb.toFixed(3)} ms  B/A ${(mb / ma).toFixed(3)}  ` +
    `pairs ${pairs[0]} / ${pairs[1]}  ids whose counts differ ${countsDiffer}  largest sum difference ${sumsDiffer.toExponential(1)}`,
);
