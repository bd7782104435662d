/*
 * A separation team, the calling thread's side: querySeparationInto over several threads.
 *
 * The calling thread walks the leaf pairs (the WebAssembly
 * kernel's walk), cuts the list into ranges by work (its own share tuned call by call; the running totals of
 * work are taken again only for a new list, and now and then), publishes the part of the tree's arrays in
 * use, and the list where it changed, into a SharedArrayBuffer (layout: teamLayout.ts) and wakes the helpers
 * (teamHelper.ts); each thread copies the tree into its own kernel, prepares it and accumulates its range
 * into per-slot records (the kernel zeroes them first, so ranges add up to the whole list, and marks the
 * blocks of slots it wrote); the caller adds each helper's records to its own in the blocks that helper
 * marked (about 1 / (helpers + 1) of them each, so all its adding stays under about one region's worth) and hands
 * them to the per-id outputs by the walked leaves.
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

import type { CrowdQuadtree } from '../crowd/CrowdQuadtree';
import {
  type CountArray,
  ranOn,
  type SeparationOptions,
  type SumArray,
  separationInto,
  separationKernel,
} from '../crowd/separation';
import { SEPARATION_WIDE_SIDE, type SeparationWasm, separationWasm } from '../crowd/wasm';
import { emptyTreeArrays, KernelRoomError, treeArrays } from '../crowd/wasmLayout';
import {
  type OneThreadReason,
  type SeparationHelperPort,
  type SeparationTeamFigures,
  type SeparationTeamOptions,
  TeamCall,
} from './teamCall';
import { TeamInputs } from './teamInputs';
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
  SLOTS,
  STOP,
  STOPPED,
  TeamViews,
  TO,
} from './teamLayout';
import {
  addTouchedRegion,
  blockingAllowed,
  checkTeamArgs,
  fromRegion,
  now,
  type PostMessage,
  toRegion,
  waitFor,
  watchExits,
} from './teamParts';
import { TeamRoster } from './teamRoster';

/** The caller's share moves by this factor per call, between these bounds (see SeparationTeamFigures). */
const SHARE_STEP = 1.03;
const MIN_SHARE = 0.25;
const MAX_SHARE = 2;

