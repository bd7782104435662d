/*
 * The crowd's tree: a PointQuadtree with the fused separation join (querySeparationInto) and the WebAssembly
 * SIMD kernels of it and of queryPairsInto. A subpath of its own (`point-quadtree/crowd`), so that a program
 * that only queries carries neither the kernels' 8 KB module nor the JavaScript separation kernel.
 */

import type { QuadtreeOptions } from '../core/types';
import { INTERNALS, PointQuadtree } from '../PointQuadtree';
import { buildFrom } from '../update/build';
import { type MoveRun, WasmMove } from './moveKernel';
import { WasmPairs } from './pairs';
import {
  type CountArray,
  querySeparation,
  type SeparationOptions,
  type SeparationRun,
  SeparationScratch,
  type SumArray,
} from './separation';

/** The key of a crowd tree's internal accessor: its scratch of the fused join, for the team (parallel/). */
export const CROWD: unique symbol = Symbol('CrowdQuadtree.crowd');

/**
 * A {@link PointQuadtree} for crowds, where every item finds its neighbours every frame: everything a
 * PointQuadtree does, plus {@link CrowdQuadtree.querySeparationInto}, and `queryPairsInto` / `forEachPair`
 * run in a WebAssembly SIMD kernel where the engine compiles it (else, or after `setSeparationKernel('js')`,
 * in JavaScript: the same pairs either way). The kernel keeps its list of leaf pairs and copies of the tree
 * in its memory (once {@link CrowdQuadtree.moveAll} has run its pass in the kernel, the tree's own instance,
 * where the tree's arrays already lie and are read in place), which grows to the largest call seen and
 * never shrinks; a call that would take it
 * past 1 GiB (a radius far wider than the leaves) runs in JavaScript instead, with the same answer.
 */
export class CrowdQuadtree extends PointQuadtree {
  /** The fused join's scratch: this tree's leaf-pair list and per-slot sums. */
  private readonly crowd = new SeparationScratch();
  /**
   * What the last {@link CrowdQuadtree.querySeparationInto} on this tree (or a team's call with it) ran on:
   * the kernel and the precision of its sums, which is not always what was asked for (a call the
   * WebAssembly kernel's memory cannot hold runs in JavaScript, at float64). One object, updated by each
   * call; before the first, `{ kernel: 'js', precision: 'f64' }`.
   */
  readonly lastSeparation: Readonly<SeparationRun> = this.crowd.ran;
  /**
   * What the last {@link CrowdQuadtree.moveAll} ran its pass over the ids on: `{ kernel: 'wasm' }` where the
   * WebAssembly kernel ran it, else `{ kernel: 'js' }` (no kernel here, setSeparationKernel('js'), a memory
   * that cannot grow, inputs that are not Float32Array or Float64Array, an empty tree, or a root that changes
   * on the way: moved one by one). One object, updated by each call.
   */
  readonly lastMove: Readonly<MoveRun> = { kernel: 'js' };

  /** As {@link PointQuadtree}'s constructor. */
  constructor(options: QuadtreeOptions) {
    super(options);
    const t = this[INTERNALS]();
    t.pairs.kernel = new WasmPairs(t, this.crowd);
    const move = new WasmMove(t, this.lastMove as MoveRun);
    t.moveAll.kernel = move;
    // The fused join runs in the pass's instance once it has one: the tree's arrays read where they lie.
    this.crowd.own = move;
  }

  /**
   * As {@link PointQuadtree.moveAll}, with the pass over the ids and the re-filing of the items that left their
   * leaf in the WebAssembly kernel where it runs (the same tree, slot for slot: the items are re-filed in id
   * order, and JavaScript takes over from the first whose new block would need the pool's arrays to grow). While
   * the kernel runs it, the tree keeps its item pool, id tables and nodes in the memory of its own instance of
   * the kernel (with each call's new positions and the leavers' list beside them: about 120 bytes per item in
   * the scene's crowds of 10,000 and 100,000). Trees of fewer than 1,024 items run the JavaScript pass.
   * @throws as {@link PointQuadtree.moveAll}.
   */
  override moveAll(xs: ArrayLike<number>, ys: ArrayLike<number>): void {
    (this.lastMove as MoveRun).kernel = 'js';
    super.moveAll(xs, ys);
  }

  /**
   * A crowd tree built in one pass from parallel arrays, as {@link PointQuadtree.from} builds one.
   * @throws as {@link PointQuadtree.from}.
   */
  static override from(
    options: QuadtreeOptions,
    ids: ArrayLike<number>,
    xs: ArrayLike<number>,
    ys: ArrayLike<number>,
  ): CrowdQuadtree {
    const tree = new CrowdQuadtree(options);
    buildFrom(tree[INTERNALS](), ids, xs, ys);
    return tree;
  }

  /**
   * For every item p, the other items q within `radius` of it (closed, as {@link PointQuadtree.queryPairsInto}
   * finds them) summed into per-id outputs, without storing a pair: `counts[p]` = how many, and
   * (`sumX[p]`, `sumY[p]`) = the sum of p's separation pushes, each `(p - q) * (1 / d - 1 / radius)` with
   * d = |p - q|: a push away from q of length `(radius - d) / radius` (1 when they coincide, 0 at the
   * radius). Coincident items push along x by 1, the lower id to -x. Entries 0 to the largest id in the
   * tree are overwritten (0 for an id not in the tree or without a neighbour); later entries are left
   * alone. The same join as queryPairsInto, fused with the sums; the list of leaf pairs it walks is kept
   * while the tree's structure ({@link PointQuadtree.version}) and the radius stay the same. No allocation
   * once the tree has answered one such query. Sums are accumulated in float64 (in any order, so they may
   * differ from a sequential sum in the last bits) and stored in the outputs' type.
   * @param options - `{ precision: 'f32' }` for the fast sums: each pair's weight 1 / d from f32x4 lanes in
   *   the WebAssembly kernel, the counts and pairs still exactly the default's, each sum within 1e-5 x its
   *   item's count of the default's ({@link SeparationOptions}); `'f64'` or left out: exact float64. The
   *   JavaScript kernel computes in float64 for either.
   * @returns the number of unordered pairs within `radius` (half the sum of the counts).
   * @throws RangeError if `radius` is not a finite number >= 0, an output is shorter than the largest id
   *   in the tree plus one, or `precision` is a string other than 'f64' and 'f32'; TypeError if `counts` is
   *   not an Int32Array, Uint32Array, Float32Array or Float64Array, a sum is not a Float32Array or
   *   Float64Array, `options` is neither undefined nor an object, or `precision` is not a string. Nothing is
   *   written then. The tree is never changed.
   */
  querySeparationInto(
    radius: number,
    counts: CountArray,
    sumX: SumArray,
    sumY: SumArray,
    options?: SeparationOptions,
  ): number {
    return querySeparation(this[INTERNALS](), this.crowd, radius, counts, sumX, sumY, options);
  }

  /** Internal: the fused join's scratch, for the team (parallel/team.ts). */
  [CROWD](): SeparationScratch {
    return this.crowd;
  }
}
