/**
 * What the player's circle query did to the tree's nodes, for the top-down map and the HUD. Free of the DOM
 * and three.js, so the counting is unit tested in Node.
 *
 * Every node gets one kind (the definitions docs/scene.md gives):
 * - `VISITED`: the query reached it and tested it: it looked at its children's rectangles (an inner node)
 *   or at each of its points (a leaf). The root is always visited when the query reaches it at all.
 * - `COVERED`: the query reached it, it lies wholly inside the circle (its rectangle grown by the tree's
 *   looseness, as the query sees it) and its parent does not: the query hands over every item below it
 *   without a per-point test. Only the topmost such node counts: the nodes below it (which the query steps
 *   through to collect the items) are `UNTOUCHED` here, so the count says how many subtrees were handed
 *   over whole, and the analysis never walks them.
 * - `PRUNED`: a child of a visited node that the query did not enter because its rectangle (grown by
 *   looseness, clipped to the root) lies farther than the radius from the centre: the point-to-border test.
 *   (The library skips an empty child before that test; an empty child out of reach counts as pruned all the
 *   same, since the test would reject it.)
 * - `UNTOUCHED`: everything else: below a pruned node, an empty child within reach, an empty node under a
 *   covered one, or every node when the query reached nothing.
 * So the library's `lastQuery.nodesVisited` is visited + covered + the non-empty nodes below covered ones,
 * and its `pointsTested` is the points of the visited leaves.
 *
 * How, in two walks that touch only the query's neighbourhood (never the whole tree, so it is cheap enough
 * to run every frame at 100,000 enemies): the library's own `visitCircle` lists the nodes the query reaches
 * and whether each is covered (skipping below covered ones); then a `visitNodes` walk in the same order
 * (parent before children, NW NE SW SE) enters only the visited nodes, meets the reached ones again in that
 * list, and tests each child it meets that the query did not enter: pruned or untouched. The result is the
 * list of marked nodes (visited, pruned, covered) in walk order; every node not in it is untouched.
 */

import type { NodeInfo, PointQuadtree } from 'point-quadtree';
import { visitCircle, visitNodes } from 'point-quadtree/debug';

export const UNTOUCHED = 0;
export const VISITED = 1;
export const PRUNED = 2;
export const COVERED = 3;

/** The counts of one analysed query. */
export interface InsightCounts {
  visited: number;
  pruned: number;
  covered: number;
}

/** A list of nodes in walk order: rectangle at 4i..4i+3 (minX, minY, maxX, maxY), depth, kind, leaf items. */
export class NodeList {
  count = 0;
  bounds = new Float64Array(4 * 256);
  depth = new Int32Array(256);
  kind = new Uint8Array(256);
  /** Items in node i if it is a leaf; -1 for an inner node. */
  items = new Int32Array(256);

  push(info: NodeInfo, kind: number): void {
    const i = this.count;
    if (i === this.depth.length) this.grow();
    const b = i << 2;
    this.bounds[b] = info.minX;
    this.bounds[b + 1] = info.minY;
    this.bounds[b + 2] = info.maxX;
    this.bounds[b + 3] = info.maxY;
    this.depth[i] = info.depth;
    this.kind[i] = kind;
    this.items[i] = info.isLeaf ? info.count : -1;
    this.count = i + 1;
  }

  /** Whether entry i is the node `info` describes (same depth and rectangle: unique in a tree). */
  is(i: number, info: NodeInfo): boolean {
    const b = i << 2;
    const r = this.bounds;
    return (
      this.depth[i] === info.depth &&
      r[b] === info.minX &&
      r[b + 1] === info.minY &&
      r[b + 2] === info.maxX &&
      r[b + 3] === info.maxY
    );
  }

  /** Same nodes and kinds as `other` (the items may differ: a map draws the same). */
  sameKinds(other: NodeList): boolean {
    const n = this.count;
    if (n !== other.count) return false;
    for (let i = 0; i < n; i++)
      if (this.kind[i] !== other.kind[i] || this.depth[i] !== other.depth[i]) return false;
    for (let k = 0; k < n << 2; k++) if (this.bounds[k] !== other.bounds[k]) return false;
    return true;
  }

  private grow(): void {
    const cap = this.depth.length * 2;
    const bounds = new Float64Array(cap * 4);
    bounds.set(this.bounds);
    this.bounds = bounds;
    const depth = new Int32Array(cap);
    depth.set(this.depth);
    this.depth = depth;
    const kind = new Uint8Array(cap);
    kind.set(this.kind);
    this.kind = kind;
    const items = new Int32Array(cap);
    items.set(this.items);
    this.items = items;
  }
}

export class QueryInsight implements InsightCounts {
  /** The marked nodes (visited, pruned, covered) of the last analysed query, in walk order. */
  marked = new NodeList();
  visited = 0;
  pruned = 0;
  covered = 0;
  /** Increments whenever the marked nodes changed (a map redraws its node kinds then). */
  revision = 0;

