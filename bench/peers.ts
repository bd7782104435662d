/**
 * The peers (kdbush, flatbush, rbush, d3-quadtree) and brute force, each used through its fastest
 * documented API. Ids are the point indices 0..n-1 (kdbush and flatbush number items in insertion order).
 *
 * Each contender builds its own `queryCentres` / `queryPoints` loops even where they look alike: a loop
 * shared by several contenders would call several different functions from one call site, and V8 then
 * stops inlining there, which would slow every contender by an amount that depends on run order.
 */
import { type QuadtreeInternalNode, type QuadtreeLeaf, quadtree } from 'd3-quadtree';
import Flatbush from 'flatbush';
import KDBush from 'kdbush';
import RBush from 'rbush';
import type { Built, Contender } from './contender';
import type { Points } from './data';

/** A typed result buffer that holds any answer (n ids); grown once per batch, never per query. */
function ensureBuffer(buf: Uint32Array, n: number): Uint32Array {
  return buf.length >= n ? buf : new Uint32Array(n);
}

// ---------------------------------------------------------------------------------------------------------
// brute force: a linear scan over Float64Arrays.

function bruteBuild(p: Points): Built {
  // "building" brute force is taking a copy of the coordinates
  let bx: Float64Array = p.xs.slice();
  let by: Float64Array = p.ys.slice();
  let count = p.n;
  let out: Uint32Array = new Uint32Array(0);

  const scan = (x: number, y: number, r2: number, buf: Uint32Array): number => {
    let hits = 0;
    for (let i = 0; i < count; i++) {
      const dx = bx[i] - x;
      const dy = by[i] - y;
      if (dx * dx + dy * dy <= r2) buf[hits++] = i;
    }
    return hits;
  };

  return {
    collect(x, y, r, res) {
      const r2 = r * r;
      for (let i = 0; i < count; i++) {
        const dx = bx[i] - x;
        const dy = by[i] - y;
        if (dx * dx + dy * dy <= r2) res.push(i);
      }
    },
    queryCentres(cx, cy, from, to, r) {
      out = ensureBuffer(out, count);
      let total = 0;
      for (let q = from; q < to; q++) total += scan(cx[q], cy[q], r * r, out);
      return total;
    },
    queryPoints(xs, ys, n, stride, r) {
      out = ensureBuffer(out, count);
      let total = 0;
      for (let i = 0; i < n; i += stride) total += scan(xs[i], ys[i], r * r, out);
      return total;
    },
    updates: [
      {
        // nothing to keep up to date: the scan reads the game's own position arrays
        label: 'none',
        sync(xs, ys, n) {
          bx = xs;
          by = ys;
          count = n;
        },
      },
    ],
  };
}

export const brute: Contender = {
  name: 'brute force',
  options: 'linear scan, Float64Array x and y',
  build: bruteBuild,
};

// ---------------------------------------------------------------------------------------------------------
// kdbush 4: static kd-tree; withinInto writes into a caller's typed array (allocation-free).

const KDBUSH_NODE_SIZE = 64; // kdbush's default

function kdbushIndex(xs: Float64Array, ys: Float64Array, n: number): KDBush {
  const index = new KDBush(n, KDBUSH_NODE_SIZE);
  for (let i = 0; i < n; i++) index.add(xs[i], ys[i]);
  return index.finish();
}

function kdbushBuild(p: Points): Built {
  let index = kdbushIndex(p.xs, p.ys, p.n);
  let out: Uint32Array = new Uint32Array(0);
  return {
    collect(x, y, r, res) {
      // Not within(): it calls withinInto with a plain array, and that one call makes withinInto's store
      // polymorphic for the rest of the process (measured: r=50 queries 6x slower afterwards).
      out = ensureBuffer(out, index.numItems);
      const count = index.withinInto(x, y, r, out);
      for (let k = 0; k < count; k++) res.push(out[k]);
    },
    queryCentres(cx, cy, from, to, r) {
      out = ensureBuffer(out, index.numItems);
      let total = 0;
      for (let q = from; q < to; q++) total += index.withinInto(cx[q], cy[q], r, out);
      return total;
    },
    queryPoints(xs, ys, n, stride, r) {
      out = ensureBuffer(out, index.numItems);
      let total = 0;
      for (let i = 0; i < n; i += stride) total += index.withinInto(xs[i], ys[i], r, out);
      return total;
    },
    updates: [
      {
        label: 'rebuild',
        sync(xs, ys, n) {
          index = kdbushIndex(xs, ys, n);
        },
      },
    ],
  };
}

