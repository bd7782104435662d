// The record of a moveAll kernel call (moveAll.ts, refile.ts): written by the host (../moveKernel.ts), read by
// the kernel, byte offsets from its start. Constants only, so that this one file is both AssemblyScript and
// TypeScript. The root's rectangles are read where the tree keeps them (node 0 of NODE_BOUNDS and MOVE_RECT),
// so the host passes no floating-point value (a double it read would be boxed until the engine optimises it).

// i32 byte addresses: the tree's arrays, in the memory while the host holds them there.
/** The tree's pool: f64 x, y per slot. */
export const MOVE_XY = 0;
/** The pool's id per slot (pool.ids; the first slot of a free block links to the next). */
export const POOL_IDS = 4;
/** The tree's id tables: i32 slot (-1: absent) and i32 leaf per id. */
export const ID_SLOT = 8;
export const ID_LEAF = 12;
/** The tree's loose rectangles: f64 minX, minY, maxX, maxY per node (NODE_BOUNDS' array where looseness is 0). */
export const MOVE_RECT = 16;
/** The nodes' rectangles (f64 x 4 per node): the root's, and the split lines. */
export const NODE_BOUNDS = 20;
/** Per node, i32: first child (-1: a leaf), items below, first slot of a leaf's block, its capacity. */
export const NODE_CHILD = 24;
export const NODE_COUNT = 28;
export const NODE_START = 32;
export const NODE_CAP = 36;
/** The parent of each group of four nodes (i32; groups start at node 1). */
export const GROUP_PARENT = 40;
/** The pool's free lists: the first free block of each size class (i32 x 64, -1: none), in and out. */
export const FREE_LISTS = 44;

// i32 byte addresses: the call's own regions.
/** The new positions per id, f32 or f64 (MOVE_WIDE). */
export const MOVE_XS = 48;
export const MOVE_YS = 52;
/** Out (stay): the ids that left their leaf's loose rectangle, in increasing order. */
export const LEAVERS = 56;
/** Out (stay): their new positions, f64 x, y per listed id (read in order: the ids' entries lie at random). */
export const LEAVER_XY = 60;

// i32 values.
/** The largest id to look at. */
export const MAX_ID = 64;
/** 1: MOVE_XS and MOVE_YS hold f64; 0: f32. */
export const MOVE_WIDE = 68;
/** In (file): how many of the listed leavers to re-file. */
export const FILE_COUNT = 72;
/** The pool's high-water mark, live slots, compactDue (0 or 1) and last block's capacity: in and out (file). */
export const POOL_TOP = 76;
export const POOL_LIVE = 80;
export const POOL_DUE = 84;
export const POOL_BLOCK = 88;
/** The pool's capacity in slots (its arrays' length): a block past it needs arrays only JavaScript can give. */
export const POOL_CAP = 92;

/** Bytes of the record. */
export const MOVE_CALL_BYTES = 96;