/**
 * Runs {@link CrowdQuadtree.querySeparationInto} with helper threads. The team never creates a thread: the
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
    kernel: 'js',
    precision: 'f64',
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
  /** The cut of the list by work and the inputs written into the shared buffer (teamInputs.ts). */
  private readonly inputs = new TeamInputs();
  private readonly rangeHelper: Int32Array;
  /** Per helper: the last generation whose range the caller took over. */
  private readonly takenAt: Int32Array;
  /** The helpers whose range went into this call's answer, and how many. */
  private readonly doneBy: Int32Array;
  private helped = 0;
  /** The call now running: its arguments, its leaf pairs, its ranges, whether the caller banked sums. */
  private readonly call = new TeamCall();
  private pairs = 0;
  private parts = 0;
  private banked = false;
  /** The tree's arrays as the kernel loads them (one record, reused); the slots of its gathered copy. */
  private readonly arrays = emptyTreeArrays();
  private slots = 0;

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
   * The tree's {@link CrowdQuadtree.querySeparationInto} (same arguments, same answer: the counts equal,
   * the sums up to the order of additions), split over the caller and the helpers. In phases: the checks;
   * the walk, the helpers ready and the cut of the list (else the whole call on this thread); publishing
   * the inputs; the caller's own range and the ranges no helper claimed; collecting the helpers' ranges;
   * merging the sums into the outputs. `options` as the tree's (its precision is every thread's).
   * @throws as the tree's own call, before anything is written.
   */
  querySeparationInto(
    tree: CrowdQuadtree,
    radius: number,
    counts: CountArray,
    sumX: SumArray,
    sumY: SumArray,
    options?: SeparationOptions,
  ): number {
    this.call.begin(tree, radius, counts, sumX, sumY, options);
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
      last.lost = this.roster.countLost();
      return this.alone(reason);
    }
    last.reason = '';
    const tWalk = this.timing ? now() : 0;
    // The radius is handed on as it came (taken from the call's record, each call would box it anew).
    const alone = this.plan(wasm, radius);
    if (alone !== '') return this.alone(alone);
    const parts = this.parts;
    const v = this.publish(wasm, parts, radius);
    const tOwn = this.timing ? now() : 0;
    let found = this.ownRanges(wasm, v, parts, radius);
    const tWait = this.timing ? now() : 0;
    found += this.collect(wasm, v, parts);
    const tMerge = this.timing ? now() : 0;
    const helped = this.merge(wasm, v);
    ranOn(this.call.sc, 'wasm-simd', wasm.fastRan);
    this.call.ranInto(last);
    last.threads = 1 + helped;
    if (helped === 0) last.reason = 'helpers late';
    if (this.timing) {
      last.publishMs = tOwn - tWalk;
      last.ownMs = tWait - tOwn;
      last.waitMs = tMerge - tWait;
      last.mergeMs = now() - tMerge;
    }
    return found;
  }

  /** The whole call on this thread (the tree's own join), `reason` said in the figures. */
  private alone(reason: OneThreadReason): number {
    const c = this.call;
    this.last.reason = reason;
    const found = separationInto(c.t, c.sc, c.radius, c.counts, c.sumX, c.sumY, c.end, c.fast);
    c.ranInto(this.last);
    return found;
  }

  /**
   * The walk, the helpers ready to take a range, and the cut of the list by work into `cuts` (`parts`
   * ranges: the caller's and one per ready helper). Returns '', or why the call runs on this thread (the
   * kernel's memory cannot hold it, too few pairs, no helper ready).
   */
  private plan(wasm: SeparationWasm, radius: number): OneThreadReason {
    const { t, sc } = this.call;
    let pairs = -1;
    try {
      pairs = wasm.walkPairs(t, sc.serial, radius, SEPARATION_WIDE_SIDE, t.idSlot.length);
    } catch (e) {
      if (!(e instanceof KernelRoomError)) throw e;
    }
    // The kernel's memory cannot hold this call (a radius far wider than the leaves).
    if (pairs < 0) return 'JavaScript kernel';
    if (pairs < Math.max(1, this.minPairs)) return 'few pairs';
    this.pairs = pairs;
    // The kernel's whole list region (a copy of it is one memcpy; pair by pair, ten times slower).
    const list = wasm.pairList();
    const v = this.fit(t.pool.xy.length, t.pool.ids.length, t.nodeStart.length, list.length >> 1);
    if (this.canBlock === null) this.canBlock = blockingAllowed(v.control);
    const parts = this.readyHelpers(v.control);
    this.parts = parts;
    if (parts === 1) return this.last.lost === this.ports.length ? 'helpers lost' : 'helpers not ready';
    this.inputs.cut(wasm.listStamp, list, pairs, t.nodeCount, parts, this.last.share, this.cuts);
    // All the work is in the caller's range (a few leaf pairs, far more work in one than in the rest).
    if (this.cuts[1] === pairs) return 'few pairs';
    return '';
  }

  /**
   * The helpers that can take a range now (teamRoster.ts) into rangeHelper from index 1, every helper's range
   * emptied; returns 1 + how many. With none, a generation with no range is published where a helper given
   * up on for now may come back: it shows it is alive by picking it up (with no range for anyone, nothing
   * else would be published again).
   */
  private readyHelpers(control: Int32Array): number {
    const parts = this.roster.choose(control, this.generation, this.rangeHelper);
    const last = this.last;
    last.ready = parts - 1;
    last.lost = this.roster.countLost();
    if (parts === 1 && this.roster.mayComeBack()) {
      Atomics.store(control, SEQ, 2 * ++this.generation);
      Atomics.notify(control, SEQ);
    }
    return parts;
  }

  /**
   * Publishes generation g: the tree's arrays and the list into the shared buffer, and each helper's range.
   * SEQ is odd while it writes (a late helper that copies now sees the change and drops its copy).
   */
  private publish(wasm: SeparationWasm, parts: number, radius: number): TeamViews {
    const v = this.views!;
    const t = this.call.t;
    const control = v.control;
    const g = ++this.generation;
    Atomics.store(control, SEQ, 2 * g - 1);
    // The tree as it lies, with its children and their parents: every thread gathers its own copy leaf by
    // leaf (kernels/gather.ts), all into the same slot numbers, the tree's size of them.
    this.inputs.write(v, t, wasm, this.pairs, g);
    // The radius alone (each thread's kernel takes its distance scale from it), then the precision.
    v.numbers[0] = radius;
    v.numbers[1] = this.call.fast ? 1 : 0;
    control[SLOTS] = t.pool.top;
    control[PAIRS] = this.pairs;
    control[NODES] = t.nodeTop;
    for (let p = 1; p < parts; p++) {
      const k = this.rangeHelper[p];
      control[helperWord(k, FROM)] = this.cuts[p];
      control[helperWord(k, TO)] = this.cuts[p + 1];
      if (this.cuts[p] < this.cuts[p + 1]) this.roster.handed(k, g);
    }
    Atomics.store(control, SEQ, 2 * g);
    Atomics.notify(control, SEQ);
    return v;
  }

  /**
   * The caller's own range, then every range no helper has claimed (the helper, still loading, busy or
   * descheduled, will see the claim and leave it); then the caller's share moves a little toward the
   * balance (not after a takeover). Returns the item pairs of those ranges.
   */
  private ownRanges(wasm: SeparationWasm, v: TeamViews, parts: number, radius: number): number {
    const g = this.generation;
    const control = v.control;
    const cuts = this.cuts;
    // The tree into the caller's kernel once (gathered, its rows prepared) for all the ranges it may do;
    // its slots are every thread's (each gathers the same tree the same way).
    this.slots = wasm.loadTree(treeArrays(this.call.t, this.arrays), null, radius, this.call.fast);
    let found = wasm.accumulateRange(0, cuts[1]);
    this.banked = false;
    const last = this.last;
    for (let p = 1; p < parts; p++) {
      const k = this.rangeHelper[p];
      if (cuts[p] >= cuts[p + 1]) continue;
      const claim = helperWord(k, CLAIM);
      // Not for a helper that missed its last hand-over (it may be gone): its range is taken over at once.
      if (this.claimWaitMs > 0 && !this.roster.missing(k)) {
        waitFor(control, claim, g, this.claimWaitMs, this.canBlock === true);
      }
      const c = Atomics.load(control, claim);
      if (c === g || Atomics.compareExchange(control, claim, c, g) !== c) continue;
      found += this.takeRange(wasm, v, p);
      this.takenAt[k] = g;
      last.tookOver++;
    }
    // Who finished first: the caller's share moves a little toward the balance (not after a takeover).
    if (last.tookOver === 0) {
      let waiting = false;
      for (let p = 1; p < parts; p++) {
        const k = this.rangeHelper[p];
        if (cuts[p] < cuts[p + 1] && Atomics.load(control, helperWord(k, DONE)) !== g) waiting = true;
      }
      const share = last.share * (waiting ? SHARE_STEP : 1 / SHARE_STEP);
      last.share = Math.min(MAX_SHARE, Math.max(MIN_SHARE, share));
    }
    return found;
  }

  /**
   * Range p done on this thread. The kernel's sums hold one range at a time: before it runs another, they
   * are banked in the caller's region of the shared buffer (copied the first time, added after), and the
   * bank goes back at the merge.
   */
  private takeRange(wasm: SeparationWasm, v: TeamViews, p: number): number {
    const slots = this.slots;
    const bank = this.ports.length;
    if (!this.banked) toRegion(wasm.slotSums(slots), v, bank, false);
    this.banked = true;
    const found = wasm.accumulateRange(this.cuts[p], this.cuts[p + 1]);
    toRegion(wasm.slotSums(slots), v, bank, true);
    return found;
  }

  /**
   * Waits for the ranges the helpers claimed, at most patienceMs each; a helper late or failed is given up
   * on (it may still write its region, which is not read until it is used again, and then rewritten first)
   * and its range done here. The helpers that did theirs go into doneBy. Returns those ranges' item pairs.
   */
  private collect(wasm: SeparationWasm, v: TeamViews, parts: number): number {
    const g = this.generation;
    const control = v.control;
    let found = 0;
    this.helped = 0;
    for (let p = 1; p < parts; p++) {
      const k = this.rangeHelper[p];
      // Every range is claimed by now: by its helper, or taken over.
      if (this.cuts[p] >= this.cuts[p + 1] || this.takenAt[k] === g) continue;
      const late = !waitFor(control, helperWord(k, DONE), g, this.patienceMs, this.canBlock === true);
      const failed = Atomics.load(control, helperWord(k, FAILED)) === g;
      if (!late && !failed) {
        found += control[helperWord(k, FOUND)];
        this.doneBy[this.helped++] = k;
        continue;
      }
      this.roster.giveUp(k, failed, g);
      this.last.lost++;
      found += this.takeRange(wasm, v, p);
    }
    return found;
  }

  /**
   * The bank and the helpers' regions (each where its range wrote: addTouchedRegion) added into the
   * kernel's sums, handed to the per-id outputs by the walked list's leaves (every slot in use is in one
   * leaf). Returns how many helpers' ranges went in.
   */
  private merge(wasm: SeparationWasm, v: TeamViews): number {
    const { counts, sumX, sumY, end } = this.call;
    const sums = wasm.slotSums(this.slots);
    if (this.banked) fromRegion(sums, v, this.ports.length);
    for (let q = 0; q < this.helped; q++) addTouchedRegion(sums, v, this.doneBy[q]);
    wasm.scatterInto(end, counts, sumX, sumY);
    return this.helped;
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