export const kdbush: Contender = {
  name: 'kdbush',
  options: `nodeSize ${KDBUSH_NODE_SIZE}, Float64Array; queries via withinInto into a reused Uint32Array`,
  build: kdbushBuild,
};

// ---------------------------------------------------------------------------------------------------------
// flatbush 4: static packed Hilbert R-tree of boxes; a circle is its bounding box plus a distance filter.

const FLATBUSH_NODE_SIZE = 16; // flatbush's default

// The filter reads the current query from module scope, so no closure is allocated per query.
let fqx = 0;
let fqy = 0;
let fr2 = 0;
function withinFilter(_index: number, x: number, y: number): boolean {
  const dx = x - fqx;
  const dy = y - fqy;
  return dx * dx + dy * dy <= fr2;
}

function flatbushIndex(xs: Float64Array, ys: Float64Array, n: number): Flatbush {
  const index = new Flatbush(n, FLATBUSH_NODE_SIZE);
  for (let i = 0; i < n; i++) index.add(xs[i], ys[i]);
  index.finish();
  return index;
}

function flatbushBuild(p: Points): Built {
  let index = flatbushIndex(p.xs, p.ys, p.n);
  const circle = (x: number, y: number, r: number): number[] => {
    fqx = x;
    fqy = y;
    fr2 = r * r;
    return index.search(x - r, y - r, x + r, y + r, withinFilter);
  };
  return {
    collect(x, y, r, res) {
      for (const id of circle(x, y, r)) res.push(id);
    },
    queryCentres(cx, cy, from, to, r) {
      let total = 0;
      for (let q = from; q < to; q++) total += circle(cx[q], cy[q], r).length;
      return total;
    },
    queryPoints(xs, ys, n, stride, r) {
      let total = 0;
      for (let i = 0; i < n; i += stride) total += circle(xs[i], ys[i], r).length;
      return total;
    },
    updates: [
      {
        label: 'rebuild',
        sync(xs, ys, n) {
          index = flatbushIndex(xs, ys, n);
        },
      },
    ],
  };
}

export const flatbush: Contender = {
  name: 'flatbush',
  options: `nodeSize ${FLATBUSH_NODE_SIZE}, Float64Array; circle = search(bbox, distance filter)`,
  build: flatbushBuild,
};

// ---------------------------------------------------------------------------------------------------------
// rbush 4: dynamic R*-like tree of {minX, minY, maxX, maxY} objects; bulk load, insert, remove.

interface RItem {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  id: number;
}

const RBUSH_MAX_ENTRIES = 9; // rbush's default

// The user's objects exist before any index does: made once per point set, outside the timed build.
const rbushItems = new WeakMap<Points, RItem[]>();
function itemsOf(p: Points): RItem[] {
  let items = rbushItems.get(p);
  if (!items) {
    items = new Array<RItem>(p.n);
    for (let i = 0; i < p.n; i++)
      items[i] = { minX: p.xs[i], minY: p.ys[i], maxX: p.xs[i], maxY: p.ys[i], id: i };
    rbushItems.set(p, items);
  }
  return items;
}

function rbushBuild(p: Points): Built {
  const items = itemsOf(p);
  const tree = new RBush<RItem>(RBUSH_MAX_ENTRIES).load(items);
  const box = { minX: 0, minY: 0, maxX: 0, maxY: 0 };
  const circle = (x: number, y: number, r: number, res: number[] | null): number => {
    box.minX = x - r;
    box.minY = y - r;
    box.maxX = x + r;
    box.maxY = y + r;
    const found = tree.search(box);
    const r2 = r * r;
    let hits = 0;
    for (let k = 0; k < found.length; k++) {
      const it = found[k];
      const dx = it.minX - x;
      const dy = it.minY - y;
      if (dx * dx + dy * dy <= r2) {
        hits++;
        if (res) res.push(it.id);
      }
    }
    return hits;
  };
  return {
    collect(x, y, r, res) {
      circle(x, y, r, res);
    },
    queryCentres(cx, cy, from, to, r) {
      let total = 0;
      for (let q = from; q < to; q++) total += circle(cx[q], cy[q], r, null);
      return total;
    },
    queryPoints(xs, ys, n, stride, r) {
      let total = 0;
      for (let i = 0; i < n; i += stride) total += circle(xs[i], ys[i], r, null);
      return total;
    },
    updates: [
      {
        label: 'rebuild',
        sync(xs, ys, n) {
          for (let i = 0; i < n; i++) {
            const it = items[i];
            it.minX = it.maxX = xs[i];
            it.minY = it.maxY = ys[i];
          }
          tree.clear();
          tree.load(items);
        },
      },
      {
        label: 'remove+insert',
        sync(xs, ys, n) {
          for (let i = 0; i < n; i++) {
            const it = items[i];
            // rbush finds the item by its old box, so remove before changing it
            tree.remove(it);
            it.minX = it.maxX = xs[i];
            it.minY = it.maxY = ys[i];
            tree.insert(it);
          }
        },
      },
    ],
  };
}

