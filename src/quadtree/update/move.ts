/*
 * Moving one item: in place while it stays inside its leaf's loose rectangle, else re-filed (insert.ts's
 * refile) after the root has grown to cover the new position, and the root shrunk again if it may.
 * (PointQuadtree.move inlines the in-place case; moveAll's one-by-one path calls moveItem.)
 */

import { holds } from '../core/geometry';
import { compactPool } from '../core/leaves';
import type { TreeState } from '../core/state';
import { refile } from './insert';
import { growFor, isGrown, onRootEdge, outsideInitial, shrinkRoot } from './root';

/** Moves present `id` to the finite point (p[0], p[1]): the whole rule of move, arguments checked. */
export function moveItem(t: TreeState, id: number, p: Float64Array): void {
  const x = p[0];
  const y = p[1];
  const lb = t.nodeLoose;
  const b = t.idLeaf[id] << 2;
  if (holds(x, y, lb[b], lb[b + 1], lb[b + 2], lb[b + 3], lb[2], lb[3])) {
    moveWithin(t, t.idSlot[id], x, y, b === 0);
    return;
  }
  moveOut(t, id, p);
}

/**
 * Writes the new position of the item in `slot`, which stays in its leaf. When that leaf is the root
 * (`rootLeaf`) or the root is refitted, a grown root may then shrink (O(items in the root leaf), or
 * O(items) for a refitted root when the item was on its edge).
 */
export function moveWithin(t: TreeState, slot: number, x: number, y: number, rootLeaf: boolean): void {
  const shrinkable = (rootLeaf || t.refitted) && isGrown(t);
  const edge = shrinkable && onRootEdge(t, slot);
  t.pool.xy[slot << 1] = x;
  t.pool.xy[(slot << 1) + 1] = y;
  // Whether the item was a stray (outside the constructor's bounds) matters only to shrinkRoot's fit of an
  // inner root that is not refitted. Here the root is a leaf or refitted, and becomes such an inner root only
  // through refitDown, which has then just set it to the smallest doubling that covers every item: there is
  // nothing narrower left for the fit to find.
  if (shrinkable) shrinkRoot(t, edge, false);
}

/** Moves present `id` to (p[0], p[1]), outside its leaf's loose rectangle. */
export function moveOut(t: TreeState, id: number, p: Float64Array): void {
  if (t.pool.compactDue) compactPool(t);
  const slot = t.idSlot[id];
  const edge = onRootEdge(t, slot);
  const stray = outsideInitial(t, slot);
  // A refit (doubling would overflow) rebuilds with the item already at p: nothing left to do.
  if (growFor(t, p, slot)) return;
  refile(t, id, p);
  // The item may have been the last one in a far quadrant.
  if (isGrown(t)) shrinkRoot(t, edge, stray);
}
