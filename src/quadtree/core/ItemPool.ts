/*
 * The item pool of a PointQuadtree: slots holding (x, y, id), handed out in contiguous blocks, one per leaf,
 * so that a query scans a leaf's items in memory order.
 *   xy   Float64Array, stride 2: x, y of the item in that slot.
 *   ids  Int32Array: id in that slot. In a free block, its first slot holds the next free block (-1: none).
 * Blocks come in size classes that grow by about 1.5x (capacities 1, 2, 3, 4, 6, 8, 12, 16, 24, ...: see
 * classCapacity). A freed block goes on the free list of the largest class it can hold (a bulk build gives
 * blocks of exact sizes, whose extra slots then idle until the next compaction). `top` is the high-water
 * mark; slots below it are in a leaf's block, in a free list, or lost to rounding. When more than a quarter
 * of the pool idles and it has to grow (or is within an eighth of having to), `compactDue` is set: the tree
 * compacts at its next safe point (the start of a public operation), since compaction moves every block.
 * Compaction slides the blocks down in place where the arrays have room, so a pool that churns at a steady
 * size (a crowd moving every frame) allocates nothing.
 */

/** Number of size classes (class 63 would hold 3 * 2^31 slots: far more than any block). */
const CLASSES = 64;

/** Slots in a block of size class `c`. */
export function classCapacity(c: number): number {
  if (c < 2) return c + 1;
  return c & 1 ? 1 << ((c + 1) >> 1) : 3 << ((c >> 1) - 1);
}

/**
 * The smallest size class that holds at least `n` slots; 1 <= n <= 3 * 2^29 (a block never holds more
 * than MAX_ID + 1 = 2^25 items, so this is never near its limit).
 */
export function classFor(n: number): number {
  if (n <= 2) return n - 1;
  const p = 32 - Math.clz32(n - 1); // 2^(p-1) < n <= 2^p
  return n <= 3 << (p - 2) ? 2 * p - 2 : 2 * p - 1;
}

/** The largest size class that fits in `cap` slots (a freed block is filed under it); cap >= 1. */
export function classBelow(cap: number): number {
  if (cap <= 2) return cap - 1;
  const q = 31 - Math.clz32(cap); // 2^q <= cap < 2^(q+1)
  return cap >= 3 << (q - 1) ? 2 * q : 2 * q - 1;
}

/**
 * Copies the item in slot `from` of (srcXY, srcIds) to slot `to` of (xy, ids) and returns its id: the one
 * copy of a slot (x and y share a cache line). The arrays may be the same. The caller updates the id's slot.
 */
export function copyItem(
  srcXY: Float64Array,
  srcIds: Int32Array,
  from: number,
  xy: Float64Array,
  ids: Int32Array,
  to: number,
): number {
  xy[to << 1] = srcXY[from << 1];
  xy[(to << 1) + 1] = srcXY[(from << 1) + 1];
  const id = srcIds[from];
  ids[to] = id;
  return id;
}

export class ItemPool {
  /** x, y per slot (stride 2). Reallocated when the pool grows or compacts: re-read it after alloc. */
  xy: Float64Array;
  /** Id per slot; the first slot of a free block links to the next free block. Reallocated like `xy`. */
  ids: Int32Array;
  /** Slots handed out so far (high-water mark). */
  top = 0;
  /** Slots in blocks that leaves own (their capacity, used or not). */
  live = 0;
  /** The pool idles too much: compact at the next safe point. */
  compactDue = false;
  /** Capacity of the block returned by the last alloc. */
  blockCap = 0;
  /** Head of the free list of each size class (-1: empty). */
  readonly freeLists = new Int32Array(CLASSES).fill(-1);

  constructor(capacity = 64) {
    this.xy = new Float64Array(2 * capacity);
    this.ids = new Int32Array(capacity);
  }

  /** Slots the arrays have room for. */
  get capacity(): number {
    return this.ids.length;
  }

  /** Empties the pool (keeps its arrays). */
  clear(): void {
    this.top = 0;
    this.live = 0;
    this.compactDue = false;
    this.freeLists.fill(-1);
  }

  /**
   * Empties the pool and makes `n` slots from 0 one block's worth of live slots (a bulk build fills them
   * and hands out exact-size blocks inside them). Keeps the arrays when they are big enough.
   */
  resetTo(n: number): void {
    this.clear();
    if (n > this.ids.length) {
      this.xy = new Float64Array(2 * n);
      this.ids = new Int32Array(n);
    }
    this.top = n;
    this.live = n;
  }

