/* The public types: the bounds, the options, and the figures and node records the tree hands out. */

/** An axis-aligned rectangle in tree units (the scene passes world x and z as the tree's x and y). */
export interface Bounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Options of {@link PointQuadtree}. */
export interface QuadtreeOptions {
  /** Root rectangle. Finite, with `minX < maxX` and `minY < maxY`. It grows by doubling to cover any point. */
  bounds: Bounds;
  /** A leaf holding more than this many items splits (when it may). Integer >= 1. Default 64. */
  maxItems?: number;
  /** No node is ever split into quadrants narrower or shallower than this. Finite > 0. Default 1. */
  minSize?: number;
  /**
   * How far (world units) an item may wander outside its leaf's rectangle before `move` re-files it into
   * another leaf. Finite >= 0. Default 0: every item stays inside its leaf's rectangle.
   *
   * A game that moves every item every frame can set it to a few steps' length: a point then crosses
   * into another leaf far less often (re-filing is the costly part of `move`), at the price of queries
   * that must also look this far around each node. Queries stay exact either way.
   */
  looseness?: number;
}

/**
 * What {@link PointQuadtree.visitNodes} passes for each node. The object is reused from node to node:
 * read its fields inside the callback, do not keep it.
 */
export interface NodeInfo {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  /** 0 for the root. */
  depth: number;
  isLeaf: boolean;
  /** Items stored in this leaf; 0 for an inner node (inner nodes hold no items). */
  count: number;
}

/** Figures of the last query, for a HUD. The object is reused and overwritten by every query. */
export interface QueryStats {
  /**
   * Nodes the query reached (inner nodes and leaves): those whose children or items it examined, those it
   * stepped through on the way down, and those whose items it handed over whole. visitCircle calls back
   * for exactly these nodes.
   */
  nodesVisited: number;
  /** Points whose distance (or rectangle test) was computed one by one. */
  pointsTested: number;
  /** Ids the query returned. */
  found: number;
}

/** Shape of the tree, from {@link PointQuadtree.stats}. */
export interface TreeStats {
  size: number;
  nodes: number;
  leaves: number;
  /** Depth of the deepest leaf; 0 when the root is a leaf. */
  depth: number;
}
