/**
 * W6: all pairs within r. Ours answers it directly (`queryPairsInto`, a self-join over the tree: a
 * CrowdQuadtree's WebAssembly join, and a PointQuadtree's JavaScript one beside it); the
 * peers have no such query, so each runs what a user of it would write: one circle query per point at its
 * fastest API, keeping the hits j > i so every pair is counted once. Brute force is the O(n²) double loop
 * over j > i (sampled rows, scaled, where the full loop would take too long).
 *
 * Every contender returns the number of pairs; the first run of each is checked against ours, and ours
 * against the exact brute-force count where that is affordable.
 */
import Flatbush from 'flatbush';
import KDBush from 'kdbush';
import { PointQuadtree } from 'point-quadtree';
import { CrowdQuadtree, separationKernel } from 'point-quadtree/crowd';
import { type DataKind, makePoints, type Points, WORLD } from './data';
import { UniformGrid } from './grid';
import { HashGrid } from './hashGrid';
import type { TargetLine } from './report';
import { measureMany, type TimingOptions } from './timing';
import { checkSeparation } from './verify';

export interface PairRow {
  kind: DataKind;
  n: number;
  r: number;
  pairs: number;
  /** Median ms of one full all-pairs pass, by contender name. */
  ms: Record<string, number>;
  /** Brute force was sampled (1 row in `bruteStride`) and scaled. */
  bruteStride: number;
}

/** queryPairsInto of the crowd's tree (CrowdQuadtree: the WebAssembly join where it compiles). */
function oursJob(p: Points, r: number): () => number {
  return pairsJob(p, r, CrowdQuadtree);
}

/** The same call on a PointQuadtree: the JavaScript join (the crowd's reference and fallback). */
function oursJsJob(p: Points, r: number): () => number {
  return pairsJob(p, r, PointQuadtree);
}

function pairsJob(p: Points, r: number, Tree: typeof PointQuadtree): () => number {
  const tree = Tree.from({ bounds: { minX: 0, minY: 0, maxX: WORLD, maxY: WORLD } }, p.ids, p.xs, p.ys);
  let outA = new Int32Array(1024);
  let outB = new Int32Array(1024);
  // Size the outputs once (a game keeps them from frame to frame).
  for (;;) {
    try {
      tree.queryPairsInto(r, outA, outB);
      break;
    } catch {
      outA = new Int32Array(outA.length * 4);
      outB = new Int32Array(outB.length * 4);
    }
  }
  return () => tree.queryPairsInto(r, outA, outB);
}

/** The fused call: per-item neighbour counts and separation sums instead of the pairs (returns the pairs). */
function oursSumsJob(p: Points, r: number): () => number {
  const tree = CrowdQuadtree.from(
    { bounds: { minX: 0, minY: 0, maxX: WORLD, maxY: WORLD } },
    p.ids,
    p.xs,
    p.ys,
  );
  const counts = new Int32Array(p.n);
  const sumX = new Float64Array(p.n);
  const sumY = new Float64Array(p.n);
  return () => tree.querySeparationInto(r, counts, sumX, sumY);
}

/**
 * The fused call at the fast precision ({ precision: 'f32' }); its first answer is checked against the exact
 * call id by id: counts exactly, sums within the stated bound, 1e-5 x the count (docs/crowd.md).
 */
function oursSumsF32Job(p: Points, r: number, where: string): () => number {
  const tree = CrowdQuadtree.from(
    { bounds: { minX: 0, minY: 0, maxX: WORLD, maxY: WORLD } },
    p.ids,
    p.xs,
    p.ys,
  );
  const got = { counts: new Int32Array(p.n), sumX: new Float64Array(p.n), sumY: new Float64Array(p.n) };
  const want = { counts: new Int32Array(p.n), sumX: new Float64Array(p.n), sumY: new Float64Array(p.n) };
  const F32 = { precision: 'f32' } as const;
  tree.querySeparationInto(r, want.counts, want.sumX, want.sumY);
  tree.querySeparationInto(r, got.counts, got.sumX, got.sumY, F32);
  checkSeparation(`${where}: ours sums f32`, want, got, p.n, 1e-5);
  return () => tree.querySeparationInto(r, got.counts, got.sumX, got.sumY, F32);
}

