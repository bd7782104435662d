/**
 * The timed workloads W1-W5 (memory and zero allocation are in memory.ts). Each one makes its data with
 * data.ts, checks every contender against brute force (verify.ts), then times it (timing.ts) and records rows.
 */
import type { Built, Contender, UpdateMode } from './contender';
import {
  applySteps,
  copyPoints,
  DATA_KINDS,
  type DataKind,
  makeCentres,
  makePoints,
  makeSteps,
  type Points,
} from './data';
import { type Job, keep, measure, measureMany, type TimingOptions } from './timing';
import { type CheckSite, Expectation } from './verify';

export type WorkloadId = 'W1' | 'W2' | 'W3' | 'W4' | 'W5' | 'memory' | 'alloc';

export interface Row {
  readonly workload: WorkloadId;
  readonly data: DataKind;
  readonly n: number;
  /** e.g. 'r=10' (empty when the workload has no parameter). */
  readonly param: string;
  /** Contender name ('ours', 'kdbush', ..., 'brute force'): ratios are taken to 'kdbush' and 'brute force'. */
  readonly contender: string;
  /** How it was built, queried or updated, e.g. 'from', 'queryCircleInto', 'move', 'rebuild'. */
  readonly variant: string;
  readonly value: number;
  readonly unit: 'ms' | 'ns/query' | 'ms/frame' | 'B/point';
  /** True when extrapolated from a sample of the queries (brute force at large N). */
  readonly estimated: boolean;
}

export function rowLabel(r: Pick<Row, 'contender' | 'variant'>): string {
  return r.variant ? `${r.contender} (${r.variant})` : r.contender;
}

/** A contender with the variant label it gets in a workload's rows. */
export interface Entry {
  readonly c: Contender;
  readonly variant: string;
}

export interface Plan {
  readonly quick: boolean;
  readonly sizes: Readonly<Record<'W1' | 'W2' | 'W3' | 'W4' | 'W5', readonly number[]>>;
  readonly memoryN: number;
  readonly allocN: number;
  readonly allocFrames: number;
  readonly timing: TimingOptions;
  readonly buildTiming: TimingOptions;
  /** Brute force is timed on a sample when a pass would take more than this many distance tests. */
  readonly bruteOpsPerPass: number;
}

export interface Context {
  readonly plan: Plan;
  readonly rows: Row[];
  readonly progress: (msg: string) => void;
}

/** Query centres of W2 (and the one query of each W4 frame). */
export const W2_CENTRES = 1000;
/** W4/W5 check: this many r=50 centres plus this many points' own r=10 queries. */
const FRAME_CHECK_QUERIES = 200;
const FRAME_CHECK_POINTS = 2000;
/** Frames run (untimed) before the first W4/W5 check. */
const FRAMES_BEFORE_CHECK = 3;

const dataCache = new Map<string, Points>();
export function points(kind: DataKind, n: number): Points {
  const key = `${kind}:${n}`;
  let p = dataCache.get(key);
  if (!p) {
    p = makePoints(kind, n);
    dataCache.set(key, p);
  }
  return p;
}

/** Drops cached data sets (the 1e6 ones are large). */
export function dropData(): void {
  dataCache.clear();
}

function site(workload: string, data: DataKind, n: number): CheckSite {
  return { workload, data, n };
}

function isBrute(c: Contender): boolean {
  return c.name === 'brute force';
}

/** Peers that take seconds per W3/W5 pass at large N: timed on a sample of the queries there. */
const SLOW_PEERS = new Set(['rbush', 'd3-quadtree']);
/** Every point queries (W3/W5): slow peers time every SLOW_PEER_STRIDE-th query from this N on. */
const SLOW_PEER_N = 1e5;
const SLOW_PEER_STRIDE = 10;

