/*
 * The two heaps of PointQuadtree.nearest (best-first search), in typed arrays that are reused from query to
 * query: a min-heap of nodes keyed by their distance to the query point (which node to open next), and a
 * bounded max-heap of the best k items found so far (its top is the current k-th distance, the search
 * bound).
 */

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
    const hn = this.nodes;
    const hd = this.dists;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (hd[p] <= dist) break;
      hn[i] = hn[p];
      hd[i] = hd[p];
      i = p;
    }
    hn[i] = node;
    hd[i] = dist;
  }

  /** Removes the top entry; only when size > 0. */
  pop(): void {
    const hn = this.nodes;
    const hd = this.dists;
    const last = --this.size;
    const node = hn[last];
    const dist = hd[last];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= last) break;
      if (c + 1 < last && hd[c + 1] < hd[c]) c++;
      if (hd[c] >= dist) break;
      hn[i] = hn[c];
      hd[i] = hd[c];
      i = c;
    }
    hn[i] = node;
    hd[i] = dist;
  }
}

/**
 * The best (smallest-distance) `k` of the items offered: a max-heap, so the worst kept one is on top and is
 * replaced when a nearer one comes. Ties keep the one offered first.
 */
export class NearestK {
  private ids = new Int32Array(16);
  private dists = new Float64Array(16);
  private k = 0;
  /** Items kept (at most k). */
  size = 0;

  /** Empties it and sets how many to keep (k >= 0). */
  reset(k: number): void {
    if (this.ids.length < k) {
      this.ids = new Int32Array(k);
      this.dists = new Float64Array(k);
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
    return this.dists[0];
  }

  /** Offers an item: kept if fewer than k are, or if it is nearer than the worst one kept. */
  offer(id: number, dist: number): void {
    if (this.size < this.k) {
      siftUp(this.ids, this.dists, this.size++, id, dist);
    } else if (this.k > 0 && dist < this.dists[0]) {
      siftDown(this.ids, this.dists, this.k, id, dist);
    }
  }

  /** Appends the kept ids to `out`, nearest first, and empties it. */
  drainInto(out: number[]): void {
    const ids = this.ids;
    const dists = this.dists;
    const n = this.size;
    const base = out.length;
    out.length = base + n;
    // Pop the max-heap from the back so the nearest comes first.
    for (let m = n; m > 0; m--) {
      out[base + m - 1] = ids[0];
      if (m > 1) siftDown(ids, dists, m - 1, ids[m - 1], dists[m - 1]);
    }
    this.size = 0;
  }
}

/** Inserts (id, d) into a max-heap of `size` entries that has room for one more. */
function siftUp(ids: Int32Array, dist: Float64Array, size: number, id: number, d: number): void {
  let i = size;
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (dist[p] >= d) break;
    ids[i] = ids[p];
    dist[i] = dist[p];
    i = p;
  }
  ids[i] = id;
  dist[i] = d;
}

/** Replaces the top of a max-heap of `size` entries with (id, d) and restores the heap. */
function siftDown(ids: Int32Array, dist: Float64Array, size: number, id: number, d: number): void {
  let i = 0;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= size) break;
    if (c + 1 < size && dist[c + 1] > dist[c]) c++;
    if (dist[c] <= d) break;
    ids[i] = ids[c];
    dist[i] = dist[c];
    i = c;
  }
  ids[i] = id;
  dist[i] = d;
}
