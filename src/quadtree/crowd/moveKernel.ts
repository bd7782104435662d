/*
 * moveAll's pass over the ids and its re-filing of the leavers in the WebAssembly kernel (kernels/moveAll.ts,
 * kernels/refile.ts): what CrowdQuadtree plugs into its tree's MoveAllScratch.kernel, so that moveAll runs it. The
 * JavaScript pass (update/moveAll.ts's moveInPlace) runs instead where the kernel does not compile, after
 * setSeparationKernel('js'), or where the memory cannot grow; the tree is the same either way.
 *
 * The tree's arrays that the pass and the re-filing read or write (pool.xy, pool.ids, idSlot, idLeaf and the
 * node arrays: pinnedArrays) live in this object's own instance of the kernel: the tree's fields are views of its
 * memory, so the kernel works on the tree in place and nothing is copied back. The tree's algorithms replace
 * those arrays with new (JavaScript) ones when they grow; the next call copies them in again. The memory grows
 * only here, at the start of a pass, after every view of it held by the tree has been swapped for a copy: a
 * grown WebAssembly memory detaches the views of its old buffer, so no algorithm ever holds one across a call
 * that grows it (moveAll reads the tree's arrays after `inside`). The new positions are copied in per pass,
 * the pool's counters and free lists around each `file`.
 *
 * Layout (byte offsets, 16-aligned, after the module's static data): the call's record (kernels/moveCall.ts),
 * pool x, y (f64 per slot) and ids (i32 per slot), idSlot, idLeaf (i32 per id), the nodes' rectangles (f64 x 4
 * per node; the loose ones too where looseness > 0), child, count, start, cap and the groups' parents (i32 per
 * node), the free lists (i32 per size class), the new x and y (f64 or f32 per id), the leavers (i32 per id)
 * and their new x, y (f64 x 2 per id). Each region has room for the largest size seen, grown by half again
 * when it runs out.
 */

import { copyInto, lengthOf, prefixView, typedArrayType } from '../core/checks';
import type { MoveKernel } from '../core/scratch';
import type { TreeState } from '../core/state';
import * as mc from './kernels/moveCall';
import { wasmWanted } from './separation';
import { SeparationWasm } from './wasm';
import { copyIn, kernelMemoryCap, Layout } from './wasmLayout';
import { compileKernel, type Exports } from './wasmModule';

/** What the last moveAll of a crowd tree ran its pass on: 'wasm' (kernels/moveAll.ts) or 'js'. */
export interface MoveRun {
  kernel: 'wasm' | 'js';
}

const align = (n: number): number => Math.ceil(n / 16) * 16;

/**
 * Trees with fewer items run the JavaScript pass: each tree that runs the kernel's has an instance (and a
 * memory) of its own, at least 64 KiB and an engine's reservation of address space, which thousands of small
 * live trees would exhaust (a reviewer's 12,000 trees of 3 items stalled), for a pass that saves them
 * microseconds. Tests set it lower (setMoveKernelMinItems).
 */
const DEFAULT_MIN_ITEMS = 1024;
let minItems = DEFAULT_MIN_ITEMS;

/** Sets the fewest items a tree needs to run moveAll's pass in the kernel (for tests); none: the default. */
export function setMoveKernelMinItems(items = DEFAULT_MIN_ITEMS): void {
  minItems = items;
}

/**
 * A tree array the kernel keeps in its memory while the tree holds it there: how to read it on the tree and
 * set it, and its region (an offset of WasmMove's `at`).
 */
interface Pinned {
  readonly get: (t: TreeState) => Float64Array | Int32Array;
  readonly set: (t: TreeState, a: Float64Array | Int32Array) => void;
  readonly region: Exclude<keyof Regions, 'call' | 'lists' | 'xs' | 'ys' | 'leavers' | 'leaverXY'>;
  /** The view of the region that the tree holds while the array is in place (empty when none). */
  view: Float64Array | Int32Array;
}

/** The regions' byte offsets in the memory. */
interface Regions {
  call: number;
  xy: number;
  ids: number;
  idSlot: number;
  idLeaf: number;
  bounds: number;
  loose: number;
  child: number;
  count: number;
  start: number;
  cap: number;
  parent: number;
  lists: number;
  xs: number;
  ys: number;
  leavers: number;
  leaverXY: number;
}

