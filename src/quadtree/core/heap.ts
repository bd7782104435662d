/*
 * The two heaps of PointQuadtree.nearest (best-first search), in typed arrays that are reused from query to
 * query: a min-heap of nodes keyed by their distance to the query point (which node to open next), and the
 * best k items found so far, whose worst (the current k-th distance, the search bound) is on top. Both are
 * min-heaps of (value, key) over the one pair of sift functions below: the best k keep their distances
 * negated, so the farthest kept is the smallest key.
 */

/**
 * Inserts (value, key) into the min-heap `values` / `keys` whose entries 0..i-1 are a heap, at position i
 * sifted up: a parent whose key is <= key stays above (so among equal keys the earlier entry stays on top).
 */
function siftUp(values: Int32Array, keys: Float64Array, i: number, value: number, key: number): void {
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (keys[p] <= key) break;
    values[i] = values[p];
    keys[i] = keys[p];
    i = p;
  }
  values[i] = value;
  keys[i] = key;
}

/**
 * Puts (value, key) at the top of the min-heap of `size` entries (its old top is dropped) and sifts it down:
 * the smaller child moves up while its key is < key.
 */
function siftDown(values: Int32Array, keys: Float64Array, size: number, value: number, key: number): void {
  let i = 0;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= size) break;
    if (c + 1 < size && keys[c + 1] < keys[c]) c++;
    if (keys[c] >= key) break;
    values[i] = values[c];
    keys[i] = keys[c];
    i = c;
  }
  values[i] = value;
  keys[i] = key;
}

/** Min-heap of (node, squared distance): the node nearest to the query point on top. Grows by doubling. */
export class NodeQueue {
  private nodes = new Int32Array(64);
  private dists = new Float64Array(64);
  /** Entries in the heap. */
  size = 0;

  clear(): void {
    this.size = 0;
  }

  /** Node on top (the nearest); only when size > 0. */
  topNode(): number {
    return this.nodes[0];
  }

  /** Its squared distance; only when size > 0. */
  topDist(): number {
    return this.dists[0];
  }

  push(node: number, dist: number): void {
    if (this.size === this.nodes.length) {
      const nodes = new Int32Array(this.size * 2);
      nodes.set(this.nodes);
      this.nodes = nodes;
      const dists = new Float64Array(this.size * 2);
      dists.set(this.dists);
      this.dists = dists;
    }
    siftUp(this.nodes, this.dists, this.size++, node, dist);
  }

  /** Removes the top entry; only when size > 0. */
  pop(): void {
    const last = --this.size;
    siftDown(this.nodes, this.dists, last, this.nodes[last], this.dists[last]);
  }
}

/**
 * The best (smallest-distance) `k` of the items offered: the worst kept one is on top (its distance negated,
 * the smallest key) and is replaced when a nearer one comes. Ties keep the one offered first.
 */
export class NearestK {
  private ids = new Int32Array(16);
  /** Minus each kept item's squared distance. */
  private keys = new Float64Array(16);
  private k = 0;
  /** Items kept (at most k). */
  size = 0;

  /** Empties it and sets how many to keep (k >= 0). */
  reset(k: number): void {
    if (this.ids.length < k) {
      this.ids = new Int32Array(k);
      this.keys = new Float64Array(k);
    }
    this.k = k;
    this.size = 0;
  }

  /** Whether k items are kept (then only nearer ones than `worst()` get in). */
  full(): boolean {
    return this.size === this.k;
  }

  /** Squared distance of the worst item kept; only when size > 0. */
  worst(): number {
    return -this.keys[0];
  }

  /** Offers an item: kept if fewer than k are, or if it is nearer than the worst one kept. */
  offer(id: number, dist: number): void {
    if (this.size < this.k) {
      siftUp(this.ids, this.keys, this.size++, id, -dist);
    } else if (this.k > 0 && -dist > this.keys[0]) {
      siftDown(this.ids, this.keys, this.k, id, -dist);
    }
  }

  /** Appends the kept ids to `out`, nearest first, and empties it. */
  drainInto(out: number[]): void {
    const ids = this.ids;
    const keys = this.keys;
    const n = this.size;
    const base = out.length;
    out.length = base + n;
    for (let m = n; m > 0; m--) {
      out[base + m - 1] = ids[0];
      if (m > 1) siftDown(ids, keys, m - 1, ids[m - 1], keys[m - 1]);
    }
    this.size = 0;
  }
}
