/**
 * The WebAssembly twin of separation.ts's JavaScript kernel (source: kernels/separation.ts, built into
 * separationWasm.ts by `npm run build:kernels`): compiled synchronously from the embedded bytes the first
 * time it is asked for. Keep the module small (a test keeps it under 8 KB): browsers may refuse to compile
 * large modules synchronously on the main thread (Chrome's limit used to be 4 KB; the browser tests'
 * Chromium compiles this ~7 KB one). Where WebAssembly, its SIMD or the synchronous compile is refused,
 * compiling fails once and {@link separationWasm} answers null: the caller keeps the JavaScript kernel.
 *
 * The module's memory holds copies of the tree's arrays, laid out here (byte offsets, 16-aligned):
 *   xy      f64 x, y per slot, plus one slot of padding (NaN, set by accumulate: the rows' pads point at it)
 *   ids     i32 per slot (+ padding)
 *   start   i32 per node (nodeStart)          count  i32 per node (nodeCount)
 *   list    i32 leaf pairs, stride 2, as walked; sorted: the same grouped by first leaf (walk.ts)
 *   rect    f64 per node, stride 4 (nodeLoose); child i32 per node; stack i32: the walk's; firstAt 2 i32 per node
 *   sums    per slot (+ 2 padding), 32 bytes: f64 sum x, sum y, count, unused
 *   outCount, outX, outY   per id, in the element types of the caller's arrays (copied into them by set())
 *   temp    the kernel's row of one leaf and its partners: tempBytes(slots) bytes (kernels/row.ts)
 *   prep    every slot's f32 offsets for the rows: prepBytes(slots) bytes (kernels/prepare.ts)
 * Each region has room for the largest size seen so far (grown by half again when it runs out), so a call
 * on an unchanged tree allocates nothing: the views below are made again only when the layout changes.
 */

import { SEPARATION_WASM } from './separationWasm';

/*
 * The few members of the engine's WebAssembly API and atob this file uses, typed here: the library is built
 * against ES2022 alone (no DOM or Node types), and finds them on globalThis where the engine has them.
 */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: object };
}
const engine = globalThis as { WebAssembly?: WasmApi; atob?: (data: string) => string };

interface Exports {
  memory: WasmMemory;
  heapBase(): number;
  tempBytes(slots: number): number;
  prepBytes(slots: number): number;
  prepare(xy: number, slots: number, radius: number, prep: number): void;
  scatterLeaves(
    list: number,
    pairs: number,
    start: number,
    count: number,
    ids: number,
    end: number,
    sums: number,
    outCount: number,
    outX: number,
    outY: number,
    kinds: number,
  ): void;
  accumulate(
    xy: number,
    ids: number,
    start: number,
    count: number,
    list: number,
    pairs: number,
    sums: number,
    slots: number,
    radius: number,
    s: number,
    temp: number,
    prep: number,
  ): number;
  walk(
    rect: number,
    child: number,
    radius: number,
    s: number,
    sparseSide: number,
    wideSide: number,
    stack: number,
    stackCap: number,
    list: number,
    listCap: number,
  ): number;
  sortByFirst(list: number, n: number, nodes: number, at: number, out: number): void;
}

/** Room per region, in items. */
interface Room {
  slots: number;
  nodes: number;
  pairs: number;
  ids: number;
  stack: number;
}

const align = (n: number): number => (n + 15) & ~15;

/** The compiled kernel and its memory layout. */
export class SeparationWasm {
  private readonly x: Exports;
  private readonly base: number;
  private room: Room = { slots: 0, nodes: 0, pairs: 0, ids: 0, stack: 0 };
  // Byte offsets of the regions (see the layout above).
  private at = {
    xy: 0,
    ids: 0,
    start: 0,
    count: 0,
    list: 0,
    sums: 0,
    oc: 0,
    ox: 0,
    oy: 0,
    temp: 0,
    prep: 0,
    rect: 0,
    child: 0,
    stack: 0,
    sorted: 0,
    firstAt: 0,
  };
  // Views of the regions, matching the source arrays' lengths (made again when a length changes).
  private xy = new Float64Array(0);
  private ids = new Int32Array(0);
  private start = new Int32Array(0);
  private count = new Int32Array(0);
  private rect = new Float64Array(0);
  private child = new Int32Array(0);
  private outCount: Output = new Float64Array(0);
  private outX: Output = new Float64Array(0);
  private outY: Output = new Float64Array(0);
  private list = new Int32Array(0);
  private sums = new Float64Array(0);
  private buffer: ArrayBuffer | null = null;
  /** The leaf-pair list now in memory (at.sorted): the tree state's serial (-1: none), version, radius. */
  private listSerial = -1;
  private listVersion = -1;
  private listRadius = 0;
  private listPairs = 0;

