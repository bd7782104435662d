// The record of a moveAll kernel call (moveAll.ts): written by the host (../moveKernel.ts), read by the kernel,
// byte offsets from its start. Constants only, so that this one file is both AssemblyScript and TypeScript.

// f64 first.
/** The root's loose rectangle's max x and max y: a point on the root's far edge stays in its leaf. */
export const ROOT_MAX_X = 0;
export const ROOT_MAX_Y = 8;

// i32 byte addresses.
/** The tree's pool: f64 x, y per slot (written for every item that stays in its leaf). */
export const MOVE_XY = 16;
/** The tree's id tables: i32 slot (-1: absent) and i32 leaf per id. */
export const ID_SLOT = 20;
export const ID_LEAF = 24;
/** The tree's loose rectangles: f64 minX, minY, maxX, maxY per node. */
export const MOVE_RECT = 28;
/** The new positions per id, f32 or f64 (MOVE_WIDE). */
export const MOVE_XS = 32;
export const MOVE_YS = 36;
/** Out: the ids that left their leaf's loose rectangle, in increasing order. */
export const LEAVERS = 40;
/** Out: their new positions, f64 x, y per listed id (read in order: the ids' entries lie at random). */
export const LEAVER_XY = 52;

// i32 values.
/** The largest id to look at. */
export const MAX_ID = 44;
/** 1: MOVE_XS and MOVE_YS hold f64; 0: f32. */
export const MOVE_WIDE = 48;
// (52: LEAVER_XY, above.)

// f64 again.
/** The root's rectangle, edges included, for the check that every new position is inside it (`inside`). */
export const BOX_MIN_X = 56;
export const BOX_MIN_Y = 64;
export const BOX_MAX_X = 72;
export const BOX_MAX_Y = 80;

/** Bytes of the record. */
export const MOVE_CALL_BYTES = 96;
