/*
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
 */

import { distanceScale } from './distance';
import { NearestK, NodeQueue } from './heap';
import { ItemPool } from './ItemPool';
import { OUT_OF_ROOM, PairJoin } from './pairs';
import type { Bounds, NodeInfo, QuadtreeOptions, QueryStats, TreeStats } from './types';

const NAME = 'PointQuadtree';
/** Defaults of the options (chosen by measurement: see the README's Performance section). */
const DEFAULTS: Readonly<{ maxItems: number; minSize: number; looseness: number }> = Object.freeze({
  maxItems: 64,
  minSize: 1,
  looseness: 0,
});
/** Largest id accepted. Ids index dense arrays, so memory grows with the largest id in use (8 bytes each). */
const MAX_ID = 0x1ffffff;

/**
 * A value as an error message shows it, without converting it: no `valueOf` or `toString` of the caller's
 * object is called, and BigInt and Symbol values print instead of throwing.
 */
function describe(value: unknown): string {
  switch (typeof value) {
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'string':
      return JSON.stringify(value);
    case 'bigint':
      return `${value.toString()}n (a BigInt)`;
    case 'symbol':
      return value.toString();
    case 'function':
      return 'a function';
    case 'object':
      return value === null ? 'null' : `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
    default:
      return String(value);
  }
}

/** A TypeError for an argument that is not a number at all (checked with typeof; nothing is converted). */
function notANumber(name: string, value: unknown): never {
  throw new TypeError(`${NAME}: ${name} must be a number, got ${describe(value)}`);
}

function checkCoordinate(name: string, value: number): void {
  if (typeof value !== 'number') notANumber(name, value);
  if (!Number.isFinite(value)) {
    throw new RangeError(`${NAME}: ${name} must be a finite number, got ${describe(value)}`);
  }
}

function checkRadius(name: string, value: number): void {
  if (typeof value !== 'number') notANumber(name, value);
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`${NAME}: ${name} must be a finite number >= 0, got ${describe(value)}`);
  }
}

/** Output arrays of ids must hold every id exactly: Int32Array or Uint32Array, nothing narrower. */
function checkIdArray(name: string, value: unknown): void {
  // isView: a Proxy of an Int32Array passes instanceof but is not one (its length getter would throw).
  if (!((value instanceof Int32Array || value instanceof Uint32Array) && ArrayBuffer.isView(value))) {
    const kind = ArrayBuffer.isView(value) ? value.constructor.name : describe(value);
    throw new TypeError(`${NAME}: ${name} must be an Int32Array or Uint32Array, got ${kind}`);
  }
}

/** A callback (of visitNodes, visitCircle, forEachPair): checked before the walk, even one that visits nothing. */
function checkCallback(name: string, value: unknown): void {
  if (typeof value !== 'function') {
    throw new TypeError(`${NAME}: ${name} must be a function, got ${describe(value)}`);
  }
}

/** The plain array that queryCircle, queryRect and nearest append ids to, checked before the query runs. */
function checkOutArray(name: string, value: unknown): void {
  if (!Array.isArray(value)) throw new TypeError(`${NAME}: ${name} must be an array, got ${describe(value)}`);
}

/**
 * An input array (ids, xs, ys): an object (typed or plain array, or any object with a length) whose length
 * is an integer >= 0. Returns the length, read once. Null, a number or a string is a TypeError, and so is a
 * length that is not a number; a negative or fractional length is a RangeError.
 */
function checkArrayLike(name: string, value: unknown): number {
  if (value === null || typeof value !== 'object') {
    throw new TypeError(`${NAME}: ${name} must be an array or typed array, got ${describe(value)}`);
  }
  const length = (value as ArrayLike<unknown>).length;
  if (typeof length !== 'number') notANumber(`${name}.length`, length);
  if (!Number.isSafeInteger(length) || length < 0) {
    throw new RangeError(`${NAME}: ${name}.length must be an integer >= 0, got ${describe(length)}`);
  }
  return length;
}

const typedArrayProto = Object.getPrototypeOf(Int8Array.prototype);
/** The engine's own getters, which a caller cannot replace: a typed array's name (undefined for anything
 * else, a Proxy too), its buffer, and an ArrayBuffer's byteLength (which throws for a SharedArrayBuffer). */
const typedArrayName = Object.getOwnPropertyDescriptor(typedArrayProto, Symbol.toStringTag)!.get!;
const typedArrayBuffer = Object.getOwnPropertyDescriptor(typedArrayProto, 'buffer')!.get!;
const arrayBufferLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength')!.get!;

/**
 * Whether an input array's entries cannot change during a call that runs none of the caller's code: a
 * typed array over an ArrayBuffer (not a SharedArrayBuffer, which another thread may write). Such an input
 * may be read twice (checked, then used). Anything else (a plain array, whose index may be a getter, a
 * Proxy, a view of a SharedArrayBuffer) is read once, into a copy that is checked and used.
 */
export function isFixed(value: unknown): boolean {
  if (typedArrayName.call(value) === undefined) return false;
  try {
    arrayBufferLength.call(typedArrayBuffer.call(value));
    return true;
  } catch {
    return false;
  }
}

/** A plain array with entries 0..n-1 of `value`, each read once (see isFixed). */
function snapshot(value: ArrayLike<number>, n: number): ArrayLike<number> {
  const copy: number[] = [];
  for (let i = 0; i < n; i++) copy.push(value[i]);
  return copy;
}

function checkId(id: number): void {
  if (typeof id !== 'number') notANumber('id', id);
  if (!Number.isInteger(id) || id < 0 || id > MAX_ID) {
    throw new RangeError(`${NAME}: id must be an integer from 0 to ${MAX_ID}, got ${describe(id)}`);
  }
}

/**
 * Two id outputs written side by side must not share memory: the same array, or views of one buffer whose
 * bytes overlap, would overwrite one output's entries with the other's.
 */
function checkSeparate(nameA: string, a: ArrayBufferView, nameB: string, b: ArrayBufferView): void {
  if (a === b)
    throw new RangeError(`${NAME}: ${nameA} and ${nameB} must be two arrays, got the same one twice`);
  if (a.buffer !== b.buffer) return;
  const from = Math.max(a.byteOffset, b.byteOffset);
  const to = Math.min(a.byteOffset + a.byteLength, b.byteOffset + b.byteLength);
  if (from < to) {
    throw new RangeError(
      `${NAME}: ${nameA} and ${nameB} must not share memory, got views of one buffer that overlap in its ` +
        `bytes ${from} to ${to - 1}`,
    );
  }
}

function checkCircle(x: number, y: number, radius: number): void {
  checkCoordinate('x', x);
  checkCoordinate('y', y);
  checkRadius('radius', radius);
}

function checkRect(minX: number, minY: number, maxX: number, maxY: number): void {
  checkCoordinate('minX', minX);
  checkCoordinate('minY', minY);
  checkCoordinate('maxX', maxX);
  checkCoordinate('maxY', maxY);
  if (minX > maxX || minY > maxY) {
    throw new RangeError(
      `${NAME}: queryRect needs minX <= maxX and minY <= maxY, got (${minX}, ${minY}, ${maxX}, ${maxY})`,
    );
  }
}

/*
 * The geometry rules, each defined once. Small enough that the JIT inlines them into every loop.
 */

/** The split line of a node spanning lo..hi (children store it, so it is computed only when splitting). */
export function midpoint(lo: number, hi: number): number {
  return lo + (hi - lo) * 0.5;
}

/** Quadrant of (x, y) in a node split at (mx, my): on or past a split line goes east (1) / south (2). */
export function quadrant(x: number, y: number, mx: number, my: number): number {
  return (x >= mx ? 1 : 0) | (y >= my ? 2 : 0);
}

/**
 * Whether (x, y) lies in the rectangle minX..maxX, minY..maxY, half-open (max edges excluded) except on the
 * root's far edges (rootMaxX, rootMaxY), which are closed. Used for a node's loose rectangle (its own
 * rectangle when looseness is 0): `move` keeps an item in its leaf while this holds.
 */
export function holds(
  x: number,
  y: number,
  minX: number,
  minY: number,
  maxX: number,
  maxY: number,
  rootMaxX: number,
  rootMaxY: number,
): boolean {
  return (
    x >= minX &&
    y >= minY &&
    (x < maxX || (x === maxX && x === rootMaxX)) &&
    (y < maxY || (y === maxY && y === rootMaxY))
  );
}

/**
 * The child (of the group starting at `g`) that holds the point (p[0], p[1]): the SE child's min corner is
 * the split point. The point comes in an array: a call the engine does not inline would box doubles.
 */
function childFor(nb: Float64Array, g: number, p: Float64Array): number {
  const m = (g + 3) << 2;
  return g + quadrant(p[0], p[1], nb[m], nb[m + 1]);
}

/** The circle meets rectangle `k` of `r` (stride 4) not at all: the node and its subtree are pruned. */
export const CIRCLE_APART = 0;
/** The circle overlaps rectangle `k`: its children are examined (a leaf's points are tested). */
export const CIRCLE_OVERLAPS = 1;
/** Rectangle `k` lies wholly inside the circle: every item below is found without a test. */
export const CIRCLE_COVERS = 2;

/**
 * How the closed disc at (x, y) meets rectangle `k` of `r`: the pruning rule of circle queries (and of
 * visitCircle). `s` is {@link distanceScale} of the radius and `r2` the squared scaled radius
 * `(radius * s) ** 2`. Uses the squared distance to the nearest and the farthest corner.
 */
export function circleMeets(r: Float64Array, k: number, x: number, y: number, r2: number, s: number): number {
  const b = k << 2;
  const minX = r[b];
  const minY = r[b + 1];
  const maxX = r[b + 2];
  const maxY = r[b + 3];
  const dx = (x < minX ? minX - x : x > maxX ? x - maxX : 0) * s;
  const dy = (y < minY ? minY - y : y > maxY ? y - maxY : 0) * s;
  if (dx * dx + dy * dy > r2) return CIRCLE_APART;
  const fx = Math.max(x - minX, maxX - x) * s;
  const fy = Math.max(y - minY, maxY - y) * s;
  return fx * fx + fy * fy <= r2 ? CIRCLE_COVERS : CIRCLE_OVERLAPS;
}

/**
 * The storage of a tree, as `tree[INTERNALS]()` hands it out: for the invariant checker in debug.ts and for
 * tests, never for application code (it is not exported from index.ts). The arrays are the tree's own (read
 * them, do not write them); the layout is described at the top of this file and in ItemPool.ts.
 */
export interface QuadtreeInternals {
  readonly maxItems: number;
  readonly minSize: number;
  readonly looseness: number;
  readonly size: number;
  /** The constructor's bounds (the root never shrinks below them). */
  readonly initialBounds: Bounds;
  /** Whether the root was refitted to the items' extent (then it must be exactly that extent). */
  readonly refitted: boolean;
  readonly nodeBounds: Float64Array;
  readonly nodeLoose: Float64Array;
  readonly nodeChild: Int32Array;
  readonly nodeCount: Int32Array;
  readonly nodeStart: Int32Array;
  readonly nodeCap: Int32Array;
  readonly groupParent: Int32Array;
  /** Nodes in use or freed: every node number below it is a valid index. */
  readonly nodeTop: number;
  /** First node of the list of freed groups of four (-1: none), linked through nodeChild. */
  readonly freeGroup: number;
  readonly pool: ItemPool;
  readonly idSlot: Int32Array;
  readonly idLeaf: Int32Array;
}

/** The key of the internal accessor (see {@link QuadtreeInternals}). */
export const INTERNALS: unique symbol = Symbol('PointQuadtree.internals');

/**
 * A dynamic point quadtree with leaf-only storage, for integer ids at (x, y).
 *
 * Each leaf holds at most `maxItems` items unless it is too small to split (`minSize`); inner nodes hold
 * none. Inserting or moving a point outside the root grows the root by doubling. Queries are exact:
 * circles and rectangles are closed (points on the boundary are found).
 *
 * Every method validates its arguments first and throws before changing anything, so a tree is never left
 * half-changed. An id, coordinate, radius, `k` or `maxDistance` that is not a number at all (null, a string,
 * a boolean, an array, an object with `valueOf`, a BigInt, a Symbol) is a `TypeError` naming the argument;
 * nothing is converted, so no `valueOf` of the caller's is ever called. So is an input array of `from` or
 * `moveAll` that is not an object with a numeric length, a callback that is not a function, and an `out`
 * that is not an array (for the `*Into` twins: not an Int32Array or Uint32Array). A number out of range
 * (NaN, an infinity, a negative radius, a negative length) is a `RangeError`, as each method's `@throws`
 * says. `from` and `moveAll` read each entry of their arrays once, so an array that changes during the
 * call (a Proxy, a view of a SharedArrayBuffer that a worker writes) cannot put an unchecked value in.
 */
export class PointQuadtree {
  /** Largest id accepted by {@link PointQuadtree.insert} (33,554,431). */
  static readonly MAX_ID = MAX_ID;
  /** The options' defaults: `maxItems`, `minSize`, `looseness` (frozen). */
  static readonly DEFAULTS = DEFAULTS;

  // The options are fixed for the tree's life: private fields behind getters, so an assignment such as
  // `tree.maxItems = 0` throws (in strict mode) instead of breaking the tree's invariants.
  readonly #maxItems: number;
  readonly #minSize: number;
  readonly #looseness: number;

  /** A leaf holding more than this many items splits (when it is at least twice `minSize`). Read-only. */
  get maxItems(): number {
    return this.#maxItems;
  }
  /** No node is split into quadrants narrower or shallower than this, in world units. Read-only. */
  get minSize(): number {
    return this.#minSize;
  }
  /**
   * How far (world units) an item may move outside its leaf's rectangle before move() re-files it into
   * another leaf. 0 (the default) keeps every item inside its leaf's rectangle. Read-only.
   */
  get looseness(): number {
    return this.#looseness;
  }

  /** Figures of the last queryCircle / queryRect / nearest. Reused: read it before the next query. */
  readonly lastQuery: QueryStats = { nodesVisited: 0, pointsTested: 0, found: 0 };

  private readonly initialBounds: Bounds;
  private _size = 0;
  private _version = 0;

  private nodeBounds: Float64Array;
  private nodeLoose: Float64Array;
  private nodeChild: Int32Array;
  private nodeCount: Int32Array;
  private nodeStart: Int32Array;
  private nodeCap: Int32Array;
  private groupParent: Int32Array;
  /** Nodes in use or freed (high-water mark); node numbers below it are valid array indices. */
  private nodeTop = 1;
  private freeGroup = -1;
  /**
   * The root was set to the items' extent because doubling would overflow (see growFor, shrinkRoot). While
   * set, the root is always exactly the extent of the items and the constructor's bounds: it grows by
   * refitting, never by doubling, and is recomputed whenever an item on its edge leaves (refitDown), the
   * only event that can make that extent smaller.
   */
  private refitted = false;

  /** The item pool: every leaf's block of slots (see ItemPool.ts). */
  private readonly pool = new ItemPool();
  /** Stack of the all-pairs join, and the pairs forEachPair hands out (grown as needed, then reused). */
  private readonly pairJoin = new PairJoin();
  private pairA = new Int32Array(64);
  private pairB = new Int32Array(64);
  private nestedPairA = new Int32Array(0);
  private nestedPairB = new Int32Array(0);
  private pairing = false;

  private idSlot: Int32Array;
  private idLeaf: Int32Array;
  /** Above every id inserted since the last clear (ids at or past it are absent): moveAll's scan bound. */
  private idTop = 0;

  /**
   * Scratch of the public entry points for the coordinates they hand to internal methods. Passing doubles
   * as arguments to a method the engine does not inline boxes them (a heap allocation per call), so a
   * public method writes them here and passes the array: [0, 1] the point being inserted or moved (its
   * callees call it `p`), [2..5] the query's shape (`q`). Internal methods use only what they are given.
   */
  private readonly arg = new Float64Array(6);
  /** growFor's rectangle probe (its own, so a query's shape in `arg` is never overwritten). */
  private readonly probe = new Float64Array(6);
  /** A list of leaves: compactPool's (as long as the node arrays), leavesBelow's. */
  private leafList = new Int32Array(0);
  /** build's per-quadrant counts, then write offsets. */
  private readonly quadAt = new Int32Array(4);
  /** Split lines handed to initChildren by splitLeaf, build and growFor. */
  private readonly splitAt = new Float64Array(2);

  private stack = new Int32Array(64);

  private results = new Int32Array(64);
  /** Nodes visited by the last collectAll. */
  private collected = 0;
  private collectStack = new Int32Array(64);
  private work = new Int32Array(64);
  /** stepsStayFinite's extents, four per id. */
  private spans = new Float64Array(0);
  /** moveAll's copy of xs and ys when they are not fixed (see readMoves), indexed by id. */
  private movedX = new Float64Array(0);
  private movedY = new Float64Array(0);
  /** halfToward's output. */
  private readonly half = new Float64Array(4);
  private visitStack = new Int32Array(64);
  private visitDepth = new Int32Array(64);
  private visiting = false;
  /** nearest(): nodes to open, nearest first, and the best k items so far (heap.ts). */
  private readonly queue = new NodeQueue();
  private readonly best = new NearestK();
  private readonly info: NodeInfo = { minX: 0, minY: 0, maxX: 0, maxY: 0, depth: 0, isLeaf: true, count: 0 };

  /**
   * @param options - root rectangle and split rules; see {@link QuadtreeOptions}.
   * @throws RangeError if the bounds are not finite or empty (`minX >= maxX` or `minY >= maxY`), if
   *   `maxItems` is not an integer >= 1, if `minSize` is not a finite number > 0, or if `looseness` is
   *   not a finite number >= 0.
   */
  constructor(options: QuadtreeOptions) {
    if (options === null || typeof options !== 'object') {
      throw new RangeError(`${NAME}: options must be an object with bounds, got ${describe(options)}`);
    }
    const b = options.bounds;
    if (b === null || typeof b !== 'object') {
      throw new RangeError(`${NAME}: bounds must be {minX, minY, maxX, maxY}, got ${describe(b)}`);
    }
    for (const key of ['minX', 'minY', 'maxX', 'maxY'] as const) {
      const v = b[key];
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        throw new RangeError(`${NAME}: bounds.${key} must be a finite number, got ${describe(v)}`);
      }
    }
    if (!(b.minX < b.maxX) || !(b.minY < b.maxY)) {
      throw new RangeError(
        `${NAME}: bounds must not be empty (minX < maxX and minY < maxY), got ` +
          `{minX: ${b.minX}, minY: ${b.minY}, maxX: ${b.maxX}, maxY: ${b.maxY}}`,
      );
    }
    if (!Number.isFinite(b.maxX - b.minX) || !Number.isFinite(b.maxY - b.minY)) {
      throw new RangeError(`${NAME}: bounds are too large: their width and height must be finite`);
    }
    const maxItems = options.maxItems ?? DEFAULTS.maxItems;
    if (
      typeof maxItems !== 'number' ||
      !Number.isInteger(maxItems) ||
      maxItems < 1 ||
      maxItems > 0x7fffffff
    ) {
      throw new RangeError(
        `${NAME}: maxItems must be an integer from 1 to 2147483647, got ${describe(maxItems)}`,
      );
    }
    const minSize = options.minSize ?? DEFAULTS.minSize;
    if (typeof minSize !== 'number' || !Number.isFinite(minSize) || minSize <= 0) {
      throw new RangeError(`${NAME}: minSize must be a finite number > 0, got ${describe(minSize)}`);
    }
    const looseness = options.looseness ?? DEFAULTS.looseness;
    if (typeof looseness !== 'number' || !Number.isFinite(looseness) || looseness < 0) {
      throw new RangeError(`${NAME}: looseness must be a finite number >= 0, got ${describe(looseness)}`);
    }
    this.#maxItems = maxItems;
    this.#minSize = minSize;
    this.#looseness = looseness;
    this.initialBounds = { minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY };

    this.nodeBounds = new Float64Array(4 * 17);
    this.nodeLoose = looseness > 0 ? new Float64Array(4 * 17) : this.nodeBounds;
    this.nodeChild = new Int32Array(17);
    this.nodeCount = new Int32Array(17);
    this.nodeStart = new Int32Array(17);
    this.nodeCap = new Int32Array(17);
    this.groupParent = new Int32Array(4);
    this.idSlot = new Int32Array(64).fill(-1);
    this.idLeaf = new Int32Array(64);
    this.resetNodes();
  }

  /**
   * Builds a tree from parallel arrays in one pass (much faster than inserting one by one). The root is
   * `options.bounds`, grown by doubling until it covers every point. `ids[i]` is at (`xs[i]`, `ys[i]`).
   * Each entry is read once, so an input that changes during the call (a Proxy, a view of a
   * SharedArrayBuffer that another thread writes) is checked and built as one snapshot.
   * @throws TypeError if `ids`, `xs` or `ys` is not an object with a numeric length (null, a number, a
   *   string, `{}`), or an id or coordinate is not a number; RangeError on bad options, a length that is
   *   not an integer >= 0, arrays of different lengths, a bad id or a non-finite coordinate; Error on a
   *   repeated id.
   */
  static from(
    options: QuadtreeOptions,
    ids: ArrayLike<number>,
    xs: ArrayLike<number>,
    ys: ArrayLike<number>,
  ): PointQuadtree {
    const tree = new PointQuadtree(options);
    const n = checkArrayLike('ids', ids);
    const nx = checkArrayLike('xs', xs);
    const ny = checkArrayLike('ys', ys);
    if (nx !== n || ny !== n) {
      throw new RangeError(`${NAME}: from: ids, xs and ys must have the same length, got ${n}, ${nx}, ${ny}`);
    }
    // The scan checks the entries and the build reads them again: both must see the same values.
    if (!isFixed(ids)) ids = snapshot(ids, n);
    if (!isFixed(xs)) xs = snapshot(xs, n);
    if (!isFixed(ys)) ys = snapshot(ys, n);
    // The scan is a function of its own: inside this one the engine compiles it several times slower.
    const scan = new Float64Array(5);
    const bad = scanPoints(ids, xs, ys, n, scan);
    if (bad >= 0) {
      checkId(ids[bad]);
      checkCoordinate(`xs[${bad}]`, xs[bad]);
      checkCoordinate(`ys[${bad}]`, ys[bad]);
    }
    const minX = scan[0];
    const minY = scan[1];
    const maxX = scan[2];
    const maxY = scan[3];
    const maxId = scan[4];
    if (n === 0) return tree;
    tree.ensureIdCapacity(maxId);
    tree.idTop = maxId + 1;
    const idSlot = tree.idSlot;
    for (let i = 0; i < n; i++) {
      const id = ids[i];
      if (idSlot[id] !== -1) throw new Error(`${NAME}: from: id ${id} appears more than once`);
      idSlot[id] = i;
    }
    const root = tree.nodeBounds;
    const grown = new Float64Array(4);
    grown.set(root.subarray(0, 4));
    if (growToCover(grown, minX, minY) && growToCover(grown, maxX, maxY)) {
      root.set(grown);
    } else {
      // Doubling would overflow: the root is the extent of the points and the bounds, if that is finite.
      const b = options.bounds;
      const r0 = Math.min(minX, b.minX);
      const r1 = Math.min(minY, b.minY);
      const r2 = Math.max(maxX, b.maxX);
      const r3 = Math.max(maxY, b.maxY);
      checkExtent(r0, r1, r2, r3);
      root[0] = r0;
      root[1] = r1;
      root[2] = r2;
      root[3] = r3;
      tree.refitted = true;
    }
    tree.build(ids, xs, ys, n);
    return tree;
  }

  /** Number of items in the tree. */
  get size(): number {
    return this._size;
  }

  /** The current root rectangle (a copy). It starts as `options.bounds` and may have grown. */
  get bounds(): Bounds {
    const b = this.nodeBounds;
    return { minX: b[0], minY: b[1], maxX: b[2], maxY: b[3] };
  }

  /**
   * Increments whenever the node structure changes (split, merge, root growth, clear, rebuild).
   * A move inside a leaf does not change it: redraw node gizmos only when it changed.
   */
  get version(): number {
    return this._version;
  }

  /** Whether `id` is in the tree. Any value that is not a valid id is simply not in it. */
  has(id: number): boolean {
    return typeof id === 'number' && id >>> 0 === id && id < this.idSlot.length && this.idSlot[id] >= 0;
  }

  /**
   * Adds `id` at (x, y). Points outside the root grow it (by doubling, or by a refit to the items' extent
   * where doubling would overflow). Amortised O(depth).
   * @throws TypeError if `id`, x or y is not a number; RangeError if `id` is not an integer from 0 to
   *   {@link PointQuadtree.MAX_ID}, if x or y is not finite, or if the items' extent with (x, y) is not a
   *   finite number of units across; Error if `id` is already in the tree.
   */
  insert(id: number, x: number, y: number): void {
    if (!(Number.isFinite(x) && Number.isFinite(y)) || this.has(id)) this.rejectInsert(id, x, y);
    checkId(id);
    this.arg[0] = x;
    this.arg[1] = y;
    this.insertAt(id, this.arg);
  }

  /** Throws the error that insert's arguments deserve (id first, then the coordinates). */
  private rejectInsert(id: number, x: number, y: number): never {
    checkId(id);
    if (this.has(id))
      throw new Error(`${NAME}: id ${id} is already in the tree (use move to change its position)`);
    checkCoordinate('x', x);
    checkCoordinate('y', y);
    throw new Error(`${NAME}: unreachable`);
  }

  /** insert, with the point in p[0], p[1] and the arguments checked. */
  private insertAt(id: number, p: Float64Array): void {
    if (this.pool.compactDue) this.compactPool();
    this.growFor(p);
    this.ensureIdCapacity(id);
    if (id >= this.idTop) this.idTop = id + 1;
    this.insertItem(id, p);
    this._size++;
  }

  /**
   * Moves `id` to (x, y). When the point stays in its leaf only its coordinates are rewritten; otherwise it
   * is re-filed, with the same split and merge rules as remove + insert. Points outside the root grow it;
   * a move that re-files its item may shrink a grown root again, as remove does.
   * @throws RangeError if `id` is not a valid id, or x or y is not finite; Error if `id` is not in the tree.
   */
  move(id: number, x: number, y: number): void {
    // Kept small so engines inline it into the caller's loop: no call, no boxed coordinates.
    const slot = typeof id === 'number' && id >>> 0 === id && id < this.idSlot.length ? this.idSlot[id] : -1;
    if (slot >= 0 && Number.isFinite(x) && Number.isFinite(y)) {
      const nb = this.nodeLoose;
      const b = this.idLeaf[id] << 2;
      // Still inside the leaf's (loose) rectangle? (nodeLoose of the root is the root.)
      if (holds(x, y, nb[b], nb[b + 1], nb[b + 2], nb[b + 3], nb[2], nb[3])) {
        // A root leaf or a refitted root may shrink as its items move (rare: see moveWithin).
        if (b === 0 || this.refitted) {
          this.moveWithin(slot, x, y);
          return;
        }
        this.pool.xy[slot << 1] = x;
        this.pool.xy[(slot << 1) + 1] = y;
        return;
      }
    }
    // Reject before the scratch array converts anything (a Float64Array would turn null into 0).
    if (!(Number.isFinite(x) && Number.isFinite(y))) this.rejectMove(id, x, y);
    this.arg[0] = x;
    this.arg[1] = y;
    this.moveSlow(id, this.arg);
  }

  /** Throws the error that move's arguments deserve (id first, then the coordinates). */
  private rejectMove(id: number, x: number, y: number): never {
    this.checkPresent(id);
    checkCoordinate('x', x);
    checkCoordinate('y', y);
    throw new Error(`${NAME}: unreachable`);
  }

  private checkPresent(id: number): void {
    if (!this.has(id)) {
      checkId(id);
      throw new Error(`${NAME}: cannot move id ${id}: it is not in the tree`);
    }
  }

  /** move, with the (finite) point in p[0], p[1], when it leaves its leaf or the id is bad (throws). */
  private moveSlow(id: number, p: Float64Array): void {
    this.checkPresent(id);
    if (this.pool.compactDue) this.compactPool();
    const slot = this.idSlot[id];
    const edge = this.onRootEdge(slot);
    // A refit (doubling would overflow) rebuilds with the item already at p: nothing left to do.
    if (this.growFor(p, slot)) return;
    this.refile(id, p);
    // The item may have been the last one in a far quadrant.
    if (this.isGrown()) this.shrinkRoot(edge);
  }

  /**
   * move within the item's leaf when that leaf is the root or the root is refitted: writes the position,
   * then shrinks a grown root that no longer needs its size (O(items in the root leaf), or O(items) for a
   * refitted root when the item was on its edge).
   */
  private moveWithin(slot: number, x: number, y: number): void {
    const edge = this.onRootEdge(slot);
    this.pool.xy[slot << 1] = x;
    this.pool.xy[(slot << 1) + 1] = y;
    if (this.isGrown()) this.shrinkRoot(edge);
  }

  /** Whether the item in `slot` lies on the root's edge (a refitted root may shrink only when one leaves). */
  private onRootEdge(slot: number): boolean {
    const nb = this.nodeBounds;
    const x = this.pool.xy[slot << 1];
    const y = this.pool.xy[(slot << 1) + 1];
    return x === nb[0] || x === nb[2] || y === nb[1] || y === nb[3];
  }

  /** Whether the root differs from the constructor's bounds (only then can it shrink). */
  private isGrown(): boolean {
    const nb = this.nodeBounds;
    const ib = this.initialBounds;
    return this.refitted || nb[0] !== ib.minX || nb[1] !== ib.minY || nb[2] !== ib.maxX || nb[3] !== ib.maxY;
  }

  /**
   * Moves every item at once: each id in the tree goes to (`xs[id]`, `ys[id]`); entries of ids not in the
   * tree are ignored (those ids stay absent). The result is the tree that calling {@link PointQuadtree.move}
   * for each present id in increasing id order gives: the same root (it grows and shrinks the same way: when
   * some point lies outside the root, or the root has grown and a stray may come back, it runs exactly
   * those moves, one by one), and with
   * `looseness` 0 the same nodes (the shape depends only on the points and the root). With `looseness` > 0
   * an item stays in its leaf while it is inside the leaf's loose rectangle, as with move, but the splits
   * and merges happen after all the moves, so which leaf holds a straying item may differ from a sequence of
   * moves (queries answer the same either way).
   *
   * Made for the frame in which everything moves: a check of the arrays (one sequential read), then one
   * pass in id order that writes each item's new position in place; only the items that left their leaf
   * are re-filed, then splits and merges are settled top down. O(largest id + nodes + moved-out items *
   * depth); allocates nothing (once its scratch buffer has grown to the tree's size). Each entry is read
   * once: xs and ys that are not typed arrays over an ArrayBuffer (plain arrays, a Proxy, views of a
   * SharedArrayBuffer that another thread writes) are first copied into a scratch of the tree's, which is
   * checked and used, so the tree never stores a value that was not checked.
   * @param xs - x of id i at index i (typed or plain array), length > the largest id in the tree.
   * @param ys - y of id i at index i.
   * @throws RangeError (before moving anything) if `xs` or `ys` is too short for the largest id in the
   *   tree, if a present id's coordinate is not finite (naming the id), or if the new positions' extent
   *   is not a finite number of units across; TypeError if `xs` or `ys` is not an object with a numeric
   *   length (null, a number, a string), or for a coordinate that is not a number. (Where
   *   moving one by one would fail halfway on such an extent but the new positions fit, the root is
   *   refitted to them instead.)
   */
  moveAll(xs: ArrayLike<number>, ys: ArrayLike<number>): void {
    const xLength = checkArrayLike('xs', xs);
    const yLength = checkArrayLike('ys', ys);
    if (this._size === 0) return;
    const idSlot = this.idSlot;
    let maxId = this.idTop - 1;
    while (idSlot[maxId] < 0) maxId--;
    if (!(xLength > maxId && yLength > maxId)) {
      throw new RangeError(
        `${NAME}: moveAll needs xs and ys of length > ${maxId} (id ${maxId} is in the tree), got ` +
          `${xLength} and ${yLength}`,
      );
    }
    if (!(isFixed(xs) && isFixed(ys))) {
      // The passes below read each entry several times: give them a copy that cannot change.
      this.readMoves(xs, ys, maxId);
      xs = this.movedX;
      ys = this.movedY;
    }
    // Validate (and see whether the root must grow) before anything moves. The root is finite, so this
    // test also rejects NaN and infinities.
    const nb = this.nodeBounds;
    const rMinX = nb[0];
    const rMinY = nb[1];
    const rMaxX = nb[2];
    const rMaxY = nb[3];
    // First without looking at which ids are present (two sequential streams): usually every entry is
    // inside the root and nothing else is needed; otherwise look again, at the present ids only.
    let inside = true;
    for (let id = 0; id <= maxId; id++) {
      const x = xs[id];
      const y = ys[id];
      // typeof: a plain array's string or object must not pass by conversion.
      inside =
        inside &&
        typeof x === 'number' &&
        typeof y === 'number' &&
        x >= rMinX &&
        x <= rMaxX &&
        y >= rMinY &&
        y <= rMaxY;
    }
    let outside = false;
    if (!inside) {
      for (let id = 0; id <= maxId; id++) {
        if (idSlot[id] < 0) continue;
        const x = xs[id];
        const y = ys[id];
        if (
          typeof x !== 'number' ||
          typeof y !== 'number' ||
          !(x >= rMinX && x <= rMaxX && y >= rMinY && y <= rMaxY)
        ) {
          if (!(Number.isFinite(x) && Number.isFinite(y))) this.rejectMoveAll(id, x, y);
          outside = true;
        }
      }
    }
    if (outside || (this.isGrown() && this.movesMayShrink(xs, ys))) {
      // The root changes on the way (it grows, or shrinks as strays come back): move one by one, which
      // is the definition of the result. Rare: only with points outside the constructor's bounds.
      this.moveEach(xs, ys, maxId, outside);
      return;
    }
    if (this.pool.compactDue) this.compactPool();
    if (this.moveInPlace(xs, ys, maxId, this.arg) > 0) this.settle();
  }

  /**
   * Copies xs and ys (ids up to maxId) into movedX / movedY, reading each entry once. A present id's bad
   * coordinate throws here, in id order as the checks of moveAll do, naming the value read; an absent id's
   * entry that is not a finite number becomes NaN (it is ignored, and a Float64Array would convert it).
   */
  private readMoves(xs: ArrayLike<number>, ys: ArrayLike<number>, maxId: number): void {
    if (this.movedX.length <= maxId) {
      this.movedX = new Float64Array(Math.max(maxId + 1, 2 * this.movedX.length));
      this.movedY = new Float64Array(this.movedX.length);
    }
    const cx = this.movedX;
    const cy = this.movedY;
    const idSlot = this.idSlot;
    for (let id = 0; id <= maxId; id++) {
      const x = xs[id];
      const y = ys[id];
      if (Number.isFinite(x) && Number.isFinite(y)) {
        cx[id] = x;
        cy[id] = y;
        continue;
      }
      if (idSlot[id] >= 0) this.rejectMoveAll(id, x, y);
      cx[id] = Number.NaN;
      cy[id] = Number.NaN;
    }
  }

  private rejectMoveAll(id: number, x: number, y: number): never {
    const xBad = !Number.isFinite(x);
    checkCoordinate(`moveAll: ${xBad ? 'xs' : 'ys'}[${id}] (of id ${id})`, xBad ? x : y);
    throw new Error(`${NAME}: unreachable`);
  }

  /**
   * moveAll as a sequence of moves in increasing id order, after checking that none can throw. If one
   * would (at some step the items would span a width that is not finite) but the final positions do not,
   * the root is refitted straight to those: moving one by one is then not a way to get there.
   */
  private moveEach(xs: ArrayLike<number>, ys: ArrayLike<number>, maxId: number, outside: boolean): void {
    if (outside && !this.stepsStayFinite(xs, ys, maxId)) {
      this.refitAll(xs, ys, maxId);
      return;
    }
    const idSlot = this.idSlot;
    for (let id = 0; id <= maxId; id++) if (idSlot[id] >= 0) this.move(id, xs[id], ys[id]);
  }

  /**
   * Whether, moving the present ids one by one in increasing id order, the items (ids up to i at their new
   * positions, the rest at their old ones) and the constructor's bounds span a finite width at every step.
   */
  private stepsStayFinite(xs: ArrayLike<number>, ys: ArrayLike<number>, maxId: number): boolean {
    const idSlot = this.idSlot;
    const xy = this.pool.xy;
    const ib = this.initialBounds;
    if (this.spans.length < 4 * (maxId + 1)) this.spans = new Float64Array(4 * (maxId + 1));
    const after = this.spans;
    // The old positions of the ids after each id.
    let minX = ib.minX;
    let minY = ib.minY;
    let maxX = ib.maxX;
    let maxY = ib.maxY;
    for (let id = maxId; id >= 0; id--) {
      const slot = idSlot[id];
      if (slot < 0) continue;
      after[4 * id] = minX;
      after[4 * id + 1] = minY;
      after[4 * id + 2] = maxX;
      after[4 * id + 3] = maxY;
      minX = Math.min(minX, xy[slot << 1]);
      minY = Math.min(minY, xy[(slot << 1) + 1]);
      maxX = Math.max(maxX, xy[slot << 1]);
      maxY = Math.max(maxY, xy[(slot << 1) + 1]);
    }
    // The new positions up to each id.
    minX = ib.minX;
    minY = ib.minY;
    maxX = ib.maxX;
    maxY = ib.maxY;
    for (let id = 0; id <= maxId; id++) {
      if (idSlot[id] < 0) continue;
      minX = Math.min(minX, xs[id]);
      minY = Math.min(minY, ys[id]);
      maxX = Math.max(maxX, xs[id]);
      maxY = Math.max(maxY, ys[id]);
      const w = Math.max(maxX, after[4 * id + 2]) - Math.min(minX, after[4 * id]);
      const h = Math.max(maxY, after[4 * id + 3]) - Math.min(minY, after[4 * id + 1]);
      if (!(Number.isFinite(w) && Number.isFinite(h))) return false;
    }
    return true;
  }

  /** Sets every present id to its new position and rebuilds under their extent (throws first if infinite). */
  private refitAll(xs: ArrayLike<number>, ys: ArrayLike<number>, maxId: number): void {
    const idSlot = this.idSlot;
    const t = this.probe;
    t[0] = t[1] = Infinity;
    t[2] = t[3] = -Infinity;
    for (let id = 0; id <= maxId; id++) {
      if (idSlot[id] < 0) continue;
      t[0] = Math.min(t[0], xs[id]);
      t[1] = Math.min(t[1], ys[id]);
      t[2] = Math.max(t[2], xs[id]);
      t[3] = Math.max(t[3], ys[id]);
    }
    const ib = this.initialBounds;
    checkExtent(
      Math.min(t[0], ib.minX),
      Math.min(t[1], ib.minY),
      Math.max(t[2], ib.maxX),
      Math.max(t[3], ib.maxY),
    );
    const xy = this.pool.xy;
    for (let id = 0; id <= maxId; id++) {
      const slot = idSlot[id];
      if (slot < 0) continue;
      xy[slot << 1] = xs[id];
      xy[(slot << 1) + 1] = ys[id];
    }
    this.rebuild(t);
  }

  /**
   * Whether moving the present ids one by one could shrink the (grown) root on the way. A root leaf or a
   * refitted root may. An inner root shrinks only when every item lies in the child that holds the
   * constructor's bounds (promotion) or in the first half that halveToItems tries, so not while an item
   * stays outside both before and after its move. Only the items in the children that do not hold the
   * constructor bounds' centre are looked at (the few strays; missing one only makes the answer a needless
   * yes).
   */
  private movesMayShrink(xs: ArrayLike<number>, ys: ArrayLike<number>): boolean {
    const g = this.nodeChild[0];
    if (this.refitted || g < 0) return true;
    const nb = this.nodeBounds;
    const ib = this.initialBounds;
    const cx = midpoint(ib.minX, ib.maxX);
    const cy = midpoint(ib.minY, ib.maxY);
    const r = this.half;
    this.halfToward(nb, r);
    let centre = -1;
    for (let k = g; k < g + 4; k++) {
      const b = k << 2;
      if (this.holdsInitial(k)) {
        r[0] = Math.min(r[0], nb[b]);
        r[1] = Math.min(r[1], nb[b + 1]);
        r[2] = Math.max(r[2], nb[b + 2]);
        r[3] = Math.max(r[3], nb[b + 3]);
      }
      if (centre < 0 && cx >= nb[b] && cx <= nb[b + 2] && cy >= nb[b + 1] && cy <= nb[b + 3]) centre = k;
    }
    const xy = this.pool.xy;
    const ids = this.pool.ids;
    const leaves = this.leavesBelow(g, centre);
    const list = this.leafList;
    for (let j = 0; j < leaves; j++) {
      const s = this.nodeStart[list[j]];
      for (let i = s; i < s + this.nodeCount[list[j]]; i++) {
        const x = xy[i << 1];
        const y = xy[(i << 1) + 1];
        const id = ids[i];
        const nx = xs[id];
        const ny = ys[id];
        if (
          !(x >= r[0] && x <= r[2] && y >= r[1] && y <= r[3]) &&
          !(nx >= r[0] && nx <= r[2] && ny >= r[1] && ny <= r[3])
        )
          return false;
      }
    }
    return true;
  }

  /**
   * moveAll's pass, in id order: reads the new positions and the id tables sequentially and writes each
   * staying item's new position into its slot (x and y share a cache line). An item that left its leaf is
   * taken out of it (the leaf's last item fills the gap) and filed at once, while its leaf is still in the
   * cache: up to the nearest ancestor whose loose rectangle holds it (taking it out of the counts on the
   * way), then down, without splitting or merging (settle() does that after the pass). Returns how many
   * items changed leaf. (Two designs measured slower: a pass over the leaves in pool order reads xs[id] and
   * ys[id] at random, two cache misses per item where this has one; filing the leavers after the pass
   * finds their leaves out of the cache again.)
   */
  private moveInPlace(xs: ArrayLike<number>, ys: ArrayLike<number>, maxId: number, p: Float64Array): number {
    const lb = this.nodeLoose;
    const nb = this.nodeBounds;
    const rootMaxX = lb[2];
    const rootMaxY = lb[3];
    const count = this.nodeCount;
    const start = this.nodeStart;
    const child = this.nodeChild;
    const parent = this.groupParent;
    const idSlot = this.idSlot;
    const idLeaf = this.idLeaf;
    const pool = this.pool;
    let xy = pool.xy;
    let ids = pool.ids;
    let moved = 0;
    for (let id = 0; id <= maxId; id++) {
      const slot = idSlot[id];
      if (slot < 0) continue;
      const x = xs[id];
      const y = ys[id];
      const leaf = idLeaf[id];
      const b = leaf << 2;
      if (holds(x, y, lb[b], lb[b + 1], lb[b + 2], lb[b + 3], rootMaxX, rootMaxY)) {
        xy[slot << 1] = x;
        xy[(slot << 1) + 1] = y;
        continue;
      }
      moved++;
      // Out of its leaf (never the root: the root holds every point once it has grown).
      const cnt = count[leaf] - 1;
      const last = start[leaf] + cnt;
      if (slot !== last) {
        xy[slot << 1] = xy[last << 1];
        xy[(slot << 1) + 1] = xy[(last << 1) + 1];
        const other = ids[last];
        ids[slot] = other;
        idSlot[other] = slot;
      }
      count[leaf] = cnt;
      if (cnt === 0) {
        pool.free(start[leaf], this.nodeCap[leaf]);
        start[leaf] = -1;
        this.nodeCap[leaf] = 0;
      }
      let node = leaf;
      while (node !== 0) {
        const up = parent[(node - 1) >> 2];
        const ub = up << 2;
        node = up;
        if (holds(x, y, lb[ub], lb[ub + 1], lb[ub + 2], lb[ub + 3], rootMaxX, rootMaxY)) break;
        count[up]--;
      }
      p[0] = x;
      p[1] = y;
      let c = child[node];
      while (c >= 0) {
        node = childFor(nb, c, p);
        c = child[node];
        if (c >= 0) count[node]++;
      }
      this.appendToLeaf(node, id, p);
      // Appending may have given the leaf a new block, and the pool new arrays.
      xy = pool.xy;
      ids = pool.ids;
    }
    return moved;
  }

  /**
   * Restores the split and merge rules everywhere (after moveAll re-filed items without them): top down,
   * an inner node with maxItems or fewer items below it collapses, a leaf with more splits if it may.
   */
  private settle(): void {
    const maxItems = this.maxItems;
    let stack = this.stack;
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const n = stack[--sp];
      // Re-read the node arrays: a split may reallocate them.
      const c = this.nodeChild[n];
      const count = this.nodeCount[n];
      if (c < 0) {
        if (count > maxItems && this.canSplit(n)) this.splitDown(n);
        continue;
      }
      if (count <= maxItems) {
        this.collapse(n);
        continue;
      }
      if (sp + 4 > stack.length) stack = this.growStack(sp);
      stack[sp++] = c;
      stack[sp++] = c + 1;
      stack[sp++] = c + 2;
      stack[sp++] = c + 3;
    }
  }

  /**
   * Removes `id`. Inner nodes left with `maxItems` or fewer items below them collapse into leaves. A grown
   * root shrinks back toward the constructor's bounds while the remaining items allow it.
   * @returns false if `id` was not in the tree.
   * @throws RangeError if `id` is not an integer from 0 to {@link PointQuadtree.MAX_ID}.
   */
  remove(id: number): boolean {
    checkId(id);
    if (!this.has(id)) return false;
    if (this.pool.compactDue) this.compactPool();
    const leaf = this.idLeaf[id];
    const count = this.nodeCount;
    const parent = this.groupParent;
    const maxItems = this.maxItems;
    // Walk up from the leaf (with looseness > 0 the item need not be where its position would lead).
    // Counts grow going up, so the last node found at or below maxItems is the topmost to merge.
    let collapseAt = -1;
    for (let n = leaf; n !== 0; ) {
      n = parent[(n - 1) >> 2];
      if (--count[n] <= maxItems) collapseAt = n;
    }
    const slot = this.idSlot[id];
    const edge = this.onRootEdge(slot);
    this.removeFromLeaf(leaf, slot);
    this.idSlot[id] = -1;
    this._size--;
    if (collapseAt >= 0) this.collapse(collapseAt);
    if (this.isGrown()) this.shrinkRoot(edge);
    return true;
  }

  /** Removes every item and resets the root to the constructor's bounds. Keeps allocated capacity. */
  clear(): void {
    this.idSlot.fill(-1);
    this.idTop = 0;
    this._size = 0;
    this.resetNodes();
  }

  /**
   * Finds the ids whose points satisfy `dx * dx + dy * dy <= radius * radius` (closed disc; radius 0
   * finds points exactly at the centre). Nodes farther than `radius` from the centre are pruned; nodes
   * wholly inside the disc hand over their items without per-point tests. O(log n + found) typically.
   * @param out - ids are appended to it (set `out.length = 0` to reuse one array); a new array if omitted.
   * @returns `out`. Order unspecified, no id twice.
   * @throws RangeError if x or y is not finite or radius is not a finite number >= 0; TypeError if one of
   *   them is not a number, or `out` is not an array.
   */
  queryCircle(x: number, y: number, radius: number, out: number[] = []): number[] {
    this.setCircleArg(x, y, radius);
    checkOutArray('out', out);
    const found = this.circleInto(this.resultBuffer(), this.arg);
    appendResults(out, this.results, found);
    return out;
  }

  /**
   * The allocation-free twin of {@link PointQuadtree.queryCircle}: writes the ids found into `out` from
   * index 0 and returns how many it wrote. Give it room for every possible answer (`out.length >= size`
   * is always enough). Entries past the returned count may be overwritten too (it is scratch space).
   * @throws TypeError if `out` is not an Int32Array or Uint32Array (a narrower type would truncate ids).
   * @throws RangeError on a bad centre or radius (as queryCircle), or when `out` fills up before the
   *   query ends (then `out` holds a partial answer; the tree is unchanged).
   */
  queryCircleInto(x: number, y: number, radius: number, out: Int32Array | Uint32Array): number {
    this.setCircleArg(x, y, radius);
    checkIdArray('out', out);
    return this.circleInto(out, this.arg);
  }

  /**
   * Finds the ids with `minX <= x <= maxX` and `minY <= y <= maxY` (closed rectangle).
   * @param out - ids are appended to it; a new array if omitted.
   * @returns `out`. Order unspecified, no id twice.
   * @throws RangeError if a value is not finite, or `minX > maxX` or `minY > maxY`; TypeError if one is
   *   not a number, or `out` is not an array.
   */
  queryRect(minX: number, minY: number, maxX: number, maxY: number, out: number[] = []): number[] {
    this.setRectArg(minX, minY, maxX, maxY);
    checkOutArray('out', out);
    const found = this.rectInto(this.resultBuffer(), this.arg);
    appendResults(out, this.results, found);
    return out;
  }

  /**
   * The allocation-free twin of {@link PointQuadtree.queryRect}: writes ids into `out` from index 0 and
   * returns how many. `out.length >= size` is always enough; entries past the count may be overwritten.
   * @throws TypeError if `out` is not an Int32Array or Uint32Array (a narrower type would truncate ids).
   * @throws RangeError as queryRect, or when `out` fills up before the query ends.
   */
  queryRectInto(
    minX: number,
    minY: number,
    maxX: number,
    maxY: number,
    out: Int32Array | Uint32Array,
  ): number {
    this.setRectArg(minX, minY, maxX, maxY);
    checkIdArray('out', out);
    return this.rectInto(out, this.arg);
  }

  /**
   * Finds every unordered pair of distinct items within `radius` of each other (closed:
   * `dx * dx + dy * dy <= radius * radius`), each pair exactly once, and writes pair i as
   * `(outA[i], outB[i])` in no particular order (either id may come first). A self-join over the tree:
   * each leaf against itself and against the leaves within reach of it, each pair of leaves once, pruned by
   * the nodes' rectangles (grown by `looseness`, so the answer is exact with loose leaves too). No
   * allocation once the tree has answered one such query. Radius 0 pairs coincident points.
   * @param outA - ids, one per pair; entries past the returned count may be overwritten.
   * @param outB - the other id of each pair.
   * @returns the number of pairs.
   * @throws RangeError if `radius` is not a finite number >= 0, if outA and outB share memory (the same
   *   array, or overlapping views of one buffer: each pair's ids would overwrite each other), or if the
   *   pairs do not fit in the shorter of outA / outB (the message gives the number needed); TypeError if an
   *   output is not an Int32Array or Uint32Array. The tree is never changed.
   */
  queryPairsInto(radius: number, outA: Int32Array | Uint32Array, outB: Int32Array | Uint32Array): number {
    checkRadius('radius', radius);
    checkIdArray('outA', outA);
    checkIdArray('outB', outB);
    checkSeparate('outA', outA, 'outB', outB);
    const found = this.joinPairs(radius, outA, outB);
    if (found !== OUT_OF_ROOM) return found;
    const needed = this.pairsInBuffers(radius, this.pairing);
    throw new RangeError(
      `${NAME}: outA and outB (length ${Math.min(outA.length, outB.length)}) are too small for the ` +
        `${needed} pairs within radius ${describe(radius)}; give them length >= ${needed}`,
    );
  }

  /**
   * Calls `callback(a, b)` once for every unordered pair of distinct items within `radius` of each other
   * (closed), as {@link PointQuadtree.queryPairsInto} finds them. The pairs are found first, then the
   * callbacks run. Do not change the tree's node structure from the callback.
   * @throws RangeError if `radius` is not a finite number >= 0; TypeError if it is not a number or
   *   `callback` is not a function (even with fewer than two items); Error if the tree's node structure
   *   changed during the calls (the calls stop there).
   */
  forEachPair(radius: number, callback: (a: number, b: number) => void): void {
    checkRadius('radius', radius);
    checkCallback('callback', callback);
    // A nested call (from inside a callback) gets buffers of its own so the outer one's pairs survive.
    const nested = this.pairing;
    const n = this.pairsInBuffers(radius, nested);
    const a = nested ? this.nestedPairA : this.pairA;
    const b = nested ? this.nestedPairB : this.pairB;
    const version = this._version;
    this.pairing = true;
    try {
      for (let i = 0; i < n; i++) {
        callback(a[i], b[i]);
        if (this._version !== version) {
          throw new Error(`${NAME}: the tree's structure changed during forEachPair`);
        }
      }
    } finally {
      if (!nested) this.pairing = false;
    }
  }

  /** The pair join into outA / outB; OUT_OF_ROOM when they are too short. */
  private joinPairs(radius: number, outA: Int32Array | Uint32Array, outB: Int32Array | Uint32Array): number {
    if (this._size < 2) return 0;
    const pool = this.pool;
    return this.pairJoin.run(
      this.nodeLoose,
      this.nodeChild,
      this.nodeCount,
      this.nodeStart,
      pool.xy,
      pool.ids,
      radius,
      outA,
      outB,
    );
  }

  /** Every pair within `radius` into the tree's own pair buffers (grown as needed); returns the count. */
  private pairsInBuffers(radius: number, nested: boolean): number {
    let a = nested ? new Int32Array(64) : this.pairA;
    let b = nested ? new Int32Array(64) : this.pairB;
    let found = this.joinPairs(radius, a, b);
    while (found === OUT_OF_ROOM) {
      a = new Int32Array(a.length * 4);
      b = new Int32Array(b.length * 4);
      found = this.joinPairs(radius, a, b);
    }
    if (nested) {
      this.nestedPairA = a;
      this.nestedPairB = b;
    } else {
      this.pairA = a;
      this.pairB = b;
    }
    return found;
  }

  /** Checks a circle (throws naming what is wrong) and puts it in `arg` (x, y, radius at 2, 3, 4). */
  private setCircleArg(x: number, y: number, radius: number): void {
    // Number.isFinite and typeof convert nothing, so a string or an object with valueOf fails here.
    if (
      !(
        Number.isFinite(x) &&
        Number.isFinite(y) &&
        typeof radius === 'number' &&
        radius >= 0 &&
        radius < Infinity
      )
    ) {
      checkCircle(x, y, radius);
    }
    const a = this.arg;
    a[2] = x;
    a[3] = y;
    a[4] = radius;
  }

  /** Checks a query rectangle (throws naming what is wrong) and puts it in `arg` (2..5). */
  private setRectArg(minX: number, minY: number, maxX: number, maxY: number): void {
    // Number.isFinite converts nothing, so a string or an object with valueOf fails here, not later.
    if (
      !(
        Number.isFinite(minX) &&
        Number.isFinite(minY) &&
        Number.isFinite(maxX) &&
        Number.isFinite(maxY) &&
        minX <= maxX &&
        minY <= maxY
      )
    ) {
      checkRect(minX, minY, maxX, maxY);
    }
    const a = this.arg;
    a[2] = minX;
    a[3] = minY;
    a[4] = maxX;
    a[5] = maxY;
  }

  /**
   * Finds up to `k` ids nearest to (x, y) whose distance is `<= maxDistance`, nearest first (ties in any
   * order). Best-first search over the nodes.
   * @param out - ids are appended to it; a new array if omitted.
   * @throws RangeError if x or y is not finite, k is not a finite integer >= 0, or maxDistance is NaN or
   *   negative (Infinity is allowed and is the default); TypeError if x, y, k or maxDistance is not a number
   *   (undefined k or maxDistance is the default; null is not), or `out` is not an array.
   */
  nearest(x: number, y: number, k = 1, maxDistance = Infinity, out: number[] = []): number[] {
    checkCoordinate('x', x);
    checkCoordinate('y', y);
    if (typeof k !== 'number') notANumber('k', k);
    if (!Number.isInteger(k) || k < 0) {
      throw new RangeError(`${NAME}: k must be a finite integer >= 0, got ${describe(k)}`);
    }
    if (typeof maxDistance !== 'number') notANumber('maxDistance', maxDistance);
    if (!(maxDistance >= 0)) {
      throw new RangeError(`${NAME}: maxDistance must be a number >= 0, got ${describe(maxDistance)}`);
    }
    checkOutArray('out', out);
    const stats = this.lastQuery;
    let visited = 0;
    let tested = 0;
    let found = 0;
    const want = Math.min(k, this._size);
    if (want > 0) {
      const best = this.best;
      const queue = this.queue;
      best.reset(want);
      queue.clear();
      const nb = this.nodeLoose;
      const child = this.nodeChild;
      const count = this.nodeCount;
      const start = this.nodeStart;
      const xy = this.pool.xy;
      const ids = this.pool.ids;
      // Differences times s (1 unless coordinates pass 2^500): squared distances up to the root's extent
      // stay finite, so far points are ordered by distance, not tied at Infinity.
      const m = Math.max(
        Math.abs(x),
        Math.abs(y),
        Math.abs(nb[0]),
        Math.abs(nb[1]),
        Math.abs(nb[2]),
        Math.abs(nb[3]),
      );
      const s = m <= 2 ** 500 ? 1 : 2 ** (500 - Math.ceil(Math.log2(m)));
      let bound = maxDistance * s * (maxDistance * s);
      // Nodes by distance to their (loose) rectangle, nearest first; stop when the nearest is past the bound.
      const d0 = rectDist2(nb, 0, x, y, s);
      if (d0 <= bound) queue.push(0, d0);
      while (queue.size > 0 && queue.topDist() <= bound) {
        const n = queue.topNode();
        queue.pop();
        visited++;
        const c = child[n];
        if (c < 0) {
          const b = start[n];
          const e = b + count[n];
          tested += e - b;
          for (let i = b; i < e; i++) {
            const dx = (xy[i << 1] - x) * s;
            const dy = (xy[(i << 1) + 1] - y) * s;
            const d2 = dx * dx + dy * dy;
            if (d2 > bound) continue;
            best.offer(ids[i], d2);
            if (best.full()) bound = best.worst();
          }
          continue;
        }
        for (let q = c; q < c + 4; q++) {
          if (count[q] === 0) continue;
          const dq = rectDist2(nb, q, x, y, s);
          if (dq <= bound) queue.push(q, dq);
        }
      }
      found = best.size;
      best.drainInto(out);
    }
    stats.nodesVisited = visited;
    stats.pointsTested = tested;
    stats.found = found;
    return out;
  }

  /**
   * Calls `callback` for every node, parent before children. Return `true` to skip that node's children.
   * The {@link NodeInfo} object is reused from call to call. Do not change the tree during the walk: a
   * change to its node structure (a split, merge, growth or clear) makes the walk throw; moving points
   * inside their leaves is harmless.
   * @throws TypeError if `callback` is not a function; Error if the tree's node structure changed during
   *   the walk.
   */
  visitNodes(callback: (node: NodeInfo) => unknown): void {
    checkCallback('callback', callback);
    // A nested walk (from inside a callback) gets its own stacks so the outer one is undisturbed.
    const nested = this.visiting;
    let stack = nested ? new Int32Array(64) : this.visitStack;
    let depths = nested ? new Int32Array(64) : this.visitDepth;
    const info = nested ? { ...this.info } : this.info;
    const version = this._version;
    this.visiting = true;
    try {
      let sp = 0;
      stack[sp] = 0;
      depths[sp++] = 0;
      while (sp > 0) {
        sp--;
        const n = stack[sp];
        const depth = depths[sp];
        const b = n << 2;
        const c = this.nodeChild[n];
        info.minX = this.nodeBounds[b];
        info.minY = this.nodeBounds[b + 1];
        info.maxX = this.nodeBounds[b + 2];
        info.maxY = this.nodeBounds[b + 3];
        info.depth = depth;
        info.isLeaf = c < 0;
        info.count = c < 0 ? this.nodeCount[n] : 0;
        const skip = callback(info);
        if (this._version !== version) {
          throw new Error(`${NAME}: the tree's structure changed during visitNodes`);
        }
        if (skip === true || c < 0) continue;
        if (sp + 4 > stack.length) {
          stack = growInt32(stack, sp + 4);
          depths = growInt32(depths, sp + 4);
          if (!nested) {
            this.visitStack = stack;
            this.visitDepth = depths;
          }
        }
        // Push in reverse so NW is visited first.
        for (let q = 3; q >= 0; q--) {
          stack[sp] = c + q;
          depths[sp++] = depth + 1;
        }
      }
    } finally {
      if (!nested) this.visiting = false;
    }
  }

  /**
   * Calls `callback` for exactly the nodes that `queryCircle(x, y, radius)` visits (as many as its
   * `lastQuery.nodesVisited`), parent before children: for a circle query's gizmo. The pruning rule: a
   * node whose rectangle (grown by `looseness` and clipped to the root) is farther than `radius` from the
   * centre is skipped with its subtree; so are empty nodes below the root; below a node wholly inside the
   * circle every non-empty node is visited. The {@link NodeInfo} object (the node's own rectangle, not the
   * grown one) is reused from call to call; return `true` to skip a node's children. Visits nothing in an
   * empty tree. Do not change the tree's node structure during the walk.
   * @throws RangeError on a bad centre or radius (as queryCircle); TypeError if one is not a number, or
   *   `callback` is not a function (even when the circle misses the tree); Error if the tree's node
   *   structure changed during the walk.
   */
  visitCircle(x: number, y: number, radius: number, callback: (node: NodeInfo) => unknown): void {
    this.setCircleArg(x, y, radius);
    checkCallback('callback', callback);
    if (this._size === 0) return;
    // The same scale and squared radius as circleInto, so the same nodes are visited.
    const s = distanceScale(radius);
    const r2 = radius * s * (radius * s);
    const nl = this.nodeLoose;
    if (rectDist2(nl, 0, x, y, s) > r2) return;
    const nested = this.visiting;
    let stack = nested ? new Int32Array(64) : this.visitStack;
    // depth * 2, plus 1 when the node lies wholly inside the circle (all its non-empty nodes are visited)
    let depths = nested ? new Int32Array(64) : this.visitDepth;
    const info = nested ? { ...this.info } : this.info;
    const version = this._version;
    this.visiting = true;
    try {
      let sp = 0;
      stack[sp] = 0;
      depths[sp++] = 0;
      while (sp > 0) {
        sp--;
        const n = stack[sp];
        const tag = depths[sp];
        const b = n << 2;
        const c = this.nodeChild[n];
        info.minX = this.nodeBounds[b];
        info.minY = this.nodeBounds[b + 1];
        info.maxX = this.nodeBounds[b + 2];
        info.maxY = this.nodeBounds[b + 3];
        info.depth = tag >> 1;
        info.isLeaf = c < 0;
        info.count = c < 0 ? this.nodeCount[n] : 0;
        const skip = callback(info);
        if (this._version !== version) {
          throw new Error(`${NAME}: the tree's structure changed during visitCircle`);
        }
        if (skip === true || c < 0) continue;
        if (sp + 4 > stack.length) {
          stack = growInt32(stack, sp + 4);
          depths = growInt32(depths, sp + 4);
          if (!nested) {
            this.visitStack = stack;
            this.visitDepth = depths;
          }
        }
        const covered = tag & 1;
        const childTag = ((tag >> 1) + 1) << 1; // depth + 1, inside bit clear
        for (let k = c + 3; k >= c; k--) {
          if (this.nodeCount[k] === 0) continue;
          const meets = covered ? CIRCLE_COVERS : circleMeets(this.nodeLoose, k, x, y, r2, s);
          if (meets === CIRCLE_APART) continue;
          stack[sp] = k;
          depths[sp++] = meets === CIRCLE_COVERS ? childTag | 1 : childTag;
        }
      }
    } finally {
      if (!nested) this.visiting = false;
    }
  }

  /** Internal: the storage, for debug.ts's invariant checker and tests (see {@link QuadtreeInternals}). */
  [INTERNALS](): QuadtreeInternals {
    return {
      maxItems: this.maxItems,
      minSize: this.minSize,
      looseness: this.looseness,
      size: this._size,
      initialBounds: this.initialBounds,
      refitted: this.refitted,
      nodeBounds: this.nodeBounds,
      nodeLoose: this.nodeLoose,
      nodeChild: this.nodeChild,
      nodeCount: this.nodeCount,
      nodeStart: this.nodeStart,
      nodeCap: this.nodeCap,
      groupParent: this.groupParent,
      nodeTop: this.nodeTop,
      freeGroup: this.freeGroup,
      pool: this.pool,
      idSlot: this.idSlot,
      idLeaf: this.idLeaf,
    };
  }

  /** Counts nodes, leaves and the depth of the deepest leaf. O(nodes). */
  stats(): TreeStats {
    let nodes = 0;
    let leaves = 0;
    let depth = 0;
    this.visitNodes((node) => {
      nodes++;
      if (node.isLeaf) {
        leaves++;
        if (node.depth > depth) depth = node.depth;
      }
    });
    return { size: this._size, nodes, leaves, depth };
  }

  // ---------------------------------------------------------------------------------------------------
  // Internals

  /** The internal result buffer, with room for every item. */
  private resultBuffer(): Int32Array {
    if (this.results.length < this._size) {
      this.results = new Int32Array(Math.max(this._size, this.results.length * 2));
    }
    return this.results;
  }

  /** Circle query core, the circle in q[2..4] (x, y, radius): writes ids into `out`, returns the count. */
  private circleInto(out: Int32Array | Uint32Array, q: Float64Array): number {
    const x = q[2];
    const y = q[3];
    const radius = q[4];
    let found = 0;
    let visited = 0;
    let tested = 0;
    if (this._size > 0) {
      // Every difference times s (1 at ordinary radii): squared distances cannot overflow or underflow.
      const s = distanceScale(radius);
      const r2 = radius * s * (radius * s);
      const cap = out.length;
      const nb = this.nodeLoose;
      const child = this.nodeChild;
      const count = this.nodeCount;
      const start = this.nodeStart;
      const xy = this.pool.xy;
      const ids = this.pool.ids;
      let stack = this.stack;
      const strict = nb === this.nodeBounds;
      // A leaf more than 8 times the circle's area (unscaled) holds few hits: test each point with a
      // branch (well predicted) instead of writing every id (see the leaf scan below).
      const sparse = 8 * Math.PI * radius * radius;
      let sp = 0;
      if (rectDist2(nb, 0, x, y, s) <= r2) stack[sp++] = 0;
      while (sp > 0) {
        let n = stack[--sp];
        visited++;
        let c = child[n];
        // Strict tree: while the circle is farther than r from both split lines of n, it meets only the
        // child on its side of them (circleMeets would find the other three apart, and that child
        // neither apart nor covered): step down without testing the four children. The split point is the
        // SE child's min corner, as in childFor.
        while (strict && c >= 0) {
          const m = (c + 3) << 2;
          const gx = (x - nb[m]) * s;
          const gy = (y - nb[m + 1]) * s;
          if (!(gx * gx > r2 && gy * gy > r2)) break;
          n = c + quadrant(x, y, nb[m], nb[m + 1]);
          if (count[n] === 0) break;
          visited++;
          c = child[n];
        }
        if (count[n] === 0) continue;
        if (c < 0) {
          const b = start[n];
          const e = b + count[n];
          tested += e - b;
          const lb = n << 2;
          if (found + (e - b) <= cap && (nb[lb + 2] - nb[lb]) * (nb[lb + 3] - nb[lb + 1]) <= sparse) {
            // Room for the whole leaf (always, when out.length >= size) and a leaf (its loose rectangle) at
            // most 8 times the circle's area: write every id and step past the hits only. No branch to
            // mispredict: in dense data about half the points tested are hits.
            for (let i = b; i < e; i++) {
              const dx = (xy[i << 1] - x) * s;
              const dy = (xy[(i << 1) + 1] - y) * s;
              out[found] = ids[i];
              found += +(dx * dx + dy * dy <= r2);
            }
            continue;
          }
          for (let i = b; i < e; i++) {
            const dx = (xy[i << 1] - x) * s;
            const dy = (xy[(i << 1) + 1] - y) * s;
            if (dx * dx + dy * dy <= r2) {
              if (found === cap) this.outOfRoom(cap);
              out[found++] = ids[i];
            }
          }
          continue;
        }
        if (sp + 4 > stack.length) stack = this.growStack(sp);
        for (let k = c; k < c + 4; k++) {
          if (count[k] === 0) continue;
          const meets = circleMeets(nb, k, x, y, r2, s);
          if (meets === CIRCLE_APART) continue;
          if (meets === CIRCLE_COVERS) {
            found = this.collectAll(k, out, found);
            visited += this.collected;
          } else {
            stack[sp++] = k;
          }
        }
      }
    }
    const stats = this.lastQuery;
    stats.nodesVisited = visited;
    stats.pointsTested = tested;
    stats.found = found;
    return found;
  }

  /** Rectangle query core, the rectangle in q[2..5]: writes ids into `out`, returns the count. */
  private rectInto(out: Int32Array | Uint32Array, q: Float64Array): number {
    const minX = q[2];
    const minY = q[3];
    const maxX = q[4];
    const maxY = q[5];
    let found = 0;
    let visited = 0;
    let tested = 0;
    if (this._size > 0) {
      const cap = out.length;
      const nb = this.nodeLoose;
      const child = this.nodeChild;
      const count = this.nodeCount;
      const start = this.nodeStart;
      const xy = this.pool.xy;
      const ids = this.pool.ids;
      let stack = this.stack;
      let sp = 0;
      if (nb[0] <= maxX && nb[1] <= maxY && nb[2] >= minX && nb[3] >= minY) stack[sp++] = 0;
      const strict = nb === this.nodeBounds;
      while (sp > 0) {
        let n = stack[--sp];
        visited++;
        let c = child[n];
        // Strict tree: while the rectangle lies off both split lines of n, it meets only the child on its
        // side of them, and that child is never wholly inside the rectangle: step down without testing the
        // four children (split point as in childFor).
        while (strict && c >= 0) {
          const m = (c + 3) << 2;
          const mx = nb[m];
          const my = nb[m + 1];
          if (!((minX > mx || maxX < mx) && (minY > my || maxY < my))) break;
          n = c + quadrant(minX, minY, mx, my);
          if (count[n] === 0) break;
          visited++;
          c = child[n];
        }
        if (count[n] === 0) continue;
        if (c < 0) {
          const s = start[n];
          const e = s + count[n];
          tested += e - s;
          if (found + (e - s) <= cap) {
            // As in circleInto: write every id, step past the hits only (no branch).
            for (let i = s; i < e; i++) {
              const px = xy[i << 1];
              const py = xy[(i << 1) + 1];
              out[found] = ids[i];
              found += +(px >= minX) & +(px <= maxX) & +(py >= minY) & +(py <= maxY);
            }
            continue;
          }
          for (let i = s; i < e; i++) {
            const px = xy[i << 1];
            const py = xy[(i << 1) + 1];
            if (px >= minX && px <= maxX && py >= minY && py <= maxY) {
              if (found === cap) this.outOfRoom(cap);
              out[found++] = ids[i];
            }
          }
          continue;
        }
        if (sp + 4 > stack.length) stack = this.growStack(sp);
        for (let k = c; k < c + 4; k++) {
          if (count[k] === 0) continue;
          const b = k << 2;
          if (nb[b] > maxX || nb[b + 1] > maxY || nb[b + 2] < minX || nb[b + 3] < minY) continue;
          if (nb[b] >= minX && nb[b + 1] >= minY && nb[b + 2] <= maxX && nb[b + 3] <= maxY) {
            found = this.collectAll(k, out, found);
            visited += this.collected;
          } else {
            stack[sp++] = k;
          }
        }
      }
    }
    const stats = this.lastQuery;
    stats.nodesVisited = visited;
    stats.pointsTested = tested;
    stats.found = found;
    return found;
  }

  private outOfRoom(cap: number): never {
    throw new RangeError(
      `${NAME}: the output array (length ${cap}) is too small for the query's answer; ` +
        `give it length >= size (${this._size})`,
    );
  }

  /** Resets to a single empty root leaf with the constructor's bounds. */
  private resetNodes(): void {
    const b = this.initialBounds;
    this.nodeTop = 1;
    this.freeGroup = -1;
    this.refitted = false;
    this.nodeBounds[0] = b.minX;
    this.nodeBounds[1] = b.minY;
    this.nodeBounds[2] = b.maxX;
    this.nodeBounds[3] = b.maxY;
    this.syncLoose();
    this.nodeChild[0] = -1;
    this.nodeCount[0] = 0;
    this.nodeStart[0] = -1;
    this.nodeCap[0] = 0;
    this.pool.clear();
    this._version++;
  }

  private ensureIdCapacity(id: number): void {
    if (id < this.idSlot.length) return;
    let cap = this.idSlot.length;
    while (cap <= id) cap *= 2;
    cap = Math.min(cap, MAX_ID + 1);
    const slot = new Int32Array(cap).fill(-1);
    slot.set(this.idSlot);
    const leaf = new Int32Array(cap);
    leaf.set(this.idLeaf);
    this.idSlot = slot;
    this.idLeaf = leaf;
  }

  private growStack(sp: number): Int32Array<ArrayBuffer> {
    this.stack = growInt32(this.stack, sp + 4);
    return this.stack;
  }

  /** Allocates a group of four sibling nodes under `parent` and returns the first one's number. */
  private allocGroup(parent: number): number {
    let g = this.freeGroup;
    if (g >= 0) {
      this.freeGroup = this.nodeChild[g];
      this.groupParent[(g - 1) >> 2] = parent;
      return g;
    }
    g = this.nodeTop;
    const need = g + 4;
    if (need > this.nodeChild.length)
      this.resizeNodes(Math.max(need, Math.ceil(this.nodeChild.length * 1.5)));
    this.nodeTop = need;
    this.groupParent[(g - 1) >> 2] = parent;
    return g;
  }

  /** Reallocates the node arrays to `cap` nodes (at least nodeTop), keeping nodes below nodeTop. */
  private resizeNodes(cap: number): void {
    const top = this.nodeTop;
    const bounds = new Float64Array(cap * 4);
    bounds.set(this.nodeBounds.subarray(0, top * 4));
    this.nodeBounds = bounds;
    if (this.looseness > 0) {
      const loose = new Float64Array(cap * 4);
      loose.set(this.nodeLoose.subarray(0, top * 4));
      this.nodeLoose = loose;
    } else {
      this.nodeLoose = bounds;
    }
    this.nodeChild = resizeInt32(this.nodeChild, cap, top);
    this.nodeCount = resizeInt32(this.nodeCount, cap, top);
    this.nodeStart = resizeInt32(this.nodeStart, cap, top);
    this.nodeCap = resizeInt32(this.nodeCap, cap, top);
    this.groupParent = resizeInt32(this.groupParent, (cap >> 2) + 1, (top >> 2) + 1);
  }

  /** Makes `g..g+3` the four empty leaf children of node `n`, split at (split[0], split[1]). */
  private initChildren(g: number, n: number, split: Float64Array): void {
    const nb = this.nodeBounds;
    const p = n << 2;
    const minX = nb[p];
    const minY = nb[p + 1];
    const maxX = nb[p + 2];
    const maxY = nb[p + 3];
    const mx = split[0];
    const my = split[1];
    let b = g << 2;
    nb[b] = minX;
    nb[b + 1] = minY;
    nb[b + 2] = mx;
    nb[b + 3] = my;
    b += 4;
    nb[b] = mx;
    nb[b + 1] = minY;
    nb[b + 2] = maxX;
    nb[b + 3] = my;
    b += 4;
    nb[b] = minX;
    nb[b + 1] = my;
    nb[b + 2] = mx;
    nb[b + 3] = maxY;
    b += 4;
    nb[b] = mx;
    nb[b + 1] = my;
    nb[b + 2] = maxX;
    nb[b + 3] = maxY;
    for (let k = g; k < g + 4; k++) {
      this.nodeChild[k] = -1;
      this.nodeCount[k] = 0;
      this.nodeStart[k] = -1;
      this.nodeCap[k] = 0;
      if (this.looseness > 0) this.setLoose(k);
    }
  }

  /** nodeLoose of node `n` (not the root): its bounds grown by looseness, clipped to the root. */
  private setLoose(n: number): void {
    const nb = this.nodeBounds;
    const lb = this.nodeLoose;
    const l = this.looseness;
    const b = n << 2;
    lb[b] = Math.max(nb[b] - l, nb[0]);
    lb[b + 1] = Math.max(nb[b + 1] - l, nb[1]);
    lb[b + 2] = Math.min(nb[b + 2] + l, nb[2]);
    lb[b + 3] = Math.min(nb[b + 3] + l, nb[3]);
  }

  /** Recomputes nodeLoose of every node (after the root changed). Nothing to do with looseness 0. */
  private syncLoose(): void {
    if (this.looseness === 0) return;
    const lb = this.nodeLoose;
    const nb = this.nodeBounds;
    for (let k = 0; k < 4; k++) lb[k] = nb[k];
    // Free groups get values too; nothing reads them.
    for (let n = 1; n < this.nodeTop; n++) this.setLoose(n);
  }

  /**
   * Rewrites the pool with every leaf's block back to back (capacity rounded up to its size class), and
   * drops the free lists. Only called at the start of a public operation, when no slot index is held.
   */
  private compactPool(): void {
    const count = this.nodeCount;
    // Leaves reachable from the root that hold items; freed groups are skipped by walking the tree.
    if (this.leafList.length < this.nodeTop) this.leafList = new Int32Array(this.nodeChild.length);
    const nLeaves = this.leavesBelow(0, -1);
    const leaves = this.leafList;
    this.pool.compact(leaves, nLeaves, this.nodeStart, this.nodeCap, count, this.idSlot);
  }

  /** Moves a leaf's items into a new block of at least `need` slots. */
  private reblock(leaf: number, need: number): void {
    const cnt = this.nodeCount[leaf];
    const oldStart = this.nodeStart[leaf];
    const oldCap = this.nodeCap[leaf];
    const start = this.pool.alloc(need);
    const xy = this.pool.xy;
    const ids = this.pool.ids;
    const idSlot = this.idSlot;
    for (let i = 0; i < cnt; i++) {
      const from = oldStart + i;
      const to = start + i;
      xy[to << 1] = xy[from << 1];
      xy[(to << 1) + 1] = xy[(from << 1) + 1];
      const id = ids[from];
      ids[to] = id;
      idSlot[id] = to;
    }
    this.pool.free(oldStart, oldCap);
    this.nodeStart[leaf] = start;
    this.nodeCap[leaf] = this.pool.blockCap;
  }

  /** Appends an item to a leaf (its count includes it afterwards). Does not split. */
  private appendToLeaf(leaf: number, id: number, p: Float64Array): void {
    const cnt = this.nodeCount[leaf];
    if (cnt === this.nodeCap[leaf]) this.reblock(leaf, cnt + 1);
    const s = this.nodeStart[leaf] + cnt;
    this.pool.xy[s << 1] = p[0];
    this.pool.xy[(s << 1) + 1] = p[1];
    this.pool.ids[s] = id;
    this.idSlot[id] = s;
    this.idLeaf[id] = leaf;
    this.nodeCount[leaf] = cnt + 1;
  }

  /** Removes the item in `slot` from `leaf` (swap with the last), shrinking the block when sparse. */
  private removeFromLeaf(leaf: number, slot: number): void {
    const cnt = this.nodeCount[leaf] - 1;
    const last = this.nodeStart[leaf] + cnt;
    if (slot !== last) {
      const xy = this.pool.xy;
      xy[slot << 1] = xy[last << 1];
      xy[(slot << 1) + 1] = xy[(last << 1) + 1];
      const moved = this.pool.ids[last];
      this.pool.ids[slot] = moved;
      this.idSlot[moved] = slot;
    }
    this.nodeCount[leaf] = cnt;
    const cap = this.nodeCap[leaf];
    if (cnt === 0) {
      this.pool.free(this.nodeStart[leaf], cap);
      this.nodeStart[leaf] = -1;
      this.nodeCap[leaf] = 0;
    } else if (cnt << 2 <= cap && cap >= 8) {
      this.reblock(leaf, cap >> 1);
    }
  }

  /** Whether a leaf may split: every quadrant at least minSize wide and deep (measured as stored). */
  private canSplit(n: number): boolean {
    const nb = this.nodeBounds;
    const b = n << 2;
    const minX = nb[b];
    const minY = nb[b + 1];
    const maxX = nb[b + 2];
    const maxY = nb[b + 3];
    const mx = midpoint(minX, maxX);
    const my = midpoint(minY, maxY);
    const m = this.minSize;
    return mx - minX >= m && maxX - mx >= m && my - minY >= m && maxY - my >= m;
  }

  /** Walks down from the root adding one to each count, appends the item to its leaf, splits if due. */
  private insertItem(id: number, p: Float64Array): void {
    const child = this.nodeChild;
    const count = this.nodeCount;
    const nb = this.nodeBounds;
    let n = 0;
    while (child[n] >= 0) {
      count[n]++;
      const c = child[n];
      n = childFor(nb, c, p);
    }
    this.addToLeaf(n, id, p);
  }

  /**
   * Moves a present item to a new position outside its leaf (the slow path of move): walks up from the
   * old leaf to the nearest ancestor that contains the new position, then down to the new leaf. Counts
   * change only below that ancestor.
   */
  private refile(id: number, p: Float64Array): void {
    const x = p[0];
    const y = p[1];
    const leaf = this.idLeaf[id];
    const nb = this.nodeBounds;
    const lb = this.nodeLoose;
    if (leaf === 0) {
      // Only when the root is a leaf that just grew to cover the point.
      const slot = this.idSlot[id];
      this.pool.xy[slot << 1] = x;
      this.pool.xy[(slot << 1) + 1] = y;
      return;
    }
    this.removeFromLeaf(leaf, this.idSlot[id]);
    const count = this.nodeCount;
    const parent = this.groupParent;
    const maxItems = this.maxItems;
    const rootMaxX = nb[2];
    const rootMaxY = nb[3];
    let n = leaf;
    let collapseAt = -1;
    for (;;) {
      // The root covers every point (growFor ran), so this ends at the latest there. Going down from a
      // node whose loose rectangle holds the point ends in a leaf whose loose rectangle holds it (the
      // children on the point's side share the node's outer edges).
      const p = parent[(n - 1) >> 2];
      const b = p << 2;
      if (holds(x, y, lb[b], lb[b + 1], lb[b + 2], lb[b + 3], rootMaxX, rootMaxY)) {
        n = p;
        break;
      }
      // Counts grow going up, so the last node found at or below maxItems is the topmost to merge.
      if (--count[p] <= maxItems) collapseAt = p;
      n = p;
    }
    const child = this.nodeChild;
    let c = child[n];
    while (c >= 0) {
      n = childFor(nb, c, p);
      c = child[n];
      if (c >= 0) count[n]++;
    }
    // The merge is in the old branch, the new leaf in a sibling branch: they do not touch each other.
    if (collapseAt >= 0) this.collapse(collapseAt);
    this.addToLeaf(n, id, p);
  }

  /**
   * Adds an item to a leaf (whose ancestors already count it). A leaf already at maxItems that may split
   * splits first, so items are copied once, and the item goes on down into the right child.
   */
  private addToLeaf(leaf: number, id: number, p: Float64Array): void {
    while (this.nodeCount[leaf] >= this.maxItems && this.canSplit(leaf)) {
      const g = this.splitLeaf(leaf);
      this.nodeCount[leaf]++;
      leaf = childFor(this.nodeBounds, g, p);
    }
    this.appendToLeaf(leaf, id, p);
  }

  /** Splits leaf `n` if it holds more than maxItems and may split, then its children likewise. */
  private splitDown(n: number): void {
    let work = this.work;
    let sp = 0;
    work[sp++] = n;
    while (sp > 0) {
      const leaf = work[--sp];
      if (this.nodeCount[leaf] <= this.maxItems || !this.canSplit(leaf)) continue;
      const g = this.splitLeaf(leaf);
      if (sp + 4 > work.length) {
        work = growInt32(work, sp + 4);
        this.work = work;
      }
      for (let k = g; k < g + 4; k++) if (this.nodeCount[k] > this.maxItems) work[sp++] = k;
    }
  }

  /** Turns leaf `n` into an inner node with four children that share its items. Returns the first child. */
  private splitLeaf(n: number): number {
    const g = this.allocGroup(n);
    const nb = this.nodeBounds;
    const b = n << 2;
    const minX = nb[b];
    const minY = nb[b + 1];
    const maxX = nb[b + 2];
    const maxY = nb[b + 3];
    const mx = midpoint(minX, maxX);
    const my = midpoint(minY, maxY);
    this.splitAt[0] = mx;
    this.splitAt[1] = my;
    this.initChildren(g, n, this.splitAt);
    const s = this.nodeStart[n];
    const cnt = this.nodeCount[n];
    // Count per quadrant first (kept in nodeCount), so each child gets one block of the right size.
    for (let i = s; i < s + cnt; i++) {
      this.nodeCount[g + quadrant(this.pool.xy[i << 1], this.pool.xy[(i << 1) + 1], mx, my)]++;
    }
    for (let k = g; k < g + 4; k++) {
      if (this.nodeCount[k] === 0) continue;
      this.nodeStart[k] = this.pool.alloc(this.nodeCount[k]);
      this.nodeCap[k] = this.pool.blockCap;
      this.nodeCount[k] = 0;
    }
    const xy = this.pool.xy;
    const ids = this.pool.ids;
    for (let i = s; i < s + cnt; i++) {
      const x = xy[i << 1];
      const y = xy[(i << 1) + 1];
      const k = g + quadrant(x, y, mx, my);
      const to = this.nodeStart[k] + this.nodeCount[k]++;
      xy[to << 1] = x;
      xy[(to << 1) + 1] = y;
      const id = ids[i];
      ids[to] = id;
      this.idSlot[id] = to;
      this.idLeaf[id] = k;
    }
    this.pool.free(s, this.nodeCap[n]);
    this.nodeChild[n] = g;
    this.nodeStart[n] = -1;
    this.nodeCap[n] = 0;
    this._version++;
    return g;
  }

  /** Turns inner node `n` (maxItems or fewer items below it) back into a leaf holding them all. */
  private collapse(n: number): void {
    const total = this.nodeCount[n];
    const start = total > 0 ? this.pool.alloc(total) : -1;
    const cap = total > 0 ? this.pool.blockCap : 0;
    const xy = this.pool.xy;
    const ids = this.pool.ids;
    let to = start;
    let work = this.work;
    let sp = 0;
    work[sp++] = this.nodeChild[n];
    while (sp > 0) {
      const g = work[--sp];
      for (let k = g; k < g + 4; k++) {
        const c = this.nodeChild[k];
        if (c >= 0) {
          if (sp === work.length) {
            work = growInt32(work, sp + 1);
            this.work = work;
          }
          work[sp++] = c;
          continue;
        }
        const s = this.nodeStart[k];
        const e = s + this.nodeCount[k];
        for (let i = s; i < e; i++, to++) {
          xy[to << 1] = xy[i << 1];
          xy[(to << 1) + 1] = xy[(i << 1) + 1];
          const id = ids[i];
          ids[to] = id;
          this.idSlot[id] = to;
          this.idLeaf[id] = n;
        }
        this.pool.free(s, this.nodeCap[k]);
      }
      // Free the group after its blocks (freeing overwrites nodeChild[g]).
      this.nodeChild[g] = this.freeGroup;
      this.freeGroup = g;
    }
    this.nodeChild[n] = -1;
    this.nodeStart[n] = start;
    this.nodeCap[n] = cap;
    this._version++;
  }

  /**
   * Writes every id below node `n` into `out` from index `found` without testing them; returns the new
   * count and leaves the number of nodes visited in `collected`.
   */
  private collectAll(n: number, out: Int32Array | Uint32Array, found: number): number {
    const child = this.nodeChild;
    const count = this.nodeCount;
    const start = this.nodeStart;
    const ids = this.pool.ids;
    // Every item below `n` is in the answer, so this check is exact.
    if (found + count[n] > out.length) this.outOfRoom(out.length);
    let stack = this.collectStack;
    let sp = 0;
    let visited = 0;
    stack[sp++] = n;
    while (sp > 0) {
      const m = stack[--sp];
      visited++;
      const c = child[m];
      if (c < 0) {
        const s = start[m];
        const e = s + count[m];
        for (let i = s; i < e; i++) out[found++] = ids[i];
        continue;
      }
      if (sp + 4 > stack.length) {
        stack = growInt32(stack, sp + 4);
        this.collectStack = stack;
      }
      for (let k = c; k < c + 4; k++) if (count[k] > 0) stack[sp++] = k;
    }
    this.collected = visited;
    return found;
  }

  /**
   * Grows the root by doubling until it covers (x, y). The old root becomes one quadrant of the new one.
   * Points on the old root's far edge that are now inside the tree's interior are re-filed by a rebuild.
   * Where doubling would overflow, refits the root to the items' extent instead (see rebuild), with the
   * item in slot `moving` (if any) already at p: then returns true (it is filed; nothing left to do).
   * @throws RangeError (before changing anything) if even that extent is not finite.
   */
  private growFor(p: Float64Array, moving = -1): boolean {
    const x = p[0];
    const y = p[1];
    let nb = this.nodeBounds;
    if (x >= nb[0] && x <= nb[2] && y >= nb[1] && y <= nb[3]) return false;
    const target = new Float64Array(4);
    target.set(nb.subarray(0, 4));
    if (this.refitted || !growToCover(target, x, y)) {
      // Doubling would overflow, or the root is refitted (doubling it would give it edges with no item on
      // them, which refitDown never looks at): a root that just covers every item, the point and the
      // constructor's bounds (throws, changing nothing, if even that is not finite). An item being moved
      // counts at its new place, not its old one (which may be what made the root huge).
      target[0] = target[2] = x;
      target[1] = target[3] = y;
      if (moving < 0) {
        this.rebuild(target);
        return false;
      }
      const xy = this.pool.xy;
      const oldX = xy[moving << 1];
      const oldY = xy[(moving << 1) + 1];
      xy[moving << 1] = x;
      xy[(moving << 1) + 1] = y;
      try {
        this.rebuild(target);
      } catch (e) {
        xy[moving << 1] = oldX;
        xy[(moving << 1) + 1] = oldY;
        throw e;
      }
      return true;
    }
    let edgeItems = false;
    while (!(x >= nb[0] && x <= nb[2] && y >= nb[1] && y <= nb[3])) {
      const minX = nb[0];
      const minY = nb[1];
      const maxX = nb[2];
      const maxY = nb[3];
      const west = x < minX;
      const north = y < minY;
      // Same arithmetic as growToCover, so the result is the target checked above.
      const nMinX = west ? minX - (maxX - minX) : minX;
      const nMaxX = west ? maxX : maxX + (maxX - minX);
      const nMinY = north ? minY - (maxY - minY) : minY;
      const nMaxY = north ? maxY : maxY + (maxY - minY);
      nb[0] = nMinX;
      nb[1] = nMinY;
      nb[2] = nMaxX;
      nb[3] = nMaxY;
      if (this.nodeChild[0] >= 0) {
        // Points on the old far edges were in the root (closed) but belong to the new neighbour quadrant.
        if (!edgeItems && this._size > 0) {
          edgeItems =
            (!west && this.anyInRect(maxX, minY, maxX, maxY)) ||
            (!north && this.anyInRect(minX, maxY, maxX, maxY));
        }
        const g = this.allocGroup(0);
        // The old root's edges are the new root's split lines, so it is exactly one quadrant.
        this.splitAt[0] = west ? minX : maxX;
        this.splitAt[1] = north ? minY : maxY;
        const q = (west ? 1 : 0) | (north ? 2 : 0);
        this.initChildren(g, 0, this.splitAt);
        const old = g + q;
        this.nodeChild[old] = this.nodeChild[0];
        this.nodeCount[old] = this.nodeCount[0];
        this.groupParent[(this.nodeChild[0] - 1) >> 2] = old;
        this.nodeChild[0] = g;
        nb = this.nodeBounds; // allocGroup may have reallocated it
      }
    }
    this._version++;
    this.syncLoose();
    if (edgeItems) {
      this.rebuild();
    } else if (this.nodeChild[0] < 0 && this.nodeCount[0] > this.maxItems) {
      // A root leaf that was too small to split may split now.
      this.splitDown(0);
    }
    return false;
  }

  /** Whether any item lies in the closed rectangle; leaves `lastQuery` as it was (the HUD reads it). */
  private anyInRect(minX: number, minY: number, maxX: number, maxY: number): boolean {
    const q = this.lastQuery;
    const visited = q.nodesVisited;
    const tested = q.pointsTested;
    const found = q.found;
    const a = this.probe;
    a[2] = minX;
    a[3] = minY;
    a[4] = maxX;
    a[5] = maxY;
    const any = this.rectInto(this.resultBuffer(), a) > 0;
    q.nodesVisited = visited;
    q.pointsTested = tested;
    q.found = found;
    return any;
  }

  /** Rebuilds the whole tree from its items with the current root bounds (same shape, compact pool). */
  private rebuild(cover?: Float64Array): void {
    const n = this._size;
    const ids = new Int32Array(n);
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    let j = 0;
    const work = [0];
    while (work.length > 0) {
      const m = work.pop()!;
      const c = this.nodeChild[m];
      if (c >= 0) {
        work.push(c, c + 1, c + 2, c + 3);
        continue;
      }
      const s = this.nodeStart[m];
      for (let i = s; i < s + this.nodeCount[m]; i++, j++) {
        ids[j] = this.pool.ids[i];
        xs[j] = this.pool.xy[i << 1];
        ys[j] = this.pool.xy[(i << 1) + 1];
      }
    }
    if (cover) {
      // The new root: the extent of the items, `cover` and the constructor's bounds (checked first).
      const ib = this.initialBounds;
      let minX = Math.min(cover[0], ib.minX);
      let minY = Math.min(cover[1], ib.minY);
      let maxX = Math.max(cover[2], ib.maxX);
      let maxY = Math.max(cover[3], ib.maxY);
      for (let i = 0; i < n; i++) {
        minX = Math.min(minX, xs[i]);
        maxX = Math.max(maxX, xs[i]);
        minY = Math.min(minY, ys[i]);
        maxY = Math.max(maxY, ys[i]);
      }
      checkExtent(minX, minY, maxX, maxY);
      this.refitted = true;
      const nb = this.nodeBounds;
      nb[0] = minX;
      nb[1] = minY;
      nb[2] = maxX;
      nb[3] = maxY;
    }
    this.build(ids, xs, ys, n);
  }

  /**
   * Undoes growth the items no longer need (after a remove or a move): while every item lies in the
   * root's child that contains the constructor's bounds (closed rectangle, by position), that child
   * becomes the root: the exact inverse of a doubling. When only that child holds items it is promoted
   * with its nodes (O(1)); when items on its edge, or a loose item, sit in another child, the tree is
   * rebuilt under it (O(items), rare). A root leaf, or a root set by a refit (growth that doubling could
   * not reach) after an item on its edge left, is set to the smallest doubling of the constructor's bounds
   * that covers every item, when that is smaller, and a refitted root otherwise to the items' extent:
   * O(items) then, rare. The root never shrinks below the constructor's bounds.
   */
  private shrinkRoot(edge: boolean): void {
    let changed = false;
    // A refitted root is the items' extent: it can shrink only when an item on its edge left.
    if (this.refitted) changed = edge && this.refitDown();
    // While only the child that holds the constructor's bounds has items (strict leaves): promote it.
    while (!this.refitted && this.nodeChild[0] >= 0 && this.looseness === 0) {
      const g = this.nodeChild[0];
      let home = -1;
      let others = 0;
      for (let k = g; k < g + 4; k++) {
        if (this.holdsInitial(k)) home = k;
        else others += this.nodeCount[k];
      }
      if (home < 0 || others > 0) break;
      this.promote(g, home);
      changed = true;
    }
    if (!this.refitted && this.isGrown()) {
      if (this.nodeChild[0] < 0) {
        if (this.refitDown()) changed = true;
      } else if (this.halveToItems()) {
        this.rebuild();
        changed = true;
      }
    }
    if (changed) {
      this._version++;
      this.syncLoose();
    }
  }

  /** Whether node `k`'s rectangle contains the constructor's bounds (closed). */
  private holdsInitial(k: number): boolean {
    const nb = this.nodeBounds;
    const ib = this.initialBounds;
    const b = k << 2;
    return nb[b] <= ib.minX && nb[b + 1] <= ib.minY && nb[b + 2] >= ib.maxX && nb[b + 3] >= ib.maxY;
  }

  /**
   * When promotion cannot shrink an inner root (items on the home child's edge filed in its neighbours,
   * loose items, or a root whose doublings rounded), halves the root's rectangle toward the constructor's
   * bounds while every item stays inside, by position (each step's half, joined with the constructor's
   * bounds; one under 1.5 times their size is taken as them). Sets the root's rectangle and returns true
   * if it shrank; the caller rebuilds. While a stray is out the first check fails at once.
   */
  private halveToItems(): boolean {
    const ib = this.initialBounds;
    const t = this.probe;
    const nb = this.nodeBounds;
    for (let i = 0; i < 4; i++) t[i] = nb[i];
    let shrank = false;
    const half = this.half;
    for (;;) {
      this.halfToward(t, half);
      let minX = half[0];
      let minY = half[1];
      let maxX = half[2];
      let maxY = half[3];
      // Doublings of huge roots round, so halving them need not end exactly on the constructor's bounds.
      if (maxX - minX < 1.5 * (ib.maxX - ib.minX) && maxY - minY < 1.5 * (ib.maxY - ib.minY)) {
        if (this.allWithin(ib.minX, ib.minY, ib.maxX, ib.maxY)) {
          minX = ib.minX;
          minY = ib.minY;
          maxX = ib.maxX;
          maxY = ib.maxY;
        }
      }
      if (!(maxX - minX < t[2] - t[0] || maxY - minY < t[3] - t[1])) break;
      if (!this.allWithin(minX, minY, maxX, maxY)) break;
      t[0] = minX;
      t[1] = minY;
      t[2] = maxX;
      t[3] = maxY;
      shrank = true;
      if (minX === ib.minX && minY === ib.minY && maxX === ib.maxX && maxY === ib.maxY) break;
    }
    if (shrank) for (let i = 0; i < 4; i++) nb[i] = t[i];
    return shrank;
  }

  /**
   * The half of rectangle `t` (stride 4 from 0) on the side of the constructor bounds' centre, in x and in
   * y, joined with the constructor's bounds, into `out`: one step of halveToItems.
   */
  private halfToward(t: Float64Array, out: Float64Array): void {
    const ib = this.initialBounds;
    const cx = midpoint(ib.minX, ib.maxX);
    const cy = midpoint(ib.minY, ib.maxY);
    const mx = midpoint(t[0], t[2]);
    const my = midpoint(t[1], t[3]);
    out[0] = Math.min(cx < mx ? t[0] : mx, ib.minX);
    out[1] = Math.min(cy < my ? t[1] : my, ib.minY);
    out[2] = Math.max(cx < mx ? mx : t[2], ib.maxX);
    out[3] = Math.max(cy < my ? my : t[3], ib.maxY);
  }

  /**
   * Whether every item lies in the closed rectangle. Walks only the nodes whose (loose) rectangle reaches
   * outside it, and stops at the first item found outside: while a stray is out that is soon.
   */
  private allWithin(minX: number, minY: number, maxX: number, maxY: number): boolean {
    const lb = this.nodeLoose;
    const xy = this.pool.xy;
    let stack = this.work;
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const m = stack[--sp];
      if (this.nodeCount[m] === 0) continue;
      const b = m << 2;
      if (lb[b] >= minX && lb[b + 1] >= minY && lb[b + 2] <= maxX && lb[b + 3] <= maxY) continue;
      if (lb[b] > maxX || lb[b + 2] < minX || lb[b + 1] > maxY || lb[b + 3] < minY) return false;
      const c = this.nodeChild[m];
      if (c >= 0) {
        if (sp + 4 > stack.length) {
          stack = growInt32(stack, sp + 4);
          this.work = stack;
        }
        stack[sp++] = c;
        stack[sp++] = c + 1;
        stack[sp++] = c + 2;
        stack[sp++] = c + 3;
        continue;
      }
      const s = this.nodeStart[m];
      for (let i = s; i < s + this.nodeCount[m]; i++) {
        const x = xy[i << 1];
        const y = xy[(i << 1) + 1];
        if (!(x >= minX && x <= maxX && y >= minY && y <= maxY)) return false;
      }
    }
    return true;
  }

  /** Makes child `k` (of the root's group `g`) the root; the other three children are empty. */
  private promote(g: number, k: number): void {
    const nb = this.nodeBounds;
    const b = k << 2;
    for (let i = 0; i < 4; i++) nb[i] = nb[b + i];
    const c = this.nodeChild[k];
    this.nodeChild[0] = c;
    this.nodeCount[0] = this.nodeCount[k];
    if (c >= 0) {
      this.groupParent[(c - 1) >> 2] = 0;
    } else {
      const s = this.nodeStart[k];
      this.nodeStart[0] = s;
      this.nodeCap[0] = this.nodeCap[k];
      const ids = this.pool.ids;
      for (let i = s; i < s + this.nodeCount[k]; i++) this.idLeaf[ids[i]] = 0;
      this.nodeCap[k] = 0;
    }
    for (let j = g; j < g + 4; j++) {
      if (j !== k && this.nodeChild[j] < 0 && this.nodeStart[j] >= 0)
        this.pool.free(this.nodeStart[j], this.nodeCap[j]);
    }
    this.nodeChild[g] = this.freeGroup;
    this.freeGroup = g;
  }

  /**
   * Lists in `leafList` the non-empty leaves below node `first` (the root, 0) or below the group of four
   * starting at `first` except node `skip`; returns how many. For the rare whole-tree scans.
   */
  private leavesBelow(first: number, skip: number): number {
    let stack = this.work;
    let sp = 0;
    if (first === 0) stack[sp++] = 0;
    else for (let k = first; k < first + 4; k++) if (k !== skip) stack[sp++] = k;
    let n = 0;
    while (sp > 0) {
      const m = stack[--sp];
      if (this.nodeCount[m] === 0) continue;
      const c = this.nodeChild[m];
      if (c < 0) {
        if (n === this.leafList.length) this.leafList = growInt32(this.leafList, n + 1);
        this.leafList[n++] = m;
        continue;
      }
      if (sp + 4 > stack.length) {
        stack = growInt32(stack, sp + 4);
        this.work = stack;
      }
      for (let k = c; k < c + 4; k++) stack[sp++] = k;
    }
    return n;
  }

  /**
   * Sets the root to the smallest doubling of the constructor's bounds that covers every item, if that is
   * smaller than the root; rebuilds when the root is not a leaf. Otherwise a refitted root is refitted again
   * to the extent of the items and the constructor's bounds when that differs from it (it stays that
   * extent: see `refitted`). Returns whether the root changed. O(n).
   */
  private refitDown(): boolean {
    const nb = this.nodeBounds;
    const ib = this.initialBounds;
    const t = this.probe;
    t[0] = ib.minX;
    t[1] = ib.minY;
    t[2] = ib.maxX;
    t[3] = ib.maxY;
    let minX = ib.minX;
    let minY = ib.minY;
    let maxX = ib.maxX;
    let maxY = ib.maxY;
    let fits = true;
    const xy = this.pool.xy;
    const leaves = this.leavesBelow(0, -1);
    const list = this.leafList;
    for (let j = 0; j < leaves; j++) {
      const s = this.nodeStart[list[j]];
      for (let i = s; i < s + this.nodeCount[list[j]]; i++) {
        const x = xy[i << 1];
        const y = xy[(i << 1) + 1];
        minX = Math.min(minX, x);
        minY = Math.min(minY, y);
        maxX = Math.max(maxX, x);
        maxY = Math.max(maxY, y);
        if (fits && !growToCover(t, x, y)) fits = false;
      }
    }
    if (fits && (t[2] - t[0] < nb[2] - nb[0] || t[3] - t[1] < nb[3] - nb[1])) {
      this.refitted = false;
      for (let i = 0; i < 4; i++) nb[i] = t[i];
      // A root leaf only changes its rectangle; an inner root is rebuilt under the new one.
      if (this.nodeChild[0] >= 0) this.rebuild();
      return true;
    }
    if (!this.refitted || (minX === nb[0] && minY === nb[1] && maxX === nb[2] && maxY === nb[3]))
      return false;
    // No doubling is smaller: the extent, which a far item that left no longer stretches.
    t[0] = t[1] = Infinity;
    t[2] = t[3] = -Infinity;
    this.rebuild(t);
    return true;
  }

  /**
   * Builds the nodes and the pool from scratch for `n` items (ids already validated and unique), within
   * the current root bounds, which must cover every point. Each leaf's block fits its items exactly.
   */
  private build(ids: ArrayLike<number>, xs: ArrayLike<number>, ys: ArrayLike<number>, n: number): void {
    this.nodeTop = 1;
    this.freeGroup = -1;
    this.pool.resetTo(n);
    const xy = this.pool.xy;
    const sid = this.pool.ids;
    for (let i = 0; i < n; i++) {
      xy[i << 1] = xs[i];
      xy[(i << 1) + 1] = ys[i];
      sid[i] = ids[i];
    }
    // Each split scatters its range into the other of two buffers (the pool's arrays and a scratch pair),
    // so nothing is copied back level by level; a leaf whose items end up in the scratch is copied once.
    const scratch = buildScratch(n);
    const txy = scratch.xy;
    const tid = scratch.ids;
    const quad = scratch.quad;
    const maxItems = this.maxItems;
    // Work items: node, first slot, end slot, where the items are (0: the pool, 1: the scratch).
    const work: number[] = [0, 0, n, 0];
    while (work.length > 0) {
      const side = work.pop()!;
      const hi = work.pop()!;
      const lo = work.pop()!;
      const node = work.pop()!;
      const cnt = hi - lo;
      this.nodeCount[node] = cnt;
      if (cnt <= maxItems || !this.canSplit(node)) {
        if (side === 1) {
          xy.set(txy.subarray(lo << 1, hi << 1), lo << 1);
          sid.set(tid.subarray(lo, hi), lo);
        }
        this.nodeChild[node] = -1;
        this.nodeStart[node] = cnt > 0 ? lo : -1;
        this.nodeCap[node] = cnt;
        for (let i = lo; i < hi; i++) {
          const id = sid[i];
          this.idSlot[id] = i;
          this.idLeaf[id] = node;
        }
        continue;
      }
      const g = this.allocGroup(node);
      const nb = this.nodeBounds;
      const b = node << 2;
      const mx = midpoint(nb[b], nb[b + 2]);
      const my = midpoint(nb[b + 1], nb[b + 3]);
      this.splitAt[0] = mx;
      this.splitAt[1] = my;
      this.initChildren(g, node, this.splitAt);
      this.nodeChild[node] = g;
      this.nodeStart[node] = -1;
      this.nodeCap[node] = 0;
      const fromXY = side === 0 ? xy : txy;
      const fromId = side === 0 ? sid : tid;
      // Counts and offsets indexed by quadrant: quadrants of scattered points are random, and a chain of
      // branches on them would mispredict about every other point.
      const at = this.quadAt;
      at[0] = at[1] = at[2] = at[3] = 0;
      for (let i = lo; i < hi; i++) {
        const q = quadrant(fromXY[i << 1], fromXY[(i << 1) + 1], mx, my);
        quad[i] = q;
        at[q]++;
      }
      const c0 = at[0];
      const c1 = at[1];
      const c2 = at[2];
      const e0 = lo + c0;
      const e1 = e0 + c1;
      const e2 = e1 + c2;
      let next = side;
      // All in one quadrant (common on clustered data, many levels deep): the order is already right.
      if (c0 !== cnt && c1 !== cnt && c2 !== cnt && e2 !== lo) {
        const toXY = side === 0 ? txy : xy;
        const toId = side === 0 ? tid : sid;
        at[0] = lo;
        at[1] = e0;
        at[2] = e1;
        at[3] = e2;
        for (let i = lo; i < hi; i++) {
          const to = at[quad[i]]++;
          toXY[to << 1] = fromXY[i << 1];
          toXY[(to << 1) + 1] = fromXY[(i << 1) + 1];
          toId[to] = fromId[i];
        }
        next = 1 - side;
      }
      work.push(g, lo, e0, next, g + 1, e0, e1, next, g + 2, e1, e2, next, g + 3, e2, hi, next);
    }
    // The node count is known now: drop the growth headroom (a bulk load is often the final size).
    if (this.nodeChild.length > this.nodeTop + (this.nodeTop >> 3) + 64) this.resizeNodes(this.nodeTop + 64);
    this.syncLoose();
    this._size = n;
    this._version++;
  }
}

