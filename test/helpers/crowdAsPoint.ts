/**
 * The library's main entry with `PointQuadtree` standing for a CrowdQuadtree that counts the moveAll calls
 * whose pass ran in the WebAssembly kernel: the `unit-wasm` project (vitest.config.ts) resolves
 * `point-quadtree` here, so that the core's moveAll suites, written against PointQuadtree, run again on
 * moveAll's WebAssembly pass (crowd/moveKernel.ts). test/helpers/wasmPassSetup.ts checks that it ran. (The
 * main entry's one value is the class; TypeScript reads the types from the real entry.)
 */
import type { QuadtreeOptions } from 'point-quadtree';
import { CrowdQuadtree } from 'point-quadtree/crowd';
import { setMoveKernelMinItems } from 'point-quadtree/internal/crowd/moveKernel';
import { INTERNALS } from 'point-quadtree/internal/PointQuadtree';
import { buildFrom } from 'point-quadtree/internal/update/build';

// The suites' trees are small: every one runs the kernel's pass (a crowd tree needs 1,024 items by default).
setMoveKernelMinItems(0);

/** moveAll calls that returned, and those whose pass ran in the kernel (per test file). */
export const movePasses = { calls: 0, wasm: 0 };

export class PointQuadtree extends CrowdQuadtree {
  /** As PointQuadtree.from, into this class (CrowdQuadtree.from makes a CrowdQuadtree). */
  static override from(
    options: QuadtreeOptions,
    ids: ArrayLike<number>,
    xs: ArrayLike<number>,
    ys: ArrayLike<number>,
  ): PointQuadtree {
    const tree = new PointQuadtree(options);
    buildFrom(tree[INTERNALS](), ids, xs, ys);
    return tree;
  }

  override moveAll(xs: ArrayLike<number>, ys: ArrayLike<number>): void {
    super.moveAll(xs, ys);
    movePasses.calls++;
    if (this.lastMove.kernel === 'wasm') movePasses.wasm++;
  }
}
