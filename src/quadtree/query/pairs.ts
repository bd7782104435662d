/**
 * All pairs within a radius: a self-join of the tree over pairs of nodes (the dual-tree walk of
 * leafPairs.ts). A leaf with itself joins its own items (i < j); two leaves join item by item; each unordered
 * pair of leaves is reached at most once, so every pair of items is reported exactly once.
 *
 * This is the JavaScript join: what PointQuadtree runs, the reference of the WebAssembly join, and its
 * fallback. A subclass may plug a faster join into the tree's PairScratch.kernel (CrowdQuadtree plugs in the
 * WebAssembly one, crowd/); pairsInto runs it first and this join only when it declines the call.
 */

import { lengthOf, NAME } from '../core/checks';
import { distanceScale } from '../core/distance';
import { pointRectDist2 } from '../core/geometry';
import type { IdArray } from '../core/scratch';
import type { NodeStack } from '../core/stack';
import type { TreeState } from '../core/state';
import { area, gap2, splitLarger } from './leafPairs';

/** What a join returns when the pairs do not fit in the outputs. */
export const OUT_OF_ROOM = -1;
/** What a plugged-in join (PairScratch.kernel) returns to leave the call to the JavaScript join. */
export const NOT_RUN = -2;

/**
 * The JavaScript join: writes every unordered pair of distinct items within `radius` (closed) into outA /
 * outB (ids) and returns the count, or {@link OUT_OF_ROOM} when they would not fit (the outputs' contents
 * are then unspecified). Fewer than two items: 0. Allocates nothing (the walk is the tree's). Two leaves are
 * joined here, an item of a skipped when its own distance to b's rectangle is already too far: where b is
 * no wider than `dense` (the circle of radius r covers a third or more of it, so about a third or more of
 * the candidates are hits) and the outputs have room for every pair, each candidate is written and the
 * count stepped past the hits only (no branch to mispredict; where hits are rare, a predicted branch costs
 * less than the stores); else each is tested first. A leaf with itself is joinLeaf's, two leaves wholly
 * within reach of each other joinAll's.
 */
export function joinPairs(t: TreeState, radius: number, outA: IdArray, outB: IdArray): number {
  const rect = t.nodeLoose;
  const child = t.nodeChild;
  const count = t.nodeCount;
  const start = t.nodeStart;
  const xy = t.pool.xy;
  const ids = t.pool.ids;
  const cap = Math.min(lengthOf(outA), lengthOf(outB));
  // Every difference times s (1 at ordinary radii, see distanceScale): squares cannot overflow or underflow.
  const s = distanceScale(radius);
  const r2 = radius * s * (radius * s);
  const dense = (3 * Math.PI * r2) / (s * s);
  const rule = t.pairs.rule;
  rule[0] = s;
  rule[1] = r2;
  rule[2] = dense;
  const walk = t.pairs.walk;
  let found = 0;
  if (count[0] < 2) return 0;
  let sp = push(walk, 0, 0, 0);
  while (sp > 0) {
    const b = walk.items[--sp];
    const a = walk.items[--sp];
    if (child[a] >= 0 || child[b] >= 0) {
      sp = a === b ? pushPairsWithin(walk, sp, t, a, rule) : pushSplit(walk, sp, t, a, b, rule);
      continue;
    }
    if (a === b) {
      found = joinLeaf(t, a, rule, outA, outB, found, cap);
      if (found === OUT_OF_ROOM) return OUT_OF_ROOM;
      continue;
    }
    const sa = start[a];
    const ea = sa + count[a];
    const sb = start[b];
    const eb = sb + count[b];
    const pb = b << 2;
    const bMinX = rect[pb];
    const bMinY = rect[pb + 1];
    const bMaxX = rect[pb + 2];
    const bMaxY = rect[pb + 3];
    const room = area(rect, b) < dense && found + (ea - sa) * (eb - sb) <= cap;
    if (room && far2(rect, a, b, s) <= r2) {
      found = joinAll(t, a, b, outA, outB, found);
      continue;
    }
    for (let i = sa; i < ea; i++) {
      const x = xy[i << 1];
      const y = xy[(i << 1) + 1];
      if (pointRectDist2(x, y, bMinX, bMinY, bMaxX, bMaxY, s) > r2) continue;
      const id = ids[i];
      if (room) {
        for (let j = sb; j < eb; j++) {
          const dx = (xy[j << 1] - x) * s;
          const dy = (xy[(j << 1) + 1] - y) * s;
          const other = ids[j];
          outA[found] = id;
          outB[found] = other;
          found += +(dx * dx + dy * dy <= r2);
        }
        continue;
      }
      for (let j = sb; j < eb; j++) {
        const dx = (xy[j << 1] - x) * s;
        const dy = (xy[(j << 1) + 1] - y) * s;
        if (dx * dx + dy * dy <= r2) {
          if (found === cap) return OUT_OF_ROOM;
          outA[found] = id;
          outB[found++] = ids[j];
        }
      }
    }
  }
  return found;
}

