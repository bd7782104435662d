/*
 * TreeState, the one state of a tree: its storage, laid out as below, and the scratch of its algorithms, which
 * are functions over it.
 *
 * Storage layout
 * ---------------
 * Nodes live in typed arrays indexed by node number. Node 0 is the root; the four children of an inner
 * node are allocated together as a group of consecutive numbers (first child = `nodeChild[n]`), in the
 * quadrant order q = (x >= midX ? 1 : 0) | (y >= midY ? 2 : 0): 0 = NW, 1 = NE, 2 = SW, 3 = SE
 * ("north" = smaller y). A point exactly on a split line goes east / south.
 *   nodeBounds  Float64Array, stride 4: minX, minY, maxX, maxY. Children's bounds are stored when the node
 *               splits, so the split lines are exact: midX, midY = the SE child's minX, minY.
 *   nodeChild   Int32Array: first child of an inner node, -1 for a leaf. For a free group, the next free group.
 *   nodeCount   Int32Array: items in the node's subtree (for a leaf: the items it stores).
 *   nodeStart   Int32Array: leaf only: first slot of its block in the item pool, -1 when it has no block.
 *   nodeCap     Int32Array: leaf only: capacity of that block (0 when none).
 *   nodeLoose   Float64Array, stride 4: the rectangle a node's items may occupy: its bounds grown by
 *               `looseness` on every side, clipped to the root. Queries prune with it and move() keeps an
 *               item in its leaf while it is inside it. With looseness 0 it is the same array as nodeBounds.
 *   groupParent Int32Array, one per group of four: the parent of nodes g..g+3 is groupParent[(g - 1) >> 2]
 *               (groups start at node 1), so a move can walk up to the nearest common ancestor.
 * Items (leaf-only storage) live in the item pool (ItemPool.ts: blocks in size classes, free lists,
 * compaction); each leaf owns one contiguous block of slots, so a query scans memory in order:
 *   pool.xy     Float64Array, stride 2: x, y of the item in that slot.
 *   pool.ids    Int32Array: id in that slot.
 * A leaf's block grows by one size class (about 1.5x) when full and shrinks when a quarter full.
 * Per id (ids are dense integers that index these directly):
 *   idSlot      Int32Array: slot of the id, -1 when absent.
 *   idLeaf      Int32Array: leaf that stores the id (valid only when present).
 *
 * Rules: a leaf holding more than maxItems splits if both halves would be at least minSize wide and deep;
 * an inner node whose subtree holds maxItems or fewer items collapses back into a leaf. Together they make
 * the shape a function of the point set and the root rectangle (up to rounding: after the root grows its
 * split lines are the old root's edges, which a fresh build would compute as midpoints), which is what
 * `from` builds directly.
 *
 * The root starts as the constructor's bounds (`initialBounds`). A point outside it grows it by doubling
 * (update/root.ts); where doubling would overflow, the root is refitted to the items' extent (`refitted`). It
 * shrinks back when the items allow.
 *
 * Every algorithm is a module function over one TreeState (`f(t, ...)`), in a file named after what it
 * does; PointQuadtree is the public surface over them. Arrays may be reallocated when they grow: an
 * algorithm that allocates nodes or slots re-reads `t.nodeBounds`, `t.pool.xy`, ... afterwards.
 */

import { type CheckedOptions, mustBe } from './checks';
import { ItemPool } from './ItemPool';
import {
  LeafList,
  MoveAllScratch,
  NearestScratch,
  PairScratch,
  QueryScratch,
  RootScratch,
  type VisitScratch,
} from './scratch';
import { NodeStack } from './stack';
import type { Bounds } from './types';

/**
 * The key of a tree's internal accessor, `tree[INTERNALS]()`, which hands out its TreeState (PointQuadtree.ts:
 * QuadtreeInternals). Here, not in the class's file, so that point-quadtree/debug's walks reach a tree's state
 * without a bundle carrying the class.
 */
export const INTERNALS: unique symbol = Symbol('PointQuadtree.internals');

/** The storage of one tree (layout above) and, apart, the scratch each algorithm owns. One fixed shape. */
export class TreeState {
  /** A leaf holding more than this many items splits (when it may). */
  readonly maxItems: number;
  /** No node is split into quadrants narrower or shallower than this. */
  readonly minSize: number;
  /** How far an item may stray outside its leaf's rectangle before it is re-filed. */
  readonly looseness: number;
  /** The constructor's bounds: the root never shrinks below them. */
  readonly initialBounds: Bounds;

