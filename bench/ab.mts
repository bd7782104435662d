/*
 * Two builds of the library in one process, timed by CPU time, alternating: for a refactor's before and
 * after on a machine that other work keeps busy (wall-clock figures there move 2-3x from run to run; the
 * process's own CPU time, alternated round by round in one process, moves about 10%).
 *
 *   npm run bench:ab -- BASE_INDEX CAND_INDEX [rounds]
 *   e.g. git worktree add /tmp/base <commit>, then
 *   npm run bench:ab -- /tmp/base/src/quadtree/index.ts ./src/quadtree/index.ts 9
 *
 * The cases follow `npm run bench`'s rows for our tree: W1 builds, W2 one query (r = 10 and 50, into a
 * typed array and into a plain one), W3 every point queries, W4 a frame of moves and one query, W5 moves and
 * every point queries, W6 all pairs (the crowd's WebAssembly join, the JavaScript join, and the fused
 * separation), plus rectangles, nearest, move and churn. The crowd's cases run on each build's crowd tree:
 * CrowdQuadtree from crowd.ts beside the index where there is one (from the v4 layout on), else the
 * index's PointQuadtree (which had the kernels before); the JavaScript join runs on PointQuadtree with the
 * kernel switch at 'js' (which a v4 PointQuadtree does not need). ONLY=regex limits the cases. Prints per
 * case the median CPU ms of each build and their ratio.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Lib from 'point-quadtree';
import { applySteps, makeCentres, makePoints, makeSteps } from './data';
import { gc } from './timing';

/** A crowd tree of either build: a PointQuadtree with querySeparationInto. */
interface CrowdTree extends Lib.PointQuadtree {
  querySeparationInto(r: number, c: Int32Array, x: Float32Array, y: Float32Array): number;
}
/** One build: its tree class, its crowd tree class and its kernel switch. */
interface Build {
  PointQuadtree: typeof Lib.PointQuadtree;
  Crowd: { from(...a: Parameters<typeof Lib.PointQuadtree.from>): CrowdTree };
  setKernel(kind: 'auto' | 'js'): void;
}
interface KernelSwitch {
  setSeparationKernel(kind: 'auto' | 'js'): void;
}

/** The build whose main entry is at `index` (a path from where this runs), with its crowd. */
async function load(index: string): Promise<Build> {
  const main = (await import(pathToFileURL(resolve(index)).href)) as typeof Lib & Partial<KernelSwitch>;
  const crowdFile = resolve(dirname(resolve(index)), 'crowd.ts');
  const crowd = existsSync(crowdFile)
    ? ((await import(pathToFileURL(crowdFile).href)) as KernelSwitch & { CrowdQuadtree: Build['Crowd'] })
    : null;
  const kernels = crowd ?? (main as KernelSwitch);
  return {
    PointQuadtree: main.PointQuadtree,
    Crowd: crowd?.CrowdQuadtree ?? (main.PointQuadtree as unknown as Build['Crowd']),
    setKernel: (kind) => kernels.setSeparationKernel(kind),
  };
}

const [baseIdx, candIdx, roundsArg] = process.argv.slice(2);
const A = await load(baseIdx);
const B = await load(candIdx);
const rounds = Number(roundsArg ?? 7);
const bounds = { minX: 0, minY: 0, maxX: 1000, maxY: 1000 };
let sinkv = 0;
function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
interface Case<S> {
  name: string;
  reps: number;
  setup: (lib: Build) => S;
  run: (state: S) => void;
}
const cases: Case<unknown>[] = [];
/** Adds a case, keeping its state type for the callbacks. */
function add<S>(c: Case<S>): void {
  cases.push(c as unknown as Case<unknown>);
}

/** Pair outputs with room for every pair of `tree` at `r` (grown until they fit), as a game keeps them. */
function pairRoom(tree: Lib.PointQuadtree, r: number): { a: Int32Array; b: Int32Array } {
  let a = new Int32Array(1 << 16);
  let b = new Int32Array(1 << 16);
  for (;;) {
    try {
      tree.queryPairsInto(r, a, b);
      return { a, b };
    } catch {
      a = new Int32Array(a.length * 4);
      b = new Int32Array(b.length * 4);
    }
  }
}

/** A case of the crowd's fused call on points `q` at `r`, as the scene makes it (Int32Array counts, Float32Array sums). */
function addSeparation(name: string, q: ReturnType<typeof makePoints>, r: number, reps: number): void {
  add({
    name,
    reps,
    setup: (lib) => ({
      t: lib.Crowd.from({ bounds }, q.ids, q.xs, q.ys),
      c: new Int32Array(q.n),
      x: new Float32Array(q.n),
      y: new Float32Array(q.n),
    }),
    run: (s) => {
      sinkv += s.t.querySeparationInto(r, s.c, s.x, s.y);
    },
  });
}

