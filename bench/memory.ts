/**
 * The memory workloads: bytes per point of a built index, and the zero-allocation check of the per-frame
 * paths (the scene's moves and queries, and its crowd frame), beside a control that allocates.
 */
import { GCProfiler, getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import type { PointQuadtree } from 'point-quadtree';
import type { CrowdQuadtree } from 'point-quadtree/crowd';
import type { Built } from './contender';
import { applySteps, copyPoints, DATA_KINDS, makeCentres, makeSteps, type Points } from './data';
import { buildCrowdTree, buildTree, type OursConfig } from './ours';
import { gc, sink } from './timing';
import { type Context, type Entry, points, row, rowLabel, W2_CENTRES } from './workloads';

function heapBytes(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/**
 * heapUsed + arrayBuffers once garbage is really gone: array buffers are freed by a sweeper after the gc,
 * so collect and wait until two readings agree.
 */
async function settledHeapBytes(): Promise<number> {
  let last = Number.NaN;
  for (let k = 0; k < 20; k++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const now = heapBytes();
    if (Math.abs(now - last) < 1024) return now;
    last = now;
  }
  return last;
}

/**
 * The index whose memory is being measured. It is only ever referenced from here (builds happen in a plain
 * function): a local of the async caller would live on in its suspended frame and skew the next reading.
 */
const held: { built: Built | null } = { built: null };

function buildHeld(e: Entry, p: Points): void {
  held.built = e.c.build(p);
}

/** Memory: bytes per point of a built index (heap + array buffers after gc), N = plan.memoryN. */
export async function runMemory(ctx: Context, entries: readonly Entry[]): Promise<void> {
  const n = ctx.plan.memoryN;
  for (const kind of DATA_KINDS) {
    for (const e of entries) {
      ctx.progress(`memory ${kind} N=${n} ${rowLabel({ contender: e.c.name, variant: e.variant })}`);
      // a copy per contender: user objects that rbush and d3 keep per point set die with it
      const p = copyPoints(points(kind, n));
      // a first build makes the user's objects (rbush, d3) and compiles the code, outside the measurement
      buildHeld(e, p);
      held.built = null;
      const before = await settledHeapBytes();
      buildHeld(e, p);
      const after = await settledHeapBytes();
      held.built = null;
      ctx.rows.push(row('memory', kind, n, '', e, (after - before) / n, 'B/point', false));
    }
  }
}

// ---------------------------------------------------------------------------------------------------------

export interface AllocResult {
  readonly variant: string;
  readonly n: number;
  readonly frames: number;
  /**
   * Bytes allocated on the V8 heap during the frames: growth of the used heap, plus what each gc that ran
   * in between collected (read from v8.GCProfiler), less the measurement's own overhead; array buffers'
   * growth is added.
   */
  readonly bytes: number;
  /** Garbage collections that ran during the frames. */
  readonly gcs: number;
  /** Frames run before the measured ones (see settle). */
  readonly warmUp: number;
  /** True if this is the control that is meant to allocate. */
  readonly control: boolean;
  /** True if this is what the scene does every frame (the zero-allocation target is about that path). */
  readonly scenePath: boolean;
}

/** Number of r = 10 queries per frame in the zero-allocation check (plus one r = 50 query). */
const ALLOC_QUERIES_PER_FRAME = 100;
/** Rounds of `allocFrames` frames each; the best one is reported. */
const ALLOC_ROUNDS = 3;

/** Frames of one warm-up round past the first `frames` (see settle). */
const SETTLE_ROUND = 250;
/** Warm-up rounds past the first `frames` at most (see settle). */
const SETTLE_ROUNDS = 12;

/**
 * Runs warm-up rounds of SETTLE_ROUND frames until one allocates under 16 bytes a frame with no gc (or
 * SETTLE_ROUNDS have run: 3,000 frames); returns the frames run. A path that allocates by design (the
 * control) runs them all. Why: V8 optimises a function once it has run enough of its
 * own bytecode, and a function called once a frame (moveAll's entry, the kernels' hosts, the separation's
 * entry: short, with no loop of their own) gets there only after 1,000 to 2,500 frames. Until then it runs in
 * the interpreter or the baseline compiler, which box every floating-point number they load from a typed
 * array or compute (16 bytes each): a few hundred bytes a frame at first, fewer as each function is
 * optimised (measured at N = 1e5 on the crowd frame, frames 0-499: 935 bytes a frame, 1,000-1,499: 214,
 * 2,000-2,499: 48, 2,500-2,999: 7). That is the engine's warm-up, not the path's allocation; an allocation
 * the path makes every frame never goes under the bar, and the rounds after warm-up measure it.
 */
function settle(runFrames: (count: number) => number, overhead: number): number {
  let ran = 0;
  for (let round = 0; round < SETTLE_ROUNDS; round++) {
    const r = allocatedDuring(() => runFrames(SETTLE_ROUND));
    ran += SETTLE_ROUND;
    if (r.gcs === 0 && r.objects - overhead < 16 * SETTLE_ROUND) break;
  }
  return ran;
}

/** The optional typed query of our tree. */
interface TypedCircleQuery {
  queryCircleInto(x: number, y: number, r: number, out: Int32Array): number;
}

/** The per-frame paths of the zero-allocation check. Each is a small function of its own, as a game's
 * per-frame code would be, so the engine inlines the tree's methods into it as it would there. */
interface FrameQueries {
  readonly name: string;
  readonly control: boolean;
  /** The scene's per-frame path: moves, and queries through queryCircleInto into typed buffers. */
  readonly scenePath: boolean;
  /** How the frame's moves reach the tree: one moveAll, or move per point. */
  readonly moves: 'moveAll' | 'move';
  /** Whether it runs on the crowd's tree (CrowdQuadtree, point-quadtree/crowd): its separation and its pair join. */
  readonly crowd?: boolean;
  /** One r=50 query at a centre and ALLOC_QUERIES_PER_FRAME r=10 queries around points; total hits. */
  run(
    tree: CrowdQuadtree,
    xs: Float64Array,
    ys: Float64Array,
    cx: Float64Array,
    cy: Float64Array,
    frame: number,
  ): number;
}

/** Query i of a frame: a point spread over the set (the same ones for every variant). */
function queryPoint(frame: number, k: number, n: number): number {
  return (frame * 7919 + k * 104729) % n;
}

const sharedOut: number[] = [];
let sharedTyped = new Int32Array(0);
/** The crowd frame's per-id outputs, as the scene keeps them (counts and pushes). */
let crowdCounts = new Int32Array(0);
let crowdSumX = new Float32Array(0);
let crowdSumY = new Float32Array(0);
/** Pair outputs for queryPairsInto at CROWD_RADIUS (room for ~8 neighbours per point, as counted there). */
let pairA = new Int32Array(0);
let pairB = new Int32Array(0);
/** The crowd frame's radius: about 8 neighbours per point at the check's density (uniform, 1000 x 1000). */
const CROWD_RADIUS = 5;

const FRAME_QUERIES: readonly FrameQueries[] = [
  // diagnostics: the moves alone (the first variant also pays for compiling the move paths)
  { name: 'moveAll only (no queries)', control: false, scenePath: false, moves: 'moveAll', run: () => 0 },
  { name: 'move per point only (no queries)', control: false, scenePath: false, moves: 'move', run: () => 0 },
  {
    name: "moveAll only, a crowd tree (the kernel's pass)",
    control: false,
    scenePath: false,
    moves: 'moveAll',
    crowd: true,
    run: () => 0,
  },
  {
    name: 'moveAll + queryCircle into a reused array',
    control: false,
    scenePath: false,
    moves: 'moveAll',
    run(tree, xs, ys, cx, cy, frame) {
      const out = sharedOut;
      const n = xs.length;
      out.length = 0;
      tree.queryCircle(cx[frame % W2_CENTRES], cy[frame % W2_CENTRES], 50, out);
      let hits = out.length;
      for (let k = 1; k <= ALLOC_QUERIES_PER_FRAME; k++) {
        const i = queryPoint(frame, k, n);
        out.length = 0;
        tree.queryCircle(xs[i], ys[i], 10, out);
        hits += out.length;
      }
      return hits;
    },
  },
  {
    name: 'moveAll + queryCircleInto a reused Int32Array',
    control: false,
    scenePath: true,
    moves: 'moveAll',
    run(tree, xs, ys, cx, cy, frame) {
      const typed = tree as unknown as TypedCircleQuery;
      const out = sharedTyped;
      const n = xs.length;
      let hits = typed.queryCircleInto(cx[frame % W2_CENTRES], cy[frame % W2_CENTRES], 50, out);
      for (let k = 1; k <= ALLOC_QUERIES_PER_FRAME; k++) {
        const i = queryPoint(frame, k, n);
        hits += typed.queryCircleInto(xs[i], ys[i], 10, out);
      }
      return hits;
    },
  },
  {
    name: 'moveAll + querySeparationInto (the crowd frame)',
    control: false,
    scenePath: true,
    moves: 'moveAll',
    crowd: true,
    run(tree) {
      return tree.querySeparationInto(CROWD_RADIUS, crowdCounts, crowdSumX, crowdSumY);
    },
  },
  {
    name: 'moveAll + queryPairsInto into reused Int32Arrays',
    control: false,
    scenePath: false,
    moves: 'moveAll',
    crowd: true,
    run(tree) {
      return tree.queryPairsInto(CROWD_RADIUS, pairA, pairB);
    },
  },
  {
    name: 'control: moveAll + queryCircle without out (allocates)',
    control: true,
    scenePath: false,
    moves: 'moveAll',
    run(tree, xs, ys, cx, cy, frame) {
      const n = xs.length;
      let hits = tree.queryCircle(cx[frame % W2_CENTRES], cy[frame % W2_CENTRES], 50).length;
      for (let k = 1; k <= ALLOC_QUERIES_PER_FRAME; k++) {
        const i = queryPoint(frame, k, n);
        hits += tree.queryCircle(xs[i], ys[i], 10).length;
      }
      return hits;
    },
  },
];

/** Every point takes its step and the tree follows (the moves of one frame). */
function moveFrame(
  tree: PointQuadtree,
  xs: Float64Array,
  ys: Float64Array,
  steps: Float64Array,
  frame: number,
  moves: 'moveAll' | 'move',
): void {
  const n = xs.length;
  applySteps(xs, ys, n, steps, frame);
  if (moves === 'moveAll') tree.moveAll(xs, ys);
  else for (let i = 0; i < n; i++) tree.move(i, xs[i], ys[i]);
}

interface GcStat {
  beforeGC: { heapStatistics: { usedHeapSize: number } };
  afterGC: { heapStatistics: { usedHeapSize: number } };
}

/** The spaces where the engine puts the objects code allocates: the young generation, and large objects. */
const OBJECT_SPACES = new Set(['new_space', 'new_large_object_space', 'large_object_space']);

function objectSpaceBytes(): number {
  let bytes = 0;
  for (const s of getHeapSpaceStatistics()) if (OBJECT_SPACES.has(s.space_name)) bytes += s.space_used_size;
  return bytes;
}

/**
 * Bytes allocated while `work` runs and the gcs that ran. `bytes`: the whole heap, counted across any gc,
 * plus array buffers. `objects`: what the code itself allocated, the growth of the young generation and the
 * large-object spaces plus array buffers, leaving out the compiler's output (code and its metadata go to
 * the code and old spaces, in stretches that come later on a busy machine); it needs a window without a gc,
 * so after one it is `bytes`, an upper bound.
 */
export function allocatedDuring(work: () => number): { bytes: number; objects: number; gcs: number } {
  gc();
  gc();
  const profiler = new GCProfiler();
  const ab0 = process.memoryUsage().arrayBuffers;
  profiler.start();
  const objects0 = objectSpaceBytes();
  const used0 = getHeapStatistics().used_heap_size;
  sink(work());
  const used1 = getHeapStatistics().used_heap_size;
  const objects1 = objectSpaceBytes();
  const stats = (profiler.stop()?.statistics ?? []) as unknown as GcStat[];
  const ab1 = process.memoryUsage().arrayBuffers;
  // each gc frees (before - after); what was allocated is the final growth plus everything freed
  let freed = 0;
  for (const st of stats)
    freed += st.beforeGC.heapStatistics.usedHeapSize - st.afterGC.heapStatistics.usedHeapSize;
  const bytes = used1 - used0 + freed + (ab1 - ab0);
  const objects = stats.length === 0 ? objects1 - objects0 + (ab1 - ab0) : bytes;
  return { bytes, objects, gcs: stats.length };
}

/**
 * Zero allocation: `frames` frames of our moves and queries into a reused output, measured as bytes
 * allocated on the heap (gcs counted in). A control that lets queryCircle allocate its result shows the
 * check can see allocation.
 */
export function runAlloc(ctx: Context, cfg: OursConfig, typed: boolean): AllocResult[] {
  const n = ctx.plan.allocN;
  const frames = ctx.plan.allocFrames;
  const p = points('uniform', n);
  const steps = makeSteps('uniform', n);
  const { cx, cy } = makeCentres(W2_CENTRES, n);
  sharedTyped = new Int32Array(n);
  crowdCounts = new Int32Array(n);
  crowdSumX = new Float32Array(n);
  crowdSumY = new Float32Array(n);
  pairA = new Int32Array(8 * n);
  pairB = new Int32Array(8 * n);
  const results: AllocResult[] = [];
  for (const v of FRAME_QUERIES) {
    if (/queryCircleInto|querySeparationInto|queryPairsInto/.test(v.name) && !typed) continue;
    ctx.progress(`alloc N=${n} ${v.name}`);
    const { xs, ys } = copyPoints(p);
    // The plain class where the frame needs no more (a CrowdQuadtree is one too: the run's type is the wider).
    const tree = (
      v.crowd ? buildCrowdTree({ ...p, xs, ys }, cfg) : buildTree({ ...p, xs, ys }, cfg, 'from')
    ) as CrowdQuadtree;
    let frame = 0;
    const runFrames = (count: number): number => {
      let hits = 0;
      for (let f = 0; f < count; f++, frame++) {
        moveFrame(tree, xs, ys, steps, frame, v.moves);
        hits += v.run(tree, xs, ys, cx, cy, frame);
      }
      return hits;
    };
    // warm up (every buffer reaches its largest size, the engine optimises the code), then the best of
    // ALLOC_ROUNDS rounds: the compiler works in the background and now and then leaves a one-off allocation
    // (a deopt runs a loop unoptimised for a while) in one round; an allocation made by every frame shows in
    // every round
    sink(runFrames(frames));
    const overhead = allocatedDuring(() => runFrames(0));
    const warmUp = frames + settle(runFrames, overhead.objects);
    let best = allocatedDuring(() => runFrames(frames));
    for (let round = 1; round < ALLOC_ROUNDS; round++) {
      const grown = allocatedDuring(() => runFrames(frames));
      if (grown.gcs < best.gcs || (grown.gcs === best.gcs && grown.objects < best.objects)) best = grown;
    }
    results.push({
      variant: v.name,
      n,
      frames,
      warmUp,
      // Where code's own objects go (allocatedDuring): the compiler's output, which a busy machine delivers
      // late, is not the frame's allocation.
      bytes: best.objects - overhead.objects,
      gcs: best.gcs,
      control: v.control,
      scenePath: v.scenePath,
    });
  }
  return results;
}
