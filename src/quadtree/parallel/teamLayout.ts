/*
 * The shared buffer of a separation team (team.ts, the calling thread; teamHelper.ts, each helper thread):
 * one SharedArrayBuffer, laid out from the capacities in its header, so both sides compute the same offsets.
 *
 *   control  i32 x CONTROL_WORDS:
 *              SEQ      publication count, a seqlock: odd while the caller writes the inputs, even once they
 *                       are complete; generation g is published as SEQ = 2g. Helpers Atomics.wait on it.
 *              STOP     0 run; RETIRED: this buffer is replaced (a new one follows by message); STOPPED
 *              SLOTS, PAIRS, NODES   the tree's pool.top, the list's pair count and the tree's nodeTop of the
 *                       generation (the caller publishes and a helper copies only the slots and nodes in use)
 *              LIST     the generation that last published the list (the caller writes the list only when
 *                       its kernel's list changed or the buffer is new; a helper copies it into its kernel
 *                       only when this has changed since its last whole copy)
 *              capacities: XY_CAP (f64), IDS_CAP, NODES_CAP (i32), PAIRS_CAP (leaf pairs), SLOTS_CAP, HELPERS
 *              per helper k, at HELPER_BASE + k * HELPER_WORDS:
 *                FROM, TO   its range of the list, [FROM, TO) (empty: nothing for it this generation)
 *                CLAIM      the last generation claimed for this range, by the helper or by the caller
 *                           (a compareExchange: whoever moves it to g does the range)
 *                DONE       the last generation whose range the helper finished (its sums written)
 *                FAILED     the last generation the helper could not do (it threw)
 *                FOUND      item pairs of its range
 *                STATE      0 not attached yet, ATTACHED, NO_KERNEL (it cannot run the kernel)
 *                SEEN       the last SEQ the helper picked up (a helper given up on is used again once
 *                           it has picked up a later generation: it has finished the one it was late in)
 *   f64 x 2  the radius (each thread's kernel takes the distance scale from it), then the precision (1:
 *            the fast sums, 0: exact)
 *   xy       f64 x XY_CAP          the pool's x, y per slot (pool.xy)
 *   ids      i32 x IDS_CAP         pool.ids
 *   start    i32 x NODES_CAP       nodeStart          count  i32 x NODES_CAP  nodeCount
 *   child    i32 x NODES_CAP       nodeChild          parent i32 x NODES_CAP / 4 + 1  groupParent
 *            (every thread gathers its copy of the tree leaf by leaf from these: crowd/kernels/gather.ts)
 *   list     i32 x 2 PAIRS_CAP     the leaf pairs, sorted by first leaf (see separation.ts)
 *   per helper, then one for the caller: f64 x 4 SLOTS_CAP, the range's per-slot records as the kernel lays
 *            them out (sum x, sum y, count, unused: kernels/wasm.ts), so that a helper's move in one copy
 *   per helper, then one for the caller: u8 x (SLOTS_CAP >> TOUCH_SHIFT) + 1, the blocks of slots whose
 *            records the range may have written (crowd/kernels/call.ts's TOUCHED: elsewhere they are 0),
 *            so that the caller adds a helper's records only there
 * Every region starts on a 16-byte boundary.
 */

import { describe, NAME, sharedBytes } from '../core/checks';
import { touchedLength } from '../crowd/wasmLayout';

export const SEQ = 0;
export const STOP = 1;
export const SLOTS = 2;
export const PAIRS = 3;
const XY_CAP = 4;
const IDS_CAP = 5;
const NODES_CAP = 6;
const PAIRS_CAP = 7;
const SLOTS_CAP = 8;
const HELPERS = 9;
export const NODES = 10;
export const LIST = 11;
const HELPER_BASE = 16;
const HELPER_WORDS = 8;
export const FROM = 0;
export const TO = 1;
export const CLAIM = 2;
export const DONE = 3;
export const FAILED = 4;
export const FOUND = 5;
export const STATE = 6;
export const SEEN = 7;

/** STOP values. */
export const RETIRED = 1;
export const STOPPED = 2;
/** STATE values. */
export const ATTACHED = 1;
export const NO_KERNEL = 2;

