/**
 * A three.js object that draws a {@link PointQuadtree}'s leaves as wireframe rectangles: one `LineSegments`
 * of 4 segments (8 vertices) per leaf, whose position buffer is reused from update to update and grown by
 * doubling (the replaced geometry is disposed, so no GPU buffer leaks).
 *
 * Only types come from the core: the helper reads the tree through `point-quadtree/debug`'s `visitNodes` and
 * `visitCircle` and the tree's `version`, so a bundle that imports the helper alone does not carry the tree's
 * code twice.
 */

import {
  BufferAttribute,
  BufferGeometry,
  Color,
  type ColorRepresentation,
  DynamicDrawUsage,
  LineBasicMaterial,
  LineSegments,
} from 'three';
import { visitCircle, visitNodes } from '../debug';
import type { NodeInfo, PointQuadtree } from '../index';

const NAME = 'QuadtreeHelper';

/** 4 edges x 2 vertices x 3 floats per rectangle. */
const FLOATS_PER_RECT = 24;

/** Below this many bytes of unused buffer an update uploads the whole buffer rather than a range. */
const RANGE_WORTH_BYTES = 64 * 1024;

/**
 * The plane the tree's (x, y) is drawn on. `'xz'`: tree x is world X, tree y is world Z and the lines lie at
 * Y = `height` (the ground of a Y-up scene). `'xy'`: tree x is X, tree y is Y, the lines at Z = `height`.
 */
export type QuadtreeHelperPlane = 'xz' | 'xy';

/** `'leaves'`: every leaf of the tree. `'visited'`: the leaves the circle of {@link QuadtreeHelper.setCircle} visits. */
export type QuadtreeHelperMode = 'leaves' | 'visited';

/** Options of {@link QuadtreeHelper}; each defaults to {@link QuadtreeHelper.DEFAULTS}. */
export interface QuadtreeHelperOptions {
  /** Which world plane the tree's (x, y) maps to. Default `'xz'`. */
  plane?: QuadtreeHelperPlane;
  /** Offset along the plane's normal, world units (lift the lines off the ground so they never z-fight). Default 0. */
  height?: number;
  /** What to draw. Default `'leaves'`. */
  mode?: QuadtreeHelperMode;
  /** Line colour. Default 0x00ff88. */
  color?: ColorRepresentation;
  /** Line opacity, 0 to 1. Below 1 the lines are transparent and write no depth. Default 1. */
  opacity?: number;
  /** Initial room, in rectangles (integer >= 1); the buffer doubles when a tree needs more. Default 256. */
  capacity?: number;
}

const DEFAULTS: Readonly<Required<QuadtreeHelperOptions>> = Object.freeze({
  plane: 'xz',
  height: 0,
  mode: 'leaves',
  color: 0x00ff88,
  opacity: 1,
  capacity: 256,
});

/**
 * The 8 vertices of a rectangle's 4 segments, as (x, y) corners: 0 the minimum, 1 the maximum. Bottom
 * (min,min)-(max,min), right (max,min)-(max,max), top (max,max)-(min,max), left (min,max)-(min,min).
 */
const LOOP = new Uint8Array([0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 0, 1, 0, 0]);

/** Where the tree's x, the tree's y and the height go in a vertex, per plane. */
const AXES: Readonly<Record<QuadtreeHelperPlane, readonly [number, number, number]>> = {
  xz: [0, 2, 1],
  xy: [0, 1, 2],
};

/** A value as a message shows it: strings quoted. */
function shown(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}

/**
 * Checks a number argument as the library does, without converting it: TypeError if it is not a number,
 * RangeError if it breaks `rule` (which `ok` tests). Both name the argument and the value.
 */
function checkNumber(name: string, value: unknown, ok: (n: number) => boolean, rule: string): void {
  if (typeof value !== 'number')
    throw new TypeError(`${NAME}: ${name} must be a number, got ${shown(value)}`);
  if (!ok(value)) throw new RangeError(`${NAME}: ${name} must be ${rule}, got ${shown(value)}`);
}

const isRadius = (n: number): boolean => n >= 0 && n < Number.POSITIVE_INFINITY;