  /** Items in the tree. */
  size = 0;
  /** Bumped whenever the node structure changes (split, merge, root change, clear, rebuild). */
  version = 0;

  nodeBounds: Float64Array;
  nodeLoose: Float64Array;
  nodeChild: Int32Array;
  nodeCount: Int32Array;
  nodeStart: Int32Array;
  nodeCap: Int32Array;
  groupParent: Int32Array;
  /** Nodes in use or freed (high-water mark): every node number below it is a valid index. */
  nodeTop = 1;
  /** First node of the list of freed groups of four (-1: none), linked through nodeChild. */
  freeGroup = -1;
  /**
   * The root was set to the items' extent because doubling would overflow (update/root.ts). While set, the root is
   * always exactly the extent of the items and the constructor's bounds: it grows by refitting, never by
   * doubling, and is recomputed whenever an item on its edge leaves (the only event that can make that
   * extent smaller).
   */
  refitted = false;

  /** Every leaf's block of slots (ItemPool.ts). */
  readonly pool: ItemPool = new ItemPool();
  idSlot: Int32Array;
  idLeaf: Int32Array;
  /** Above every id inserted since the last clear (ids at or past it are absent): moveAll's scan bound. */
  idTop = 0;

  /** initChildren's split point (nodes.ts): passing doubles to a call the engine does not inline boxes them. */
  readonly splitAt = new Float64Array(2);

  // Scratch, each piece owned by the one file named beside it (classes in scratch.ts): grown as needed, then
  // reused.
  /** query/range.ts: the circle and rectangle walks, collectAll, the array-returning queries' buffer. */
  readonly query = new QueryScratch();
  /** split.ts: splitDown, collapse and settle. */
  readonly splitStack = new NodeStack();
  /** leaves.ts: leavesBelow's list and stack. */
  readonly leaves = new LeafList();
  /** update/root.ts: growth and shrinking. */
  readonly root = new RootScratch();
  /** update/moveAll.ts. */
  readonly moveAll = new MoveAllScratch();
  /** update/build.ts: per-quadrant counts, then write offsets. */
  readonly quadAt = new Int32Array(4);
  /** update/build.ts: the nodes still to build, four entries each. */
  readonly buildStack = new NodeStack();
  /** query/visit.ts (point-quadtree/debug's walks): made by the first walk, so the core does not carry it. */
  visit: VisitScratch | null = null;
  /** query/nearest.ts. */
  readonly nearest = new NearestScratch();
  /** query/pairs.ts (and a subclass's faster join: PairScratch.kernel). */
  readonly pairs = new PairScratch();

  constructor(options: CheckedOptions) {
    this.maxItems = options.maxItems;
    this.minSize = options.minSize;
    this.looseness = options.looseness;
    this.initialBounds = options.bounds;
    this.nodeBounds = new Float64Array(4 * 17);
    this.nodeLoose = options.looseness > 0 ? new Float64Array(4 * 17) : this.nodeBounds;
    this.nodeChild = new Int32Array(17);
    this.nodeCount = new Int32Array(17);
    this.nodeStart = new Int32Array(17);
    this.nodeCap = new Int32Array(17);
    this.groupParent = new Int32Array(4);
    this.idSlot = new Int32Array(64).fill(-1);
    this.idLeaf = new Int32Array(64);
  }
}

/**
 * The state of `tree`, read once through its internal accessor and checked to be a TreeState (a Proxy of a
 * tree, or an object with a property of that name, could answer anything): for the functions that take a
 * tree from outside the class (point-quadtree/debug's walks, the team).
 * @throws TypeError naming the value if `tree` is not a PointQuadtree.
 */
export function stateOf(tree: unknown): TreeState {
  const object = tree !== null && typeof tree === 'object';
  const accessor = object ? (tree as { [INTERNALS]?: unknown })[INTERNALS] : undefined;
  const t: unknown = typeof accessor === 'function' ? accessor.call(tree) : null;
  if (!(t instanceof TreeState)) mustBe(TypeError, 'tree', 'a PointQuadtree', tree);
  return t;
}