  constructor(exports: Exports) {
    this.x = exports;
    this.base = align(exports.heapBase());
  }

  /**
   * Runs the kernel over a tree's arrays (each copied in whole: lengths are the arrays' own) and writes the
   * per-id sums of ids below `end` into the caller's outputs. The leaf pairs are walked here, over copies
   * of `rect` (nodeLoose) and `child`, only when (`serial`, `version`, `radius`) differ from the list in
   * memory (`sparse`, `wide`: see {@link walkPairs}). Returns the number of item pairs.
   */
  run(
    xy: Float64Array,
    ids: Int32Array,
    slots: number,
    start: Int32Array,
    count: Int32Array,
    idSlot: Int32Array,
    rect: Float64Array,
    child: Int32Array,
    nodes: number,
    serial: number,
    version: number,
    radius: number,
    s: number,
    sparse: number,
    wide: number,
    counts: Output,
    sumX: Float32Array | Float64Array,
    sumY: Float32Array | Float64Array,
    end: number,
  ): number {
    const xySlots = xy.length >> 1;
    const pairs = this.walkPairs(
      xySlots,
      idSlot.length,
      rect,
      child,
      nodes,
      serial,
      version,
      radius,
      s,
      sparse,
      wide,
    );
    this.load(xy, ids, start, count, null, slots, radius);
    const found = this.accumulateRange(0, pairs, slots, radius, s);
    this.scatterInto(end, counts, sumX, sumY);
    return found;
  }

  /*
   * Hooks for a caller that splits the accumulate over threads (team.ts, teamHelper.ts): walk once, load
   * the tree (and prepare its rows once), then accumulate ranges of the list, each into the per-slot records
   * (zeroed first: the records of ranges add up to the whole list's), and hand the records to the per-id
   * outputs by the walked list's leaves.
   */

  /**
   * Makes the leaf-pair list of a tree (the walk of {@link run}) unless the list in memory is already that
   * of (`serial`, `version`, `radius`); returns its pair count. `xySlots` and `ids` size the other regions
   * as {@link run} would (slots of pool.xy, length of idSlot), so that a later {@link load} of the same
   * tree lays nothing out again. `sparse` and `wide` are the leaf sides, in radii, past which a pair of
   * leaves is marked sparse or wide (SPARSE and WIDE_SIDE of separation.ts). The list is read by
   * {@link pairList}.
   */
  walkPairs(
    xySlots: number,
    ids: number,
    rect: Float64Array,
    child: Int32Array,
    nodes: number,
    serial: number,
    version: number,
    radius: number,
    s: number,
    sparse: number,
    wide: number,
  ): number {
    const guess = Math.max(this.room.pairs, 4 * nodes + 64);
    this.fit(xySlots, child.length, guess, ids, Math.max(this.room.stack, 256));
    if (serial !== this.listSerial || version !== this.listVersion || radius !== this.listRadius) {
      for (;;) {
        const at = this.at;
        if (this.rect.length !== rect.length)
          this.rect = new Float64Array(this.x.memory.buffer, at.rect, rect.length);
        if (this.child.length !== child.length) {
          this.child = new Int32Array(this.x.memory.buffer, at.child, child.length);
        }
        this.rect.set(rect);
        this.child.set(child);
        const room = this.room;
        const n = this.x.walk(
          at.rect,
          at.child,
          radius,
          s,
          // Multiplied here, where the products go straight into the module: passed between JavaScript
          // functions, each would be a number allocated per call.
          sparse * radius,
          wide * radius,
          at.stack,
          room.stack,
          at.list,
          room.pairs,
        );
        if (n >= 0) {
          this.x.sortByFirst(at.list, n, nodes, at.firstAt, at.sorted);
          this.listSerial = serial;
          this.listVersion = version;
          this.listRadius = radius;
          this.listPairs = n;
          break;
        }
        // Out of room (the fit lays everything out again, so the copies above are made again).
        this.fit(
          xySlots,
          child.length,
          room.pairs * (n === -1 ? 2 : 1),
          ids,
          room.stack * (n === -2 ? 2 : 1),
        );
      }
    }
    return this.listPairs;
  }

  /** The leaf pairs of the last {@link walkPairs} (stride 2; the first 2 x its count are valid), a view. */
  pairList(): Int32Array {
    const length = this.room.pairs * 2;
    if (this.list.length !== length || this.list.buffer !== this.x.memory.buffer) {
      this.list = new Int32Array(this.x.memory.buffer, this.at.sorted, length);
    }
    return this.list;
  }