export const rbush: Contender = {
  name: 'rbush',
  options: `maxEntries ${RBUSH_MAX_ENTRIES}; items are {minX, minY, maxX, maxY, id} made before the timed build; circle = search(bbox) + distance test`,
  build: rbushBuild,
};

// ---------------------------------------------------------------------------------------------------------
// d3-quadtree 3: dynamic point quadtree of user objects; the circle query is a visit() that prunes by the
// distance from the centre to each node's rectangle.

interface DItem {
  x: number;
  y: number;
  id: number;
}

const d3Items = new WeakMap<Points, DItem[]>();
function d3ItemsOf(p: Points): DItem[] {
  let items = d3Items.get(p);
  if (!items) {
    items = new Array<DItem>(p.n);
    for (let i = 0; i < p.n; i++) items[i] = { x: p.xs[i], y: p.ys[i], id: i };
    d3Items.set(p, items);
  }
  return items;
}

const getX = (d: DItem): number => d.x;
const getY = (d: DItem): number => d.y;

// The visitor reads the current query from module scope, so no closure is allocated per query.
let dqx = 0;
let dqy = 0;
let dr2 = 0;
let dhits = 0;
let dres: number[] | null = null;
function d3Visit(
  node: QuadtreeInternalNode<DItem> | QuadtreeLeaf<DItem>,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
): boolean {
  // prune: squared distance from the centre to the node's rectangle
  const ex = dqx < x0 ? x0 - dqx : dqx > x1 ? dqx - x1 : 0;
  const ey = dqy < y0 ? y0 - dqy : dqy > y1 ? dqy - y1 : 0;
  if (ex * ex + ey * ey > dr2) return true;
  if (!(node as { length?: number }).length) {
    // a leaf: a linked list of coincident data
    let leaf: QuadtreeLeaf<DItem> | undefined = node as QuadtreeLeaf<DItem>;
    do {
      const d = leaf.data;
      const dx = d.x - dqx;
      const dy = d.y - dqy;
      if (dx * dx + dy * dy <= dr2) {
        dhits++;
        if (dres) dres.push(d.id);
      }
      leaf = leaf.next;
    } while (leaf);
  }
  return false;
}

function d3Build(p: Points): Built {
  const items = d3ItemsOf(p);
  let tree = quadtree<DItem>(items, getX, getY);
  const circle = (x: number, y: number, r: number, res: number[] | null): number => {
    dqx = x;
    dqy = y;
    dr2 = r * r;
    dhits = 0;
    dres = res;
    tree.visit(d3Visit);
    dres = null;
    return dhits;
  };
  return {
    collect(x, y, r, res) {
      circle(x, y, r, res);
    },
    queryCentres(cx, cy, from, to, r) {
      let total = 0;
      for (let q = from; q < to; q++) total += circle(cx[q], cy[q], r, null);
      return total;
    },
    queryPoints(xs, ys, n, stride, r) {
      let total = 0;
      for (let i = 0; i < n; i += stride) total += circle(xs[i], ys[i], r, null);
      return total;
    },
    updates: [
      {
        label: 'rebuild',
        sync(xs, ys, n) {
          for (let i = 0; i < n; i++) {
            items[i].x = xs[i];
            items[i].y = ys[i];
          }
          tree = quadtree<DItem>(items, getX, getY);
        },
      },
      {
        label: 'remove+insert',
        sync(xs, ys, n) {
          for (let i = 0; i < n; i++) {
            const d = items[i];
            // d3 finds the datum by its old coordinates, so remove before changing it
            tree.remove(d);
            d.x = xs[i];
            d.y = ys[i];
            tree.add(d);
          }
        },
      },
    ],
  };
}

export const d3: Contender = {
  name: 'd3-quadtree',
  options: 'items are {x, y, id} made before the timed build; circle = visit() pruned by rectangle distance',
  build: d3Build,
};

/** The peers in table order (brute force comes last). */
export const peers: readonly Contender[] = [kdbush, flatbush, rbush, d3];
