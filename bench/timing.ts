/**
 * Timing hygiene: warm-up, several timed samples, the median, and a result sink so that the work being
 * timed can never be optimised away.
 */

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let sinkValue = 0;
let sinkObject: unknown = null;

/** Keeps a number alive (everything timed returns one). */
export function sink(v: number): void {
  sinkValue = (sinkValue + v) % 1e15;
}

/** Keeps an object alive (a built index). */
export function keep(o: unknown): void {
  sinkObject = o;
}

/** Printed at the end, so the sink is observably used. */
export function sinkChecksum(): string {
  return `${sinkValue}${sinkObject === null ? '' : '+'}`;
}

/** The global gc() (npm run bench passes --expose-gc; otherwise it is switched on here). */
export const gc: () => void = (() => {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  setFlagsFromString('--expose_gc');
  return runInNewContext('gc') as () => void;
})();

export interface TimingOptions {
  /** Untimed batches before the samples (at least 1; the first one also calibrates). */
  readonly warmup: number;
  /** Timed samples; the median is reported. */
  readonly samples: number;
  /** Each sample repeats the run until it lasts about this long (ms), so the clock's grain does not matter. */
  readonly minSampleMs: number;
  /**
   * Samples to take instead when one run is slow (over 250 ms; over 1.5 s: at most 3), to keep the whole
   * run short. Slow runs are also warmed up by the calibrating run alone.
   */
  readonly slowSamples?: number;
  /** Collect garbage before every sample (for runs that allocate a lot, like builds). */
  readonly gcEachSample?: boolean;
  /** Called with the first run's result (a checker of the timed path's answer). */
  readonly checkFirst?: (result: number) => void;
}

export interface Timing {
  /** Median time of one run, in ms. */
  readonly median: number;
  /** Every sample's time of one run, in ms. */
  readonly samples: readonly number[];
  /** Runs per sample. */
  readonly reps: number;
}

export function median(values: readonly number[]): number {
  const s = values.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Times `run` (one unit of work; it returns a number for the sink). */
export function measure(run: () => number, opts: TimingOptions): Timing {
  return measureMany([{ run, checkFirst: opts.checkFirst }], opts)[0];
}

/** One contender's unit of work for {@link measureMany}. */
export interface Job {
  readonly run: () => number;
  /** Called with the first run's result (a checker of the timed path's answer). */
  readonly checkFirst?: (result: number) => void;
}

interface Plan {
  readonly job: Job;
  readonly reps: number;
  readonly count: number;
  readonly samples: number[];
}

/**
 * Times several jobs with their samples interleaved (round s times sample s of every job), so a burst of
 * load from elsewhere on the machine hits every contender of a comparison alike instead of one of them.
 * Each job is calibrated and warmed up on its own first, and re-warmed by one untimed run before each
 * sample.
 */
export function measureMany(jobs: readonly Job[], opts: TimingOptions): Timing[] {
  const plans: Plan[] = jobs.map((job) => {
    gc();
    const t0 = performance.now();
    const first = job.run();
    const once = performance.now() - t0;
    sink(first);
    job.checkFirst?.(first);
    const reps = Math.max(1, Math.ceil(opts.minSampleMs / Math.max(once, 1e-3)));
    const slow = once > 250 && opts.slowSamples !== undefined;
    for (let w = 1; w < (slow ? 1 : opts.warmup); w++) {
      for (let k = 0; k < reps; k++) sink(job.run());
    }
    let count = opts.samples;
    if (slow) count = Math.min(count, opts.slowSamples ?? count, once > 1500 ? 3 : count);
    return { job, reps, count, samples: [] };
  });
  const rounds = Math.max(...plans.map((p) => p.count));
  for (let s = 0; s < rounds; s++) {
    for (const p of plans) {
      if (s >= p.count) continue;
      if (opts.gcEachSample) gc();
      // one untimed run first: the jobs before it have pushed this one's data out of the caches, which a
      // job run back to back (a game's index, frame after frame) would not see (a slow job amortises it)
      if (p.reps > 1) sink(p.job.run());
      let acc = 0;
      const t0 = performance.now();
      for (let k = 0; k < p.reps; k++) acc += p.job.run();
      p.samples.push((performance.now() - t0) / p.reps);
      sink(acc);
    }
  }
  return plans.map((p) => ({ median: median(p.samples), samples: p.samples, reps: p.reps }));
}