  /**
   * Copies a tree's arrays into the module's memory (each in whole; views made again when a length
   * changes) and prepares the rows of its first `slots` slots for `radius` (kernels/prepare.ts: once per
   * tree and radius, for any number of {@link accumulateRange} calls). `list`: a leaf-pair list to copy in
   * whole over the walked one (a helper's, stride 2; {@link scatterInto} then needs a new walk); null: keep
   * the list of the last {@link walkPairs}, which must be of this tree.
   */
  load(
    xy: Float64Array,
    ids: Int32Array,
    start: Int32Array,
    count: Int32Array,
    list: Int32Array | null,
    slots: number,
    radius: number,
  ): void {
    const room = this.room;
    const pairs = list === null ? room.pairs : list.length >> 1;
    this.fit(xy.length >> 1, start.length, pairs, room.ids, room.stack);
    const at = this.at;
    const buffer = this.x.memory.buffer;
    if (list !== null) {
      // The whole list in one copy (a memcpy; pair by pair, ten times slower).
      this.pairList().set(list);
      this.listSerial = -1;
    }
    if (this.xy.length !== xy.length) this.xy = new Float64Array(buffer, at.xy, xy.length);
    if (this.ids.length !== ids.length) this.ids = new Int32Array(buffer, at.ids, ids.length);
    if (this.start.length !== start.length) {
      this.start = new Int32Array(buffer, at.start, start.length);
      this.count = new Int32Array(buffer, at.count, start.length);
    }
    this.xy.set(xy);
    this.ids.set(ids);
    this.start.set(start);
    this.count.set(count);
    this.x.prepare(at.xy, slots, radius, at.prep);
  }

  /**
   * The kernel over the leaf pairs [from, to) of the list in memory, on the tree of the last {@link load},
   * into the per-slot records (zeroed first; read by {@link slotSums}). Returns the number of item pairs.
   */
  accumulateRange(from: number, to: number, slots: number, radius: number, s: number): number {
    const at = this.at;
    return this.x.accumulate(
      at.xy,
      at.ids,
      at.start,
      at.count,
      at.sorted + from * 8,
      to - from,
      at.sums,
      slots,
      radius,
      s,
      at.temp,
      at.prep,
    );
  }

  /**
   * The per-slot records of the last {@link accumulateRange}, a view of the first `slots`: per slot f64 sum
   * x, sum y, count and a fourth entry the kernel leaves unused (records added up whole stay exact there).
   */
  slotSums(slots: number): Float64Array {
    const length = 4 * slots;
    if (this.sums.length !== length || this.sums.buffer !== this.x.memory.buffer) {
      this.sums = new Float64Array(this.x.memory.buffer, this.at.sums, length);
    }
    return this.sums;
  }

  /**
   * Hands the per-slot records in memory (as the last accumulate left them, or as changed through
   * {@link slotSums}) to the caller's per-id outputs, by the leaves of the list of the last
   * {@link walkPairs} and the ids of the last {@link load}: every id below `end`, 0 for an absent one.
   */
  scatterInto(
    end: number,
    counts: Output,
    sumX: Float32Array | Float64Array,
    sumY: Float32Array | Float64Array,
  ): void {
    const at = this.at;
    // The outputs in the caller's element types, so that the copies out are plain copies.
    const buffer = this.x.memory.buffer;
    if (!sameView(this.outCount, counts, end)) this.outCount = viewLike(counts, buffer, at.oc, end);
    if (!sameView(this.outX, sumX, end)) this.outX = viewLike(sumX, buffer, at.ox, end);
    if (!sameView(this.outY, sumY, end)) this.outY = viewLike(sumY, buffer, at.oy, end);
    const kinds = kindOf(counts) | (kindOf(sumX) << 2) | (kindOf(sumY) << 4);
    this.x.scatterLeaves(
      at.sorted,
      this.listPairs,
      at.start,
      at.count,
      at.ids,
      end,
      at.sums,
      at.oc,
      at.ox,
      at.oy,
      kinds,
    );
    counts.set(this.outCount);
    sumX.set(this.outX);
    sumY.set(this.outY);
  }

  /** Lays the regions out again (and grows the memory) when one of them lacks room. */
  private fit(slots: number, nodes: number, pairs: number, ids: number, stack: number): void {
    const r = this.room;
    if (slots <= r.slots && nodes <= r.nodes && pairs <= r.pairs && ids <= r.ids && stack <= r.stack) return;
    // Apart, so that the calls with room (every frame) allocate nothing: the closures below make V8
    // allocate this function's context on entry, before any early return.
    this.relayout(slots, nodes, pairs, ids, stack);
  }