/** The uniform grid of bench/grid.ts, rebuilt by counting sort on every pass (as a game runs it), then joined. */
function gridJob(p: Points, r: number): () => number {
  const grid = new UniformGrid();
  return () => grid.countPairs(p.xs, p.ys, p.n, r);
}

/** What a grid contender answers: the fused call over points 0..n-1 (bench/grid.ts's, bench/hashGrid.ts's). */
interface SumsGrid {
  separationInto(
    xs: Float64Array,
    ys: Float64Array,
    n: number,
    r: number,
    counts: Int32Array,
    sumX: Float64Array,
    sumY: Float64Array,
  ): number;
}

/**
 * A grid's fused call (rebuild, then counts and sums: the uniform grid's, or the hashed one's); its first
 * answer is checked against the tree's querySeparationInto id by id (counts exactly, sums within 1e-9).
 */
function gridSumsJob(p: Points, r: number, where: string, grid: SumsGrid = new UniformGrid()): () => number {
  const got = { counts: new Int32Array(p.n), sumX: new Float64Array(p.n), sumY: new Float64Array(p.n) };
  const want = { counts: new Int32Array(p.n), sumX: new Float64Array(p.n), sumY: new Float64Array(p.n) };
  const tree = CrowdQuadtree.from(
    { bounds: { minX: 0, minY: 0, maxX: WORLD, maxY: WORLD } },
    p.ids,
    p.xs,
    p.ys,
  );
  tree.querySeparationInto(r, want.counts, want.sumX, want.sumY);
  grid.separationInto(p.xs, p.ys, p.n, r, got.counts, got.sumX, got.sumY);
  checkSeparation(where, want, got, p.n);
  return () => grid.separationInto(p.xs, p.ys, p.n, r, got.counts, got.sumX, got.sumY);
}

function kdbushJob(p: Points, r: number): () => number {
  const index = new KDBush(p.n);
  for (let i = 0; i < p.n; i++) index.add(p.xs[i], p.ys[i]);
  index.finish();
  const buf = new Uint32Array(p.n);
  const { xs, ys, n } = p;
  return () => {
    let pairs = 0;
    for (let i = 0; i < n; i++) {
      const m = index.withinInto(xs[i], ys[i], r, buf);
      for (let k = 0; k < m; k++) if (buf[k] > i) pairs++;
    }
    return pairs;
  };
}

function flatbushJob(p: Points, r: number): () => number {
  const index = new Flatbush(p.n);
  for (let i = 0; i < p.n; i++) index.add(p.xs[i], p.ys[i], p.xs[i], p.ys[i]);
  index.finish();
  const { xs, ys, n } = p;
  const r2 = r * r;
  return () => {
    let pairs = 0;
    for (let i = 0; i < n; i++) {
      const x = xs[i];
      const y = ys[i];
      const hits = index.search(x - r, y - r, x + r, y + r);
      for (let k = 0; k < hits.length; k++) {
        const j = hits[k];
        if (j <= i) continue;
        const dx = xs[j] - x;
        const dy = ys[j] - y;
        if (dx * dx + dy * dy <= r2) pairs++;
      }
    }
    return pairs;
  };
}

/** Rows 0, stride, 2 stride, ... of the j > i double loop; the count is scaled by stride when stride > 1. */
function bruteJob(p: Points, r: number, stride: number): () => number {
  const { xs, ys, n } = p;
  const r2 = r * r;
  return () => {
    let pairs = 0;
    for (let i = 0; i < n; i += stride) {
      const x = xs[i];
      const y = ys[i];
      for (let j = i + 1; j < n; j++) {
        const dx = xs[j] - x;
        const dy = ys[j] - y;
        if (dx * dx + dy * dy <= r2) pairs++;
      }
    }
    return pairs;
  };
}

/** Sizes and radii of W6 (N = 1e3 only for docs/performance.md's table in the shape of the Unity prototypes' figures). */
export function w6Plan(quick: boolean): { sizes: readonly number[]; radii: readonly number[] } {
  return { sizes: quick ? [1e3, 1e4] : [1e3, 1e4, 1e5], radii: [2, 10] };
}

