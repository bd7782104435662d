// The parameter block of a kernel call: one record in the module's memory that the host (../wasm.ts)
// writes and the kernels read (byte offsets from its start), instead of positional lists of a dozen numbers
// and addresses that would still compile with two of them swapped. Constants only, so that this one file is
// both AssemblyScript (the kernels import it) and TypeScript (the host imports it): the layout is written
// once. Where each region lies and what it holds: ../wasmLayout.ts.

// f64 (8-aligned) first.
/** The radius of the call. */
export const RADIUS = 0;
/** The distance scale s: every difference is taken times s (distanceScale in core/distance.ts). */
export const SCALE = 8;
/** The walk's leaf sides, in world units, past which a pair of leaves is marked sparse, and wide. */
export const SPARSE_SIDE = 16;
export const WIDE_SIDE = 24;

// i32 byte addresses of the regions.
/**
 * The tree's copy: f64 x, y per slot (+ padding); i32 id per slot; i32 first slot and item count per node.
 * XY and IDS hold the gathered slots (gather.ts); START holds each node's first slot in the pool as it lies
 * until the gather runs, and its first gathered slot after.
 */
export const XY = 32;
export const IDS = 36;
export const START = 40;
export const COUNT = 44;
/** The walk's input: f64 loose rectangle (stride 4) and i32 first child per node; its i32 stack. */
export const RECT = 48;
export const CHILD = 52;
export const STACK = 56;
/** The walk's leaf pairs (stride 2 i32), the same grouped by first leaf, and the grouping's scratch. */
export const LIST = 60;
export const SORTED = 64;
export const FIRST_AT = 68;
/** Per-slot sums records (32 bytes: f64 sum x, sum y, count, unused), the rows' scratch, the prepared offsets. */
export const SUMS = 72;
export const TEMP = 76;
/** 0 when the rows convert for themselves (nothing prepared). */
export const PREP = 80;
/** The pair join's output chunk (i32 ids) and where it resumes (i32 pair, i32 item). */
export const PAIR_A = 84;
export const PAIR_B = 88;
export const RESUME = 92;
/** The per-id outputs, in the element types of the caller's arrays. */
export const OUT_COUNT = 96;
export const OUT_X = 100;
export const OUT_Y = 104;

// i32 counts.
/** Slots in use; nodes in use (nodeTop). */
export const SLOTS = 108;
export const NODES = 112;
/** Leaf pairs in the grouped list. */
export const PAIRS = 116;
/** Room of the walk's stack (entries) and of its list (leaf pairs). */
export const STACK_CAP = 120;
export const LIST_CAP = 124;
/** Pairs per chunk of the pair join. */
export const LIMIT = 128;
/** The per-id outputs: ids below END are written; their element types (2 bits each, count first: 0 f64, 1 f32, 2 i32). */
export const END = 132;
export const KINDS = 136;
/** The sums' precision: 0 exact (f64 square root and division), 1 fast (f32x4 lanes; row.ts's secondPass<f32>). */
export const PRECISION = 140;
/** The tree's pool as it lies (f64 x, y and i32 id per slot), which gather.ts gathers into XY and IDS. */
export const POOL_XY = 144;
export const POOL_IDS = 148;
/** i32 per group of four nodes: the parent of nodes 4g + 1 to 4g + 4 (the gather's way back up). */
export const PARENT = 152;
/** The gather's bounds: slots of the pool as it lies (POOL_XY, POOL_IDS) and nodes copied in. */
export const POOL_SLOTS = 156;
export const POOL_NODES = 160;

/**
 * One byte per block of 2^TOUCH_SHIFT slots, set by accumulate where it wrote a record of the block (zeroed
 * first; buildRow marks for the pair join too, which never reads them): a team's caller adds a helper's records only where its range wrote (../parallel/team.ts).
 */
export const TOUCHED = 164;
export const TOUCH_SHIFT = 6;

/** Bytes of the record. */
export const CALL_BYTES = 168;
