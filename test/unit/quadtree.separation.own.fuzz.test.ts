/**
 * Random operations on crowd trees whose join runs in their moveAll kernel's instance (crowd/moveKernel.ts's
 * separation(); quadtree.separation.own has the cases one by one): moveAll with Float64Array, Float32Array
 * and plain arrays, moves outside the root, inserts, removals, items put back, single moves, the kernel
 * switched to JavaScript and back, memory caps, and the memory refusing to grow, on trees with looseness
 * and across the pass's size threshold. After every operation the fused join at both precisions,
 * queryPairsInto and forEachPair against brute force, and the tree against checkInvariants. (From the
 * review of the change: 1,262 joins in the own instance, 739 of them reading the tree wholly in place.)
 */
import { CrowdQuadtree, setSeparationKernel } from 'point-quadtree/crowd';
import { checkInvariants } from 'point-quadtree/debug';
import { CROWD } from 'point-quadtree/internal/crowd/CrowdQuadtree';
import { setMoveKernelMinItems } from 'point-quadtree/internal/crowd/moveKernel';
import { setKernelMemoryCap } from 'point-quadtree/internal/crowd/wasmLayout';
import { INTERNALS } from 'point-quadtree/internal/PointQuadtree';
import { afterEach, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { bruteSeparation } from '../helpers/separationOracle';

const W = 200;
const bounds = { minX: 0, minY: 0, maxX: W, maxY: W };

afterEach(() => {
  setSeparationKernel('auto');
  setMoveKernelMinItems();
  setKernelMemoryCap();
});

/** The memory of the tree's moveAll kernel instance (WasmMove's, private; undefined until compiled). */
function memoryOf(tree: CrowdQuadtree): WebAssembly.Memory | undefined {
  const kernel = tree[INTERNALS]().moveAll.kernel as unknown as { x?: { memory: WebAssembly.Memory } | null };
  return kernel.x?.memory;
}

function check(
  tree: CrowdQuadtree,
  xs: Float64Array,
  ys: Float64Array,
  present: Uint8Array,
  n: number,
  r: number,
  f32: boolean,
  where: string,
) {
  const end = n;
  const counts = new Int32Array(end);
  const sx = new Float64Array(end);
  const sy = new Float64Array(end);
  const found = tree.querySeparationInto(r, counts, sx, sy, { precision: f32 ? 'f32' : 'f64' });
  const want = bruteSeparation(xs.subarray(0, n), ys.subarray(0, n), r, present.subarray(0, n));
  if (found !== want.pairs)
    throw new Error(`${where}: pairs ${found}, brute ${want.pairs} (kernel ${tree.lastSeparation.kernel})`);
  for (let i = 0; i < n; i++) {
    if (counts[i] !== want.counts[i])
      throw new Error(`${where}: count ${i} ${counts[i]} vs ${want.counts[i]}`);
    const bound = f32 ? 1e-5 * Math.max(1, want.counts[i]) : 1e-9 * Math.max(1, want.counts[i]);
    if (!(Math.abs(sx[i] - want.sumX[i]) <= bound && Math.abs(sy[i] - want.sumY[i]) <= bound)) {
      throw new Error(`${where}: sums ${i} (${sx[i]}, ${sy[i]}) vs (${want.sumX[i]}, ${want.sumY[i]})`);
    }
  }
  const outA = new Int32Array(want.pairs + 1);
  const outB = new Int32Array(want.pairs + 1);
  const np = tree.queryPairsInto(r, outA, outB);
  if (np !== want.pairs) throw new Error(`${where}: queryPairsInto ${np}, brute ${want.pairs}`);
  const seen = new Int32Array(n);
  for (let k = 0; k < np; k++) {
    seen[outA[k]]++;
    seen[outB[k]]++;
  }
  for (let i = 0; i < n; i++) if (seen[i] !== want.counts[i]) throw new Error(`${where}: pair count ${i}`);
  let fe = 0;
  tree.forEachPair(r, () => fe++);
  if (fe !== want.pairs) throw new Error(`${where}: forEachPair ${fe}`);
  checkInvariants(tree);
}

const stats = { own: 0, inPlace: 0, js: 0, grewFail: 0 };
function run(seed: number, looseness: number, minItems: number, ops: number) {
  setMoveKernelMinItems(minItems);
  const rnd = mulberry32(seed);
  const cap = 2500;
  const xs = new Float64Array(cap);
  const ys = new Float64Array(cap);
  const present = new Uint8Array(cap);
  let n = 1200;
  for (let i = 0; i < n; i++) {
    xs[i] = rnd() * W;
    ys[i] = rnd() * W;
    present[i] = 1;
  }
  const tree = CrowdQuadtree.from(
    { bounds, maxItems: 8, looseness },
    Int32Array.from({ length: n }, (_, i) => i),
    xs.subarray(0, n),
    ys.subarray(0, n),
  );
  let failGrow = false;
  let patched = false;
  const log: string[] = [];
  for (let op = 0; op < ops; op++) {
    const k = Math.floor(rnd() * 14);
    const where = `seed ${seed} op ${op} (${log.slice(-6).join(',')})`;
    const memory = memoryOf(tree);
    if (!patched && memory !== undefined) {
      // The engine refusing to grow this memory while failGrow is on.
      const grow = memory.grow.bind(memory);
      memory.grow = (pages: number) => {
        if (!failGrow) return grow(pages);
        stats.grewFail++;
        throw new RangeError('the memory cannot grow');
      };
      patched = true;
    }
    if (k <= 4) {
      // moveAll: the present ids wander (moveAll moves every id in the tree), a few jump.
      for (let i = 0; i < n; i++) {
        if (!present[i]) continue;
        if (rnd() < 0.03) {
          xs[i] = rnd() * W;
          ys[i] = rnd() * W;
        } else {
          xs[i] = Math.min(W, Math.max(0, xs[i] + (rnd() - 0.5) * 2));
          ys[i] = Math.min(W, Math.max(0, ys[i] + (rnd() - 0.5) * 2));
        }
      }
      const kind = rnd();
      if (kind < 0.1) {
        tree.moveAll(Array.from(xs.subarray(0, n)), Array.from(ys.subarray(0, n)));
        log.push('moveAllArray');
      } else if (kind < 0.2) {
        tree.moveAll(Float32Array.from(xs.subarray(0, n)), Float32Array.from(ys.subarray(0, n)));
        for (let i = 0; i < n; i++) {
          xs[i] = Math.fround(xs[i]);
          ys[i] = Math.fround(ys[i]);
        }
        log.push('moveAll32');
      } else {
        tree.moveAll(xs.subarray(0, n), ys.subarray(0, n));
        log.push(`moveAll:${tree.lastMove.kernel}`);
      }
    } else if (k === 5) {
      // insert a batch
      const to = Math.min(cap, n + Math.floor(rnd() * 300));
      for (let id = n; id < to; id++) {
        xs[id] = rnd() * W;
        ys[id] = rnd() * W;
        present[id] = 1;
        tree.insert(id, xs[id], ys[id]);
      }
      log.push(`insert${to - n}`);
      n = to;
    } else if (k === 6) {
      // remove some
      let m = 0;
      for (let i = 0; i < n; i++) {
        if (present[i] && rnd() < 0.2) {
          tree.remove(i);
          present[i] = 0;
          m++;
        }
      }
      log.push(`remove${m}`);
    } else if (k === 7) {
      // re-add some removed
      let m = 0;
      for (let i = 0; i < n; i++) {
        if (!present[i] && rnd() < 0.5) {
          xs[i] = rnd() * W;
          ys[i] = rnd() * W;
          tree.insert(i, xs[i], ys[i]);
          present[i] = 1;
          m++;
        }
      }
      log.push(`readd${m}`);
    } else if (k === 8) {
      let m = 0;
      for (let i = 0; i < n; i++) {
        if (present[i] && rnd() < 0.1) {
          xs[i] = rnd() * W;
          ys[i] = rnd() * W;
          tree.move(i, xs[i], ys[i]);
          m++;
        }
      }
      log.push(`move${m}`);
    } else if (k === 9) {
      const c = rnd();
      if (c < 0.3) {
        setSeparationKernel('js');
        log.push('js');
      } else {
        setSeparationKernel('auto');
        log.push('auto');
      }
    } else if (k === 10) {
      failGrow = !failGrow;
      log.push(`failGrow${failGrow}`);
    } else if (k === 11) {
      const c = rnd();
      if (c < 0.3) {
        setKernelMemoryCap(2 ** 20 * (1 + Math.floor(rnd() * 4)));
        log.push('cap');
      } else {
        setKernelMemoryCap();
        log.push('uncap');
      }
    } else if (k === 12) {
      // move something outside the root (root grows: JS pass)
      for (let i = 0; i < n; i++) {
        if (present[i]) {
          xs[i] = -50 * rnd();
          tree.move(i, xs[i], ys[i]);
          break;
        }
      }
      log.push('outside');
    }
    const radii = [1.5, 2, 4, 30];
    const r = radii[Math.floor(rnd() * radii.length)];
    check(tree, xs, ys, present, n, r, rnd() < 0.4, `${where} r ${r}`);
    const own = tree[CROWD]().own?.separation() ?? null;
    if (own !== null) {
      stats.own++;
      if (own.copiedBytes === tree[INTERNALS]().nodeStart.byteLength) stats.inPlace++;
    }
    if (tree.lastSeparation.kernel === 'js') stats.js++;
  }
  return tree;
}

describe("a crowd tree's join in its own instance, under random operations", () => {
  for (const [seed, loose, minItems] of [
    [1, 0, 64],
    [2, 0.3, 64],
    [3, 0, 1024],
    [4, 0.5, 1500],
    [5, 0, 64],
    [6, 0.2, 64],
    [7, 0, 64],
    [8, 0.1, 64],
    [9, 0, 200],
  ] as const) {
    it(`seed ${seed}, looseness ${loose}, the pass from ${minItems} items: brute force after every operation`, () => {
      run(seed, loose, minItems, 150);
    });
  }
  it('the fuzz reached the path: joins in the own instance, in place, on JavaScript, and refused growth', () => {
    // (Run after the seeds above: vitest runs a file's tests in order.)
    expect(stats.own).toBeGreaterThan(500);

    expect(stats.inPlace).toBeGreaterThan(200);
    expect(stats.js).toBeGreaterThan(10);
    expect(stats.grewFail).toBeGreaterThan(10);
  });
});
