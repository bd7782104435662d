/**
 * The kernel's memory layout: the regions that hold copies of a tree's arrays and the kernel's outputs and
 * scratch, and the record of a tree's arrays that a call copies in (or reads where they lie).
 *
 * Byte offsets, 16-aligned, in this order:
 *   call    the call's record, CALL_BYTES (kernels/call.ts): each kernel's arguments, the addresses of these
 *           regions among them
 *   xy      f64 x, y per slot, plus one slot of padding (NaN, set by accumulate: the rows' pads point at it)
 *   ids     i32 per slot (+ padding)
 *   poolXY, poolIds   the tree's pool as it lies (f64 x, y; i32 id per slot), which the gather
 *           (kernels/gather.ts) copies leaf by leaf into xy and ids (20 bytes more per pool slot)
 *   start   i32 per node (nodeStart)          count  i32 per node (nodeCount)
 *   list    i32 leaf pairs, stride 2, as walked
 *   sums    per slot (+ 2 padding), 32 bytes: f64 sum x, sum y, count, unused
 *   touched u8 per block of 2^TOUCH_SHIFT slots: 1 where the last accumulate may have written a record
 *   oc, ox, oy   per id, the per-id outputs in the element types of the caller's arrays (copied into them)
 *   temp    the kernel's row of one leaf and its partners: tempBytes(slots) bytes (kernels/row.ts)
 *   prep    every slot's f32 offsets for the rows: prepBytes(slots) bytes (kernels/prepare.ts)
 *   rect    f64 per node, stride 4 (nodeLoose); child i32 per node; stack i32: the walk's
 *   parent  i32 per group of four nodes (groupParent): the gather's way back up
 *   sorted  the list grouped by first leaf (kernels/walk.ts); firstAt 2 i32 per node (the sort's scratch)
 *   pairA, pairB   i32 ids, one chunk of the pair join's output each (chunk + 4 entries: kernels/pairs.ts)
 *   resume  2 i32: where the pair join goes on from after a chunk
 * Each region has room for the largest size seen so far (grown by half again when it runs out), so a call
 * on an unchanged tree allocates nothing. The views of the regions are made again by {@link viewAt} only
 * when a region moved, its length changed or the memory grew.
 */

import { lengthOf, typedArrayType } from '../core/checks';
import type { TreeState } from '../core/state';
import { CALL_BYTES, TOUCH_SHIFT } from './kernels/call';
import type { Exports } from './wasmModule';

/**
 * Bytes of the blocks of `slots` slots, a byte per block of 2^TOUCH_SHIFT (kernels/call.ts's TOUCHED; the
 * kernel's accumulate zeroes as many): the kernel's region, a team's shared ones and their views.
 */
export function touchedLength(slots: number): number {
  return (slots >> TOUCH_SHIFT) + 1;
}

/** Room per region, in items. */
export interface Room {
  slots: number;
  nodes: number;
  pairs: number;
  ids: number;
  stack: number;
}

/** Byte offsets of the regions (see the layout above). */
export interface Regions {
  call: number;
  xy: number;
  ids: number;
  poolXY: number;
  poolIds: number;
  start: number;
  count: number;
  list: number;
  sums: number;
  touched: number;
  oc: number;
  ox: number;
  oy: number;
  temp: number;
  prep: number;
  rect: number;
  child: number;
  parent: number;
  stack: number;
  sorted: number;
  firstAt: number;
  pairA: number;
  pairB: number;
  resume: number;
}

/** n rounded up to a multiple of 16 (arithmetic, not bit operations: offsets may pass 2^31). */
const align = (n: number): number => Math.ceil(n / 16) * 16;

/** The most memory the kernel lays out by default: 1 GiB. */
const DEFAULT_MEMORY_CAP = 2 ** 30;
let memoryCap = DEFAULT_MEMORY_CAP;

/**
 * Sets the most bytes of memory the kernel may lay out (for tests: a small cap makes a query pass it);
 * no argument: back to 1 GiB.
 */
export function setKernelMemoryCap(bytes = DEFAULT_MEMORY_CAP): void {
  memoryCap = bytes;
}

/** The most bytes of memory a kernel instance may lay out (see {@link setKernelMemoryCap}). */
export function kernelMemoryCap(): number {
  return memoryCap;
}

/**
 * Thrown by {@link Layout.fit}, which then changes nothing, when the regions a call needs would pass the
 * memory cap or the memory cannot grow to them (a radius far wider than the tree's leaves lists about
 * leaves² / 2 leaf pairs). The callers catch it and run that call on the JavaScript kernel.
 */
export class KernelRoomError extends Error {}

/** The pair join's chunk, in pairs, where the slots are fewer (see {@link Layout.chunk}). */
const CHUNK = 32768;

