/*
 * The smallest doubling of the constructor's bounds that covers every item: how a grown inner root shrinks
 * when halving cannot (root.ts halves toward the constructor bounds' centre, keeping one half in each
 * axis, so it stops while the items straddle that half's edge: bounds 0..100 and an item at y = -50 after a
 * far stray came back need the root [0, 200] x [-100, 100], which is no half of the stray's root).
 *
 * A doubling of bounds [a0, a1] (width w) k times is [a0 - m w, a1 + (2^k - 1 - m) w] for some m from 0 to
 * 2^k - 1: step j adds 2^j w to one side. It covers items that overhang the bounds by up to L widths below
 * and H above exactly when 2^k >= 1 + L + H (then m = L). Both axes double together, so k is the larger
 * of the two axes' needs.
 */

import type { TreeState } from '../core/state';

/**
 * Sets `out` (minX, minY, maxX, maxY) to the extent of the constructor's bounds and every item: for each
 * edge a walk that takes the child reaching farthest past it first and skips a node whose loose rectangle
 * does not reach past the edge found so far (so about one path from the root per edge). With `xs` / `ys`,
 * each item counts as what its place and its new place (xs[id], ys[id]) both reach: max(x, new x) for the
 * lower edge, min(x, new x) for the upper, likewise y. Then `out` lies inside the extent of any mix of old
 * and new places: moveAll's bound on what moving one by one could fit the root to.
 */
export function outerBox(
  t: TreeState,
  out: Float64Array,
  xs: ArrayLike<number> | null,
  ys: ArrayLike<number> | null,
): void {
  const ib = t.initialBounds;
  out[0] = ib.minX;
  out[1] = ib.minY;
  out[2] = ib.maxX;
  out[3] = ib.maxY;
  if (t.size === 0) return;
  for (let edge = 0; edge < 4; edge++) farthest(t, out, edge, xs, ys);
}

/**
 * outerBox's walk for one edge (0 minX, 1 minY, 2 maxX, 3 maxY): how far past out[edge] an item reaches,
 * into out[edge]. Values are negated for the lower edges, so that "farther" is always "larger".
 */
function farthest(
  t: TreeState,
  out: Float64Array,
  edge: number,
  xs: ArrayLike<number> | null,
  ys: ArrayLike<number> | null,
): void {
  const sign = edge < 2 ? -1 : 1;
  const axis = edge & 1;
  const lb = t.nodeLoose;
  const xy = t.pool.xy;
  const ids = t.pool.ids;
  const moved = axis === 0 ? xs : ys;
  let best = sign * out[edge];
  const walk = t.root.stack;
  let stack = walk.items;
  let sp = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const m = stack[--sp];
    if (t.nodeCount[m] === 0 || !(sign * lb[(m << 2) + edge] > best)) continue;
    const c = t.nodeChild[m];
    if (c >= 0) {
      // Nearest first onto the stack, so the farthest child is walked first (an insertion sort of four).
      stack = walk.room(sp, 4);
      const base = sp;
      for (let k = c; k < c + 4; k++) {
        const v = sign * lb[(k << 2) + edge];
        let j = sp++;
        while (j > base && sign * lb[(stack[j - 1] << 2) + edge] > v) {
          stack[j] = stack[j - 1];
          j--;
        }
        stack[j] = k;
      }
      continue;
    }
    const s = t.nodeStart[m];
    for (let i = s; i < s + t.nodeCount[m]; i++) {
      const v = xy[(i << 1) + axis];
      // Where either place may count, the nearer of the two is what every mix of places reaches.
      const reach = moved === null ? sign * v : Math.min(sign * v, sign * moved[ids[i]]);
      if (reach > best) best = reach;
    }
  }
  out[edge] = sign * best;
}

/** Widths of [a0, a1] that `lo` lies below a0 (rounded up; 0 when it does not). */
function below(a0: number, a1: number, lo: number): number {
  return lo < a0 ? Math.ceil((a0 - lo) / (a1 - a0)) : 0;
}

/**
 * 2^k of the fewest doublings k of the constructor's bounds that can cover the box `e` (which holds them),
 * by the rule above. Monotone in `e`: a box inside another never needs more.
 */
export function doublingsFor(t: TreeState, e: Float64Array): number {
  const ib = t.initialBounds;
  const need = Math.max(
    1 + below(ib.minX, ib.maxX, e[0]) + below(-ib.maxX, -ib.minX, -e[2]),
    1 + below(ib.minY, ib.maxY, e[1]) + below(-ib.maxY, -ib.minY, -e[3]),
  );
  let span = 1;
  while (span < need) span *= 2;
  return span;
}

/** Whether a doubling `span` times the constructor's bounds is narrower than the root in x or y. */
export function narrower(t: TreeState, span: number): boolean {
  const ib = t.initialBounds;
  const nb = t.nodeBounds;
  return span * (ib.maxX - ib.minX) < nb[2] - nb[0] || span * (ib.maxY - ib.minY) < nb[3] - nb[1];
}

/**
 * Sets `out` to where any doubling of the constructor's bounds narrower than the root lies (half the root's
 * width and height at most: the bounds widened on each side by that less their own width and height).
 */
export function fitReach(t: TreeState, out: Float64Array): void {
  const ib = t.initialBounds;
  const nb = t.nodeBounds;
  const ex = (nb[2] - nb[0]) / 2 - (ib.maxX - ib.minX);
  const ey = (nb[3] - nb[1]) / 2 - (ib.maxY - ib.minY);
  out[0] = ib.minX - ex;
  out[1] = ib.minY - ey;
  out[2] = ib.maxX + ex;
  out[3] = ib.maxY + ey;
}

/**
 * Sets the (grown, inner, not refitted) root's rectangle to the smallest doubling of the constructor's
 * bounds that covers every item, when that is narrower, and returns true (the caller rebuilds); false,
 * changing nothing, otherwise. Where rounding leaves an item outside the computed rectangle, the next
 * doubling up is tried (past a lower edge, first one width more: every larger doubling shares that edge).
 * About one path from the root per edge, then O(items) for the rebuild if it fits.
 */
export function fitToItems(t: TreeState): boolean {
  const e = t.root.box;
  outerBox(t, e, null, null);
  const ib = t.initialBounds;
  const w = ib.maxX - ib.minX;
  const h = ib.maxY - ib.minY;
  let lx = below(ib.minX, ib.maxX, e[0]);
  let ly = below(ib.minY, ib.maxY, e[1]);
  // Where rounding leaves the lowest item past the edge lx (ly) widths below the bounds, one width more:
  // the larger spans tried below keep that edge, so doubling alone would never reach the item.
  if (ib.minX - lx * w > e[0]) lx++;
  if (ib.minY - ly * h > e[1]) ly++;
  for (let span = doublingsFor(t, e); narrower(t, span); span *= 2) {
    const minX = ib.minX - lx * w;
    const minY = ib.minY - ly * h;
    const maxX = ib.maxX + (span - 1 - lx) * w;
    const maxY = ib.maxY + (span - 1 - ly) * h;
    if (!(minX <= e[0] && minY <= e[1] && maxX >= e[2] && maxY >= e[3])) continue;
    const nb = t.nodeBounds;
    if (!(maxX - minX <= nb[2] - nb[0] && maxY - minY <= nb[3] - nb[1])) return false;
    nb[0] = minX;
    nb[1] = minY;
    nb[2] = maxX;
    nb[3] = maxY;
    return true;
  }
  return false;
}