  /** A block of at least `n` (>= 1) slots: returns its first slot; its capacity is in `blockCap`. */
  alloc(n: number): number {
    const c = classFor(n);
    const cap = classCapacity(c);
    this.blockCap = cap;
    const head = this.freeLists[c];
    if (head >= 0) {
      this.freeLists[c] = this.ids[head];
      this.live += cap;
      return head;
    }
    const start = this.top;
    const need = start + cap;
    // Nearly full with much idle: compact at the next safe point (in place, see compact) before the arrays
    // must grow, so that a tree whose leaves keep changing size (a moving crowd) stops allocating.
    if (need > this.ids.length - (this.ids.length >> 3) && this.top - this.live > this.top >> 2) {
      this.compactDue = true;
    }
    if (need > this.ids.length) {
      // Much of the pool idle in free lists: compact at the next safe point instead of growing again.
      if (this.top - this.live > this.top >> 2) this.compactDue = true;
      this.resize(Math.max(need, Math.ceil(this.ids.length * 1.25)));
    }
    this.top = need;
    this.live += cap;
    return start;
  }

  /** Returns the block at `start` of capacity `cap` (0: nothing to free). */
  free(start: number, cap: number): void {
    if (cap <= 0) return;
    this.live -= cap;
    const c = classBelow(cap);
    this.ids[start] = this.freeLists[c];
    this.freeLists[c] = start;
  }

  private resize(size: number): void {
    const xy = new Float64Array(size * 2);
    xy.set(this.xy.subarray(0, this.top * 2));
    this.xy = xy;
    const ids = new Int32Array(size);
    ids.set(this.ids.subarray(0, this.top));
    this.ids = ids;
  }

  /**
   * Rewrites the pool with the given blocks back to back (each keeps its capacity) and drops the free
   * lists: in place, in the order of their starts, where the arrays hold the blocks and an eighth more
   * (allocating nothing; `owners` is reordered); otherwise into new arrays of that size, in the owners'
   * order. Block k holds `count[owner[k]]` items at `start[owner[k]]` in `cap[owner[k]]` slots; `start` is
   * updated (indexed by owner, i.e. by leaf), and so is `idSlot` for every item moved.
   */
  compact(
    owners: Int32Array,
    nOwners: number,
    start: Int32Array,
    cap: Int32Array,
    count: Int32Array,
    idSlot: Int32Array,
  ): void {
    // Each block keeps its capacity (a leaf's block has grown to what its load needs: shrinking it here
    // would only make it grow again); only the idle slots in free lists are reclaimed.
    let total = 0;
    for (let k = 0; k < nOwners; k++) total += cap[owners[k]];
    const size = total + (total >> 3) + 64;
    // Where the arrays have room, the blocks slide down in place (allocating nothing; the pool keeps its
    // size): in the order of their starts, each to the end of the one before, never up, so a block never
    // overwrites one not yet moved. Otherwise they go into new arrays in the owners' order.
    const inPlace = size <= this.ids.length;
    if (inPlace) sortByStart(owners, nOwners, start);
    const fromXY = this.xy;
    const fromIds = this.ids;
    const xy = inPlace ? fromXY : new Float64Array(size * 2);
    const ids = inPlace ? fromIds : new Int32Array(size);
    let to = 0;
    for (let k = 0; k < nOwners; k++) {
      const n = owners[k];
      const s = start[n];
      // In place, a block already where it goes stays.
      if (s !== to || !inPlace) {
        const e = s + count[n];
        start[n] = to;
        for (let i = s, d = to; i < e; i++, d++) idSlot[copyItem(fromXY, fromIds, i, xy, ids, d)] = d;
      }
      to += cap[n];
    }
    this.xy = xy;
    this.ids = ids;
    this.top = total;
    this.live = total;
    this.freeLists.fill(-1);
    this.compactDue = false;
  }
}

/** Sorts owners[0, n) by start[owner], in place (a heap sort: no allocation, O(n log n)). */
function sortByStart(owners: Int32Array, n: number, start: Int32Array): void {
  for (let i = (n >> 1) - 1; i >= 0; i--) siftDown(owners, i, n, start);
  for (let end = n - 1; end > 0; end--) {
    const top = owners[0];
    owners[0] = owners[end];
    owners[end] = top;
    siftDown(owners, 0, end, start);
  }
}

/** Restores the max-heap (by start) below position i of owners[0, n). */
function siftDown(owners: Int32Array, i: number, n: number, start: Int32Array): void {
  const v = owners[i];
  const key = start[v];
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && start[owners[c + 1]] > start[owners[c]]) c++;
    if (start[owners[c]] <= key) break;
    owners[i] = owners[c];
    i = c;
  }
  owners[i] = v;
}