/** Squared distance from (x, y) to node `n`'s rectangle, differences times `s`; 0 inside. */
function rectDist2(nb: Float64Array, n: number, x: number, y: number, s: number): number {
  const b = n << 2;
  const dx = (x < nb[b] ? nb[b] - x : x > nb[b + 2] ? x - nb[b + 2] : 0) * s;
  const dy = (y < nb[b + 1] ? nb[b + 1] - y : y > nb[b + 3] ? y - nb[b + 3] : 0) * s;
  return dx * dx + dy * dy;
}

/** Throws (naming the extent) if a root spanning minX..maxX, minY..maxY would not have a finite size. */
function checkExtent(minX: number, minY: number, maxX: number, maxY: number): void {
  if (!(Number.isFinite(maxX - minX) && Number.isFinite(maxY - minY))) {
    throw new RangeError(
      `${NAME}: the points span x ${minX} .. ${maxX}, y ${minY} .. ${maxY}: ` +
        'a root that wide or deep is not a finite number of units across',
    );
  }
}

/** build()'s scratch: a second copy of the slots to scatter into, and each slot's quadrant. */
interface BuildScratch {
  readonly xy: Float64Array;
  readonly ids: Int32Array;
  readonly quad: Uint8Array;
}

/** The last build's scratch, while the garbage collector has not taken it (see buildScratch). */
let lastScratch: WeakRef<BuildScratch> | undefined;

