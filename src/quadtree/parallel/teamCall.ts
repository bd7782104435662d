/*
 * A separation team's words: the options it takes, the figures it keeps of its last call, the record of the
 * call now running (its checked arguments), and how it reads a crowd tree's state. The team itself is
 * team.ts.
 */

import { checkRadius, NAME } from '../core/checks';
import { idEnd } from '../core/nodes';
import { stateOf, type TreeState } from '../core/state';
import { CROWD, type CrowdQuadtree } from '../crowd/CrowdQuadtree';
import {
  type CountArray,
  checkSeparationOptions,
  checkSeparationOutputs,
  type SeparationKernel,
  type SeparationOptions,
  type SeparationPrecision,
  SeparationScratch,
  type SumArray,
} from '../crowd/separation';
import type { SeparationHelperMessage } from './teamLayout';

/** A helper thread as the team reaches it: a Web Worker, or a Node worker_threads Worker, will do. */
export interface SeparationHelperPort {
  postMessage(message: SeparationHelperMessage): void;
}

export interface SeparationTeamOptions {
  /** How long the caller waits for a range a helper has started before doing it itself, ms (default 250). */
  patienceMs?: number;
  /** Below this many leaf pairs the caller does everything alone (default 256: too little to share). */
  minPairs?: number;
  /**
   * How long the caller, done with its own range, waits for a ready helper to claim its range before doing
   * it itself, ms (default 0: it does not wait; a helper that wakes late leaves the range to the caller).
   * Tests set it so that the helpers always take part.
   */
  claimWaitMs?: number;
  /**
   * Whether to time the calling thread's phases into the figures (publishMs, ...; default false: each
   * reading of the clock is a new number object, which a per-frame call should not make).
   */
  timing?: boolean;
  /**
   * Whether the caller waits by spinning on Atomics.load even where it may block in Atomics.wait (default
   * false: it blocks where it may, so that a waiting caller leaves its core to the helpers; on a browser's
   * main thread it always spins).
   */
  spin?: boolean;
}

/** Why the last call ran on the calling thread alone ('' when helpers took part). */
export type OneThreadReason =
  | ''
  | 'no helpers'
  | 'disposed'
  | 'JavaScript kernel'
  | 'few pairs'
  | 'helpers not ready'
  | 'helpers late'
  | 'helpers lost';

/** Figures of a team's last {@link SeparationTeam.querySeparationInto} (one object, rewritten each call). */
export interface SeparationTeamFigures {
  /** Threads whose work went into the answer: 1 (the caller) plus the helpers that did their range. */
  threads: number;
  /** Helpers attached to the team's buffer and not given up on. */
  ready: number;
  /** Ranges of this call the caller did itself because their helper had not claimed them yet. */
  tookOver: number;
  /**
   * Helpers given up on: for good when it threw, cannot run the kernel or its thread exited; for now (until
   * it picks up a later call) when it did not finish its range within patienceMs, or missed a hand-over (a
   * range, or a new buffer) for patienceMs, as a helper whose thread died without a word does.
   */
  lost: number;
  /** Why the call ran on one thread, '' if it did not. */
  reason: OneThreadReason;
  /**
   * The kernel the call ran on and the precision of its sums (as the tree's lastSeparation, which the
   * call also sets): 'js' and 'f64' where it ran alone on the JavaScript kernel.
   */
  kernel: SeparationKernel;
  precision: SeparationPrecision;
  /**
   * The caller's share of the work against one helper's (1: equal), tuned call by call: the caller also
   * publishes and adds up, so where it finished last it takes a little less next time, and more where it
   * had to wait.
   */
  share: number;
  /**
   * Where the calling thread's time went in the last call that used helpers, ms: the walk, the cut and
   * publishing the inputs (copying the tree's arrays and the list into the shared buffer); its own range
   * (with the copy into its kernel's memory) and any range it took over; waiting for the helpers; adding
   * their sums and handing them to the outputs. Measured when the options ask for `timing`, else 0.
   */
  publishMs: number;
  ownMs: number;
  waitMs: number;
  mergeMs: number;
}

/** A team's call now running: its arguments (checked), one record reused from call to call. */
export class TeamCall {
  t!: TreeState;
  sc!: SeparationScratch;
  radius = 0;
  counts: CountArray = new Int32Array(0);
  sumX: SumArray = new Float64Array(0);
  sumY: SumArray = new Float64Array(0);
  end = 0;
  /** The sums at the fast precision (options.precision 'f32'). */
  fast = false;

  /** The checks of a call (throwing before anything is written), then its arguments into this record. */
  begin(
    tree: CrowdQuadtree,
    radius: number,
    counts: CountArray,
    sumX: SumArray,
    sumY: SumArray,
    options: SeparationOptions | undefined,
  ): void {
    const { t, sc } = crowdOf(tree);
    checkRadius('radius', radius);
    const end = idEnd(t);
    checkSeparationOutputs(counts, sumX, sumY, end);
    this.fast = checkSeparationOptions(options) === 1;
    this.t = t;
    this.sc = sc;
    this.radius = radius;
    this.counts = counts;
    this.sumX = sumX;
    this.sumY = sumY;
    this.end = end;
  }

  /** What the call ran on (the tree's record of it) into the team's figures. */
  ranInto(last: SeparationTeamFigures): void {
    last.kernel = this.sc.ran.kernel;
    last.precision = this.sc.ran.precision;
  }
}

/**
 * A crowd tree's state and its separation scratch, each read once through the tree's internal accessors and
 * checked to be what they are (a Proxy of a tree could answer anything).
 * @throws TypeError naming the class a tree must be: a CrowdQuadtree, for a PointQuadtree that is not one.
 */
export function crowdOf(tree: unknown): { t: TreeState; sc: SeparationScratch } {
  const t = stateOf(tree);
  const crowd = (tree as { [CROWD]?: unknown })[CROWD];
  const sc: unknown = typeof crowd === 'function' ? crowd.call(tree) : null;
  if (!(sc instanceof SeparationScratch)) {
    throw new TypeError(
      `${NAME}: tree must be a CrowdQuadtree (point-quadtree/crowd), got a PointQuadtree: it has no separation join`,
    );
  }
  return { t, sc };
}