for (const kind of ['uniform', 'clustered'] as const) {
  // W1: build.
  for (const [nb, reps] of [
    [1e3, 200],
    [1e4, 20],
    [1e5, 5],
    [1e6, 1],
  ] as const) {
    const pb = makePoints(kind, nb);
    add({
      name: `W1 from ${kind} ${nb}`,
      reps,
      setup: (lib) => lib,
      run: (lib) => {
        sinkv += lib.PointQuadtree.from({ bounds }, pb.ids, pb.xs, pb.ys).size;
      },
    });
  }
  const n = 100_000;
  const p = makePoints(kind, n);
  add({
    name: `W1 insert ${kind} 1e5`,
    reps: 3,
    setup: (lib) => lib,
    run: (lib) => {
      const t = new lib.PointQuadtree({ bounds });
      for (let i = 0; i < n; i++) t.insert(i, p.xs[i], p.ys[i]);
      sinkv += t.size;
    },
  });
  for (const nq of [10_000, 100_000]) {
    const q = makePoints(kind, nq);
    const c = makeCentres(2000, nq);
    const tree = (lib: Build) => lib.PointQuadtree.from({ bounds }, q.ids, q.xs, q.ys);
    for (const r of [10, 50]) {
      add({
        name: `W2 queryCircleInto r=${r} ${kind} ${nq}`,
        reps: 20,
        setup: (lib) => ({ t: tree(lib), out: new Int32Array(nq) }),
        run: (s) => {
          for (let i = 0; i < 2000; i++) sinkv += s.t.queryCircleInto(c.cx[i], c.cy[i], r, s.out);
        },
      });
      add({
        name: `W2 queryCircle r=${r} ${kind} ${nq}`,
        reps: 20,
        setup: (lib) => ({ t: tree(lib), out: [] as number[] }),
        run: (s) => {
          for (let i = 0; i < 2000; i++) {
            s.out.length = 0;
            sinkv += s.t.queryCircle(c.cx[i], c.cy[i], r, s.out).length;
          }
        },
      });
    }
    add({
      name: `W3 every point queryCircleInto r=10 ${kind} ${nq}`,
      reps: nq > 10_000 ? 1 : 5,
      setup: (lib) => ({ t: tree(lib), out: new Int32Array(nq) }),
      run: (s) => {
        for (let i = 0; i < nq; i++) sinkv += s.t.queryCircleInto(q.xs[i], q.ys[i], 10, s.out);
      },
    });
    add({
      name: `W3 every point queryCircle r=10 ${kind} ${nq}`,
      reps: nq > 10_000 ? 1 : 5,
      setup: (lib) => ({ t: tree(lib), out: [] as number[] }),
      run: (s) => {
        for (let i = 0; i < nq; i++) {
          s.out.length = 0;
          sinkv += s.t.queryCircle(q.xs[i], q.ys[i], 10, s.out).length;
        }
      },
    });
    add({
      name: `queryRectInto 20x20 ${kind} ${nq}`,
      reps: 20,
      setup: (lib) => ({ t: tree(lib), out: new Int32Array(nq) }),
      run: (s) => {
        for (let i = 0; i < 2000; i++)
          sinkv += s.t.queryRectInto(c.cx[i] - 10, c.cy[i] - 10, c.cx[i] + 10, c.cy[i] + 10, s.out);
      },
    });
    add({
      name: `nearest k=5 ${kind} ${nq}`,
      reps: 5,
      setup: (lib) => ({ t: tree(lib), out: [] as number[] }),
      run: (s) => {
        for (let i = 0; i < 2000; i++) {
          s.out.length = 0;
          sinkv += s.t.nearest(c.cx[i], c.cy[i], 5, Infinity, s.out).length;
        }
      },
    });
    // W4 (moves and one r = 50 query) and W5 (moves and every point's r = 10 query).
    const steps = makeSteps(kind, nq);
    const frames = (lib: Build, loose: number) => {
      const xs = q.xs.slice();
      const ys = q.ys.slice();
      return { t: lib.PointQuadtree.from({ bounds, looseness: loose }, q.ids, xs, ys), xs, ys, f: 0 };
    };
    const out = new Int32Array(nq);
    for (const loose of [0, 2]) {
      add({
        name: `W4 moveAll frame + r=50 query ${kind} ${nq} looseness ${loose}`,
        reps: 20,
        setup: (lib) => frames(lib, loose),
        run: (s) => {
          applySteps(s.xs, s.ys, nq, steps, s.f);
          s.t.moveAll(s.xs, s.ys);
          sinkv += s.t.queryCircleInto(c.cx[s.f % 2000], c.cy[s.f++ % 2000], 50, out);
        },
      });
      add({
        name: `W4 move frame + r=50 query ${kind} ${nq} looseness ${loose}`,
        reps: 20,
        setup: (lib) => frames(lib, loose),
        run: (s) => {
          applySteps(s.xs, s.ys, nq, steps, s.f);
          const t = s.t;
          for (let i = 0; i < nq; i++) t.move(i, s.xs[i], s.ys[i]);
          sinkv += s.t.queryCircleInto(c.cx[s.f % 2000], c.cy[s.f++ % 2000], 50, out);
        },
      });
      add({
        name: `W5 moveAll + every point r=10 ${kind} ${nq} looseness ${loose}`,
        reps: nq > 10_000 ? 1 : 5,
        setup: (lib) => frames(lib, loose),
        run: (s) => {
          applySteps(s.xs, s.ys, nq, steps, s.f++);
          s.t.moveAll(s.xs, s.ys);
          for (let i = 0; i < nq; i++) sinkv += s.t.queryCircleInto(s.xs[i], s.ys[i], 10, out);
        },
      });
    }
  }
  // W6: all pairs within r (the crowd's WebAssembly join; the JavaScript join; the fused separation).
  for (const np of [1_000, 10_000, 100_000]) {
    const q = makePoints(kind, np);
    for (const r of [2, 10]) {
      const reps = np >= 100_000 ? 1 : np >= 10_000 ? 5 : 50;
      add({
        name: `W6 pairs (crowd) r=${r} ${kind} ${np}`,
        reps,
        setup: (lib) => {
          lib.setKernel('auto');
          const t = lib.Crowd.from({ bounds }, q.ids, q.xs, q.ys);
          return { t, ...pairRoom(t, r) };
        },
        run: (s) => {
          sinkv += s.t.queryPairsInto(r, s.a, s.b);
        },
      });
      add({
        name: `W6 pairs (JavaScript join) r=${r} ${kind} ${np}`,
        reps,
        setup: (lib) => {
          const t = lib.PointQuadtree.from({ bounds }, q.ids, q.xs, q.ys);
          lib.setKernel('js');
          const room = pairRoom(t, r);
          lib.setKernel('auto');
          return { lib, t, ...room };
        },
        run: (s) => {
          s.lib.setKernel('js');
          sinkv += s.t.queryPairsInto(r, s.a, s.b);
          s.lib.setKernel('auto');
        },
      });
      addSeparation(`W6 querySeparationInto (crowd) r=${r} ${kind} ${np}`, q, r, reps);
    }
  }
  // The crowd's fused call as the scene makes it (Int32Array counts, Float32Array sums): about 0.7 and 5
  // neighbours per point.
  for (const r of [1.5, 4]) addSeparation(`separation (crowd) r=${r} ${kind} 1e5`, p, r, 5);
  add({
    name: `remove+insert churn ${kind} 1e5`,
    reps: 5,
    setup: (lib) => ({ t: lib.PointQuadtree.from({ bounds }, p.ids, p.xs, p.ys) }),
    run: (s) => {
      const t = s.t;
      for (let i = 0; i < 20000; i++) {
        t.remove(i);
        t.insert(i, p.xs[(i * 7) % n], p.ys[(i * 7) % n]);
      }
    },
  });
}
const only = process.env.ONLY ? new RegExp(process.env.ONLY) : null;
const med = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};
console.log('case | base ms (median cpu) | cand ms | cand/base | rounds');
for (const c of cases) {
  if (only && !only.test(c.name)) continue;
  const sa = c.setup(A);
  const sb = c.setup(B);
  for (let w = 0; w < 2; w++) {
    c.run(sa);
    c.run(sb);
  }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const order = r & 1;
    for (const which of order ? [1, 0] : [0, 1]) {
      const s = which ? sb : sa;
      gc();
      const t0 = cpu();
      for (let k = 0; k < c.reps; k++) c.run(s);
      const dt = (cpu() - t0) / c.reps;
      (which ? tb : ta).push(dt);
    }
  }
  const a = med(ta);
  const b = med(tb);
  console.log(
    `${c.name} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(b / a).toFixed(3)} | ${ta.map((x) => x.toFixed(2)).join(' ')} / ${tb.map((x) => x.toFixed(2)).join(' ')}`,
  );
}
console.log('sink', sinkv % 7);
