/*
 * point-quadtree/debug: checkInvariants, which checks every structural rule of a tree and throws naming the
 * first one broken (the tests call it after every step), and the walks that show a tree's shape (visitNodes,
 * visitCircle, treeStats: for gizmos, maps and HUDs). An entry point of its own, so that a bundle that
 * calls none of them does not carry them.
 *
 * The checker computes everything it checks by itself: the split rule, the size classes of the item pool
 * and the loose rectangles are written out here from their documentation, not imported from the code they
 * check, so a change to that code that breaks a rule shows up here as a broken invariant.
 */

import { checkCallback, circleArg, mustBe } from './core/checks';
import { INTERNALS, stateOf } from './core/state';
import type { NodeInfo, TreeStats } from './core/types';
import type { PointQuadtree, QuadtreeInternals } from './PointQuadtree';
import { visitCircle as walkCircle, visitNodes as walkNodes, treeStats as walkStats } from './query/visit';

/**
 * Calls `callback` for every node of `tree`, parent before children. Return `true` to skip that node's
 * children. The {@link NodeInfo} object is reused from call to call. Do not change the tree during the walk:
 * a change to its node structure (a split, merge, growth or clear) makes the walk throw; moving points inside
 * their leaves is harmless. O(nodes).
 * @throws TypeError if `tree` is not a PointQuadtree or `callback` is not a function; Error if the tree's node
 *   structure changed during the walk.
 */
export function visitNodes(tree: PointQuadtree, callback: (node: NodeInfo) => unknown): void {
  const t = stateOf(tree);
  checkCallback('callback', callback);
  walkNodes(t, callback);
}

/** visitCircle's circle, checked (circleArg's layout: x, y, radius at 2..4); read once by each walk. */
const circle = new Float64Array(6);

/**
 * Calls `callback` for exactly the nodes that `tree.queryCircle(x, y, radius)` visits (as many as its
 * `lastQuery.nodesVisited`), parent before children: for a circle query's gizmo. The pruning rule: a node
 * whose rectangle (grown by `looseness` and clipped to the root) is farther than `radius` from the centre is
 * skipped with its subtree; so are empty nodes below the root; below a node wholly inside the circle every
 * non-empty node is visited. The {@link NodeInfo} object (the node's own rectangle, not the grown one) is
 * reused from call to call; return `true` to skip a node's children. Visits nothing in an empty tree. Do not
 * change the tree's node structure during the walk.
 * @throws TypeError if `tree` is not a PointQuadtree, x, y or radius is not a number, or `callback` is not a
 *   function (even when the circle misses the tree); RangeError on a bad centre or radius (as queryCircle);
 *   Error if the tree's node structure changed during the walk.
 */
export function visitCircle(
  tree: PointQuadtree,
  x: number,
  y: number,
  radius: number,
  callback: (node: NodeInfo) => unknown,
): void {
  const t = stateOf(tree);
  circleArg(circle, x, y, radius);
  checkCallback('callback', callback);
  walkCircle(t, circle, callback);
}

/**
 * Counts the nodes and leaves of `tree` and the depth of its deepest leaf (0 when the root is a leaf).
 * O(nodes).
 * @throws TypeError if `tree` is not a PointQuadtree.
 */
export function treeStats(tree: PointQuadtree): TreeStats {
  return walkStats(stateOf(tree));
}

/**
 * Where a node spanning lo..hi is split, as the storage layout documents it: lo + (hi - lo) / 2 in doubles
 * (exact for a split made by a split or a bulk build; see {@link checkInvariants} for grown roots).
 */
function halfway(lo: number, hi: number): number {
  return lo + (hi - lo) * 0.5;
}

/** Slots in a block of the item pool's size class `c`: 1, 2, then 3·2^k and 4·2^k in turn (3, 4, 6, 8, ...). */
function slotsOfClass(c: number): number {
  if (c < 2) return c + 1;
  return (c % 2 === 0 ? 3 : 4) * 2 ** Math.floor((c - 2) / 2);
}

/**
 * Whether rectangle minX..maxX is exactly the doubling of its half on one side of `split`, with the
 * arithmetic root growth uses: growing east from (lo, hi) gives maxX = hi + (hi - lo), the old root's
 * edge `hi` becoming the split line; growing west gives minX = lo - (hi - lo). Returns which half the old
 * root was: 1 the low half (grown toward +), 2 the high half (grown toward -), 3 either, 0 neither.
 */
function doubledFrom(min: number, split: number, max: number): number {
  return (max === split + (split - min) ? 1 : 0) | (min === split - (max - split) ? 2 : 0);
}