/**
 * A scratch for building `n` items: the last one if it is big enough and still alive, else a new one.
 * Held only weakly, so it costs no memory between builds once the collector wants it back, while builds in
 * quick succession (a level load, a rebuild per frame) do not allocate 21 bytes per item each time.
 */
function buildScratch(n: number): BuildScratch {
  const last = lastScratch?.deref();
  if (last && last.ids.length >= n) return last;
  const scratch = { xy: new Float64Array(2 * n), ids: new Int32Array(n), quad: new Uint8Array(n) };
  lastScratch = new WeakRef(scratch);
  return scratch;
}

/**
 * from()'s one pass over its input: the index of the first entry with a bad id or coordinate (-1: none);
 * the extent and the largest id go into `out` (minX, minY, maxX, maxY, maxId).
 */
function scanPoints(
  ids: ArrayLike<number>,
  xs: ArrayLike<number>,
  ys: ArrayLike<number>,
  n: number,
  out: Float64Array,
): number {
  let maxId = -1;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    const id = ids[i];
    const x = xs[i];
    const y = ys[i];
    // Number.isInteger and Number.isFinite convert nothing: a string or an object is bad too.
    if (!(Number.isInteger(id) && id >= 0 && id <= MAX_ID && Number.isFinite(x) && Number.isFinite(y)))
      return i;
    if (id > maxId) maxId = id;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  out[0] = minX;
  out[1] = minY;
  out[2] = maxX;
  out[3] = maxY;
  out[4] = maxId;
  return -1;
}