  /** The nodes visitCircle reached (kind VISITED or COVERED), in walk order. */
  private readonly reached = new NodeList();
  /** The previous analysis' marked nodes (swapped with {@link marked}: nothing allocated per analysis). */
  private previous = new NodeList();
  private tree: PointQuadtree | null = null;
  private version = -1;
  // The analysed query.
  private cx = Number.NaN;
  private cy = Number.NaN;
  private radius = Number.NaN;
  private looseness = 0;
  private rootMinX = 0;
  private rootMinY = 0;
  private rootMaxX = 0;
  private rootMaxY = 0;
  /** Next entry of {@link reached} the marking walk expects. */
  private cursor = 0;
  /** Scratch rectangle of the node under test (minX, minY, maxX, maxY). */
  private readonly box = new Float64Array(4);

  /**
   * Analyse the circle query at (x, y) with `radius` over `tree` (built with `looseness`). Does nothing and
   * returns false when the tree, its version and the circle are those of the last call and `force` is
   * false; `force` (the points moved) recounts, since moving points can empty or fill a node without a
   * version change. Returns true when it analysed (whether or not the marked nodes changed).
   */
  analyse(
    tree: PointQuadtree,
    x: number,
    y: number,
    radius: number,
    looseness: number,
    force: boolean,
  ): boolean {
    if (
      !force &&
      tree === this.tree &&
      tree.version === this.version &&
      x === this.cx &&
      y === this.cy &&
      radius === this.radius &&
      looseness === this.looseness
    )
      return false;
    this.tree = tree;
    this.version = tree.version;
    this.cx = x;
    this.cy = y;
    this.radius = radius;
    this.looseness = looseness;
    const swap = this.previous;
    this.previous = this.marked;
    this.marked = swap;
    this.classify(tree);
    if (!this.marked.sameKinds(this.previous)) this.revision++;
    return true;
  }

  private classify(tree: PointQuadtree): void {
    this.reached.count = 0;
    this.marked.count = 0;
    this.visited = 0;
    this.pruned = 0;
    this.covered = 0;
    this.cursor = 0;
    if (tree.size === 0) return;
    visitCircle(tree, this.cx, this.cy, this.radius, this.onReached);
    visitNodes(tree, this.onNode);
  }

  private readonly onReached = (info: NodeInfo): boolean => {
    if (info.depth === 0) {
      this.rootMinX = info.minX;
      this.rootMinY = info.minY;
      this.rootMaxX = info.maxX;
      this.rootMaxY = info.maxY;
    }
    // Handed over whole (never the root: the query always tests the root's children): skip its subtree.
    const covered = info.depth > 0 && this.inside(info);
    this.reached.push(info, covered ? COVERED : VISITED);
    return covered;
  };

  /** The marking walk: enters the visited nodes only; returns true to skip a node's children. */
  private readonly onNode = (info: NodeInfo): boolean => {
    const r = this.reached;
    const c = this.cursor;
    if (c < r.count && r.is(c, info)) {
      this.cursor = c + 1;
      const kind = r.kind[c];
      this.marked.push(info, kind);
      if (kind === VISITED) {
        this.visited++;
        return false;
      }
      this.covered++;
      return true;
    }
    // Not reached: the root (the circle misses it) or a child of a visited node.
    if (info.depth > 0 && this.apart(info)) {
      this.marked.push(info, PRUNED);
      this.pruned++;
    }
    return true;
  };

  /**
   * The node's rectangle as the query sees it, into {@link box}: grown by looseness and clipped to the root
   * (not the root). Written to a typed array, not returned: a double returned from a call that is not
   * inlined is boxed, and this runs for every child the walk tests.
   */
  private looseBox(n: NodeInfo): Float64Array {
    const box = this.box;
    const l = this.looseness;
    if (n.depth === 0 || l === 0) {
      box[0] = n.minX;
      box[1] = n.minY;
      box[2] = n.maxX;
      box[3] = n.maxY;
    } else {
      box[0] = Math.max(n.minX - l, this.rootMinX);
      box[1] = Math.max(n.minY - l, this.rootMinY);
      box[2] = Math.min(n.maxX + l, this.rootMaxX);
      box[3] = Math.min(n.maxY + l, this.rootMaxY);
    }
    return box;
  }

  /** The point-to-border test: the node lies farther than the radius from the centre. */
  private apart(n: NodeInfo): boolean {
    const b = this.looseBox(n);
    const x = this.cx;
    const y = this.cy;
    const dx = x < b[0] ? b[0] - x : x > b[2] ? x - b[2] : 0;
    const dy = y < b[1] ? b[1] - y : y > b[3] ? y - b[3] : 0;
    return dx * dx + dy * dy > this.radius * this.radius;
  }

  /** The node lies wholly inside the circle: its farthest corner is within the radius. */
  private inside(n: NodeInfo): boolean {
    const b = this.looseBox(n);
    const fx = Math.max(this.cx - b[0], b[2] - this.cx);
    const fy = Math.max(this.cy - b[1], b[3] - this.cy);
    return fx * fx + fy * fy <= this.radius * this.radius;
  }
}