/** Most helper threads a team takes. */
export const MAX_HELPERS = 15;
const CONTROL_WORDS = HELPER_BASE + HELPER_WORDS * MAX_HELPERS;

/** Index of helper k's word `w` (FROM, TO, ...) in the control words. */
export function helperWord(k: number, w: number): number {
  return HELPER_BASE + k * HELPER_WORDS + w;
}

/**
 * How many entries a view of the first `n` entries of an array takes when either side makes one (the caller
 * of what it publishes, teamInputs.ts; a helper of what it copies, teamHelper.ts): 1/8 more, and 64, so that
 * counts that move a little from frame to frame (the pool's top, the node count, the list's length) do not
 * make a view every frame. The entries past `n` are copied and never read.
 */
export function publishedLength(n: number): number {
  return n + (n >> 3) + 64;
}

/** The sizes a shared buffer has room for. */
export interface Capacity {
  /** f64 entries of xy. */
  xy: number;
  ids: number;
  nodes: number;
  /** Leaf pairs of the list. */
  pairs: number;
  slots: number;
  helpers: number;
}

/** Byte offsets of the regions. */
export interface Offsets {
  f64: number;
  xy: number;
  ids: number;
  start: number;
  count: number;
  child: number;
  parent: number;
  list: number;
  /** Per-slot records of region r (helpers 0..helpers-1, then the caller's): sum x, sum y, count, unused. */
  sums: number;
  /** Bytes of one region. */
  sumsBytes: number;
  /** Blocks written of region r (helpers, then the caller's): a byte per block of slots. */
  touched: number;
  /** Bytes of one region of blocks. */
  touchedBytes: number;
  bytes: number;
}

const align = (n: number): number => (n + 15) & ~15;

/** Entries of groupParent for `nodes` nodes (one per group of four, and the root's). */
export function groupsOf(nodes: number): number {
  return (nodes >> 2) + 1;
}

export function offsetsOf(c: Capacity): Offsets {
  let p = align(CONTROL_WORDS * 4);
  const take = (bytes: number): number => {
    const here = p;
    p = align(p + bytes);
    return here;
  };
  const f64 = take(16);
  const xy = take(c.xy * 8);
  const ids = take(c.ids * 4);
  const start = take(c.nodes * 4);
  const count = take(c.nodes * 4);
  const child = take(c.nodes * 4);
  const parent = take(groupsOf(c.nodes) * 4);
  const list = take(c.pairs * 8);
  const sumsBytes = align(c.slots * 32);
  const sums = take(sumsBytes * (c.helpers + 1));
  const touchedBytes = align(touchedLength(c.slots));
  const touched = take(touchedBytes * (c.helpers + 1));
  return {
    f64,
    xy,
    ids,
    start,
    count,
    child,
    parent,
    list,
    sums,
    sumsBytes,
    touched,
    touchedBytes,
    bytes: p,
  };
}

/** A new buffer with room for `c`, its capacities written in its header. */
export function createBuffer(c: Capacity): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(offsetsOf(c).bytes);
  const control = new Int32Array(buffer, 0, CONTROL_WORDS);
  control[XY_CAP] = c.xy;
  control[IDS_CAP] = c.ids;
  control[NODES_CAP] = c.nodes;
  control[PAIRS_CAP] = c.pairs;
  control[SLOTS_CAP] = c.slots;
  control[HELPERS] = c.helpers;
  return buffer;
}

/** The capacities a buffer's header gives (its control words). */
function capacityOf(control: Int32Array): Capacity {
  return {
    xy: control[XY_CAP],
    ids: control[IDS_CAP],
    nodes: control[NODES_CAP],
    pairs: control[PAIRS_CAP],
    slots: control[SLOTS_CAP],
    helpers: control[HELPERS],
  };
}

/** The views of one shared buffer, the same on every thread. */
export class TeamViews {
  readonly control: Int32Array;
  readonly numbers: Float64Array;
  readonly capacity: Capacity;
  readonly xy: Float64Array;
  readonly ids: Int32Array;
  readonly start: Int32Array;
  readonly count: Int32Array;
  readonly child: Int32Array;
  readonly parent: Int32Array;
  readonly list: Int32Array;
  /** Per region (helpers, then the caller): per-slot records, f64 sum x, sum y, count, unused. */
  readonly sums: Float64Array[] = [];
  /** Per region: a byte per block of slots, 1 where that region's records may be other than 0. */
  readonly touched: Uint8Array[] = [];

