/**
 * What the player's circle query did to each node of the tree, for the top-down map and the HUD. Free of
 * the DOM and three.js, so the counting is unit tested in Node.
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
 * How: the reached nodes and whether each is covered come from the library's own `visitCircle` (the exact
 * nodes the query visits). The children it did not enter come from a copy of the node list made with
 * `visitNodes` (parent before children, NW NE SW SE, the same order), refreshed only when the tree's
 * version changes: the reached nodes are a subsequence of it, and each subtree the query skipped is jumped
 * over whole (`subtreeEnd`), so one analysis costs about the reached nodes plus their children.
 */
import type { NodeInfo, PointQuadtree } from 'point-quadtree';

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

export class QueryInsight implements InsightCounts {
  /** Nodes in the copied node list (the tree's whole node count). */
  nodeCount = 0;
  /** Rectangle of node i at 4i..4i+3 (minX, minY, maxX, maxY), in the tree's plane. */
  bounds = new Float64Array(4 * 256);
  depth = new Int32Array(256);
  /** 1 for a leaf. */
  leaf = new Uint8Array(256);
  /** Index just past node i's subtree in the list. */
  subtreeEnd = new Int32Array(256);
  /** Kind of node i for the last analysed query. */
  kind = new Uint8Array(256);
  visited = 0;
  pruned = 0;
  covered = 0;
  /** Increments whenever the node list or the kinds were recomputed (a map redraws its node layer then). */
  revision = 0;

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
  // Walk state, kept in fields so the callbacks are bound once (no closure per analysis).
  private cursor = 0;
  /** Kind of the reached node at each depth of the current path. */
  private pathKind = new Uint8Array(64);
  /** Open nodes of the copy walk, by depth. */
  private open = new Int32Array(64).fill(-1);

  /**
   * Analyse the circle query at (x, y) with `radius` over `tree` (built with `looseness`). Does nothing and
   * returns false when the tree, its version and the circle are those of the last call and `force` is
   * false; `force` (the points moved) recounts, since moving points can empty or fill a node without a
   * version change.
   */
  analyse(
    tree: PointQuadtree,
    x: number,
    y: number,
    radius: number,
    looseness: number,
    force: boolean,
  ): boolean {
    const fresh = tree !== this.tree || tree.version !== this.version;
    if (fresh) this.copyNodes(tree);
    else if (
      !force &&
      x === this.cx &&
      y === this.cy &&
      radius === this.radius &&
      looseness === this.looseness
    )
      return false;
    this.cx = x;
    this.cy = y;
    this.radius = radius;
    this.looseness = looseness;
    this.classify(tree);
    this.revision++;
    return true;
  }

  /** The copy of the node list: one visitNodes walk. */
  private copyNodes(tree: PointQuadtree): void {
    this.tree = tree;
    this.version = tree.version;
    this.nodeCount = 0;
    tree.visitNodes(this.onCopy);
    const n = this.nodeCount;
    // Close the nodes still open: their subtrees run to the end of the list.
    for (let d = 0; d < this.open.length; d++) if (this.open[d] >= 0) this.subtreeEnd[this.open[d]] = n;
    this.open.fill(-1);
    this.rootMinX = this.bounds[0];
    this.rootMinY = this.bounds[1];
    this.rootMaxX = this.bounds[2];
    this.rootMaxY = this.bounds[3];
  }

  private readonly onCopy = (info: NodeInfo): void => {
    const i = this.nodeCount;
    if (i >= this.depth.length) this.grow(i + 1);
    const d = info.depth;
    if (d >= this.open.length) this.growDepth(d + 1);
    // The open nodes at this depth or deeper end here.
    for (let k = d; k < this.open.length && this.open[k] >= 0; k++) {
      this.subtreeEnd[this.open[k]] = i;
      this.open[k] = -1;
    }
    this.open[d] = i;
    const b = i << 2;
    this.bounds[b] = info.minX;
    this.bounds[b + 1] = info.minY;
    this.bounds[b + 2] = info.maxX;
    this.bounds[b + 3] = info.maxY;
    this.depth[i] = d;
    this.leaf[i] = info.isLeaf ? 1 : 0;
    this.nodeCount = i + 1;
  };