/** The options merged over the defaults, each checked (see the constructor's `@throws`). */
function checkedOptions(options: QuadtreeHelperOptions): Required<QuadtreeHelperOptions> {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`${NAME}: options must be an object, got ${shown(options)}`);
  const o = { ...DEFAULTS, ...options };
  if (o.plane !== 'xz' && o.plane !== 'xy')
    throw new RangeError(`${NAME}: plane must be 'xz' or 'xy', got ${shown(o.plane)}`);
  if (o.mode !== 'leaves' && o.mode !== 'visited')
    throw new RangeError(`${NAME}: mode must be 'leaves' or 'visited', got ${shown(o.mode)}`);
  checkNumber('height', o.height, Number.isFinite, 'a finite number');
  checkNumber('opacity', o.opacity, (n) => n >= 0 && n <= 1, 'a number from 0 to 1');
  checkNumber('capacity', o.capacity, (n) => Number.isInteger(n) && n >= 1, 'an integer >= 1');
  return o;
}

function makeGeometry(positions: Float32Array): BufferGeometry {
  const geometry = new BufferGeometry();
  const attribute = new BufferAttribute(positions, 3);
  attribute.setUsage(DynamicDrawUsage);
  geometry.setAttribute('position', attribute);
  geometry.setDrawRange(0, 0);
  return geometry;
}

/**
 * Draws a tree's leaves as rectangles: `scene.add(new QuadtreeHelper(tree))`, then `helper.update()` each
 * frame. Put it in world space (or under an object whose transform is the one the tree's coordinates are
 * in): the vertices are the tree's coordinates on the chosen plane.
 *
 * Two modes:
 * - `'leaves'`: every leaf; {@link QuadtreeHelper.update} redraws only when the tree's `version` changed
 *   (a split, a merge, root growth) or another tree was set. Moves inside leaves change nothing drawn.
 * - `'visited'`: the leaves a circle query visits, exactly as `point-quadtree/debug`'s `visitCircle` reports them;
 *   {@link QuadtreeHelper.setCircle} then `update()`, which always redraws (nothing until a circle is set).
 *
 * Updates allocate nothing once the buffer has room for the tree's leaves.
 */
export class QuadtreeHelper extends LineSegments<BufferGeometry, LineBasicMaterial> {
  /** The options' defaults (frozen). */
  static readonly DEFAULTS = DEFAULTS;

  override readonly type = 'QuadtreeHelper';

  /** The tree drawn; set another and the next `update()` redraws. */
  tree: PointQuadtree;
  /** What is drawn; a change takes effect at the next `update()`. */
  mode: QuadtreeHelperMode;
  /** The plane, as constructed. */
  readonly plane: QuadtreeHelperPlane;
  /** The offset along the plane's normal, as constructed. */
  readonly height: number;
  /** Rectangles drawn by the last update (8 vertices each). */
  rectCount = 0;

  private positions: Float32Array;
  private readonly axes: readonly [number, number, number];
  private readonly uploadRange = { start: 0, count: 0 };
  private drawnVersion = -1;
  private drawnTree: PointQuadtree | null = null;
  private drawnMode: QuadtreeHelperMode | null = null;
  private cx = 0;
  private cy = 0;
  /** The visited circle's radius; -1 until {@link QuadtreeHelper.setCircle}. */
  private radius = -1;
  // Bound once: the tree's visitors get the same function every update (no closure per frame).
  private readonly visitLeaf = (node: NodeInfo): boolean => {
    if (node.isLeaf) this.pushRect(node);
    return false;
  };

  /**
   * Draws `tree` at once (an `update()`).
   * @throws TypeError if `tree` has no `queryCircle`, `options` is not an object, or `height`, `opacity` or
   *   `capacity` is not a number; RangeError naming the option for a `plane` or `mode` not listed, a `height`
   *   that is not finite, an `opacity` outside 0..1, a `capacity` that is not an integer >= 1.
   */
  constructor(tree: PointQuadtree, options: QuadtreeHelperOptions = {}) {
    if (typeof (tree as Partial<PointQuadtree> | null)?.queryCircle !== 'function')
      throw new TypeError(`${NAME}: tree must be a PointQuadtree, got ${shown(tree)}`);
    const o = checkedOptions(options);
    const positions = new Float32Array(o.capacity * FLOATS_PER_RECT);
    const material = new LineBasicMaterial({
      color: new Color(o.color),
      transparent: o.opacity < 1,
      opacity: o.opacity,
      // Opaque lines must write depth, or a ground drawn after them covers them.
      depthWrite: o.opacity >= 1,
    });
    super(makeGeometry(positions), material);
    this.name = 'QuadtreeHelper';
    this.tree = tree;
    this.mode = o.mode;
    this.plane = o.plane;
    this.height = o.height;
    this.axes = AXES[o.plane];
    this.positions = positions;
    // The lines move with the tree, and a bounding sphere computed once would cull them wrongly.
    this.frustumCulled = false;
    this.update();
  }