  constructor(readonly buffer: SharedArrayBuffer) {
    const control = new Int32Array(buffer, 0, CONTROL_WORDS);
    this.control = control;
    const c = capacityOf(control);
    this.capacity = c;
    const o = offsetsOf(c);
    this.numbers = new Float64Array(buffer, o.f64, 2);
    this.xy = new Float64Array(buffer, o.xy, c.xy);
    this.ids = new Int32Array(buffer, o.ids, c.ids);
    this.start = new Int32Array(buffer, o.start, c.nodes);
    this.count = new Int32Array(buffer, o.count, c.nodes);
    this.child = new Int32Array(buffer, o.child, c.nodes);
    this.parent = new Int32Array(buffer, o.parent, groupsOf(c.nodes));
    this.list = new Int32Array(buffer, o.list, c.pairs * 2);
    for (let r = 0; r <= c.helpers; r++) {
      this.sums.push(new Float64Array(buffer, o.sums + r * o.sumsBytes, 4 * c.slots));
      this.touched.push(new Uint8Array(buffer, o.touched + r * o.touchedBytes, touchedLength(c.slots)));
    }
  }
}

/** What a helper thread is sent: the shared buffer and which helper it is. */
export interface SeparationHelperMessage {
  readonly kind: typeof MESSAGE_KIND;
  readonly buffer: SharedArrayBuffer;
  readonly index: number;
}

export const MESSAGE_KIND = 'point-quadtree/separation-helper';

/** Whether `value` is a message for a separation helper (a worker may also receive other messages). */
export function isSeparationHelperMessage(value: unknown): value is SeparationHelperMessage {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === MESSAGE_KIND;
}

/**
 * Checks a helper's message, reading each of its fields once: a team's kind, a SharedArrayBuffer (by its own
 * getter: a Proxy of one is not) laid out as its header says, and a helper index within it. Returns the
 * buffer's views and the index.
 */
export function checkHelperMessage(message: unknown): { views: TeamViews; index: number } {
  if (!isSeparationHelperMessage(message)) {
    throw new TypeError(
      `${NAME}: message must be a separation helper's message (kind '${MESSAGE_KIND}'), got ${describe(message)}`,
    );
  }
  const { buffer, index } = message;
  const bytes = sharedBytes(buffer);
  if (bytes < 0) {
    throw new TypeError(`${NAME}: message.buffer must be a SharedArrayBuffer, got ${describe(buffer)}`);
  }
  checkHeader(buffer, bytes);
  const views = new TeamViews(buffer);
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= views.capacity.helpers) {
    throw new RangeError(
      `${NAME}: message.index must be an integer from 0 to ${views.capacity.helpers - 1}, got ${describe(index)}`,
    );
  }
  return { views, index };
}

/**
 * Throws unless `buffer` (of `bytes` bytes) is as long as its header's capacities lay it out (from 1 to
 * MAX_HELPERS helpers).
 */
function checkHeader(buffer: SharedArrayBuffer, bytes: number): void {
  if (bytes < CONTROL_WORDS * 4) {
    throw new RangeError(`${NAME}: message.buffer is too short (${bytes} bytes) for a team`);
  }
  const c = capacityOf(new Int32Array(buffer, 0, CONTROL_WORDS));
  const sizes = [c.xy, c.ids, c.nodes, c.pairs, c.slots];
  if (
    !(c.helpers >= 1 && c.helpers <= MAX_HELPERS && sizes.every((n) => n >= 0) && offsetsOf(c).bytes <= bytes)
  ) {
    throw new RangeError(
      `${NAME}: message.buffer is not a team's buffer (${bytes} bytes, header: xy ${c.xy}, ids ${c.ids}, ` +
        `nodes ${c.nodes}, pairs ${c.pairs}, slots ${c.slots}, helpers ${c.helpers})`,
    );
  }
}