/**
 * The tree's arrays the kernel works on in place: every array its pass and its re-filing read or write (the
 * loose rectangles only where they are an array of their own, looseness > 0; else they are nodeBounds).
 */
function pinnedArrays(loose: boolean): Pinned[] {
  const f64 = new Float64Array(0);
  const i32 = new Int32Array(0);
  const list: Pinned[] = [
    { get: (t) => t.pool.xy, set: (t, a) => (t.pool.xy = a as Float64Array), region: 'xy', view: f64 },
    { get: (t) => t.pool.ids, set: (t, a) => (t.pool.ids = a as Int32Array), region: 'ids', view: i32 },
    { get: (t) => t.idSlot, set: (t, a) => (t.idSlot = a as Int32Array), region: 'idSlot', view: i32 },
    { get: (t) => t.idLeaf, set: (t, a) => (t.idLeaf = a as Int32Array), region: 'idLeaf', view: i32 },
    {
      get: (t) => t.nodeBounds,
      set: (t, a) => {
        // One array for both where looseness is 0 (state.ts).
        if (t.nodeLoose === t.nodeBounds) t.nodeLoose = a as Float64Array;
        t.nodeBounds = a as Float64Array;
      },
      region: 'bounds',
      view: f64,
    },
    { get: (t) => t.nodeChild, set: (t, a) => (t.nodeChild = a as Int32Array), region: 'child', view: i32 },
    { get: (t) => t.nodeCount, set: (t, a) => (t.nodeCount = a as Int32Array), region: 'count', view: i32 },
    { get: (t) => t.nodeStart, set: (t, a) => (t.nodeStart = a as Int32Array), region: 'start', view: i32 },
    { get: (t) => t.nodeCap, set: (t, a) => (t.nodeCap = a as Int32Array), region: 'cap', view: i32 },
    {
      get: (t) => t.groupParent,
      set: (t, a) => (t.groupParent = a as Int32Array),
      region: 'parent',
      view: i32,
    },
  ];
  if (loose) {
    list.push({
      get: (t) => t.nodeLoose,
      set: (t, a) => (t.nodeLoose = a as Float64Array),
      region: 'loose',
      view: f64,
    });
  }
  return list;
}

/** The kernel's moveAll pass over one crowd tree, which keeps that tree's pool, id tables and nodes. */
export class WasmMove implements MoveKernel {
  /** The ids the last pass listed, and their new positions (x, y per id): views of the memory. */
  leavers: Int32Array = new Int32Array(0);
  leaverXY: Float64Array = new Float64Array(0);
  /** undefined: not compiled yet; null: this engine cannot. */
  private x: Exports | null | undefined;
  private room = { slots: 0, ids: 0, nodes: 0, stage: 0 };
  private at: Regions = {
    call: 0,
    xy: 0,
    ids: 0,
    idSlot: 0,
    idLeaf: 0,
    bounds: 0,
    loose: 0,
    child: 0,
    count: 0,
    start: 0,
    cap: 0,
    parent: 0,
    lists: 0,
    xs: 0,
    ys: 0,
    leavers: 0,
    leaverXY: 0,
  };
  /**
   * The sizes (slots, ids, nodes, positions) and the cap for which the memory could not be laid out: not
   * tried again while they stay.
   */
  private readonly failed = new Float64Array(5);
  private i32 = new Int32Array(0);
  /** The pool's free lists in the memory (copied in and out around each `file`). */
  private lists = new Int32Array(0);
  /** The tree's arrays as views of the memory (the tree holds these very objects while they are in place). */
  private readonly pinned: Pinned[];
  /** The tree's loose rectangles are an array of their own (looseness > 0), not nodeBounds. */
  private readonly loose: boolean;
  private stageX: Float32Array | Float64Array = new Float64Array(0);
  private stageY: Float32Array | Float64Array = new Float64Array(0);
  // The callers' last inputs longer than the positions' region, and views of their first entries.
  private readonly from: unknown[] = [null, null];
  private readonly heads: (Float32Array | Float64Array | null)[] = [null, null];
  /** `inside` took this moveAll's positions in (its `stay` uses them). */
  private staged = false;
  /** The byte where the regions end (0 until laid out): this tree's fused-join kernel lays out from there. */
  private end = 0;
  /** This tree's own fused-join kernel, in the same memory (see {@link WasmMove.separation}). */
  private sep: SeparationWasm | null = null;

