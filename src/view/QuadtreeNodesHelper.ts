/**
 * Draws quadtree nodes as wireframe rectangles on the ground: one LineSegments whose position buffer is
 * reused from update to update and grown by doubling (the old geometry is disposed, so no GPU buffer leaks).
 *
 * Two modes:
 * - `leaves`: every leaf; {@link update} redraws only when the tree's `version` changed.
 * - `visited`: the leaves a circle query visits, as the tree's own `visitCircle` reports them (the library
 *   owns the pruning rule); {@link setCircle} then {@link update}. It draws the leaves' own rectangles.
 */

import type { NodeInfo, PointQuadtree } from 'point-quadtree';
import {
  BufferAttribute,
  BufferGeometry,
  Color,
  DynamicDrawUsage,
  LineBasicMaterial,
  LineSegments,
} from 'three';
import { worldX, worldZ } from '../sim/world';

/** 4 edges x 2 vertices x 3 floats per rectangle. */
const FLOATS_PER_RECT = 24;

/** Write one segment (x0, h, z0) -> (x1, h, z1) at offset `o`. */
function writeSegment(
  p: Float32Array,
  o: number,
  x0: number,
  h: number,
  z0: number,
  x1: number,
  z1: number,
): void {
  p[o] = x0;
  p[o + 1] = h;
  p[o + 2] = z0;
  p[o + 3] = x1;
  p[o + 4] = h;
  p[o + 5] = z1;
}

export type NodesHelperMode = 'leaves' | 'visited';

export interface NodesHelperOptions {
  color?: Color | string | number;
  /** Height above the ground, world units (lifts the lines off the ground so they never z-fight). */
  height?: number;
  opacity?: number;
  /** Initial room, in rectangles. */
  capacity?: number;
}

export class QuadtreeNodesHelper extends LineSegments<BufferGeometry, LineBasicMaterial> {
  readonly mode: NodesHelperMode;
  tree: PointQuadtree;
  /** Rectangles drawn by the last update. */
  rectCount = 0;
  private positions: Float32Array;
  private readonly height: number;
  private readonly uploadRange = { start: 0, count: 0 };
  private drawnVersion = -1;
  private drawnTree: PointQuadtree | null = null;
  private cx = 0;
  private cy = 0;
  private radius = 0;
  // Bound once: the tree's visitors get the same function every update (no closure per frame).
  private readonly visitLeaf = (node: NodeInfo): boolean => {
    if (node.isLeaf) this.pushRect(node);
    return false;
  };

  constructor(tree: PointQuadtree, mode: NodesHelperMode = 'leaves', options: NodesHelperOptions = {}) {
    const capacity = Math.max(16, options.capacity ?? 256);
    const positions = new Float32Array(capacity * FLOATS_PER_RECT);
    const geometry = QuadtreeNodesHelper.makeGeometry(positions);
    const opacity = options.opacity ?? 1;
    const material = new LineBasicMaterial({
      color: new Color(options.color ?? 0xffffff),
      transparent: opacity < 1,
      opacity,
      // Opaque lines must write depth, or the ground (drawn after them when it sorts later) covers them.
      depthWrite: opacity >= 1,
    });
    super(geometry, material);
    this.name = mode === 'leaves' ? 'quadtree-nodes' : 'quadtree-visited';
    this.mode = mode;
    this.tree = tree;
    this.positions = positions;
    this.height = options.height ?? 0.03;
    this.frustumCulled = false;
  }

  private static makeGeometry(positions: Float32Array): BufferGeometry {
    const geometry = new BufferGeometry();
    const attribute = new BufferAttribute(positions, 3);
    attribute.setUsage(DynamicDrawUsage);
    geometry.setAttribute('position', attribute);
    geometry.setDrawRange(0, 0);
    return geometry;
  }

  /** Rectangles the buffer can hold (for tests: it only grows, by doubling). */
  get capacityRects(): number {
    return this.positions.length / FLOATS_PER_RECT;
  }

  /** The circle whose visited leaves a `visited` helper draws, in tree units. */
  setCircle(x: number, y: number, radius: number): void {
    this.cx = x;
    this.cy = y;
    this.radius = radius;
    this.drawnVersion = -1;
  }

  /**
   * Redraw from the tree. A `leaves` helper skips the work when the tree (and its version) did not change;
   * returns whether it redrew.
   */
  update(): boolean {
    const tree = this.tree;
    if (this.mode === 'leaves' && tree === this.drawnTree && tree.version === this.drawnVersion) return false;
    this.rectCount = 0;
    if (this.mode === 'leaves') tree.visitNodes(this.visitLeaf);
    else tree.visitCircle(this.cx, this.cy, this.radius, this.visitLeaf);
    this.drawnTree = tree;
    this.drawnVersion = tree.version;
    const attribute = this.geometry.getAttribute('position') as BufferAttribute;
    attribute.clearUpdateRanges();
    this.uploadRange.count = this.rectCount * FLOATS_PER_RECT;
    attribute.updateRanges.push(this.uploadRange); // one reused range object: no allocation per update
    attribute.needsUpdate = true;
    this.geometry.setDrawRange(0, this.rectCount * 8);
    return true;
  }

  private pushRect(node: NodeInfo): void {
    if (this.rectCount === this.capacityRects) this.grow();
    const p = this.positions;
    const h = this.height;
    const x0 = worldX(node.minX);
    const z0 = worldZ(node.minY);
    const x1 = worldX(node.maxX);
    const z1 = worldZ(node.maxY);
    const o = this.rectCount * FLOATS_PER_RECT;
    // Edges bottom, right, top, left, as independent segments.
    writeSegment(p, o, x0, h, z0, x1, z0);
    writeSegment(p, o + 6, x1, h, z0, x1, z1);
    writeSegment(p, o + 12, x1, h, z1, x0, z1);
    writeSegment(p, o + 18, x0, h, z1, x0, z0);
    this.rectCount++;
  }

  /** Double the buffer: copy what is drawn so far into a new geometry and dispose the old one. */
  private grow(): void {
    const bigger = new Float32Array(this.positions.length * 2);
    bigger.set(this.positions);
    const old = this.geometry;
    this.geometry = QuadtreeNodesHelper.makeGeometry(bigger);
    this.positions = bigger;
    old.dispose();
  }

  /** Free the GPU buffers and the material. */
  override dispose(): void {
    this.geometry.dispose();
    this.material.dispose();
  }
}