  /** fit's work when a region lacks room: new sizes, offsets and views. */
  private relayout(slots: number, nodes: number, pairs: number, ids: number, stack: number): void {
    const r = this.room;
    const grow = (need: number, have: number): number =>
      need <= have ? have : Math.max(need, Math.ceil(have * 1.5));
    this.room = {
      slots: grow(slots, r.slots),
      nodes: grow(nodes, r.nodes),
      pairs: grow(pairs, r.pairs),
      ids: grow(ids, r.ids),
      stack: grow(stack, r.stack),
    };
    const room = this.room;
    const pad = room.slots + 2;
    let p = this.base;
    const take = (bytes: number): number => {
      const here = p;
      p = align(p + bytes);
      return here;
    };
    this.at = {
      xy: take(pad * 16),
      ids: take(pad * 4),
      start: take(room.nodes * 4),
      count: take(room.nodes * 4),
      list: take(room.pairs * 8),
      sums: take(pad * 32),
      oc: take(room.ids * 8),
      ox: take(room.ids * 8),
      oy: take(room.ids * 8),
      // One leaf and its partners in a row (kernels/row.ts).
      temp: take(this.x.tempBytes(room.slots)),
      // Every slot's f32 offsets for the rows (kernels/prepare.ts).
      prep: take(this.x.prepBytes(room.slots)),
      rect: take(room.nodes * 32),
      child: take(room.nodes * 4),
      stack: take(room.stack * 4),
      sorted: take(room.pairs * 8),
      firstAt: take((room.nodes + 1) * 8),
    };
    const memory = this.x.memory;
    const pages = Math.ceil(p / 65536) - memory.buffer.byteLength / 65536;
    if (pages > 0) memory.grow(pages);
    // Every view is made again over the new layout (and buffer, if the memory grew).
    this.buffer = memory.buffer;
    this.xy = new Float64Array(0);
    this.ids = new Int32Array(0);
    this.start = new Int32Array(0);
    this.count = new Int32Array(0);
    this.rect = new Float64Array(0);
    this.child = new Int32Array(0);
    this.outCount = new Float64Array(0);
    this.outX = new Float64Array(0);
    this.outY = new Float64Array(0);
    this.list = new Int32Array(0);
    this.sums = new Float64Array(0);
    this.listSerial = -1;
  }

  /** The memory's bytes now (for tests: the views follow it when it grows). */
  memoryBytes(): number {
    return this.buffer?.byteLength ?? 0;
  }
}

export type Output = Int32Array | Uint32Array | Float32Array | Float64Array;

/** scatterLeaves' element type of an output: 0 f64, 1 f32, 2 i32 (Uint32Array too: counts are never negative). */
function kindOf(a: Output): number {
  return a instanceof Float64Array ? 0 : a instanceof Float32Array ? 1 : 2;
}

/** Whether `view` is of `like`'s type and `end` long (else it is made again, over the current memory). */
function sameView(view: Output, like: Output, end: number): boolean {
  return view.length === end && view.constructor === like.constructor;
}

function viewLike(like: Output, buffer: ArrayBuffer, at: number, end: number): Output {
  if (like instanceof Float64Array) return new Float64Array(buffer, at, end);
  if (like instanceof Float32Array) return new Float32Array(buffer, at, end);
  if (like instanceof Uint32Array) return new Uint32Array(buffer, at, end);
  return new Int32Array(buffer, at, end);
}

/** base64 to bytes, without Buffer (browsers) or a fetch. */
function decode(base64: string): Uint8Array<ArrayBuffer> {
  const text = engine.atob!(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** undefined: not tried yet; null: this engine cannot compile it (no WebAssembly or no SIMD). */
let compiled: SeparationWasm | null | undefined;

/** The kernel, compiled on first use; null where this engine cannot run it. */
export function separationWasm(): SeparationWasm | null {
  if (compiled === undefined) {
    try {
      const api = engine.WebAssembly;
      if (api === undefined || engine.atob === undefined) throw new Error('no WebAssembly here');
      const module = new api.Module(decode(SEPARATION_WASM));
      const instance = new api.Instance(module, {
        env: {
          abort: () => {
            throw new Error('PointQuadtree: the separation kernel aborted');
          },
        },
      });
      compiled = new SeparationWasm(instance.exports as unknown as Exports);
    } catch {
      compiled = null;
    }
  }
  return compiled;
}
