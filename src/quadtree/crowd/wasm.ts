/**
 * The WebAssembly twin of separation.ts's JavaScript kernel (source: kernels/separation.ts; compiled by
 * wasmModule.ts): the tree's arrays copied into the module's memory (laid out by wasmLayout.ts), or read
 * where they lie in it (a crowd tree's own instance, which its moveAll pass keeps them in: moveKernel.ts),
 * the leaf-pair walk, the kernel, and the hand-over of its per-slot sums to the caller's per-id arrays. Every
 * kernel takes the call's record (kernels/call.ts), which this file fills: the regions' addresses, the
 * radius and the counts. A call on an unchanged tree allocates nothing.
 */

import { copyInto, lengthOf, NAME, typedArrayType } from '../core/checks';
import { distanceScale } from '../core/distance';
import type { IdArray } from '../core/scratch';
import type { TreeState } from '../core/state';
import { SPARSE } from '../query/leafPairs';
import * as call from './kernels/call';
import {
  type Copies,
  copyIn,
  emptyTreeArrays,
  Layout,
  type Output,
  type TreeArrays,
  touchedLength,
  treeArrays,
  viewAt,
  viewType,
} from './wasmLayout';
import { compileKernel, type Exports } from './wasmModule';

export type { Output } from './wasmLayout';

/**
 * Past this many radii (the longer side of either leaf) the fused call takes a pair of leaves as a pair of
 * its own, with the older pairwise f64x2 loop that skips the items of one leaf out of reach of the other's
 * box (kernels/separation.ts's widePair); below it, a leaf's pairs are part of its row. 8, not the
 * JavaScript kernels' 3 (WIDE_SIDE): rows of leaves 3 to 8 radii wide measured faster than the pairwise
 * loop. `bench/kernel-ab.ts` against 3 on the scene's tree (at its then maxItems 8): default 10,000
 * 0.734-0.737 at 5 and 0.769 at 8, swarm 10,000 0.61 and swarm 100,000 0.85 at 8. `querySeparationInto` on
 * W6's data at the library's defaults (10,000 and 100,000, uniform and clustered, r = 2 and 10) against 3:
 * 0.80-1.02 at 8 on every row but clustered 10,000 (0.68-0.87), 0.73-1.12 at 5 (clustered 10,000 r = 2
 * 0.93-0.96 against 0.81-0.87 at 8), 0.78-1.18 at 12. 5 was a little faster on the scene's tree at
 * maxItems 8, 8 on W6's clustered rows; at the scene's maxItems 16 its leaves are 2.1 or 4.2 radii wide,
 * where 5 and 8 are the same. With no pairwise loop at all, W6's uniform 10,000 at r = 2 (leaves 31 radii
 * wide) took 1.42x.
 */
export const SEPARATION_WIDE_SIDE = 8;

/** The compiled kernel and its memory layout. */
export class SeparationWasm {
  private readonly x: Exports;
  private readonly layout: Layout;
  // Views of the regions, matching the source arrays' lengths (made again by viewAt when need be).
  private start: Int32Array = new Int32Array(0);
  /** Views of the regions that hold copies of a tree's arrays, where those do not lie in this memory. */
  private readonly copies: Copies = {
    poolXY: new Float64Array(0),
    poolIds: new Int32Array(0),
    count: new Int32Array(0),
    rect: new Float64Array(0),
    child: new Int32Array(0),
    parent: new Int32Array(0),
  };
  private outCount: Output = new Float64Array(0);
  private outX: Output = new Float64Array(0);
  private outY: Output = new Float64Array(0);
  private list: Int32Array = new Int32Array(0);
  private sums: Float64Array = new Float64Array(0);
  private touched: Uint8Array = new Uint8Array(0);
  private pairA: IdArray = new Int32Array(0);
  private pairB: IdArray = new Int32Array(0);
  private resume: Int32Array = new Int32Array(0);
  /** The call's record (kernels/call.ts): its f64 fields, and its i32 ones. */
  private f64: Float64Array = new Float64Array(0);
  private i32: Int32Array = new Int32Array(0);
  /** The leaf-pair list now in memory (SORTED): the tree state's serial (-1: none), version, radius. */
  private listSerial = -1;
  private listVersion = -1;
  private listRadius = 0;
  private listWide = 0;
  private listPairs = 0;
  /** The list's stamp when a list was last copied in (copyTree). */
  private listCopied = -1;
  /**
   * Changes whenever the leaf-pair list in memory may have: a walk, a list copied in, a new layout (which
   * loses it). A team cuts its ranges and publishes the list again only when this has changed.
   */
  listStamp = 0;
  /**
   * Whether the last tree loaded runs the rows' fast second pass: asked for, and the scaled radius allows
   * it (see {@link FAST_MIN}); else the exact one ran.
   */
  fastRan = false;
  /** A TreeState's arrays, as run() and pairs() hand them to loadTree (one record, reused). */
  private readonly arrays = emptyTreeArrays();