/** Two leaves wholly within reach of each other: every item of a with every item of b, no distance at all. */
function joinAll(t: TreeState, a: number, b: number, outA: IdArray, outB: IdArray, found: number): number {
  const ids = t.pool.ids;
  const sa = t.nodeStart[a];
  const ea = sa + t.nodeCount[a];
  const sb = t.nodeStart[b];
  const eb = sb + t.nodeCount[b];
  for (let i = sa; i < ea; i++) {
    const id = ids[i];
    for (let j = sb; j < eb; j++) {
      const other = ids[j];
      outA[found] = id;
      outB[found++] = other;
    }
  }
  return found;
}

/** Pushes the node pair (a, b) onto the walk at `sp`; returns the new stack pointer. */
function push(walk: NodeStack, sp: number, a: number, b: number): number {
  const stack = walk.room(sp, 2);
  stack[sp] = a;
  stack[sp + 1] = b;
  return sp + 2;
}

/**
 * The node pairs inside inner node n onto the walk from `sp`: each non-empty child with itself (when it
 * holds two items or more) and each pair of non-empty children within reach. Returns the new stack pointer.
 */
function pushPairsWithin(walk: NodeStack, sp: number, t: TreeState, n: number, rule: Float64Array): number {
  const rect = t.nodeLoose;
  const count = t.nodeCount;
  const c = t.nodeChild[n];
  const stack = walk.room(sp, 20);
  for (let i = c; i < c + 4; i++) {
    if (count[i] === 0) continue;
    if (count[i] > 1) {
      stack[sp++] = i;
      stack[sp++] = i;
    }
    for (let j = i + 1; j < c + 4; j++) {
      if (count[j] === 0 || gap2(rect, i, j, rule[0]) > rule[1]) continue;
      stack[sp++] = i;
      stack[sp++] = j;
    }
  }
  return sp;
}

/**
 * Distinct nodes a and b, one of them inner: the larger inner one is split and each of its non-empty
 * children within reach of the other is pushed with it. Returns the new stack pointer.
 */
function pushSplit(
  walk: NodeStack,
  sp: number,
  t: TreeState,
  a: number,
  b: number,
  rule: Float64Array,
): number {
  const rect = t.nodeLoose;
  const count = t.nodeCount;
  const split = splitLarger(rect, t.nodeChild, a, b);
  const other = split === a ? b : a;
  const c = t.nodeChild[split];
  const stack = walk.room(sp, 8);
  for (let k = c; k < c + 4; k++) {
    if (count[k] === 0 || gap2(rect, k, other, rule[0]) > rule[1]) continue;
    stack[sp++] = k;
    stack[sp++] = other;
  }
  return sp;
}

/**
 * One leaf with itself: its pairs (i < j) within reach appended from `found`; returns the new count, or
 * {@link OUT_OF_ROOM}. `rule` as joinPairs sets it.
 */