/**
 * Which of n every-point queries a contender's timed pass makes (1 = all of them; the time is scaled up
 * by the stride and marked as an estimate otherwise). Brute force is sampled when a full pass would take
 * more than plan.bruteOpsPerPass distance tests; rbush and d3-quadtree at N >= 1e5 (their full passes take
 * seconds and no target depends on them). Ours and kdbush always run every query.
 */
function queryStride(ctx: Context, c: Contender, n: number): number {
  if (isBrute(c)) return Math.max(1, Math.ceil((n * n) / ctx.plan.bruteOpsPerPass));
  if (SLOW_PEERS.has(c.name) && n >= SLOW_PEER_N) return SLOW_PEER_STRIDE;
  return 1;
}

// ---------------------------------------------------------------------------------------------------------

/** W1: build an index over N points. */
export function runW1(ctx: Context, entries: readonly Entry[]): void {
  for (const kind of DATA_KINDS) {
    for (const n of ctx.plan.sizes.W1) {
      const p = points(kind, n);
      const { cx, cy } = makeCentres(FRAME_CHECK_QUERIES, n);
      const checks = [10, 50].map(
        (r) => new Expectation(site('W1', kind, n), p.xs, p.ys, n, cx, cy, FRAME_CHECK_QUERIES, r),
      );
      for (const e of entries) {
        const label = rowLabel({ contender: e.c.name, variant: e.variant });
        ctx.progress(`W1 ${kind} N=${n} ${label}`);
        const built = e.c.build(p);
        for (const x of checks) x.check(built, label);
        const t = measure(() => {
          keep(e.c.build(p));
          return 1;
        }, ctx.plan.buildTiming);
        keep(null);
        ctx.rows.push(row('W1', kind, n, '', e, t.median, 'ms', false));
      }
    }
  }
}

export function row(
  workload: WorkloadId,
  data: DataKind,
  n: number,
  param: string,
  e: Entry | { c: { name: string }; variant: string },
  value: number,
  unit: Row['unit'],
  estimated: boolean,
): Row {
  return { workload, data, n, param, contender: e.c.name, variant: e.variant, value, unit, estimated };
}

// ---------------------------------------------------------------------------------------------------------