  constructor(
    private readonly t: TreeState,
    /** Set to what each pass ran on (the tree's lastMove). */
    private readonly ran: MoveRun,
  ) {
    this.loose = t.nodeLoose !== t.nodeBounds;
    this.pinned = pinnedArrays(this.loose);
  }

  /**
   * This tree's own fused-join kernel (querySeparationInto's and queryPairsInto's, wasm.ts): an instance of
   * SeparationWasm over this object's instance of the module, its regions laid out after the pass's. It
   * reads the tree's arrays that lie in the memory where they lie, so a frame's moveAll and separation
   * share them and the pool is not copied again for the join. null until the pass has laid its regions out
   * (then the callers use the module's shared instance, which copies the arrays in). Before the join's
   * regions grow the memory (which detaches every view of it), the tree takes copies of the arrays it
   * holds there ({@link WasmMove.release}); the next pass puts them back.
   */
  separation(): SeparationWasm | null {
    const x = this.x;
    if (x === undefined || x === null || this.end === 0) return null;
    if (this.sep === null) this.sep = new SeparationWasm(x, new Layout(x, this.end, () => this.release()));
    return this.sep;
  }

  inside(xs: ArrayLike<number>, ys: ArrayLike<number>, maxId: number): number {
    this.staged = this.take(xs, ys, maxId, false);
    if (!this.staged) return -1;
    // The kernel reads the root's rectangle in the tree's nodeBounds, in the memory from here on.
    const x = this.x!;
    this.pin(x);
    return x.inside(this.at.call);
  }

  stay(xs: ArrayLike<number>, ys: ArrayLike<number>, maxId: number): number {
    // The positions `inside` took stay in the memory unless the regions were laid out again since (a
    // compaction into new arrays larger than their room): then they are taken again.
    const ready = this.take(xs, ys, maxId, this.staged);
    this.staged = false;
    if (!ready) return -1;
    const x = this.x!;
    this.pin(x);
    const found = x.stay(this.at.call);
    this.ran.kernel = 'wasm';
    return found;
  }

  file(n: number): number {
    const pool = this.t.pool;
    const i = this.i32;
    i[mc.FILE_COUNT >> 2] = n;
    i[mc.POOL_TOP >> 2] = pool.top;
    i[mc.POOL_LIVE >> 2] = pool.live;
    i[mc.POOL_DUE >> 2] = pool.compactDue ? 1 : 0;
    i[mc.POOL_BLOCK >> 2] = pool.blockCap;
    i[mc.POOL_CAP >> 2] = pool.capacity;
    this.lists.set(pool.freeLists);
    const filed = this.x!.file(this.at.call);
    pool.top = i[mc.POOL_TOP >> 2];
    pool.live = i[mc.POOL_LIVE >> 2];
    pool.compactDue = i[mc.POOL_DUE >> 2] !== 0;
    pool.blockCap = i[mc.POOL_BLOCK >> 2];
    pool.freeLists.set(this.lists);
    return filed;
  }

  /**
   * The kernel made ready for a call on the new positions of ids up to maxId: compiled, the regions laid out
   * for the tree's arrays, the positions copied in (unless `taken` and they still are). False where the
   * JavaScript pass must run (see {@link CrowdQuadtree.lastMove}).
   */
  private take(xs: ArrayLike<number>, ys: ArrayLike<number>, maxId: number, taken: boolean): boolean {
    if (!wasmWanted() || this.t.size < minItems || !isFloatArray(xs) || !isFloatArray(ys)) return false;
    if (this.x === undefined) this.x = compileKernel();
    const x = this.x;
    if (x === null) return false;
    const laid = this.fit(x, maxId + 1, Math.max(lengthOf(view(xs)), lengthOf(view(ys))));
    if (laid < 0) return false;
    if (laid === 0 && taken) return true;
    this.copyPositions(xs, ys, maxId + 1);
    this.i32[mc.MAX_ID >> 2] = maxId;
    return true;
  }

