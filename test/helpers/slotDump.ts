/**
 * A tree dumped node by node and slot by slot, with its pool's blocks, counters and free lists, for the
 * tests that compare two trees exactly (moveAll's kernel against its JavaScript pass); and crowd positions.
 */
import type { PointQuadtree } from 'point-quadtree';
import { visitNodes } from 'point-quadtree/debug';
import { INTERNALS } from 'point-quadtree/internal/PointQuadtree';

/** The world of these tests: 200 x 200 from the origin. */
export const W = 200;
export const bounds = { minX: 0, minY: 0, maxX: W, maxY: W };

/** The leaves in use, from the root down, depth first (freed groups keep stale numbers, so not by number). */
function leaves(tree: PointQuadtree): number[] {
  const t = tree[INTERNALS]();
  const out: number[] = [];
  const stack = [0];
  while (stack.length > 0) {
    const node = stack.pop() as number;
    const c = t.nodeChild[node];
    if (c >= 0) stack.push(c + 3, c + 2, c + 1, c);
    else out.push(node);
  }
  return out;
}

/** Every node (depth, rectangle, leaf, count), then every item in slot order: equal dumps, equal trees. */
export function dump(tree: PointQuadtree): string {
  const nodes: string[] = [];
  visitNodes(tree, (n) => {
    nodes.push(`${n.depth} ${n.minX} ${n.minY} ${n.maxX} ${n.maxY} ${n.isLeaf} ${n.count}`);
  });
  const t = tree[INTERNALS]();
  const items: string[] = [];
  for (const leaf of leaves(tree)) {
    const s0 = t.nodeStart[leaf];
    for (let s = s0; s < s0 + t.nodeCount[leaf]; s++) {
      items.push(`${leaf}:${t.pool.ids[s]}@${t.pool.xy[2 * s]},${t.pool.xy[2 * s + 1]}`);
    }
  }
  return `${nodes.join('\n')}\n${items.join(' ')}\n${pool(tree)}`;
}

/**
 * The pool's state: each leaf's block (first slot, capacity), the high-water mark, the live slots, each free
 * list in order, compactDue, the last block's capacity. Equal too where the kernel re-files (it takes and frees
 * blocks as the pool does).
 */
function pool(tree: PointQuadtree): string {
  const t = tree[INTERNALS]();
  const blocks = leaves(tree).map((leaf) => `${leaf}:${t.nodeStart[leaf]}+${t.nodeCap[leaf]}`);
  const p = t.pool;
  const lists: string[] = [];
  for (let c = 0; c < p.freeLists.length; c++) {
    const chain: number[] = [];
    for (let s = p.freeLists[c]; s >= 0 && chain.length <= p.top; s = p.ids[s]) chain.push(s);
    if (chain.length > 0) lists.push(`${c}:[${chain.join(',')}]`);
  }
  return `${blocks.join(' ')}\ntop ${p.top} live ${p.live} due ${p.compactDue} block ${p.blockCap} lists ${lists.join(' ')}`;
}

/** n points, uniform or in four camps, into xs / ys (any array type). */
export function scatter(
  rnd: () => number,
  n: number,
  xs: Float32Array | Float64Array,
  ys: typeof xs,
  camps: boolean,
) {
  const centres = [
    [40, 50],
    [150, 60],
    [90, 160],
    [170, 170],
  ];
  for (let i = 0; i < n; i++) {
    const c = centres[i & 3];
    xs[i] = camps ? c[0] + (rnd() - 0.5) * 30 : rnd() * W;
    ys[i] = camps ? c[1] + (rnd() - 0.5) * 30 : rnd() * W;
  }
}

// Most trees here are smaller than the 1,024 items a crowd tree needs to run the kernel's pass by default.
