/*
 * querySeparationInto over several threads: the calling thread walks the leaf pairs (the WebAssembly
 * kernel's walk), cuts the list into ranges by work (its own share tuned call by call), publishes the tree's
 * arrays and the list into a SharedArrayBuffer (layout: teamLayout.ts) and wakes the helpers
 * (teamHelper.ts); each thread copies the tree into its own kernel, prepares it and accumulates its range
 * into per-slot records (the kernel zeroes them first, so ranges add up to the whole list); the caller adds
 * the helpers' records slot by slot to its own and hands them to the per-id outputs by the walked leaves.
 *
 * The caller never blocks on a helper that has not started: after its own range it takes over, by
 * compareExchange on the range's claim word, every range no helper claimed (a helper still loading, busy or
 * descheduled), and waits only for ranges a helper claimed, at most `patienceMs`; past that the helper is
 * given up on until it has caught up, and the caller does its range too. A helper that misses its
 * hand-overs for `patienceMs` (a thread that died: a terminated Web Worker says nothing) is given up on the
 * same way, and one whose thread exits at once (teamRoster.ts). Where it may, the caller sleeps in
 * Atomics.wait while it waits; a browser's main thread may not, so there it spins on Atomics.load (a range
 * takes milliseconds).
 */

import { checkRadius, describe, NAME } from './checks';
import { distanceScale } from './distance';
import { separationWasm } from './kernels/wasm';
import { KernelRoomError } from './kernels/wasmLayout';
import { idEnd } from './nodes';
import { INTERNALS, type PointQuadtree } from './PointQuadtree';
import {
  type CountArray,
  checkSeparationOutputs,
  SPARSE,
  type SumArray,
  separationInto,
  separationKernel,
  WIDE_SIDE,
} from './separation';
import { TreeState } from './state';
import {
  type Capacity,
  CLAIM,
  createBuffer,
  DONE,
  FAILED,
  FOUND,
  FROM,
  helperWord,
  MESSAGE_KIND,
  NODES,
  PAIRS,
  RETIRED,
  SEQ,
  type SeparationHelperMessage,
  SLOTS,
  STOP,
  STOPPED,
  TeamViews,
  TO,
} from './teamLayout';
import {
  addRegion,
  blockingAllowed,
  checkTeamArgs,
  cutByWork,
  now,
  type PostMessage,
  toRegion,
  waitFor,
  watchExits,
} from './teamParts';
import { TeamRoster } from './teamRoster';

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
   * Where the calling thread's time went in the last call that used helpers, ms: the walk, the cut and
   * publishing the inputs (copying the tree's arrays and the list into the shared buffer); its own range
   * (with the copy into its kernel's memory) and any range it took over; waiting for the helpers; adding
   * their sums and handing them to the outputs. Measured when the options ask for `timing`, else 0.
   */
  /**
   * The caller's share of the work against one helper's (1: equal), tuned call by call: the caller also
   * publishes and adds up, so where it finished last it takes a little less next time, and more where it
   * had to wait.
   */
  share: number;
  publishMs: number;
  ownMs: number;
  waitMs: number;
  mergeMs: number;
}

/** The caller's share moves by this factor per call, between these bounds (see SeparationTeamFigures). */
const SHARE_STEP = 1.03;
const MIN_SHARE = 0.25;
const MAX_SHARE = 2;

/**
 * Runs {@link PointQuadtree.querySeparationInto} with helper threads. The team never creates a thread: the
 * application makes the workers (a module Web Worker; in Node a worker_threads Worker) whose script calls
 * {@link serveSeparation} with each message it receives, and hands the team a way to post to each.
 * Needs SharedArrayBuffer (in a browser, a cross-origin-isolated page) and the WebAssembly kernel; where the
 * kernel is not in use ({@link separationKernel} is 'js') the call runs on the calling thread alone.
 * Synchronous like the tree's own call: the answer is complete when it returns.
 */
export class SeparationTeam {
  /** Figures of the last call. */
  readonly last: SeparationTeamFigures = {
    threads: 1,
    ready: 0,
    tookOver: 0,
    lost: 0,
    reason: 'no helpers',
    share: 1,
    publishMs: 0,
    ownMs: 0,
    waitMs: 0,
    mergeMs: 0,
  };
  /** The helpers' ports and their postMessage methods, as read when the team was made. */
  private readonly ports: readonly object[];
  private readonly posts: readonly PostMessage[];
  private readonly patienceMs: number;
  private readonly minPairs: number;
  private readonly claimWaitMs: number;
  private readonly timing: boolean;
  private views: TeamViews | null = null;
  /** Publications so far (generation g is published as SEQ = 2g). */
  private generation = 0;
  /** Which helpers are in use, and which given up on. */
  private readonly roster: TeamRoster;
  /** Whether this thread may block in Atomics.wait (not a browser's main thread); null: not known yet. */
  private canBlock: boolean | null = null;
  private disposed = false;
  /** Per range (the caller's, then one per helper): where it starts in the list; and a helper's index. */
  private readonly cuts: Int32Array;
  private readonly rangeHelper: Int32Array;
  /** Per helper: the last generation whose range the caller took over. */
  private readonly takenAt: Int32Array;
  /** The helpers whose range went into this call's answer. */
  private readonly doneBy: Int32Array;

  /**
   * @param helpers - one port per helper thread (at most 15), each running {@link serveSeparation}. Each
   *   port's postMessage is read once, here; a port with `once` (a Node worker_threads Worker) is also
   *   watched for 'exit', which gives its helper up at once.
   * @param options - see {@link SeparationTeamOptions}.
   * @throws TypeError if `helpers` is not an array of objects with a postMessage method, if `options` is
   *   not an object (or undefined) or an option is not a number (true / false for `timing` and `spin`), or
   *   if this engine has no SharedArrayBuffer; RangeError for more than 15 helpers or an option out of range.
   */
  constructor(helpers: readonly SeparationHelperPort[], options?: SeparationTeamOptions) {
    const args = checkTeamArgs(helpers, options);
    const n = args.ports.length;
    this.ports = args.ports;
    this.posts = args.posts;
    this.patienceMs = args.patienceMs;
    this.minPairs = args.minPairs;
    this.claimWaitMs = args.claimWaitMs;
    this.timing = args.timing;
    if (args.spin) this.canBlock = false;
    this.roster = new TeamRoster(n, args.patienceMs);
    this.cuts = new Int32Array(n + 2);
    this.rangeHelper = new Int32Array(n + 1);
    this.takenAt = new Int32Array(n);
    this.doneBy = new Int32Array(n);
    // A helper whose thread ended is given up on for good (not after a dispose: that stopped it).
    watchExits(this.ports, (k) => {
      if (!this.disposed) this.roster.giveUp(k, true, 0);
    });
  }

  /** Helper threads the team was given. */
  get helpers(): number {
    return this.ports.length;
  }

  /**
   * The tree's {@link PointQuadtree.querySeparationInto} (same arguments, same answer: the counts equal,
   * the sums up to the order of additions), split over the caller and the helpers.
   * @throws as the tree's own call, before anything is written.
   */
  querySeparationInto(
    tree: PointQuadtree,
    radius: number,
    counts: CountArray,
    sumX: SumArray,
    sumY: SumArray,
  ): number {
    // Read once, and what it hands over must be a tree's state (a Proxy of a tree could answer anything).
    const internals = tree !== null && typeof tree === 'object' ? tree[INTERNALS] : undefined;
    const t: unknown = typeof internals === 'function' ? internals.call(tree) : null;
    if (!(t instanceof TreeState)) {
      throw new TypeError(`${NAME}: tree must be a PointQuadtree, got ${describe(tree)}`);
    }
    checkRadius('radius', radius);
    const end = idEnd(t);
    checkSeparationOutputs(counts, sumX, sumY, end);
    const last = this.last;
    last.threads = 1;
    last.tookOver = 0;
    last.ready = 0;
    const wasm = separationWasm();
    let reason: OneThreadReason = '';
    if (this.ports.length === 0) reason = 'no helpers';
    else if (this.disposed) reason = 'disposed';
    else if (wasm === null || separationKernel() !== 'wasm-simd') reason = 'JavaScript kernel';
    if (reason !== '' || wasm === null) {
      last.reason = reason;
      last.lost = this.roster.countLost();
      return separationInto(t, radius, counts, sumX, sumY, end);
    }
    last.reason = '';
    const timing = this.timing;
    const tWalk = timing ? now() : 0;
    const pool = t.pool;
    const slots = pool.top;
    const s = distanceScale(radius);
    let pairs = -1;
    try {
      pairs = wasm.walkPairs(
        pool.xy.length >> 1,
        t.idSlot.length,
        t.nodeLoose,
        t.nodeChild,
        t.nodeTop,
        t.pairs.separation.serial,
        t.version,
        radius,
        s,
        SPARSE,
        WIDE_SIDE,
      );
    } catch (e) {
      if (!(e instanceof KernelRoomError)) throw e;
    }
    if (pairs < 0) {
      // The kernel's memory cannot hold this call (a radius far wider than the leaves).
      last.reason = 'JavaScript kernel';
      return separationInto(t, radius, counts, sumX, sumY, end);
    }
    if (pairs < Math.max(1, this.minPairs)) {
      last.reason = 'few pairs';
      return separationInto(t, radius, counts, sumX, sumY, end);
    }
    // The kernel's whole list region (a copy of it is one memcpy; pair by pair, ten times slower).
    const list = wasm.pairList();
    const v = this.fit(pool.xy.length, pool.ids.length, t.nodeStart.length, list.length >> 1);
    const control = v.control;
    if (this.canBlock === null) this.canBlock = blockingAllowed(control);
    const rangeHelper = this.rangeHelper;
    const parts = this.roster.choose(control, this.generation, rangeHelper);
    last.ready = parts - 1;
    last.lost = this.roster.countLost();
    if (parts === 1) {
      last.reason = last.lost === this.ports.length ? 'helpers lost' : 'helpers not ready';
      // A generation with no range, so that a helper given up on for now can show it is alive by picking
      // it up (with no range for anyone, nothing else would be published again).
      if (this.roster.mayComeBack()) {
        Atomics.store(control, SEQ, 2 * ++this.generation);
        Atomics.notify(control, SEQ);
      }
      return separationInto(t, radius, counts, sumX, sumY, end);
    }
    const cuts = this.cuts;
    cutByWork(list, pairs, t.nodeCount, parts, last.share, cuts);
    if (cuts[1] === pairs) {
      // All the work is in the caller's range (a few leaf pairs, far more work in one than in the rest).
      last.reason = 'few pairs';
      return separationInto(t, radius, counts, sumX, sumY, end);
    }
    // Publish: SEQ odd while writing (a late helper that copies now sees the change and drops its copy).
    const g = ++this.generation;
    Atomics.store(control, SEQ, 2 * g - 1);
    v.xy.set(pool.xy);
    v.ids.set(pool.ids);
    v.start.set(t.nodeStart);
    v.count.set(t.nodeCount);
    v.list.set(list);
    v.numbers[0] = radius;
    v.numbers[1] = s;
    control[SLOTS] = slots;
    control[PAIRS] = pairs;
    control[NODES] = t.nodeTop;
    for (let p = 1; p < parts; p++) {
      const k = rangeHelper[p];
      control[helperWord(k, FROM)] = cuts[p];
      control[helperWord(k, TO)] = cuts[p + 1];
      if (cuts[p] < cuts[p + 1]) this.roster.handed(k, g);
    }
    Atomics.store(control, SEQ, 2 * g);
    Atomics.notify(control, SEQ);

    // The caller's own range, then every range no helper has claimed.
    const xy = pool.xy;
    const ids = pool.ids;
    const start = t.nodeStart;
    const count = t.nodeCount;
    const tOwn = timing ? now() : 0;
    // The tree into the caller's kernel once (with its rows prepared) for all the ranges it may do.
    wasm.load(xy, ids, start, count, null, slots, radius);
    let found = wasm.accumulateRange(0, cuts[1], slots, radius, s);
    // The kernel's sums hold one range at a time: before it runs another, they are banked in the caller's
    // region (copied the first time, added after), and the bank goes back at the end.
    const bank = this.ports.length;
    let banked = false;
    for (let p = 1; p < parts; p++) {
      const k = rangeHelper[p];
      if (cuts[p] >= cuts[p + 1]) continue;
      const claim = helperWord(k, CLAIM);
      // Not for a helper that missed its last hand-over (it may be gone): its range is taken over at once.
      if (this.claimWaitMs > 0 && !this.roster.missing(k)) {
        waitFor(control, claim, g, this.claimWaitMs, this.canBlock === true);
      }
      const c = Atomics.load(control, claim);
      if (c === g || Atomics.compareExchange(control, claim, c, g) !== c) continue;
      // Not started: the caller does it (the helper will see the claim and leave it).
      if (!banked) toRegion(wasm.slotSums(slots), v, bank, false);
      banked = true;
      found += wasm.accumulateRange(cuts[p], cuts[p + 1], slots, radius, s);
      toRegion(wasm.slotSums(slots), v, bank, true);
      this.takenAt[k] = g;
      last.tookOver++;
    }
    // Who finished first: the caller's share moves a little toward the balance (not after a takeover).
    if (last.tookOver === 0) {
      let waiting = false;
      for (let p = 1; p < parts; p++) {
        const k = rangeHelper[p];
        if (cuts[p] < cuts[p + 1] && Atomics.load(control, helperWord(k, DONE)) !== g) waiting = true;
      }
      const share = last.share * (waiting ? SHARE_STEP : 1 / SHARE_STEP);
      last.share = Math.min(MAX_SHARE, Math.max(MIN_SHARE, share));
    }
    // Wait for the ranges the helpers claimed, at most patienceMs each.
    const tWait = timing ? now() : 0;
    const doneBy = this.doneBy;
    let helped = 0;
    for (let p = 1; p < parts; p++) {
      const k = rangeHelper[p];
      // Every range is claimed by now: by its helper, or taken over above.
      if (cuts[p] >= cuts[p + 1] || this.takenAt[k] === g) continue;
      const done = helperWord(k, DONE);
      const late = !waitFor(control, done, g, this.patienceMs, this.canBlock === true);
      const failed = Atomics.load(control, helperWord(k, FAILED)) === g;
      if (!late && !failed) {
        found += control[helperWord(k, FOUND)];
        doneBy[helped++] = k;
        continue;
      }
      // Given up on (late, or it threw): it may still write its region, which is not read until it is used
      // again (and then rewritten first).
      this.roster.giveUp(k, failed, g);
      last.lost++;
      if (!banked) toRegion(wasm.slotSums(slots), v, bank, false);
      banked = true;
      found += wasm.accumulateRange(cuts[p], cuts[p + 1], slots, radius, s);
      toRegion(wasm.slotSums(slots), v, bank, true);
    }
    const tMerge = timing ? now() : 0;
    const sums = wasm.slotSums(slots);
    if (banked) addRegion(sums, v, bank, false);
    for (let q = 0; q < helped; q++) addRegion(sums, v, doneBy[q], true);
    // Per id by the walked list's leaves (every slot in use is in one leaf).
    wasm.scatterInto(end, counts, sumX, sumY);
    last.threads = 1 + helped;
    if (helped === 0) last.reason = 'helpers late';
    if (timing) {
      last.publishMs = tOwn - tWalk;
      last.ownMs = tWait - tOwn;
      last.waitMs = tMerge - tWait;
      last.mergeMs = now() - tMerge;
    }
    return found;
  }

  /**
   * Stops the helpers (each serveSeparation returns 'stopped'), whatever state the team is in: before its
   * first call (when no helper has a buffer yet) each is sent one that says stop. Later calls run on the
   * caller alone; a second dispose does nothing.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const v = this.views;
    if (v === null) {
      if (this.ports.length === 0) return;
      const capacity = { xy: 0, ids: 0, nodes: 0, pairs: 0, slots: 0, helpers: this.ports.length };
      const buffer = createBuffer(capacity);
      new Int32Array(buffer)[STOP] = STOPPED;
      this.postAll(buffer);
      return;
    }
    Atomics.store(v.control, STOP, STOPPED);
    Atomics.add(v.control, SEQ, 2);
    Atomics.notify(v.control, SEQ);
  }

  /** Sends `buffer` to every helper, each with its index (by the postMessage read at construction). */
  private postAll(buffer: SharedArrayBuffer): void {
    for (let k = 0; k < this.ports.length; k++) {
      this.posts[k].call(this.ports[k], { kind: MESSAGE_KIND, buffer, index: k });
    }
  }

  /** The shared buffer, replaced by a larger one (and sent to the helpers) when the tree outgrew it. */
  private fit(xy: number, ids: number, nodes: number, pairs: number): TeamViews {
    const v = this.views;
    if (v !== null) {
      const c = v.capacity;
      if (xy <= c.xy && ids <= c.ids && nodes <= c.nodes && pairs <= c.pairs) return v;
      Atomics.store(v.control, STOP, RETIRED);
      Atomics.add(v.control, SEQ, 2);
      Atomics.notify(v.control, SEQ);
    }
    // Room to spare (the pair count moves a little from frame to frame): each regrowth costs the helpers'
    // frames until they have attached to the new buffer.
    const grow = (need: number, have: number): number =>
      need <= have ? have : Math.max(Math.ceil(need * 1.25), Math.ceil(have * 1.5));
    const old = v?.capacity;
    const capacity: Capacity = {
      xy: grow(xy, old?.xy ?? 0),
      ids: grow(ids, old?.ids ?? 0),
      nodes: grow(nodes, old?.nodes ?? 0),
      pairs: grow(pairs, old?.pairs ?? 0),
      slots: grow(ids, old?.slots ?? 0),
      helpers: this.ports.length,
    };
    const buffer = createBuffer(capacity);
    const next = new TeamViews(buffer);
    this.views = next;
    this.roster.newBuffer();
    // Also to helpers given up on as late: they may come back (one given up on for good never reads it).
    this.postAll(buffer);
    return next;
  }
}