/** The regions' sizes and offsets in one kernel instance's memory. */
export class Layout {
  room: Room = { slots: 0, nodes: 0, pairs: 0, ids: 0, stack: 0 };
  at: Regions = {
    call: 0,
    xy: 0,
    ids: 0,
    poolXY: 0,
    poolIds: 0,
    start: 0,
    count: 0,
    list: 0,
    sums: 0,
    touched: 0,
    oc: 0,
    ox: 0,
    oy: 0,
    temp: 0,
    prep: 0,
    rect: 0,
    child: 0,
    parent: 0,
    stack: 0,
    sorted: 0,
    firstAt: 0,
    pairA: 0,
    pairB: 0,
    resume: 0,
  };
  /** Pairs per chunk of the pair join: at least every slot plus 4, so that any item's candidates fit. */
  chunk = 0;
  private base: number;
  /**
   * The sizes (slots, nodes, pairs, ids, stack), the cap, the memory's bytes and the base of the last
   * relayout that could not lay them out: not tried again while all of them stay.
   */
  private readonly failed = new Float64Array(8);

  /**
   * `base`: the first byte the regions may take (the module's heap base unless another user of the same
   * memory, a crowd tree's moveAll kernel, holds the bytes before it). `beforeGrow`: called before the
   * memory grows (which detaches every view of it), so that such a user can let go of its views first.
   */
  constructor(
    private readonly x: Exports,
    base = 0,
    private readonly beforeGrow: (() => void) | null = null,
  ) {
    this.base = align(Math.max(base, x.heapBase()));
  }

  /**
   * Moves the regions to start at `base` (another user of the memory now ends there): the next {@link fit}
   * lays them out again, whatever their room.
   */
  rebase(base: number): void {
    this.base = align(Math.max(base, this.x.heapBase()));
    this.room = { slots: 0, nodes: 0, pairs: 0, ids: 0, stack: 0 };
  }

  /**
   * Lays the regions out again (and grows the memory) when one of them lacks room; true when it did (the
   * regions' contents are then lost).
   */
  fit(slots: number, nodes: number, pairs: number, ids: number, stack: number): boolean {
    const r = this.room;
    if (slots <= r.slots && nodes <= r.nodes && pairs <= r.pairs && ids <= r.ids && stack <= r.stack) {
      return false;
    }
    // Apart, so that the calls with room (every frame) allocate nothing: the closures there make V8
    // allocate that function's context on entry, before any early return.
    this.relayout(slots, nodes, pairs, ids, stack);
    return true;
  }

  /**
   * fit's work when a region lacks room: new sizes and offsets, each region grown by half again where that
   * fits under the cap, else to what is needed. Throws {@link KernelRoomError}, changing nothing, when even
   * that passes the cap or the memory cannot grow.
   */
  private relayout(slots: number, nodes: number, pairs: number, ids: number, stack: number): void {
    const f = this.failed;
    const bytes = this.x.memory.buffer.byteLength;
    // The same sizes failed before, and neither the memory, the cap nor the base has changed since: they
    // would again. Not tried (a try may first hand a crowd tree copies of its arrays: beforeGrow). A failed
    // try grows nothing, so `bytes` is still the memory's size after it.
    const again =
      slots === f[0] &&
      nodes === f[1] &&
      pairs === f[2] &&
      ids === f[3] &&
      stack === f[4] &&
      memoryCap === f[5] &&
      bytes === f[6] &&
      this.base === f[7];
    if (!again) {
      if (this.tryRelayout(slots, nodes, pairs, ids, stack)) return;
      f.set([slots, nodes, pairs, ids, stack, memoryCap, bytes, this.base]);
    }
    throw new KernelRoomError(
      `the kernel's memory would pass ${memoryCap} bytes, or cannot grow to what it needs (slots ${slots}, nodes ${nodes}, pairs ${pairs})`,
    );
  }

  /**
   * relayout's try: room grown by half again, else to what is needed, each where it fits under the cap and
   * the memory grows to it; false, with nothing laid out, where neither does.
   */
  private tryRelayout(slots: number, nodes: number, pairs: number, ids: number, stack: number): boolean {
    const r = this.room;
    for (const spare of [1.5, 1]) {
      const grow = (need: number, have: number): number =>
        need <= have ? have : Math.max(need, Math.ceil(have * spare));
      const room: Room = {
        slots: grow(slots, r.slots),
        nodes: grow(nodes, r.nodes),
        pairs: grow(pairs, r.pairs),
        ids: grow(ids, r.ids),
        stack: grow(stack, r.stack),
      };
      const chunk = Math.max(CHUNK, room.slots + 8);
      const { at, end } = this.regions(room, chunk);
      if (!(end <= memoryCap)) continue;
      const memory = this.x.memory;
      const pages = Math.ceil(end / 65536) - memory.buffer.byteLength / 65536;
      try {
        if (pages > 0) {
          this.beforeGrow?.();
          memory.grow(pages);
        }
      } catch {
        // The engine would not grow it this far: the room that is only what is needed may take less.
        continue;
      }
      this.room = room;
      this.chunk = chunk;
      this.at = at;
      return true;
    }
    return false;
  }