  /** Rectangles the buffer holds without growing (it only grows, by doubling). */
  get capacityRects(): number {
    return this.positions.length / FLOATS_PER_RECT;
  }

  /**
   * The circle whose visited leaves a `'visited'` helper draws, in tree units (on the `'xz'` plane: world
   * x, world z). Redrawn at the next `update()`.
   * @throws TypeError if x, y or radius is not a number; RangeError if x or y is not finite or radius is not
   *   a finite number >= 0. The circle stays as it was.
   */
  setCircle(x: number, y: number, radius: number): void {
    // Called every frame: the checks that pass are written out here, the messages come from checkNumber.
    const fine = typeof radius === 'number' && radius >= 0 && radius < Number.POSITIVE_INFINITY;
    if (!(fine && Number.isFinite(x) && Number.isFinite(y))) {
      checkNumber('x', x, Number.isFinite, 'finite');
      checkNumber('y', y, Number.isFinite, 'finite');
      checkNumber('radius', radius, isRadius, 'a finite number >= 0');
    }
    this.cx = x;
    this.cy = y;
    this.radius = radius;
  }

  /**
   * Redraws from the tree. In `'leaves'` mode it does nothing when neither the tree, its `version` nor the
   * mode changed since the last redraw; in `'visited'` mode it always redraws. O(leaves drawn).
   * @returns whether it redrew.
   */
  update(): boolean {
    const tree = this.tree;
    const leaves = this.mode === 'leaves';
    if (
      leaves &&
      this.drawnMode === 'leaves' &&
      tree === this.drawnTree &&
      tree.version === this.drawnVersion
    )
      return false;
    this.rectCount = 0;
    if (leaves) visitNodes(tree, this.visitLeaf);
    else if (this.radius >= 0) visitCircle(tree, this.cx, this.cy, this.radius, this.visitLeaf);
    this.drawnTree = tree;
    this.drawnVersion = tree.version;
    this.drawnMode = this.mode;
    this.upload();
    this.geometry.setDrawRange(0, this.rectCount * 8);
    return true;
  }

  /**
   * Marks the positions for upload: the whole buffer, or only the drawn part when that saves more than
   * {@link RANGE_WORTH_BYTES}. A range is one reused object, but three's renderer empties the attribute's
   * list of ranges after each upload and the next push gives that list new storage: small buffers go
   * whole and allocate nothing.
   */
  private upload(): void {
    const attribute = this.geometry.getAttribute('position') as BufferAttribute;
    const ranges = attribute.updateRanges;
    const unusedBytes = (this.capacityRects - this.rectCount) * FLOATS_PER_RECT * 4;
    if (unusedBytes > RANGE_WORTH_BYTES) {
      this.uploadRange.count = this.rectCount * FLOATS_PER_RECT;
      if (ranges.length !== 1 || ranges[0] !== this.uploadRange) {
        attribute.clearUpdateRanges();
        ranges.push(this.uploadRange);
      }
    } else if (ranges.length > 0) {
      attribute.clearUpdateRanges();
    }
    attribute.needsUpdate = true;
  }

  /**
   * Appends a leaf's four edges (bottom, right, top, left) as independent segments. Written out here, not
   * through a per-vertex helper: doubles passed to a function the engine does not inline are boxed, an
   * allocation per vertex.
   */
  private pushRect(node: NodeInfo): void {
    if (this.rectCount === this.capacityRects) this.grow();
    const p = this.positions;
    const axes = this.axes;
    const ax = axes[0];
    const ay = axes[1];
    const up = axes[2];
    const h = this.height;
    const x0 = node.minX;
    const y0 = node.minY;
    const x1 = node.maxX;
    const y1 = node.maxY;
    let o = this.rectCount * FLOATS_PER_RECT;
    for (let k = 0; k < 16; k += 2, o += 3) {
      p[o + ax] = LOOP[k] === 0 ? x0 : x1;
      p[o + ay] = LOOP[k + 1] === 0 ? y0 : y1;
      p[o + up] = h;
    }
    this.rectCount++;
  }

  /** Doubles the buffer: copies what is drawn so far into a new geometry and disposes the old one. */
  private grow(): void {
    const bigger = new Float32Array(this.positions.length * 2);
    bigger.set(this.positions);
    const old = this.geometry;
    this.geometry = makeGeometry(bigger);
    this.positions = bigger;
    old.dispose();
  }

  /** Frees the GPU buffers and the material. The helper must not be drawn afterwards. */
  override dispose(): void {
    this.geometry.dispose();
    this.material.dispose();
  }
}
