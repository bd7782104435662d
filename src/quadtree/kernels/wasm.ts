/**
 * The WebAssembly twin of separation.ts's JavaScript kernel (source: kernels/separation.ts; compiled by
 * wasmModule.ts): the tree's arrays copied into the module's memory (laid out by wasmLayout.ts), the
 * leaf-pair walk, the kernel, and the hand-over of its per-slot sums to the caller's per-id arrays. A call
 * on an unchanged tree allocates nothing.
 */

import { copyInto, lengthOf, typedArrayType } from '../checks';
import { copyIn, Layout, type Output, viewAt, viewType } from './wasmLayout';
import { compileKernel, type Exports } from './wasmModule';

export type { Output } from './wasmLayout';

/** The compiled kernel and its memory layout. */
export class SeparationWasm {
  private readonly x: Exports;
  private readonly layout: Layout;
  // Views of the regions, matching the source arrays' lengths (made again by viewAt when need be).
  private xy: Float64Array = new Float64Array(0);
  private ids: Int32Array = new Int32Array(0);
  private start: Int32Array = new Int32Array(0);
  private count: Int32Array = new Int32Array(0);
  private rect: Float64Array = new Float64Array(0);
  private child: Int32Array = new Int32Array(0);
  private outCount: Output = new Float64Array(0);
  private outX: Output = new Float64Array(0);
  private outY: Output = new Float64Array(0);
  private list: Int32Array = new Int32Array(0);
  private sums: Float64Array = new Float64Array(0);
  private pairA: Int32Array | Uint32Array = new Int32Array(0);
  private pairB: Int32Array | Uint32Array = new Int32Array(0);
  private resume: Int32Array = new Int32Array(0);
  /** The leaf-pair list now in memory (at.sorted): the tree state's serial (-1: none), version, radius. */
  private listSerial = -1;
  private listVersion = -1;
  private listRadius = 0;
  private listWide = 0;
  private listPairs = 0;

