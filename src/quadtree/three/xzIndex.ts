/**
 * The XZ adapter: a crowd drawn as an `InstancedMesh` (id = instance index) or an `Object3D[]` (id = array
 * index), indexed by its world X and Z as the tree's (x, y). `index*` builds a tree once; `sync*` moves
 * every id to its object's current place with one `moveAll` and allocates nothing.
 *
 * The world positions go through one module-level scratch pair (`xs`, `zs`), grown by doubling and shared
 * by every call (each call fills it and hands it to the tree before returning). Past the entries a call
 * filled, it holds NaN: a tree that holds an id the call did not write (a tree that is not what `index*`
 * built) makes `moveAll` throw before it moves anything, instead of reading a stale position.
 */
import type { InstancedMesh, Object3D } from 'three';
import { type Bounds, PointQuadtree, type QuadtreeOptions } from '../index';

/** Options of {@link indexInstances} and {@link indexObjects}: the tree's, with `bounds` optional. */
export interface XZIndexOptions extends Omit<QuadtreeOptions, 'bounds'> {
  /**
   * The root rectangle in world X (`minX`, `maxX`) and Z (`minY`, `maxY`). Default: the square around the
   * objects' extent (at least 1 unit across). The root grows to cover any point either way.
   */
  bounds?: Bounds;
}

let xs = new Float64Array(0);
let zs = new Float64Array(0);
/** Entries [0, filled) of the scratch hold numbers written by the last call; the rest hold NaN. */
let filled = 0;
/** The extent of the last fill: [minX, minZ, maxX, maxZ]. */
const extent = new Float64Array(4);

function growScratch(n: number): void {
  if (xs.length >= n) return;
  let length = Math.max(64, xs.length);
  while (length < n) length *= 2;
  const x = new Float64Array(length).fill(Number.NaN);
  const z = new Float64Array(length).fill(Number.NaN);
  x.set(xs);
  z.set(zs);
  xs = x;
  zs = z;
}

/** Records that [0, n) was written: entries the previous call wrote past n go back to NaN. */
function markFilled(n: number): void {
  if (filled > n) {
    xs.fill(Number.NaN, n, filled);
    zs.fill(Number.NaN, n, filled);
  }
  filled = n;
}

/**
 * Checks a fill: every coordinate finite (the first bad one is named) and their extent finite, so that
 * nothing the tree is then asked to do can throw halfway. Also records the extent.
 */
function checkFill(who: string, what: string, n: number): void {
  let minX = Number.POSITIVE_INFINITY;
  let minZ = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxZ = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const x = xs[i];
    const z = zs[i];
    if (!Number.isFinite(x) || !Number.isFinite(z))
      throw new RangeError(`${who}: ${what} ${i} is not at a finite world position, got x ${x}, z ${z}`);
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (z < minZ) minZ = z;
    if (z > maxZ) maxZ = z;
  }
  if (n > 0 && (!Number.isFinite(maxX - minX) || !Number.isFinite(maxZ - minZ)))
    throw new RangeError(`${who}: the ${what}s' extent is not a finite number of units across`);
  extent[0] = minX;
  extent[1] = minZ;
  extent[2] = maxX;
  extent[3] = maxZ;
}

/**
 * Writes the world X and Z of instances [0, mesh.count) into the scratch: the instance's origin
 * (its matrix's translation) through the mesh's world matrix, which is brought up to date first.
 */
function readInstances(who: string, mesh: InstancedMesh): number {
  if ((mesh as Partial<InstancedMesh> | null)?.isInstancedMesh !== true)
    throw new TypeError(`${who}: mesh must be an InstancedMesh, got ${String(mesh)}`);
  const n = mesh.count;
  mesh.updateWorldMatrix(true, false);
  const m = mesh.matrixWorld.elements;
  const a = mesh.instanceMatrix.array;
  growScratch(n);
  for (let i = 0; i < n; i++) {
    const o = i * 16;
    const tx = a[o + 12];
    const ty = a[o + 13];
    const tz = a[o + 14];
    xs[i] = m[0] * tx + m[4] * ty + m[8] * tz + m[12];
    zs[i] = m[2] * tx + m[6] * ty + m[10] * tz + m[14];
  }
  markFilled(n);
  checkFill(who, 'instance', n);
  return n;
}

/** Writes the world X and Z of each object (its `getWorldPosition`, without a vector) into the scratch. */
function readObjects(who: string, objects: readonly Object3D[]): number {
  if (!Array.isArray(objects))
    throw new TypeError(`${who}: objects must be an array, got ${String(objects)}`);
  const n = objects.length;
  growScratch(n);
  for (let i = 0; i < n; i++) {
    const object = objects[i];
    if ((object as Partial<Object3D> | null)?.isObject3D !== true) {
      markFilled(i);
      throw new TypeError(`${who}: objects[${i}] must be an Object3D, got ${String(object)}`);
    }
    object.updateWorldMatrix(true, false);
    const e = object.matrixWorld.elements;
    xs[i] = e[12];
    zs[i] = e[14];
  }
  markFilled(n);
  checkFill(who, 'object', n);
  return n;
}

