/**
 * The one place that maps the scene's world to the quadtree's plane.
 *
 * The scene stands on the XZ ground plane (Y is up). The quadtree indexes points in its own (x, y) plane.
 * The mapping is the identity on the numbers: tree x = world x, tree y = world z. Every other module goes
 * through these helpers so that the convention lives in one place.
 */
import type { Bounds } from 'point-quadtree';

/** Tree x of a world position. */
export function treeX(worldX: number): number {
  return worldX;
}

/** Tree y of a world position (the world's z). */
export function treeY(worldZ: number): number {
  return worldZ;
}

/**
 * Tree x coordinates of a whole array of world x (for `moveAll`): the same array, since the mapping is the
 * identity on the numbers. Indexed by enemy id = tree id.
 */
export function treeXs<T extends ArrayLike<number>>(worldXs: T): T {
  return worldXs;
}

/** Tree y coordinates of a whole array of world z (for `moveAll`): the same array. */
export function treeYs<T extends ArrayLike<number>>(worldZs: T): T {
  return worldZs;
}

/** World x of a tree point. */
export function worldX(treeXValue: number): number {
  return treeXValue;
}

/** World z of a tree point (the tree's y). */
export function worldZ(treeYValue: number): number {
  return treeYValue;
}

/** A rectangle on the ground, in world units. */
export interface GroundRect {
  minX: number;
  minZ: number;
  maxX: number;
  maxZ: number;
}

/** The tree rectangle of a ground rectangle. */
export function groundRectToTree(
  rect: GroundRect,
  out: Bounds = { minX: 0, minY: 0, maxX: 0, maxY: 0 },
): Bounds {
  out.minX = treeX(rect.minX);
  out.minY = treeY(rect.minZ);
  out.maxX = treeX(rect.maxX);
  out.maxY = treeY(rect.maxZ);
  return out;
}

/** The ground of a level `width` x `depth` world units, centred on the origin. */
export function levelGround(width: number, depth: number): GroundRect {
  return { minX: -width / 2, minZ: -depth / 2, maxX: width / 2, maxZ: depth / 2 };
}

/** The axis-aligned ground rectangle spanned by two corners given in any order. */
export function rectFromCorners(ax: number, az: number, bx: number, bz: number, out: GroundRect): GroundRect {
  out.minX = Math.min(ax, bx);
  out.maxX = Math.max(ax, bx);
  out.minZ = Math.min(az, bz);
  out.maxZ = Math.max(az, bz);
  return out;
}

/** `value` clamped to [min, max]. */
export function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, value));
}
