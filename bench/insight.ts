/**
 * What the top-down map costs per frame in Node, the part that is not DOM work: 100,000 enemies on the
 * default level, static (the player walks: a new circle every frame) and wandering (the tree changes most
 * frames). Per frame, as src/ui/map.ts runs it: the analysis of the player's query (src/sim/insight.ts,
 * forced: the enemies may have moved), one slice of the enemy image (src/ui/densityImage.ts; the frame that
 * finishes a pass also shades the pixels), and, on the frames the map redraws its leaves (the version
 * changed, at most every 6 frames), the walk over the leaves it outlines. The canvas calls themselves are
 * timed in the browser by the map's own timing (`npx tsx bench/insightBrowser.ts`).
 *
 *   npx tsx --expose-gc --conditions=point-quadtree-source bench/insight.ts [--frames 120] [--enemies 100000]
 */

import type { NodeInfo } from 'point-quadtree';
import { visitNodes } from 'point-quadtree/debug';
import { QueryInsight } from '../src/sim/insight';
import { defaultLevel } from '../src/sim/level';
import { DEFAULT_SETTINGS } from '../src/sim/settings';
import { Simulation } from '../src/sim/simulation';
import { DensityImage } from '../src/ui/densityImage';
import { DOTS_PER_FRAME, MAP_SIZE } from '../src/ui/map';
import { gc, sink } from './timing';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const FRAMES = arg('--frames', 120);
const ENEMIES = arg('--enemies', 100_000);
const DT = 1 / 60;
/** As the map: leaves redrawn at most every so many frames, none under 2 px outlined or entered. */
const LEAVES_FRAMES = 6;
const MIN_OUTLINE_PX = 2;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[s.length >> 1];
}
const mean = (values: number[]) => values.reduce((t, v) => t + v, 0) / values.length;

function run(moving: boolean, radius: number, crowdMode: boolean): string {
  const level = defaultLevel();
  const settings = { ...DEFAULT_SETTINGS, enemies: ENEMIES, moving, radius, crowdMode };
  const sim = new Simulation(level, settings, ENEMIES);
  const insight = new QueryInsight();
  const image = new DensityImage(MAP_SIZE, MAP_SIZE, DOTS_PER_FRAME, {
    shades: [0, 1, 2, 3, 4],
    crowd: 5,
    rect: 6,
    detected: 7,
  });
  const g = sim.ground;
  const scale = MAP_SIZE / Math.max(g.maxX - g.minX, g.maxZ - g.minZ);
  let outlined = 0;
  const onLeaf = (n: NodeInfo): boolean => {
    const w = (n.maxX - n.minX) * scale;
    if (n.isLeaf) {
      if (w >= MIN_OUTLINE_PX) outlined++;
      return true;
    }
    return w * 0.5 < MIN_OUTLINE_PX;
  };
  const input = {
    ground: g,
    xs: sim.xs,
    zs: sim.zs,
    count: sim.count,
    rectIds: sim.inRect.ids,
    rectCount: 0,
    foundIds: sim.found.ids,
    foundCount: 0,
    crowd: crowdMode ? sim.crowd : null,
  };
  const totals: number[] = [];
  const analyses: number[] = [];
  const leafWalks: number[] = [];
  let px = -40;
  let leafVersion = -1;
  let leafFrame = -LEAVES_FRAMES;
  for (let f = 0; f < FRAMES + 20; f++) {
    px += 0.5; // the player walks east: a new circle every frame
    sim.beginFrame();
    sim.step(DT, px, 0);
    input.foundCount = sim.found.size;
    const t0 = performance.now();
    const tree = sim.tree;
    insight.analyse(tree, px, 0, radius, 0, true);
    const t1 = performance.now();
    let walked = false;
    if (tree.version !== leafVersion && f - leafFrame >= LEAVES_FRAMES) {
      leafVersion = tree.version;
      leafFrame = f;
      visitNodes(tree, onLeaf);
      walked = true;
    }
    const t2 = performance.now();
    image.step(input, scale);
    const t3 = performance.now();
    sink(insight.visited + insight.pruned + insight.covered + image.data[f] + outlined);
    if (f >= 20) {
      totals.push(t3 - t0);
      analyses.push(t1 - t0);
      if (walked) leafWalks.push(t2 - t1);
    }
    if (f % 30 === 0) gc();
  }
  // Bytes the map's work allocates: the same work again over 100 frames on the last tree, with no
  // collection between (heapUsed only grows then); the simulation does not step in between.
  // collection between (heapUsed only grows then); the simulation does not step in between. The first
  // round warms this loop up (its compilation allocates too); the second is measured.
  let allocated = 0;
  for (let round = 0; round < 2; round++) {
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let f = 0; f < 100; f++) {
      insight.analyse(sim.tree, px + (f & 1), 0, radius, 0, true);
      if (f % LEAVES_FRAMES === 0) visitNodes(sim.tree, onLeaf);
      image.step(input, scale);
    }
    allocated = process.memoryUsage().heapUsed - before;
  }
  return (
    `${moving ? 'wandering' : 'static   '} r=${String(radius).padStart(3)} crowd ${crowdMode ? 'on ' : 'off'}  ` +
    `per frame median ${median(totals).toFixed(3)} ms, mean ${mean(totals).toFixed(3)}, max ${Math.max(...totals).toFixed(3)}  ` +
    `(analysis median ${median(analyses).toFixed(3)}; leaves walk ${leafWalks.length ? median(leafWalks).toFixed(3) : '-'} ms ` +
    `on ${leafWalks.length} frames; ${image.passes} image passes)  ` +
    `counts ${insight.visited}/${insight.pruned}/${insight.covered}; ` +
    `allocated over 100 more frames ${allocated} bytes`
  );
}

console.log(
  `${ENEMIES} enemies, ${FRAMES} frames, the map's work per frame without the DOM (Node ${process.version})`,
);
for (const moving of [false, true]) for (const r of [15, 100]) console.log(run(moving, r, false));
console.log(run(true, 15, true));