  /**
   * Bytes of a tree's arrays copied into the memory since the last {@link walkPairs} began (by its walk and
   * by {@link copyTree}: the arrays that did not already lie in the memory, and the node starts, which the
   * gather rewrites): for tests.
   */
  copiedBytes = 0;

  /**
   * `layout`: where the regions go (a crowd tree's own instance lays them out after its moveAll kernel's,
   * moveKernel.ts); by default from the module's heap base, the whole memory this kernel's.
   */
  constructor(exports: Exports, layout: Layout = new Layout(exports)) {
    this.x = exports;
    this.layout = layout;
  }

  /**
   * Runs the kernel over a tree (its arrays each copied in whole) and writes the per-id sums of ids below
   * `end` into the caller's outputs. The leaf pairs are walked only when (`serial`, the tree's version,
   * `radius`) differ from the list in memory (see {@link walkPairs}). `fast`: the sums at the fast
   * precision (see {@link loadTree}). Returns the number of item pairs.
   */
  run(
    t: TreeState,
    serial: number,
    radius: number,
    counts: Output,
    sumX: Float32Array | Float64Array,
    sumY: Float32Array | Float64Array,
    end: number,
    fast: boolean,
  ): number {
    const pairs = this.walkPairs(t, serial, radius, SEPARATION_WIDE_SIDE, t.idSlot.length);
    this.loadTree(treeArrays(t, this.arrays), null, radius, fast);
    const found = this.accumulateRange(0, pairs);
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
   * of (`serial`, the tree's version, `radius`, `wide`); returns its pair count. Leaf pairs are marked
   * sparse past SPARSE radii, wide past `wide` radii (leafPairs.ts). `idRoom` sizes the per-id outputs'
   * regions as {@link run} would (the tree's idSlot.length; 0 for no per-id outputs), so that a later
   * {@link loadTree} of the same tree lays nothing out again. The list is read by {@link pairList}.
   */
  walkPairs(t: TreeState, serial: number, radius: number, wide: number, idRoom: number): number {
    const layout = this.layout;
    this.copiedBytes = 0;
    const guess = Math.max(layout.room.pairs, 4 * t.nodeTop + 64);
    this.fit(t.pool.xy.length >> 1, t.nodeChild.length, guess, idRoom, Math.max(layout.room.stack, 256));
    if (
      serial !== this.listSerial ||
      t.version !== this.listVersion ||
      radius !== this.listRadius ||
      wide !== this.listWide
    ) {
      this.listPairs = this.walk(t, radius, wide, idRoom);
      this.listStamp++;
      this.listSerial = serial;
      this.listVersion = t.version;
      this.listRadius = radius;
      this.listWide = wide;
    }
    return this.listPairs;
  }

  /** walkPairs' walk and grouping, the regions grown until the list and the stack fit. */
  private walk(t: TreeState, radius: number, wide: number, idRoom: number): number {
    for (;;) {
      const at = this.layout.at;
      const buffer = this.x.memory.buffer;
      const i32 = this.i32;
      i32[call.RECT >> 2] = this.readIn('rect', t.nodeLoose, buffer, at.rect);
      i32[call.CHILD >> 2] = this.readIn('child', t.nodeChild, buffer, at.child);
      const room = this.layout.room;
      const f = this.f64;
      f[call.RADIUS >> 3] = radius;
      f[call.SCALE >> 3] = distanceScale(radius);
      f[call.SPARSE_SIDE >> 3] = SPARSE * radius;
      f[call.WIDE_SIDE >> 3] = wide * radius;
      this.i32[call.NODES >> 2] = t.nodeTop;
      const n = this.x.walk(at.call);
      if (n >= 0) {
        this.x.sortByFirst(at.call, n);
        return n;
      }
      // Out of room (the fit lays everything out again, so the copies above are made again).
      this.fit(
        t.pool.xy.length >> 1,
        t.nodeChild.length,
        room.pairs * (n === -1 ? 2 : 1),
        idRoom,
        room.stack * (n === -2 ? 2 : 1),
      );
    }
  }

  /** The leaf pairs of the last {@link walkPairs} (stride 2; the first 2 x its count are valid), a view. */
  pairList(): Int32Array {
    const layout = this.layout;
    this.list = viewAt(this.list, Int32Array, this.x.memory.buffer, layout.at.sorted, layout.room.pairs * 2);
    return this.list;
  }

  /**
   * Copies a tree's arrays into the module's memory (each in whole; views made again when a length
   * changes), gathers its items leaf by leaf (kernels/gather.ts: dense, depth first, so that leaves near in
   * space are near in memory; every slot number the kernel hands out is then a gathered one: the same on
   * every thread that gathers the same tree) and prepares the rows of the gathered slots for `radius`
   * (kernels/prepare.ts: once per tree and radius, for any number of {@link accumulateRange} calls).
   * `list`: a leaf-pair list to copy in whole over the walked one (a helper's, stride 2; {@link
   * scatterInto} then needs a new walk); null: keep the list of the last {@link walkPairs}, which must be
   * of this tree. `fast`: the rows' second pass takes each pair's weight in f32x4 lanes (kernels/row.ts,
   * secondPass<f32>; the same pairs and counts, the sums within the bound of docs/crowd.md) where the
   * scaled radius allows it ({@link FAST_MIN}), else the exact f64 pass. Returns the slots in use: the
   * tree's size.
   */
  loadTree(tree: TreeArrays, list: Int32Array | null, radius: number, fast: boolean): number {
    this.copyTree(tree, list);
    return this.gatherRows(radius, fast);
  }

  /**
   * The first half of {@link loadTree}: the arrays (and `list`) copied in. A helper thread checks between
   * the halves that what it copied was not being rewritten meanwhile, so it never gathers a torn copy.
   * `listChanged` false: `list` holds what the last copy of a list into this kernel read from it (a helper
   * knows by the LIST word: a copy torn by a new list always sees a later LIST next time, so it never passes
   * false after one); its copy is still in memory unless a walk or a new layout replaced it since (then it
   * is copied in again).
   */
  copyTree(tree: TreeArrays, list: Int32Array | null, listChanged = true): void {
    const room = this.layout.room;
    const pairs = list === null ? room.pairs : list.length >> 1;
    const laidOut = this.fit(tree.xy.length >> 1, tree.start.length, pairs, room.ids, room.stack);
    // A new layout loses the list in memory: only a list handed in may follow one (walkPairs, just before,
    // fitted the same sizes).
    if (laidOut && list === null)
      throw new Error(`${NAME}: the kernel lost its leaf-pair list to a new layout`);
    const at = this.layout.at;
    const buffer = this.x.memory.buffer;
    if (list !== null && (listChanged || this.listStamp !== this.listCopied)) {
      // The whole list in one copy (a memcpy; pair by pair, ten times slower).
      this.pairList().set(list);
      this.listSerial = -1;
      this.listCopied = ++this.listStamp;
    }
    const i32 = this.i32;
    // Each array read where it lies if it lies in this memory already (a crowd tree's, kept there by its
    // moveAll kernel: moveKernel.ts), else copied into its region. The node starts are always copied: the
    // gather rewrites them.
    i32[call.POOL_XY >> 2] = this.readIn('poolXY', tree.xy, buffer, at.poolXY);
    i32[call.POOL_IDS >> 2] = this.readIn('poolIds', tree.ids, buffer, at.poolIds);
    this.start = copyIn(this.start, tree.start, buffer, at.start);
    this.copiedBytes += tree.start.byteLength;
    i32[call.COUNT >> 2] = this.readIn('count', tree.count, buffer, at.count);
    // The walk's children may be another tree's: this tree's, and its groups' parents.
    i32[call.CHILD >> 2] = this.readIn('child', tree.child, buffer, at.child);
    i32[call.PARENT >> 2] = this.readIn('parent', tree.parent, buffer, at.parent);
    i32[call.POOL_SLOTS >> 2] = tree.ids.length;
    i32[call.POOL_NODES >> 2] = tree.start.length;
  }

  /**
   * A tree's array for the kernel to read: its own address where it lies in this memory already, else
   * copied into its region at byte `at` (through the view kept under `key`), whose address is returned.
   */
  private readIn(key: keyof Copies, a: Float64Array | Int32Array, buffer: ArrayBuffer, at: number): number {
    if (a.buffer === buffer) return a.byteOffset;
    const copies = this.copies;
    copies[key] = copyIn(copies[key], a, buffer, at);
    this.copiedBytes += a.byteLength;
    return at;
  }

  /** The second half of {@link loadTree}: the copy gathered, its rows prepared; returns the slots in use. */
  gatherRows(radius: number, fast: boolean): number {
    const slots = this.x.gather(this.layout.at.call);
    if (slots < 0) throw new Error(`${NAME}: the tree copied into the kernel is not a tree (a torn copy)`);
    this.prepareRows(slots, radius, fast);
    return slots;
  }

  /** The call's slots, radius, scale and precision, then the rows of the gathered tree prepared. */
  private prepareRows(slots: number, radius: number, fast: boolean): void {
    this.i32[call.SLOTS >> 2] = slots;
    this.f64[call.RADIUS >> 3] = radius;
    const s = distanceScale(radius);
    this.f64[call.SCALE >> 3] = s;
    // Inline, not a call: a double handed to or from a function that is not inlined is boxed, every call.
    const r2 = radius * s * (radius * s);
    const ran = fast && r2 >= FAST_MIN && r2 <= FAST_MAX;
    this.i32[call.PRECISION >> 2] = ran ? 1 : 0;
    this.fastRan = ran;
    this.x.prepare(this.layout.at.call);
  }

  /**
   * The kernel over the leaf pairs [from, to) of the list in memory, on the tree of the last {@link loadTree},
   * into the per-slot records (zeroed first; read by {@link slotSums}). Returns the number of item pairs.
   */
  accumulateRange(from: number, to: number): number {
    return this.x.accumulate(this.layout.at.call, from, to);
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
   * The blocks of the last {@link accumulateRange}'s records (marked since its start: a pair join marks too), a view of (slots >> TOUCH_SHIFT) + 1 bytes
   * (kernels/call.ts): block b (slots b 2^TOUCH_SHIFT on) is 0 where every record of it is 0.
   */
  touchedBlocks(slots: number): Uint8Array {
    const n = touchedLength(slots);
    this.touched = viewAt(this.touched, Uint8Array, this.x.memory.buffer, this.layout.at.touched, n);
    return this.touched;
  }

  /**
   * Hands the per-slot records in memory (as the last accumulate left them, or as changed through
   * {@link slotSums}) to the caller's per-id outputs, by the leaves of the list of the last
   * {@link walkPairs} and the ids of the last {@link loadTree}: every id below `end`, 0 for an absent one.
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
    const i32 = this.i32;
    i32[call.PAIRS >> 2] = this.listPairs;
    i32[call.END >> 2] = end;
    i32[call.KINDS >> 2] = kindOf(counts) | (kindOf(sumX) << 2) | (kindOf(sumY) << 4);
    this.x.scatterLeaves(at.call);
    // The engine's own copy (a subclass's set is never called).
    copyInto(counts, this.outCount);
    copyInto(sumX, this.outX);
    copyInto(sumY, this.outY);
  }

  /**
   * queryPairsInto's join in the kernel (kernels/pairs.ts): every unordered pair of items within `radius`
   * (closed) of the tree, the same pairs as query/pairs.ts's JavaScript join, into outA / outB. The leaf
   * pairs are those of {@link walkPairs} with pairs wide past `wide` radii (the list in memory is reused
   * when it is this tree's at this radius; no per-id outputs: their regions keep the room they have). The
   * join fills one chunk of the module's memory at a time, copied out whole where the outputs have room past
   * it, else pair by pair. Returns the count, or -1 when the pairs do not fit in the shorter output (its
   * contents unspecified).
   */
  pairs(t: TreeState, serial: number, radius: number, wide: number, outA: IdArray, outB: IdArray): number {
    const listPairs = this.walkPairs(t, serial, radius, wide, 0);
    this.loadTree(treeArrays(t, this.arrays), null, radius, false);
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
    this.i32[call.PAIRS >> 2] = listPairs;
    const cap = Math.min(lengthOf(outA), lengthOf(outB));
    resume[0] = 0;
    resume[1] = 0;
    let found = 0;
    do {
      const n = this.x.joinPairs(at.call);
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

  /**
   * Lays the regions out again when one lacks room (the list in memory is then lost), and writes their
   * addresses and room into the call's record.
   */
  private fit(slots: number, nodes: number, pairs: number, ids: number, stack: number): boolean {
    if (!this.layout.fit(slots, nodes, pairs, ids, stack) && this.i32.buffer === this.x.memory.buffer) {
      return false;
    }
    this.listSerial = -1;
    this.listStamp++;
    this.addresses();
    return true;
  }

  /** The call's record made again over the memory, with every region's address and room in it. */
  private addresses(): void {
    const { at, room, chunk } = this.layout;
    const buffer = this.x.memory.buffer;
    this.f64 = viewAt(this.f64, Float64Array, buffer, at.call, call.CALL_BYTES >> 3);
    this.i32 = viewAt(this.i32, Int32Array, buffer, at.call, call.CALL_BYTES >> 2);
    const i32 = this.i32;
    i32[call.XY >> 2] = at.xy;
    i32[call.IDS >> 2] = at.ids;
    i32[call.POOL_XY >> 2] = at.poolXY;
    i32[call.POOL_IDS >> 2] = at.poolIds;
    i32[call.START >> 2] = at.start;
    i32[call.COUNT >> 2] = at.count;
    i32[call.RECT >> 2] = at.rect;
    i32[call.CHILD >> 2] = at.child;
    i32[call.PARENT >> 2] = at.parent;
    i32[call.STACK >> 2] = at.stack;
    i32[call.LIST >> 2] = at.list;
    i32[call.SORTED >> 2] = at.sorted;
    i32[call.FIRST_AT >> 2] = at.firstAt;
    i32[call.SUMS >> 2] = at.sums;
    i32[call.TOUCHED >> 2] = at.touched;
    i32[call.TEMP >> 2] = at.temp;
    i32[call.PREP >> 2] = at.prep;
    i32[call.PAIR_A >> 2] = at.pairA;
    i32[call.PAIR_B >> 2] = at.pairB;
    i32[call.RESUME >> 2] = at.resume;
    i32[call.OUT_COUNT >> 2] = at.oc;
    i32[call.OUT_X >> 2] = at.ox;
    i32[call.OUT_Y >> 2] = at.oy;
    i32[call.STACK_CAP >> 2] = room.stack;
    i32[call.LIST_CAP >> 2] = room.pairs;
    i32[call.LIMIT >> 2] = chunk;
  }

  /**
   * Lays the regions out from byte `base` at the next call (another user of the memory, a crowd tree's
   * moveAll kernel, now ends there); the list in memory is lost then.
   */
  rebase(base: number): void {
    this.layout.rebase(base);
  }

  /** The memory's bytes now (for tests: the views follow it when it grows). */
  memoryBytes(): number {
    return this.x.memory.buffer.byteLength;
  }
}

/**
 * Where the fast precision's f32 weights apply: where the scaled square (r s)^2 is in [FAST_MIN, FAST_MAX] =
 * [2^-100, 2^120], every square within reach is a normal f32 or below the kernel's TINY (2^-120; those pairs
 * go one by one in f64). Elsewhere the call runs the exact pass: radius 0, and the radii that distanceScale
 * leaves unscaled outside it, from about 1e-144 to 2^-50 (8.9e-16) and from 2^60 (1.2e18) to about 1.3e154
 * (radii beyond those are scaled near 1, and run fast).
 */
export const FAST_MIN = 2 ** -100;
export const FAST_MAX = 2 ** 120;

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