  /**
   * Lays the regions out again (and grows the memory) when one lacks room for the tree's arrays or `ids` new
   * positions (room for the callers' whole arrays of `inputs` entries too, where that is at most 4 times as
   * many: they are then copied whole, with no view of their first entries to make); first the tree gets
   * copies of the arrays it holds in the memory. 0: nothing to do; 1: laid out again (the positions must be
   * copied in again); -1, with the tree holding its copies, when the memory cannot grow or would pass the
   * kernels' cap (wasmLayout.ts), or could not for these sizes before.
   */
  private fit(x: Exports, ids: number, inputs: number): number {
    const t = this.t;
    const slots = Math.max(lengthOf(t.pool.xy) >> 1, lengthOf(t.pool.ids));
    const idRoom = Math.max(lengthOf(t.idSlot), lengthOf(t.idLeaf), ids);
    const nodes = nodeRoom(t);
    const stage = inputs <= 4 * idRoom ? Math.max(inputs, idRoom) : idRoom;
    const r = this.room;
    if (
      slots <= r.slots &&
      idRoom <= r.ids &&
      nodes <= r.nodes &&
      stage <= r.stage &&
      this.i32.buffer === x.memory.buffer
    ) {
      return 0;
    }
    const f = this.failed;
    const cap = kernelMemoryCap();
    if (slots === f[0] && idRoom === f[1] && nodes === f[2] && stage === f[3] && cap === f[4]) return -1;
    // Apart: its closures would make V8 allocate this function's context on every call, the calls with room
    // (every frame) included.
    if (this.relayout(x, slots, idRoom, nodes, stage)) return 1;
    f[0] = slots;
    f[1] = idRoom;
    f[2] = nodes;
    f[3] = stage;
    f[4] = cap;
    return -1;
  }

  /** fit's work when a region lacks room: new sizes and offsets, the memory grown; false where it cannot. */
  private relayout(x: Exports, slots: number, idRoom: number, nodes: number, stage: number): boolean {
    this.release();
    const r = this.room;
    const grow = (need: number, have: number): number =>
      need <= have ? have : Math.max(need, Math.ceil(have * 1.5));
    const room = {
      slots: grow(slots, r.slots),
      ids: grow(idRoom, r.ids),
      nodes: grow(nodes, r.nodes),
      stage: grow(stage, r.stage),
    };
    let p = align(x.heapBase());
    const take = (bytes: number): number => {
      const here = p;
      p = align(p + bytes);
      return here;
    };
    const loose = this.loose;
    const classes = lengthOf(this.t.pool.freeLists);
    const at: Regions = {
      call: take(mc.MOVE_CALL_BYTES),
      xy: take(room.slots * 16),
      ids: take(room.slots * 4),
      idSlot: take(room.ids * 4),
      idLeaf: take(room.ids * 4),
      bounds: take(room.nodes * 32),
      loose: loose ? take(room.nodes * 32) : 0,
      child: take(room.nodes * 4),
      count: take(room.nodes * 4),
      start: take(room.nodes * 4),
      cap: take(room.nodes * 4),
      parent: take(((room.nodes >> 2) + 1) * 4),
      lists: take(4 * classes),
      xs: take(room.stage * 8),
      ys: take(room.stage * 8),
      leavers: take(room.ids * 4),
      leaverXY: take(room.ids * 16),
    };
    // Past the kernels' memory cap (1 GiB unless a test sets less), as where the memory cannot grow.
    if (!(p <= kernelMemoryCap())) return false;
    const pages = Math.ceil(p / 65536) - x.memory.buffer.byteLength / 65536;
    try {
      if (pages > 0) x.memory.grow(pages);
    } catch {
      return false;
    }
    this.room = room;
    this.at = at;
    if (p !== this.end) {
      // The join's regions, after these, move past their new end (laid out again at its next call).
      this.end = p;
      this.sep?.rebase(p);
    }
    const buffer = x.memory.buffer;
    this.i32 = new Int32Array(buffer, at.call, mc.MOVE_CALL_BYTES >> 2);
    const i = this.i32;
    i[mc.MOVE_XY >> 2] = at.xy;
    i[mc.POOL_IDS >> 2] = at.ids;
    i[mc.ID_SLOT >> 2] = at.idSlot;
    i[mc.ID_LEAF >> 2] = at.idLeaf;
    i[mc.NODE_BOUNDS >> 2] = at.bounds;
    i[mc.MOVE_RECT >> 2] = loose ? at.loose : at.bounds;
    i[mc.NODE_CHILD >> 2] = at.child;
    i[mc.NODE_COUNT >> 2] = at.count;
    i[mc.NODE_START >> 2] = at.start;
    i[mc.NODE_CAP >> 2] = at.cap;
    i[mc.GROUP_PARENT >> 2] = at.parent;
    i[mc.FREE_LISTS >> 2] = at.lists;
    i[mc.MOVE_XS >> 2] = at.xs;
    i[mc.MOVE_YS >> 2] = at.ys;
    i[mc.LEAVERS >> 2] = at.leavers;
    i[mc.LEAVER_XY >> 2] = at.leaverXY;
    this.lists = new Int32Array(buffer, at.lists, classes);
    this.leavers = new Int32Array(buffer, at.leavers, room.ids);
    this.leaverXY = new Float64Array(buffer, at.leaverXY, 2 * room.ids);
    // Every view of the old regions is dropped (the memory may not have grown: they would still work, over
    // the new regions).
    this.stageX = this.stageY = new Float64Array(0);
    return true;
  }