/**
 * Checks every structural rule of a {@link PointQuadtree} and throws an Error naming the first one broken,
 * as `PointQuadtree invariant [rule]: details`. The rules:
 * - `bounds`: every node has a non-empty rectangle; `minSize`: none below minSize except the root.
 * - `split line`: an inner node is split at its midpoint, exactly as {@link halfway} computes it. The one
 *   exception is a root grown by doubling: the old root becomes one quadrant, so the split lines are the
 *   old root's edges, which rounding may put an ulp or so off the new root's midpoint. Such a node must be
 *   exactly the doubling of that quadrant (the arithmetic of root growth, {@link doubledFrom}), and only the
 *   root and, below it, the quadrants that were earlier roots may be such nodes.
 * - `tiling`: the children tile their parent at the split lines; `parent`: the group names its parent.
 * - `count`: an inner node counts the sum of its children; leaves hold `size` items in total.
 * - `merge`: an inner node holds more than maxItems items (else it should have become a leaf).
 * - `split`: a leaf holds at most maxItems items unless halving it would go below minSize.
 * - `loose`: nodeLoose is each node's rectangle grown by looseness and clipped to the root.
 * - `item outside its leaf`: every item lies in its leaf's (loose) rectangle, half-open except on the
 *   root's far edges.
 * - `id table`: idSlot and idLeaf name each stored item's slot and leaf; no other id is marked present.
 * - `pool`: each leaf's block lies in the pool and fits its items; blocks and free blocks never overlap;
 *   the pool counts the slots the leaves own; free lists end.
 * - `root`: the root holds the constructor's bounds and, when it was refitted (doubling would overflow),
 *   is exactly the extent of the items and those bounds.
 * O(nodes + pool + ids). For tests and debugging.
 */
export function checkInvariants(tree: PointQuadtree): void {
  // The documented internal accessor: the tree's own arrays, read-only by convention. Not stateOf: the
  // checker also takes a state changed on purpose (a copy with a field broken), as its tests do.
  const accessor = tree !== null && typeof tree === 'object' ? tree[INTERNALS] : undefined;
  if (typeof accessor !== 'function') mustBe(TypeError, 'tree', 'a PointQuadtree', tree);
  const check = new Checker(accessor.call(tree));
  check.root();
  check.nodes();
  check.totals();
  check.freeGroups();
  check.freeBlocks();
}

function fail(rule: string, msg: string): never {
  throw new Error(`PointQuadtree invariant [${rule}]: ${msg}`);
}

/** One run of checkInvariants: the tree, and what the walk over its nodes found on the way. */
class Checker {
  private readonly nb: Float64Array;
  private readonly lb: Float64Array;
  /** The extent of the items and the constructor's bounds, for a refitted root. */
  private readonly extent: number[];
  /** Per slot: the leaf whose block holds it, -2 a free block's, -1 none. */
  private readonly slotOwner: Int32Array;
  private readonly seenNode: Uint8Array;
  /** Nodes that may have been a root grown by doubling: the root, and the quadrants earlier roots became. */
  private readonly grownRoot: Uint8Array;
  private leafSlots = 0;
  private items = 0;

  constructor(private readonly t: QuadtreeInternals) {
    this.nb = t.nodeBounds;
    this.lb = t.nodeLoose;
    const ib = t.initialBounds;
    this.extent = [ib.minX, ib.minY, ib.maxX, ib.maxY];
    this.slotOwner = new Int32Array(t.pool.top).fill(-1);
    this.seenNode = new Uint8Array(t.nodeTop);
    this.grownRoot = new Uint8Array(t.nodeTop);
    this.grownRoot[0] = 1;
  }

  /** `loose`: nodeLoose is nodeBounds exactly when looseness is 0; `root`: the root holds the constructor's bounds. */
  root(): void {
    const { t, nb, lb } = this;
    if (t.looseness === 0 && lb !== nb) fail('loose', 'looseness is 0 but nodeLoose is not nodeBounds');
    if (t.looseness > 0 && lb === nb) fail('loose', 'looseness is > 0 but nodeLoose is nodeBounds');
    const ib = t.initialBounds;
    if (!(nb[0] <= ib.minX && nb[1] <= ib.minY && nb[2] >= ib.maxX && nb[3] >= ib.maxY))
      fail('root', `the root [${nb.subarray(0, 4)}] does not hold the constructor's bounds`);
  }