/** Brute force samples every `stride`-th row of its double loop at N >= 1e5 (a full pass is ~5e9 tests). */
function bruteStride(n: number, quick: boolean): number {
  if (n <= 1e4) return 1;
  return quick ? 200 : 20;
}

export function runW6(quick: boolean, timing: TimingOptions, progress: (message: string) => void): PairRow[] {
  const { sizes, radii } = w6Plan(quick);
  const rows: PairRow[] = [];
  // The open world's camps (data.ts's 'world') at N >= 1e4 only: where the dense grid's cells widen.
  for (const kind of ['uniform', 'clustered', 'world'] as const) {
    for (const n of sizes) {
      if (kind === 'world' && n < 1e4) continue;
      const p = makePoints(kind, n);
      for (const r of radii) {
        progress(`W6 ${kind} N=${n} r=${r}`);
        const stride = bruteStride(n, quick);
        const ours = oursJob(p, r);
        const expected = ours();
        const check = (name: string) => (got: number) => {
          if (got !== expected) {
            throw new Error(`W6 ${kind} N=${n} r=${r}: ${name} counted ${got} pairs, ours ${expected}`);
          }
        };
        const jobs = [
          { name: 'ours', run: ours, checkFirst: check('ours') },
          { name: 'ours js', run: oursJsJob(p, r), checkFirst: check('ours js') },
          { name: 'ours sums', run: oursSumsJob(p, r), checkFirst: check('ours sums') },
          {
            name: 'ours sums f32',
            run: oursSumsF32Job(p, r, `W6 ${kind} N=${n} r=${r}`),
            checkFirst: check('ours sums f32'),
          },
          {
            name: 'grid sums',
            run: gridSumsJob(p, r, `W6 ${kind} N=${n} r=${r}: grid sums`),
            checkFirst: check('grid sums'),
          },
          {
            name: 'hash grid sums',
            run: gridSumsJob(p, r, `W6 ${kind} N=${n} r=${r}: hash grid sums`, new HashGrid()),
            checkFirst: check('hash grid sums'),
          },
          { name: 'kdbush', run: kdbushJob(p, r), checkFirst: check('kdbush') },
          { name: 'flatbush', run: flatbushJob(p, r), checkFirst: check('flatbush') },
          { name: 'grid', run: gridJob(p, r), checkFirst: check('grid') },
          {
            name: 'brute force',
            run: bruteJob(p, r, stride),
            checkFirst: stride === 1 ? check('brute force') : undefined,
          },
        ];
        const times = measureMany(jobs, { ...timing, slowSamples: 3 });
        const ms: Record<string, number> = {};
        jobs.forEach((j, i) => {
          ms[j.name] = times[i].median * (j.name === 'brute force' ? stride : 1);
        });
        rows.push({ kind, n, r, pairs: expected, ms, bruteStride: stride });
      }
    }
  }
  return rows;
}

const CONTENDERS = [
  'ours',
  'ours js',
  'ours sums',
  'ours sums f32',
  'grid sums',
  'hash grid sums',
  'kdbush',
  'flatbush',
  'grid',
  'brute force',
] as const;

function fmtMs(v: number): string {
  return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
}