/** W2: one circle query (r = 10 and r = 50) at each of 1,000 random centres; ns per query. */
export function runW2(ctx: Context, entries: readonly Entry[]): void {
  for (const kind of DATA_KINDS) {
    for (const n of ctx.plan.sizes.W2) {
      const p = points(kind, n);
      const { cx, cy } = makeCentres(W2_CENTRES, n);
      const built = entries.map((e) => e.c.build(p));
      for (const r of [10, 50]) {
        const exp = new Expectation(site(`W2 r=${r}`, kind, n), p.xs, p.ys, n, cx, cy, W2_CENTRES, r);
        ctx.progress(`W2 ${kind} N=${n} r=${r}: ${entries.length} contenders, interleaved`);
        const jobs: Job[] = entries.map((e, k) => {
          const label = rowLabel({ contender: e.c.name, variant: e.variant });
          exp.check(built[k], label);
          return {
            run: () => built[k].queryCentres(cx, cy, 0, W2_CENTRES, r),
            checkFirst: (total) => exp.checkTotal(total, 1, label),
          };
        });
        const times = measureMany(jobs, ctx.plan.timing);
        entries.forEach((e, k) => {
          ctx.rows.push(
            row('W2', kind, n, `r=${r}`, e, (times[k].median * 1e6) / W2_CENTRES, 'ns/query', false),
          );
        });
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------

/** W3: every point queries r = 10 around itself (the crowd broad phase); ms per pass over all points. */
export function runW3(ctx: Context, entries: readonly Entry[]): void {
  const r = 10;
  for (const kind of DATA_KINDS) {
    for (const n of ctx.plan.sizes.W3) {
      const p = points(kind, n);
      const exp = new Expectation(site('W3 r=10', kind, n), p.xs, p.ys, n, p.xs, p.ys, n, r);
      const strides = entries.map((e) => queryStride(ctx, e.c, n));
      const jobs: Job[] = entries.map((e, k) => {
        const label = rowLabel({ contender: e.c.name, variant: e.variant });
        ctx.progress(`W3 ${kind} N=${n} ${label}: check`);
        const built = e.c.build(p);
        exp.check(built, label, strides[k]);
        return {
          run: () => built.queryPoints(p.xs, p.ys, n, strides[k], r),
          checkFirst: (total) => exp.checkTotal(total, strides[k], label),
        };
      });
      ctx.progress(`W3 ${kind} N=${n}: ${entries.length} contenders, interleaved`);
      const times = measureMany(jobs, ctx.plan.timing);
      entries.forEach((e, k) => {
        ctx.rows.push(row('W3', kind, n, 'r=10', e, times[k].median * strides[k], 'ms', strides[k] > 1));
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------------------

/** The answers expected of an index over the game's current positions (W4/W5 checks). */
function checkFrameState(label: string, workload: string, state: Points, built: Built): void {
  const { n, xs, ys, kind } = state;
  const { cx, cy } = makeCentres(FRAME_CHECK_QUERIES, n);
  new Expectation(site(workload, kind, n), xs, ys, n, cx, cy, FRAME_CHECK_QUERIES, 50).check(built, label);
  const m = Math.min(n, FRAME_CHECK_POINTS);
  const px = new Float64Array(m);
  const py = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    const i = Math.floor((k * n) / m);
    px[k] = xs[i];
    py[k] = ys[i];
  }
  new Expectation(site(workload, kind, n), xs, ys, n, px, py, m, 10).check(built, label);
}

interface FrameSetup {
  readonly state: Points;
  readonly built: Built;
  readonly mode: UpdateMode;
  readonly steps: Float64Array;
  frame: number;
}

function setupFrames(p: Points, c: Contender, modeLabel: string, steps: Float64Array): FrameSetup {
  const state = copyPoints(p);
  const built = c.build(state);
  const mode = built.updates.find((u) => u.label === modeLabel);
  if (!mode) throw new Error(`${c.name} has no update mode ${modeLabel}`);
  return { state, built, mode, steps, frame: 0 };
}

/** One game frame's moves: every point steps, then the index is brought up to date. */
function advance(s: FrameSetup): void {
  const { state, mode } = s;
  applySteps(state.xs, state.ys, state.n, s.steps, s.frame++);
  mode.sync(state.xs, state.ys, state.n);
}

/** Every (contender, update mode) pair to time in W4, in table order. */
export function updateModes(entries: readonly Entry[]): { e: Entry; mode: string }[] {
  const probe = makePoints('uniform', 16);
  const out: { e: Entry; mode: string }[] = [];
  for (const e of entries) for (const u of e.c.build(probe).updates) out.push({ e, mode: u.label });
  return out;
}

/**
 * Fastest W4 update mode per contender (name and options: ours strict, ours with loose leaves and the crowd's
 * tree are three contenders), data kind and N. W5 uses it to run rbush and d3-quadtree in their faster mode only.
 */
const fastestMode = new Map<string, string>();
const modeKey = (c: Contender, kind: DataKind, n: number) => `${c.name}|${c.options}|${kind}|${n}`;

/** W4: a game frame: every point takes a step, the index is brought up to date, one r = 50 query. */
export function runW4(ctx: Context, entries: readonly Entry[]): void {
  const { cx, cy } = makeCentres(W2_CENTRES, 0);
  for (const kind of DATA_KINDS) {
    for (const n of ctx.plan.sizes.W4) {
      const p = points(kind, n);
      const steps = makeSteps(kind, n);
      const pairs = updateModes(entries);
      const setups = pairs.map(({ e, mode }) => {
        const label = `${e.c.name} (${mode})`;
        ctx.progress(`W4 ${kind} N=${n} ${label}: check`);
        const s = setupFrames(p, e.c, mode, steps);
        const warm = FRAMES_BEFORE_CHECK + (s.mode.warmFrames ?? 0);
        for (let f = 0; f < warm; f++) advance(s);
        checkFrameState(label, 'W4', s.state, s.built);
        return s;
      });
      ctx.progress(`W4 ${kind} N=${n}: ${pairs.length} contenders, interleaved`);
      const times = measureMany(
        setups.map((s) => ({
          run: () => {
            advance(s);
            const q = s.frame % W2_CENTRES;
            return s.built.queryCentres(cx, cy, q, q + 1, 50);
          },
        })),
        ctx.plan.timing,
      );
      const best = new Map<string, number>();
      pairs.forEach(({ e, mode }, k) => {
        checkFrameState(
          `${e.c.name} (${mode})`,
          'W4 (after the timed frames)',
          setups[k].state,
          setups[k].built,
        );
        const t = times[k].median;
        ctx.rows.push(row('W4', kind, n, 'r=50', { c: e.c, variant: mode }, t, 'ms/frame', false));
        const key = modeKey(e.c, kind, n);
        if (!best.has(key) || t < (best.get(key) ?? Infinity)) {
          best.set(key, t);
          fastestMode.set(key, mode);
        }
      });
    }
  }
}

/** W5: W4's moves, then every point queries r = 10. */
export function runW5(ctx: Context, entries: readonly Entry[]): void {
  const r = 10;
  for (const kind of DATA_KINDS) {
    for (const n of ctx.plan.sizes.W5) {
      const p = points(kind, n);
      const steps = makeSteps(kind, n);
      // peers: the faster of rebuild and remove+insert, as measured by W4 (both when W4 did not run)
      const pairs = updateModes(entries).filter(({ e, mode }) => {
        // ours: moveAll, the API made for this frame (move per point is W4's comparison row)
        if (e.c.name === 'ours') return mode.startsWith('moveAll');
        const fastest = fastestMode.get(modeKey(e.c, kind, n));
        return fastest === undefined || fastest === mode;
      });
      const labels = pairs.map(
        ({ e, mode }) => `${e.c.name} (${e.variant ? `${mode}, ${e.variant}` : mode})`,
      );
      const strides = pairs.map(({ e }) => queryStride(ctx, e.c, n));
      const setups = pairs.map(({ e, mode }, k) => {
        ctx.progress(`W5 ${kind} N=${n} ${labels[k]}: check`);
        const s = setupFrames(p, e.c, mode, steps);
        for (let f = 0; f < FRAMES_BEFORE_CHECK; f++) advance(s);
        checkFrameState(labels[k], 'W5', s.state, s.built);
        return s;
      });
      // a frame in full; sampled contenders: the moves in full, the scans on every stride-th point (scaled up)
      const jobs: Job[] = [];
      setups.forEach((s, k) => {
        if (strides[k] === 1) {
          jobs.push({
            run: () => {
              advance(s);
              return s.built.queryPoints(s.state.xs, s.state.ys, n, 1, r);
            },
          });
        } else {
          jobs.push({
            run: () => {
              advance(s);
              return 1;
            },
          });
          jobs.push({ run: () => s.built.queryPoints(s.state.xs, s.state.ys, n, strides[k], r) });
        }
      });
      ctx.progress(`W5 ${kind} N=${n}: ${pairs.length} contenders, interleaved`);
      const times = measureMany(jobs, ctx.plan.timing);
      let j = 0;
      pairs.forEach(({ e, mode }, k) => {
        const s = setups[k];
        let value = times[j++].median;
        if (strides[k] > 1) value += times[j++].median * strides[k];
        checkFrameState(labels[k], 'W5 (after the timed frames)', s.state, s.built);
        const variant = e.variant ? `${mode}, ${e.variant}` : mode;
        ctx.rows.push(row('W5', kind, n, 'r=10', { c: e.c, variant }, value, 'ms/frame', strides[k] > 1));
      });
    }
  }
}