/** Doubles `b` (minX, minY, maxX, maxY) towards (x, y) until it covers it; false if it would overflow. */
function growToCover(b: Float64Array, x: number, y: number): boolean {
  while (!(x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3])) {
    const w = b[2] - b[0];
    const h = b[3] - b[1];
    if (x < b[0]) b[0] -= w;
    else b[2] += w;
    if (y < b[1]) b[1] -= h;
    else b[3] += h;
    if (
      !Number.isFinite(b[0]) ||
      !Number.isFinite(b[1]) ||
      !Number.isFinite(b[2]) ||
      !Number.isFinite(b[3])
    ) {
      return false;
    }
    if (!Number.isFinite(b[2] - b[0]) || !Number.isFinite(b[3] - b[1])) return false;
  }
  return true;
}

/** Appends `n` ids from a buffer to a plain array (one resize, then indexed writes: faster than push). */
function appendResults(out: number[], results: Int32Array, n: number): void {
  const base = out.length;
  out.length = base + n;
  for (let i = 0; i < n; i++) out[base + i] = results[i];
}

/** A copy of the first `keep` entries of `a` in a new array of length `len`. */
function resizeInt32(a: Int32Array, len: number, keep: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(len);
  b.set(a.subarray(0, Math.min(keep, len, a.length)));
  return b;
}

function growInt32(a: Int32Array, need: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}