/** The W6 table: ms per full all-pairs pass, and ours against kdbush and brute force. */
export function pairsTable(rows: readonly PairRow[]): string {
  if (rows.length === 0) return '';
  const head = [
    'data',
    'N',
    'r',
    'pairs',
    ...CONTENDERS.map((c) => `${c} ms`),
    'ours vs kdbush',
    'brute / ours',
  ];
  const body = rows.map((row) => [
    row.kind,
    row.n.toLocaleString('en-US'),
    String(row.r),
    row.pairs.toLocaleString('en-US'),
    ...CONTENDERS.map((c) => `${row.bruteStride > 1 && c === 'brute force' ? '~' : ''}${fmtMs(row.ms[c])}`),
    `${(row.ms.ours / row.ms.kdbush).toFixed(2)}x`,
    `${(row.ms['brute force'] / row.ms.ours).toFixed(0)}x`,
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((b) => b[c].length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, c) => (c < 3 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(' | ')} |`;
  return [
    `## W6: all pairs within r (CrowdQuadtree.queryPairsInto, ${separationKernel()} kernel; peers: one withinInto / search per point, keeping j > i)`,
    '',
    line(head),
    `|${widths.map((w, c) => (c < 3 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...body.map(line),
    '',
    'ms per full pass over every pair (median). ~ = brute force timed on every 20th row of its double loop',
    "(every 200th in --quick) and scaled up. Every contender's pair count is checked against ours.",
    "ours = a CrowdQuadtree's (point-quadtree/crowd); ours js = a PointQuadtree's, the JavaScript join (what",
    "setSeparationKernel('js') gives a CrowdQuadtree too), not in the ratios.",
    `ours sums = querySeparationInto (${separationKernel()} kernel): per-item neighbour counts and separation`,
    "sums instead of the pairs (the crowd scene's call), not in the ratios; ours sums f32 = the same at",
    "{ precision: 'f32' } (counts checked exact, sums within 1e-5 x the count of ours sums').",
    'grid = a uniform grid (bench/grid.ts: cell = r, or wider where the box would hold over 2 cells per point;',
    'counting sort; each cell joined with itself and its half-neighbourhood) counting the pairs; grid sums = the',
    'same grid fused with the counts and sums of querySeparationInto (checked id by id against ours); hash grid',
    "sums = the same cells hashed into ~2 n buckets (bench/hashGrid.ts: an open world's grid). The",
    "grid's time includes its rebuild (it is rebuilt every frame; its cell is made for one r), ours' excludes",
    "the tree's build and moveAll (bench:scene times the crowd frame with both).",
  ].join('\n');
}

/**
 * The all-pairs targets: at most 0.3x kdbush's time (one query per point), at least 100x faster than
 * brute force at N = 1e4, and the crowd's call (ours sums) at most half the uniform grid's (grid sums; issue
 * 34). The pair count against the grid's is shown for information.
 */
export function pairsTargets(rows: readonly PairRow[]): TargetLine[] {
  const lines: TargetLine[] = [];
  for (const row of rows) {
    if (row.n < 1e4) continue;
    const where = `W6 all pairs ${row.kind} N=${row.n.toLocaleString('en-US')} r=${row.r}`;
    const vsKd = row.ms.ours / row.ms.kdbush;
    lines.push({
      text: `${where}: ours ${vsKd.toFixed(2)}x kdbush's time (target <= 0.3x)`,
      pass: vsKd <= 0.3,
    });
    if (row.n === 1e4) {
      const vsBrute = row.ms['brute force'] / row.ms.ours;
      lines.push({
        text: `${where}: ours ${vsBrute.toFixed(0)}x faster than brute force (target >= 100x)`,
        pass: vsBrute >= 100,
      });
    }
    lines.push(...gridLines(row, where));
  }
  return lines;
}

/**
 * The rows against the uniform grid: the sums as a target (<= 0.5x), the pair count and the hashed grid for
 * information.
 */
function gridLines(row: PairRow, where: string): TargetLine[] {
  const sums = row.ms['ours sums'] / row.ms['grid sums'];
  const pairs = row.ms.ours / row.ms.grid;
  const hashed = row.ms['ours sums'] / row.ms['hash grid sums'];
  return [
    {
      text: `${where}: ours sums ${sums.toFixed(2)}x the uniform grid's time (${fmtMs(row.ms['ours sums'])} vs ${fmtMs(row.ms['grid sums'])} ms, the grid's rebuild included; target <= 0.5x)`,
      pass: sums <= 0.5,
    },
    {
      text: `${where}: ours (pairs) ${pairs.toFixed(2)}x the uniform grid's time (${fmtMs(row.ms.ours)} vs ${fmtMs(row.ms.grid)} ms; for comparison)`,
      pass: null,
      info: true,
    },
    {
      text: `${where}: ours sums ${hashed.toFixed(2)}x the hashed grid's time (${fmtMs(row.ms['ours sums'])} vs ${fmtMs(row.ms['hash grid sums'])} ms; for comparison)`,
      pass: null,
      info: true,
    },
  ];
}