  constructor(exports: Exports) {
    this.x = exports;
    this.layout = new Layout(exports);
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
    const layout = this.layout;
    const guess = Math.max(layout.room.pairs, 4 * nodes + 64);
    this.fit(xySlots, child.length, guess, ids, Math.max(layout.room.stack, 256));
    if (
      serial !== this.listSerial ||
      version !== this.listVersion ||
      radius !== this.listRadius ||
      wide !== this.listWide
    ) {
      for (;;) {
        const at = layout.at;
        const buffer = this.x.memory.buffer;
        this.rect = copyIn(this.rect, rect, buffer, at.rect);
        this.child = copyIn(this.child, child, buffer, at.child);
        const room = layout.room;
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
          this.listWide = wide;
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
    const layout = this.layout;
    this.list = viewAt(this.list, Int32Array, this.x.memory.buffer, layout.at.sorted, layout.room.pairs * 2);
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
    const room = this.layout.room;
    const pairs = list === null ? room.pairs : list.length >> 1;
    this.fit(xy.length >> 1, start.length, pairs, room.ids, room.stack);
    const at = this.layout.at;
    const buffer = this.x.memory.buffer;
    if (list !== null) {
      // The whole list in one copy (a memcpy; pair by pair, ten times slower).
      this.pairList().set(list);
      this.listSerial = -1;
    }
    this.xy = copyIn(this.xy, xy, buffer, at.xy);
    this.ids = copyIn(this.ids, ids, buffer, at.ids);
    this.start = copyIn(this.start, start, buffer, at.start);
    this.count = copyIn(this.count, count, buffer, at.count);
    this.x.prepare(at.xy, slots, radius, at.prep);
  }

  /**
   * The kernel over the leaf pairs [from, to) of the list in memory, on the tree of the last {@link load},
   * into the per-slot records (zeroed first; read by {@link slotSums}). Returns the number of item pairs.
   */
  accumulateRange(from: number, to: number, slots: number, radius: number, s: number): number {
    const at = this.layout.at;
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
    this.sums = viewAt(this.sums, Float64Array, this.x.memory.buffer, this.layout.at.sums, 4 * slots);
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
    const at = this.layout.at;
    // The outputs in the caller's element types, so that the copies out are plain copies (views made by
    // the engine's constructors, never the caller's: see viewType).
    const buffer = this.x.memory.buffer;
    this.outCount = viewAt(this.outCount, viewType(counts), buffer, at.oc, end);
    this.outX = viewAt(this.outX, viewType(sumX), buffer, at.ox, end);
    this.outY = viewAt(this.outY, viewType(sumY), buffer, at.oy, end);
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
    // The engine's own copy (a subclass's set is never called).
    copyInto(counts, this.outCount);
    copyInto(sumX, this.outX);
    copyInto(sumY, this.outY);
  }

  /**
   * queryPairsInto's join in the kernel (kernels/pairs.ts): every unordered pair of items within `radius`
   * (closed; differences times `s`) of a tree given as to {@link run} (no per-id outputs: their regions
   * keep the room they have), the same pairs as pairs.ts's PairJoin, into outA / outB. The leaf pairs are those of {@link walkPairs}
   * (the list in memory is reused when it is this tree's at this radius). The join fills one chunk of the
   * module's memory at a time, copied out whole where the outputs have room past it, else pair by pair.
   * Returns the count, or -1 when the pairs do not fit in the shorter output (its contents unspecified).
   */
  pairs(
    xy: Float64Array,
    ids: Int32Array,
    slots: number,
    start: Int32Array,
    count: Int32Array,
    rect: Float64Array,
    child: Int32Array,
    nodes: number,
    serial: number,
    version: number,
    radius: number,
    s: number,
    sparse: number,
    wide: number,
    outA: Int32Array | Uint32Array,
    outB: Int32Array | Uint32Array,
  ): number {
    const listPairs = this.walkPairs(
      xy.length >> 1,
      0,
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
    const at = this.layout.at;
    const chunk = this.layout.chunk;
    const buffer = this.x.memory.buffer;
    // Views in the outputs' element types, so that the copies out are plain copies.
    const pairA = viewAt(this.pairA, viewType(outA), buffer, at.pairA, chunk);
    const pairB = viewAt(this.pairB, viewType(outB), buffer, at.pairB, chunk);
    const resume = viewAt(this.resume, Int32Array, buffer, at.resume, 2);
    this.pairA = pairA;
    this.pairB = pairB;
    this.resume = resume;
    const cap = Math.min(lengthOf(outA), lengthOf(outB));
    resume[0] = 0;
    resume[1] = 0;
    let found = 0;
    do {
      const n = this.x.joinPairs(
        at.xy,
        at.ids,
        at.start,
        at.count,
        at.sorted,
        listPairs,
        slots,
        radius,
        s,
        at.temp,
        at.prep,
        at.pairA,
        at.pairB,
        chunk,
        at.resume,
      );
      if (found + n > cap) return -1;
      if (found + chunk <= cap) {
        // The whole chunk (entries past n are overwritten by the next chunk, or lie past the count).
        copyInto(outA, pairA, found);
        copyInto(outB, pairB, found);
      } else {
        for (let i = 0; i < n; i++) {
          outA[found + i] = pairA[i];
          outB[found + i] = pairB[i];
        }
      }
      found += n;
    } while (resume[0] < listPairs);
    return found;
  }

  /** Lays the regions out again when one lacks room (the list in memory is then lost). */
  private fit(slots: number, nodes: number, pairs: number, ids: number, stack: number): void {
    if (this.layout.fit(slots, nodes, pairs, ids, stack)) this.listSerial = -1;
  }

  /** The memory's bytes now (for tests: the views follow it when it grows). */
  memoryBytes(): number {
    return this.x.memory.buffer.byteLength;
  }
}

/** scatterLeaves' element type of an output: 0 f64, 1 f32, 2 i32 (Uint32Array too: counts are never negative). */
function kindOf(a: Output): number {
  const type = typedArrayType(a);
  return type === 'Float64Array' ? 0 : type === 'Float32Array' ? 1 : 2;
}

/** undefined: not tried yet; null: this engine cannot compile it (no WebAssembly or no SIMD). */
let compiled: SeparationWasm | null | undefined;

/** The kernel, compiled on first use; null where this engine cannot run it. */
export function separationWasm(): SeparationWasm | null {
  if (compiled === undefined) {
    const exports = compileKernel();
    compiled = exports === null ? null : new SeparationWasm(exports);
  }
  return compiled;
}
