/*
 * queryPairsInto's join in the WebAssembly kernel (kernels/pairs.ts, over the fused call's leaf-pair walk:
 * see docs/crowd.md): what CrowdQuadtree plugs into its tree's PairScratch.kernel, so that queryPairsInto
 * and forEachPair run it. It finds the pairs of the JavaScript join (query/pairs.ts), which runs instead
 * where the kernel does not compile, after setSeparationKernel('js'), or where the call would pass the
 * kernel's memory cap.
 */

import type { IdArray, PairKernel } from '../core/scratch';
import type { TreeState } from '../core/state';
import { NOT_RUN } from '../query/pairs';
import { type SeparationScratch, wasmKernel } from './separation';
import { KernelRoomError } from './wasmLayout';

/**
 * Past this many radii (the longer side of either leaf) the WebAssembly join takes a pair of leaves as a
 * row of its own and skips the items of one leaf out of reach of the other's items (kernels/pairs.ts);
 * below it, a leaf's pairs are one row. 5, not the JavaScript kernels' 3 (WIDE_SIDE): the pair join's exact
 * pass is cheap, so rows pay off up to wider leaves (clustered 10,000 at
 * r = 10, whose leaves are 3.1 radii wide: 1.65 ms at 3, 1.40 ms at 5; the other W6 rows unchanged).
 */
export const PAIR_WIDE_SIDE = 5;

/** The WebAssembly pair join of one crowd tree. */
export class WasmPairs implements PairKernel {
  constructor(
    private readonly t: TreeState,
    private readonly sc: SeparationScratch,
  ) {}

  pairsInto(radius: number, outA: IdArray, outB: IdArray): number {
    const wasm = wasmKernel(this.sc);
    if (wasm === null) return NOT_RUN;
    try {
      // The kernel walks the leaf pairs itself (the walk of the fused call, whose list it shares).
      return wasm.pairs(this.t, this.sc.serial, radius, PAIR_WIDE_SIDE, outA, outB);
    } catch (e) {
      // The kernel's memory cannot hold this call (a radius far wider than the leaves): the JavaScript join.
      if (!(e instanceof KernelRoomError)) throw e;
      return NOT_RUN;
    }
  }
}