  /** Every node reachable from the root, once each: its own rules, then an inner node's or a leaf's. */
  nodes(): void {
    const { t, nb } = this;
    const stack: number[] = [0];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n < 0 || n >= t.nodeTop) fail('tiling', `node ${n} out of range`);
      if (this.seenNode[n]) fail('tiling', `node ${n} reached twice`);
      this.seenNode[n] = 1;
      const b = n << 2;
      const minX = nb[b];
      const minY = nb[b + 1];
      const maxX = nb[b + 2];
      const maxY = nb[b + 3];
      if (!(minX < maxX && minY < maxY))
        fail('bounds', `node ${n} has empty bounds ${minX},${minY},${maxX},${maxY}`);
      if (n !== 0 && (maxX - minX < t.minSize || maxY - minY < t.minSize)) {
        fail('minSize', `node ${n} (${maxX - minX} x ${maxY - minY}) is smaller than minSize ${t.minSize}`);
      }
      const loose = this.loose(n);
      const c = t.nodeChild[n];
      if (c >= 0) {
        this.inner(n, c);
        for (let q = 0; q < 4; q++) stack.push(c + q);
      } else {
        this.leaf(n, loose);
      }
    }
  }

  /** `loose`: node n's loose rectangle is its rectangle grown by looseness, clipped to the root. Returns it. */
  private loose(n: number): number[] {
    const { t, nb, lb } = this;
    const l = t.looseness;
    const b = n << 2;
    const loose =
      n === 0
        ? [nb[0], nb[1], nb[2], nb[3]]
        : [
            Math.max(nb[b] - l, nb[0]),
            Math.max(nb[b + 1] - l, nb[1]),
            Math.min(nb[b + 2] + l, nb[2]),
            Math.min(nb[b + 3] + l, nb[3]),
          ];
    for (let j = 0; j < 4; j++) {
      if (lb[b + j] !== loose[j]) {
        fail('loose', `node ${n} has loose bounds ${lb.subarray(b, b + 4)}, not ${loose}`);
      }
    }
    return loose;
  }

  /** The rules of inner node n (first child c): merge, count, split line, tiling, parent. */
  private inner(n: number, c: number): void {
    const { t, nb } = this;
    const b = n << 2;
    const minX = nb[b];
    const minY = nb[b + 1];
    const maxX = nb[b + 2];
    const maxY = nb[b + 3];
    const count = t.nodeCount[n];
    if (t.nodeStart[n] !== -1 || t.nodeCap[n] !== 0) fail('pool', `inner node ${n} owns an item block`);
    if (count <= t.maxItems) {
      fail('merge', `inner node ${n} holds ${count} <= maxItems ${t.maxItems} items: not merged`);
    }
    let sum = 0;
    for (let k = c; k < c + 4; k++) sum += t.nodeCount[k];
    if (sum !== count) fail('count', `inner node ${n} counts ${count} but its children hold ${sum}`);
    const cmx = nb[(c + 3) << 2];
    const cmy = nb[((c + 3) << 2) + 1];
    if (!(minX < cmx && cmx < maxX && minY < cmy && cmy < maxY)) {
      fail('split line', `node ${n} is split at (${cmx}, ${cmy}), outside it`);
    }
    const expect = [
      [minX, minY, cmx, cmy],
      [cmx, minY, maxX, cmy],
      [minX, cmy, cmx, maxY],
      [cmx, cmy, maxX, maxY],
    ];
    for (let q = 0; q < 4; q++) {
      for (let j = 0; j < 4; j++) {
        if (nb[((c + q) << 2) + j] !== expect[q][j])
          fail('tiling', `child ${q} of node ${n} does not tile it`);
      }
    }
    // Quadrants that could be the root this node grew from (bit 0 of q: east half; bit 1: south half).
    const alongX = this.grownRoot[n] ? doubledFrom(minX, cmx, maxX) : 0;
    const alongY = this.grownRoot[n] ? doubledFrom(minY, cmy, maxY) : 0;
    const mx = halfway(minX, maxX);
    const my = halfway(minY, maxY);
    if (alongX !== 0 && alongY !== 0) {
      for (let q = 0; q < 4; q++) {
        if (alongX & (q & 1 ? 2 : 1) && alongY & (q & 2 ? 2 : 1)) this.grownRoot[c + q] = 1;
      }
    } else if (cmx !== mx || cmy !== my) {
      fail('split line', `node ${n} is split at (${cmx}, ${cmy}), not at its midpoint (${mx}, ${my})`);
    }
    if (t.groupParent[(c - 1) >> 2] !== n) {
      fail('parent', `children of node ${n} name ${t.groupParent[(c - 1) >> 2]} as parent`);
    }
  }

  /** The rules of leaf n (its loose rectangle `loose`): split, its block in the pool, its items. */
  private leaf(n: number, loose: number[]): void {
    const { t, nb } = this;
    const b = n << 2;
    const mx = halfway(nb[b], nb[b + 2]);
    const my = halfway(nb[b + 1], nb[b + 3]);
    const m = t.minSize;
    const splittable = mx - nb[b] >= m && nb[b + 2] - mx >= m && my - nb[b + 1] >= m && nb[b + 3] - my >= m;
    const count = t.nodeCount[n];
    if (count > t.maxItems && splittable) {
      fail('split', `leaf ${n} holds ${count} > maxItems ${t.maxItems} items and could split`);
    }
    const cap = t.nodeCap[n];
    const start = t.nodeStart[n];
    if (count > cap) fail('pool', `leaf ${n} holds ${count} items in a block of ${cap}`);
    this.leafSlots += cap;
    if (cap > 0) {
      if (start < 0 || start + cap > t.pool.top)
        fail('pool', `leaf ${n} block ${start}+${cap} outside the pool`);
      for (let s = start; s < start + cap; s++) {
        if (this.slotOwner[s] !== -1)
          fail('pool', `slot ${s} owned by leaf ${this.slotOwner[s]} and leaf ${n}`);
        this.slotOwner[s] = n;
      }
    } else if (start !== -1) {
      fail('pool', `leaf ${n} has a start but no capacity`);
    }
    for (let s = start; s < start + count; s++) this.item(n, s, loose);
    this.items += count;
  }

  /**
   * `id table`: the id in slot s names the slot and its leaf n; `item outside its leaf`: it lies in the leaf's
   * loose rectangle, half-open except on the root's far edges. Its place goes into the extent.
   */
  private item(n: number, s: number, loose: number[]): void {
    const { t, nb, extent } = this;
    const id = t.pool.ids[s];
    if (id < 0 || id >= t.idSlot.length) fail('id table', `slot ${s} holds bad id ${id}`);
    if (t.idSlot[id] !== s) fail('id table', `id ${id} is in slot ${s} but idSlot says ${t.idSlot[id]}`);
    if (t.idLeaf[id] !== n) fail('id table', `id ${id} is in leaf ${n} but idLeaf says ${t.idLeaf[id]}`);
    const x = t.pool.xy[s << 1];
    const y = t.pool.xy[(s << 1) + 1];
    const [lMinX, lMinY, lMaxX, lMaxY] = loose;
    const inX = x >= lMinX && (x < lMaxX || (x === lMaxX && lMaxX === nb[2]));
    const inY = y >= lMinY && (y < lMaxY || (y === lMaxY && lMaxY === nb[3]));
    if (!inX || !inY) {
      fail(
        'item outside its leaf',
        `id ${id} at (${x}, ${y}) is outside leaf ${n} [${loose}] (looseness ${t.looseness})`,
      );
    }
    extent[0] = Math.min(extent[0], x);
    extent[1] = Math.min(extent[1], y);
    extent[2] = Math.max(extent[2], x);
    extent[3] = Math.max(extent[3], y);
  }

  /** `pool`, `count`, `root`, `id table`: what the walk found against the tree's own totals. */
  totals(): void {
    const { t, nb } = this;
    if (this.leafSlots !== t.pool.live)
      fail('pool', `leaves own ${this.leafSlots} slots but the pool counts ${t.pool.live} live slots`);
    if (this.items !== t.size) fail('count', `leaves hold ${this.items} items but size is ${t.size}`);
    // Only an item on its edge can stretch a refitted root, so its shrinking is checked when one leaves.
    if (t.refitted && this.extent.some((v, j) => v !== nb[j]))
      fail(
        'root',
        `the refitted root [${nb.subarray(0, 4)}] is not the extent [${this.extent}] of the items and bounds`,
      );
    if (t.nodeCount[0] !== t.size) fail('count', `root counts ${t.nodeCount[0]} but size is ${t.size}`);
    let present = 0;
    for (let id = 0; id < t.idSlot.length; id++) if (t.idSlot[id] >= 0) present++;
    if (present !== t.size) fail('id table', `${present} ids are marked present but size is ${t.size}`);
  }

  /** Freed node groups: never reachable from the root, and the list ends. */
  freeGroups(): void {
    const t = this.t;
    let guard = 0;
    for (let g = t.freeGroup; g >= 0; g = t.nodeChild[g]) {
      if (++guard > t.nodeTop) fail('tiling', 'the free node-group list loops');
      for (let k = g; k < g + 4; k++)
        if (this.seenNode[k]) fail('tiling', `node ${k} is both free and in the tree`);
    }
  }

  /** Free blocks: inside the pool and never overlapping a leaf's block or each other. */
  freeBlocks(): void {
    const pool = this.t.pool;
    const slotOwner = this.slotOwner;
    for (let c = 0; c < pool.freeLists.length; c++) {
      let guard = 0;
      for (let s = pool.freeLists[c]; s >= 0; s = pool.ids[s]) {
        if (++guard > pool.top) fail('pool', `free list ${c} loops`);
        const cap = slotsOfClass(c);
        if (s + cap > pool.top) fail('pool', `free block ${s}+${cap} outside the pool`);
        for (let k = s; k < s + cap; k++) {
          if (slotOwner[k] !== -1) fail('pool', `free block ${s} overlaps slot ${k} of leaf ${slotOwner[k]}`);
          slotOwner[k] = -2;
        }
      }
    }
  }
}