/** The default root: the square around the extent of the last fill, at least 1 unit across. */
function squareAroundExtent(n: number): Bounds {
  if (n === 0) return { minX: -0.5, minY: -0.5, maxX: 0.5, maxY: 0.5 };
  const side = Math.max(extent[2] - extent[0], extent[3] - extent[1], 1);
  const cx = extent[0] + (extent[2] - extent[0]) / 2;
  const cz = extent[1] + (extent[3] - extent[1]) / 2;
  return { minX: cx - side / 2, minY: cz - side / 2, maxX: cx + side / 2, maxY: cz + side / 2 };
}

/** Ids run from 0 to n - 1: n objects need n - 1 <= PointQuadtree.MAX_ID. */
function checkCount(who: string, n: number): void {
  if (n - 1 > PointQuadtree.MAX_ID)
    throw new RangeError(
      `${who}: ${n} objects are more than the ${PointQuadtree.MAX_ID + 1} ids a tree holds`,
    );
}

/** A tree of ids 0..n-1 at the scratch's positions. */
function build(who: string, n: number, options: XZIndexOptions | undefined): PointQuadtree {
  if (options !== undefined && (typeof options !== 'object' || options === null))
    throw new TypeError(`${who}: options must be an object, got ${String(options)}`);
  checkCount(who, n);
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  const tree = { ...options, bounds: options?.bounds ?? squareAroundExtent(n) };
  return PointQuadtree.from(tree, ids, xs.slice(0, n), zs.slice(0, n));
}

/**
 * Moves the tree's ids to the scratch's [0, n): ids past n are removed, ids from the tree's size up to n
 * inserted, all others moved in one moveAll. A tree whose size changes must hold exactly ids 0..size-1
 * (checked before anything changes); one whose size stays is left to moveAll, which throws on an id the
 * scratch holds NaN for.
 */
function syncTo(who: string, tree: PointQuadtree, n: number): void {
  if (!(tree instanceof PointQuadtree))
    throw new TypeError(`${who}: tree must be a PointQuadtree, got ${String(tree)}`);
  const size = tree.size;
  if (size !== n) {
    checkCount(who, n);
    for (let id = 0; id < size; id++) {
      if (!tree.has(id))
        throw new Error(
          `${who}: the tree must hold ids 0..${size - 1}, as index* built it; id ${id} is missing`,
        );
    }
    for (let id = size - 1; id >= n; id--) tree.remove(id);
  }
  tree.moveAll(xs, zs);
  for (let id = size; id < n; id++) tree.insert(id, xs[id], zs[id]);
}

/**
 * Builds a tree of an instanced mesh's instances [0, mesh.count): id = instance index, at the instance's
 * world X and Z (its matrix's translation through the mesh's world matrix) as the tree's (x, y).
 * @param options - the tree's options; `bounds` defaults to the square around the instances.
 * @throws TypeError if `mesh` is not an InstancedMesh; RangeError if an instance is not at a finite world
 *   position (naming it), and as `PointQuadtree.from` for bad options.
 */
export function indexInstances(mesh: InstancedMesh, options?: XZIndexOptions): PointQuadtree {
  const who = 'indexInstances';
  return build(who, readInstances(who, mesh), options);
}

/**
 * Moves every id of `tree` to its instance's current world X and Z in one `moveAll`. When `mesh.count`
 * changed, ids from the new count up are removed and new ones inserted, so the tree holds exactly the
 * instances drawn. Allocates nothing once its scratch has grown to the mesh's count. Updates the mesh's
 * world matrix (as `getWorldPosition` does). O(count + moved-out items * depth).
 * @throws TypeError if `tree` is not a PointQuadtree or `mesh` not an InstancedMesh; RangeError if an
 *   instance is not at a finite world position; Error if the count changed and the tree does not hold
 *   exactly ids 0..size-1. Nothing changes when it throws.
 */
export function syncInstances(tree: PointQuadtree, mesh: InstancedMesh): void {
  const who = 'syncInstances';
  syncTo(who, tree, readInstances(who, mesh));
}

/**
 * Builds a tree of objects: id = index in `objects`, at the object's world X and Z (`getWorldPosition`).
 * @throws TypeError if `objects` is not an array or an entry is not an Object3D (naming its index);
 *   RangeError as {@link indexInstances}.
 */
export function indexObjects(objects: readonly Object3D[], options?: XZIndexOptions): PointQuadtree {
  const who = 'indexObjects';
  return build(who, readObjects(who, objects), options);
}

/**
 * Moves every id of `tree` to its object's current world X and Z in one `moveAll`; ids follow the array's
 * length as {@link syncInstances} follows `mesh.count`. Updates each object's world matrix (and its
 * parents'), as `getWorldPosition` does. Allocates nothing once its scratch has grown.
 * @throws as {@link syncInstances}, with the entry checks of {@link indexObjects}.
 */
export function syncObjects(tree: PointQuadtree, objects: readonly Object3D[]): void {
  const who = 'syncObjects';
  syncTo(who, tree, readObjects(who, objects));
}