  /** The tree gets copies of the arrays it holds in the memory (before the memory moves or grows). */
  private release(): void {
    const t = this.t;
    for (const p of this.pinned) {
      if (p.get(t) === p.view) p.set(t, p.view.slice());
      p.view = p.view instanceof Float64Array ? new Float64Array(0) : new Int32Array(0);
    }
  }

  /** The tree's arrays into the memory, where they are not there already (the tree then holds the views). */
  private pin(x: Exports): void {
    const t = this.t;
    const buffer = x.memory.buffer;
    const at = this.at;
    const pinned = this.pinned;
    for (let k = 0; k < pinned.length; k++) {
      const p = pinned[k];
      const a = p.get(t);
      if (a === p.view) continue;
      p.view = copyIn(p.view, a, buffer, at[p.region]);
      p.set(t, p.view);
    }
  }

  /**
   * The new positions into the memory, f32 where both inputs are Float32Array, else f64 (take has checked
   * that both are one or the other): each input whole where the region holds it, else its first `n` entries
   * (through a view of them, made again only when the inputs change).
   */
  private copyPositions(xs: ArrayLike<number>, ys: ArrayLike<number>, n: number): void {
    const narrow = typedArrayType(xs) === 'Float32Array' && typedArrayType(ys) === 'Float32Array';
    if (lengthOf(this.stageX) === 0 || this.stageX instanceof Float32Array !== narrow) {
      const buffer = this.leavers.buffer;
      const room = this.room.stage;
      const { xs: ax, ys: ay } = this.at;
      this.stageX = narrow ? new Float32Array(buffer, ax, room) : new Float64Array(buffer, ax, room);
      this.stageY = narrow ? new Float32Array(buffer, ay, room) : new Float64Array(buffer, ay, room);
    }
    const room = lengthOf(this.stageX);
    copyInto(this.stageX, lengthOf(view(xs)) <= room ? xs : this.head(xs, n, 0));
    copyInto(this.stageY, lengthOf(view(ys)) <= room ? ys : this.head(ys, n, 1));
    this.i32[mc.MOVE_WIDE >> 2] = narrow ? 0 : 1;
  }

  /** A view of the first `n` entries of input `k` (0: xs, 1: ys), kept while the input and `n` stay. */
  private head(a: ArrayLike<number>, n: number, k: number): Float32Array | Float64Array {
    const from = this.from;
    const heads = this.heads;
    let h = heads[k];
    if (from[k] !== a || h === null || lengthOf(h) !== n) {
      h = prefixView(view(a), n)!;
      heads[k] = h;
      from[k] = a;
    }
    return h;
  }
}

/** Nodes the node arrays have room for (groupParent has one entry per group of four and the root's). */
function nodeRoom(t: TreeState): number {
  return Math.max(
    4 * (lengthOf(t.groupParent) - 1),
    lengthOf(t.nodeBounds) >> 2,
    lengthOf(t.nodeLoose) >> 2,
    lengthOf(t.nodeChild),
    lengthOf(t.nodeCount),
    lengthOf(t.nodeStart),
    lengthOf(t.nodeCap),
  );
}

/** Whether `a` is a Float32Array or a Float64Array (by the engine's own tag). */
function isFloatArray(a: ArrayLike<number>): boolean {
  const type = typedArrayType(a);
  return type === 'Float32Array' || type === 'Float64Array';
}

/** An input take has found to be a Float32Array or Float64Array, as the typed array it is. */
function view(a: ArrayLike<number>): ArrayBufferView {
  return a as unknown as ArrayBufferView;
}
