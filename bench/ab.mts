/*
 * Two builds of the library in one process, timed by CPU time, alternating: for a refactor's before and
 * after on a machine that other work keeps busy (wall-clock figures there move 2-3x from run to run; the
 * process's own CPU time, alternated round by round in one process, moves about 10%).
 *
 *   npm run bench:ab -- BASE_INDEX CAND_INDEX [rounds]
 *   e.g. git worktree add /tmp/base <commit>, then
 *   npm run bench:ab -- /tmp/base/src/quadtree/index.ts ./src/quadtree/index.ts 9
 *
 * ONLY=regex limits the cases. Prints per case the median CPU ms of each build and their ratio.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Lib from 'point-quadtree';
import { applySteps, makeCentres, makePoints, makeSteps } from './data';
import { gc } from './timing';

const [baseIdx, candIdx, roundsArg] = process.argv.slice(2);
// Paths from the command line are relative to where it runs, not to this file.
const A: typeof Lib = await import(pathToFileURL(resolve(baseIdx)).href);
const B: typeof Lib = await import(pathToFileURL(resolve(candIdx)).href);
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
  setup: (lib: typeof Lib) => S;
  run: (state: S) => void;
}
const cases: Case<unknown>[] = [];
/** Adds a case, keeping its state type for the callbacks. */
function add<S>(c: Case<S>): void {
  cases.push(c as unknown as Case<unknown>);
}

for (const kind of ['uniform', 'clustered'] as const) {
  const n = 100_000;
  const p = makePoints(kind, n);
  add({
    name: `from ${kind} 1e5`,
    reps: 5,
    setup: (lib) => lib,
    run: (lib) => {
      sinkv += lib.PointQuadtree.from({ bounds }, p.ids, p.xs, p.ys).size;
    },
  });
  add({
    name: `insert ${kind} 1e5`,
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
    add({
      name: `queryCircleInto r=10 ${kind} ${nq}`,
      reps: 20,
      setup: (lib) => ({ t: lib.PointQuadtree.from({ bounds }, q.ids, q.xs, q.ys), out: new Int32Array(nq) }),
      run: (s) => {
        for (let i = 0; i < 2000; i++) sinkv += s.t.queryCircleInto(c.cx[i], c.cy[i], 10, s.out);
      },
    });
    add({
      name: `queryRectInto 20x20 ${kind} ${nq}`,
      reps: 20,
      setup: (lib) => ({ t: lib.PointQuadtree.from({ bounds }, q.ids, q.xs, q.ys), out: new Int32Array(nq) }),
      run: (s) => {
        for (let i = 0; i < 2000; i++)
          sinkv += s.t.queryRectInto(c.cx[i] - 10, c.cy[i] - 10, c.cx[i] + 10, c.cy[i] + 10, s.out);
      },
    });
    add({
      name: `nearest k=5 ${kind} ${nq}`,
      reps: 5,
      setup: (lib) => ({ t: lib.PointQuadtree.from({ bounds }, q.ids, q.xs, q.ys), out: [] as number[] }),
      run: (s) => {
        for (let i = 0; i < 2000; i++) {
          s.out.length = 0;
          sinkv += s.t.nearest(c.cx[i], c.cy[i], 5, Infinity, s.out).length;
        }
      },
    });
  }
  const steps = makeSteps(kind, n);
  for (const loose of [0, 2]) {
    add({
      name: `moveAll frame ${kind} 1e5 looseness ${loose}`,
      reps: 20,
      setup: (lib) => {
        const xs = p.xs.slice();
        const ys = p.ys.slice();
        return { t: lib.PointQuadtree.from({ bounds, looseness: loose }, p.ids, xs, ys), xs, ys, f: 0 };
      },
      run: (s) => {
        applySteps(s.xs, s.ys, n, steps, s.f++);
        s.t.moveAll(s.xs, s.ys);
      },
    });
    add({
      name: `move frame ${kind} 1e5 looseness ${loose}`,
      reps: 20,
      setup: (lib) => {
        const xs = p.xs.slice();
        const ys = p.ys.slice();
        return { t: lib.PointQuadtree.from({ bounds, looseness: loose }, p.ids, xs, ys), xs, ys, f: 0 };
      },
      run: (s) => {
        applySteps(s.xs, s.ys, n, steps, s.f++);
        const t = s.t;
        for (let i = 0; i < n; i++) t.move(i, s.xs[i], s.ys[i]);
      },
    });
  }
  add({
    name: `pairs r=2 ${kind} 1e5`,
    reps: 5,
    setup: (lib) => ({
      t: lib.PointQuadtree.from({ bounds }, p.ids, p.xs, p.ys),
      a: new Int32Array(4e6),
      b: new Int32Array(4e6),
    }),
    run: (s) => {
      sinkv += s.t.queryPairsInto(2, s.a, s.b);
    },
  });
  const q4 = makePoints(kind, 10_000);
  add({
    name: `pairs r=10 ${kind} 1e4`,
    reps: 10,
    setup: (lib) => ({
      t: lib.PointQuadtree.from({ bounds }, q4.ids, q4.xs, q4.ys),
      a: new Int32Array(4e6),
      b: new Int32Array(4e6),
    }),
    run: (s) => {
      sinkv += s.t.queryPairsInto(10, s.a, s.b);
    },
  });
  // The crowd's fused call, as the scene makes it (Int32Array counts, Float32Array sums): about 0.7, 5 and
  // 3 neighbours per point.
  for (const [r, pts, label] of [
    [1.5, p, '1e5'],
    [4, p, '1e5'],
    [10, q4, '1e4'],
  ] as const) {
    add({
      name: `separation r=${r} ${kind} ${label}`,
      reps: 5,
      setup: (lib) => ({
        t: lib.PointQuadtree.from({ bounds }, pts.ids, pts.xs, pts.ys),
        c: new Int32Array(pts.ids.length),
        x: new Float32Array(pts.ids.length),
        y: new Float32Array(pts.ids.length),
      }),
      run: (s) => {
        sinkv += s.t.querySeparationInto(r, s.c, s.x, s.y);
      },
    });
  }
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
