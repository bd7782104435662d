/*
 * Growable Int32Arrays: the one explicit stack every tree walk uses (no recursion), and the two helpers
 * that grow or resize a typed array.
 */

/** A copy of `a` with room for at least `need` entries (doubling), entries kept. */
export function growInt32(a: Int32Array, need: number): Int32Array {
  const b = new Int32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

/** A copy of the first `keep` entries of `a` in a new array of length `len`. */
export function resizeInt32(a: Int32Array, len: number, keep: number): Int32Array {
  const b = new Int32Array(len);
  b.set(a.subarray(0, Math.min(keep, len, a.length)));
  return b;
}

/**
 * The stack of a tree walk: node numbers in an Int32Array the walk indexes with a local `sp`. Each walk
 * owns one (so walks never disturb each other), grown by doubling, then reused: a walk allocates nothing.
 *
 *   let stack = this.stack.items; let sp = 0; stack[sp++] = 0;
 *   while (sp > 0) { const n = stack[--sp]; ...; stack = walk.room(sp, 4); stack[sp++] = child; ... }
 */
export class NodeStack {
  items: Int32Array;

  constructor(size = 64) {
    this.items = new Int32Array(size);
  }

  /** The stack's array, with room for `need` more entries above `sp` (entries below `sp` are kept). */
  room(sp: number, need: number): Int32Array {
    if (sp + need > this.items.length) this.items = growInt32(this.items, sp + need);
    return this.items;
  }
}