  /** The regions' offsets for `room` and the byte where they end. */
  private regions(room: Room, chunk: number): { at: Regions; end: number } {
    const pad = room.slots + 2;
    let p = this.base;
    const take = (bytes: number): number => {
      const here = p;
      p = align(p + bytes);
      return here;
    };
    const at: Regions = {
      call: take(CALL_BYTES),
      xy: take(pad * 16),
      ids: take(pad * 4),
      poolXY: take(pad * 16),
      poolIds: take(pad * 4),
      start: take(room.nodes * 4),
      count: take(room.nodes * 4),
      list: take(room.pairs * 8),
      sums: take(pad * 32),
      // A byte per block of slots: where accumulate wrote records (kernels/call.ts's TOUCHED).
      touched: take(touchedLength(pad)),
      oc: take(room.ids * 8),
      ox: take(room.ids * 8),
      oy: take(room.ids * 8),
      // One leaf and its partners in a row (kernels/row.ts).
      temp: take(this.x.tempBytes(room.slots)),
      // Every slot's f32 offsets for the rows (kernels/prepare.ts).
      prep: take(this.x.prepBytes(room.slots)),
      rect: take(room.nodes * 32),
      child: take(room.nodes * 4),
      parent: take(((room.nodes >> 2) + 1) * 4),
      stack: take(room.stack * 4),
      sorted: take(room.pairs * 8),
      firstAt: take((room.nodes + 1) * 8),
      pairA: take((chunk + 4) * 4),
      pairB: take((chunk + 4) * 4),
      resume: take(8),
    };
    return { at, end: p };
  }
}

export type Output = Int32Array | Uint32Array | Float32Array | Float64Array;

type ViewType<T> = new (buffer: ArrayBuffer, byteOffset: number, length: number) => T;

/** The engine's typed array constructors by element type: views are made only by these. */
const VIEW_TYPES: Readonly<Record<string, ViewType<Output>>> = {
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
};

/**
 * The engine's constructor of `a`'s element type (Int32Array for a subclass of it, or for an Int32Array of
 * another realm): never the caller's own constructor, whose arguments may mean something else.
 */
export function viewType<T extends Output>(a: T): ViewType<T> {
  return VIEW_TYPES[typedArrayType(a)!] as ViewType<T>;
}

/**
 * `view` while it still is a view of `length` entries at byte `at` of `buffer` (the memory's buffer now)
 * of element type `type`; else a new one there. The one rule by which every view of the memory is made.
 */
export function viewAt<T extends Output | Uint8Array>(
  view: T,
  type: ViewType<T>,
  buffer: ArrayBuffer,
  at: number,
  length: number,
): T {
  // `view` is always one of ours (made here), so its own properties can be trusted.
  if (
    view.length === length &&
    view.byteOffset === at &&
    view.buffer === buffer &&
    view.constructor === type
  ) {
    return view;
  }
  return new type(buffer, at, length);
}

/** Copies `source` into the region at byte `at` through `view` (made again by {@link viewAt} if need be). */
export function copyIn<T extends Float64Array | Int32Array>(
  view: T,
  source: T,
  buffer: ArrayBuffer,
  at: number,
): T {
  const v = viewAt(view, viewType(source), buffer, at, lengthOf(source));
  v.set(source);
  return v;
}

/**
 * A tree's arrays as the kernel copies them in (each in whole) to gather it: a TreeState's ({@link
 * treeArrays}), or a helper thread's views of a team's shared buffer, where the caller published them.
 */
export interface TreeArrays {
  /** The pool as it lies: x, y and id per slot. */
  xy: Float64Array;
  ids: Int32Array;
  /** Per node: first slot in the pool, items, first child (-1: a leaf); per group of four: the parent. */
  start: Int32Array;
  count: Int32Array;
  child: Int32Array;
  parent: Int32Array;
}

/** An empty record of a tree's arrays, for {@link treeArrays} or a helper's views to fill. */
export function emptyTreeArrays(): TreeArrays {
  return {
    xy: new Float64Array(0),
    ids: new Int32Array(0),
    start: new Int32Array(0),
    count: new Int32Array(0),
    child: new Int32Array(0),
    parent: new Int32Array(0),
  };
}

/** `into`, filled with a TreeState's arrays. */
export function treeArrays(t: TreeState, into: TreeArrays): TreeArrays {
  into.xy = t.pool.xy;
  into.ids = t.pool.ids;
  into.start = t.nodeStart;
  into.count = t.nodeCount;
  into.child = t.nodeChild;
  into.parent = t.groupParent;
  return into;
}

/** Views of the regions that take a tree's arrays copied in (see SeparationWasm's readIn). */
export interface Copies {
  poolXY: Float64Array | Int32Array;
  poolIds: Float64Array | Int32Array;
  count: Float64Array | Int32Array;
  rect: Float64Array | Int32Array;
  child: Float64Array | Int32Array;
  parent: Float64Array | Int32Array;
}