  /** One visitCircle walk in step with the copied list. */
  private classify(tree: PointQuadtree): void {
    const n = this.nodeCount;
    this.kind.fill(UNTOUCHED, 0, n);
    this.visited = 0;
    this.pruned = 0;
    this.covered = 0;
    this.cursor = 0;
    if (tree.size > 0) tree.visitCircle(this.cx, this.cy, this.radius, this.onReached);
    // The children the walk did not enter after its last node (their parents were reached, if any).
    while (this.cursor < n) this.skip(this.cursor);
  }

  private readonly onReached = (info: NodeInfo): boolean => {
    const n = this.nodeCount;
    const b = this.bounds;
    const d = info.depth;
    // The reached node is the cursor's node or after subtrees the walk skipped.
    for (;;) {
      const j = this.cursor;
      if (j >= n) throw new Error('QueryInsight: the tree changed without a version change');
      const k = j << 2;
      if (
        this.depth[j] === d &&
        b[k] === info.minX &&
        b[k + 1] === info.minY &&
        b[k + 2] === info.maxX &&
        b[k + 3] === info.maxY
      )
        break;
      this.skip(j);
    }
    const j = this.cursor;
    if (d > 0 && this.inside(j)) {
      // Handed over whole: its subtree stays untouched here, and the walk skips it.
      this.kind[j] = COVERED;
      this.covered++;
      this.cursor = this.subtreeEnd[j];
      return true;
    }
    this.kind[j] = VISITED;
    this.visited++;
    if (d >= this.pathKind.length) this.growDepth(d + 1);
    this.pathKind[d] = VISITED;
    this.cursor = j + 1;
    return false;
  };

  /** Node j (its parent was visited, or it is the root) was not entered: pruned or untouched, whole. */
  private skip(j: number): void {
    const d = this.depth[j];
    if (d > 0 && this.pathKind[d - 1] === VISITED && this.apart(j)) {
      this.kind[j] = PRUNED;
      this.pruned++;
    }
    this.cursor = this.subtreeEnd[j];
  }

  /** Node j's rectangle as the query sees it: grown by looseness and clipped to the root (not the root). */
  private looseEdge(j: number, e: number): number {
    const v = this.bounds[(j << 2) + e];
    if (j === 0 || this.looseness === 0) return v;
    const l = this.looseness;
    if (e === 0) return Math.max(v - l, this.rootMinX);
    if (e === 1) return Math.max(v - l, this.rootMinY);
    if (e === 2) return Math.min(v + l, this.rootMaxX);
    return Math.min(v + l, this.rootMaxY);
  }

  /** The point-to-border test: node j lies farther than the radius from the centre. */
  private apart(j: number): boolean {
    const x = this.cx;
    const y = this.cy;
    const minX = this.looseEdge(j, 0);
    const minY = this.looseEdge(j, 1);
    const maxX = this.looseEdge(j, 2);
    const maxY = this.looseEdge(j, 3);
    const dx = x < minX ? minX - x : x > maxX ? x - maxX : 0;
    const dy = y < minY ? minY - y : y > maxY ? y - maxY : 0;
    return dx * dx + dy * dy > this.radius * this.radius;
  }

  /** Node j lies wholly inside the circle: its farthest corner is within the radius. */
  private inside(j: number): boolean {
    const fx = Math.max(this.cx - this.looseEdge(j, 0), this.looseEdge(j, 2) - this.cx);
    const fy = Math.max(this.cy - this.looseEdge(j, 1), this.looseEdge(j, 3) - this.cy);
    return fx * fx + fy * fy <= this.radius * this.radius;
  }

  private grow(min: number): void {
    let cap = this.depth.length;
    while (cap < min) cap *= 2;
    const bounds = new Float64Array(cap * 4);
    bounds.set(this.bounds);
    this.bounds = bounds;
    const depth = new Int32Array(cap);
    depth.set(this.depth);
    this.depth = depth;
    const leaf = new Uint8Array(cap);
    leaf.set(this.leaf);
    this.leaf = leaf;
    const end = new Int32Array(cap);
    end.set(this.subtreeEnd);
    this.subtreeEnd = end;
    this.kind = new Uint8Array(cap);
  }

  private growDepth(min: number): void {
    let cap = this.open.length;
    while (cap < min) cap *= 2;
    const open = new Int32Array(cap).fill(-1);
    open.set(this.open);
    this.open = open;
    const path = new Uint8Array(cap);
    path.set(this.pathKind);
    this.pathKind = path;
  }
}