function joinLeaf(
  t: TreeState,
  a: number,
  rule: Float64Array,
  outA: IdArray,
  outB: IdArray,
  found: number,
  cap: number,
): number {
  const xy = t.pool.xy;
  const ids = t.pool.ids;
  const s = rule[0];
  const r2 = rule[1];
  const sa = t.nodeStart[a];
  const e = sa + t.nodeCount[a];
  const m = e - sa;
  if (area(t.nodeLoose, a) < rule[2] && found + ((m * (m - 1)) >> 1) <= cap) {
    // Room for every pair: write each and step past the hits only (no branch to mispredict).
    // The other id is read before the stores: after a store to a typed array the compiled code
    // re-checks every typed array it touches next, so loads go first (3-5% off the join).
    for (let i = sa; i < e - 1; i++) {
      const x = xy[i << 1];
      const y = xy[(i << 1) + 1];
      const id = ids[i];
      for (let j = i + 1; j < e; j++) {
        const dx = (xy[j << 1] - x) * s;
        const dy = (xy[(j << 1) + 1] - y) * s;
        const other = ids[j];
        outA[found] = id;
        outB[found] = other;
        found += +(dx * dx + dy * dy <= r2);
      }
    }
    return found;
  }
  for (let i = sa; i < e - 1; i++) {
    const x = xy[i << 1];
    const y = xy[(i << 1) + 1];
    const id = ids[i];
    for (let j = i + 1; j < e; j++) {
      const dx = (xy[j << 1] - x) * s;
      const dy = (xy[(j << 1) + 1] - y) * s;
      if (dx * dx + dy * dy <= r2) {
        if (found === cap) return OUT_OF_ROOM;
        outA[found] = id;
        outB[found++] = ids[j];
      }
    }
  }
  return found;
}

/** Squared largest distance between a point of node a's rectangle and a point of node b's, times s². */
function far2(r: Float64Array, a: number, b: number, s: number): number {
  const pa = a << 2;
  const pb = b << 2;
  const dx = Math.max(r[pa + 2] - r[pb], r[pb + 2] - r[pa]) * s;
  const dy = Math.max(r[pa + 3] - r[pb + 1], r[pb + 3] - r[pa + 1]) * s;
  return dx * dx + dy * dy;
}

/** Every pair within `radius` into outA / outB (checked); {@link OUT_OF_ROOM} when they are too short. */
export function pairsInto(t: TreeState, radius: number, outA: IdArray, outB: IdArray): number {
  if (t.size < 2) return 0;
  const kernel = t.pairs.kernel;
  if (kernel !== null) {
    const found = kernel.pairsInto(radius, outA, outB);
    if (found !== NOT_RUN) return found;
  }
  return joinPairs(t, radius, outA, outB);
}

/**
 * Every pair within `radius` into the tree's own pair buffers (the nested pair when `nested`), grown by
 * fours until they fit; returns the count.
 */
export function pairsInBuffers(t: TreeState, radius: number, nested: boolean): number {
  const scratch = t.pairs;
  let a = nested ? new Int32Array(64) : scratch.pairA;
  let b = nested ? new Int32Array(64) : scratch.pairB;
  let found = pairsInto(t, radius, a, b);
  while (found === OUT_OF_ROOM) {
    a = new Int32Array(a.length * 4);
    b = new Int32Array(b.length * 4);
    found = pairsInto(t, radius, a, b);
  }
  if (nested) {
    scratch.nestedPairA = a;
    scratch.nestedPairB = b;
  } else {
    scratch.pairA = a;
    scratch.pairB = b;
  }
  return found;
}

/**
 * Finds every pair within `radius` (checked), then calls `callback(a, b)` for each; throws if the tree's
 * node structure changed during the calls.
 */
export function forEachPair(t: TreeState, radius: number, callback: (a: number, b: number) => void): void {
  const scratch = t.pairs;
  // A nested call (from inside a callback) gets buffers of its own so the outer one's pairs survive.
  const nested = scratch.pairing;
  const n = pairsInBuffers(t, radius, nested);
  const a = nested ? scratch.nestedPairA : scratch.pairA;
  const b = nested ? scratch.nestedPairB : scratch.pairB;
  const version = t.version;
  scratch.pairing = true;
  try {
    for (let i = 0; i < n; i++) {
      callback(a[i], b[i]);
      if (t.version !== version) throw new Error(`${NAME}: the tree's structure changed during forEachPair`);
    }
  } finally {
    if (!nested) scratch.pairing = false;
  }
}
