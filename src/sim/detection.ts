/**
 * Per-frame detection bookkeeping, free of three.js: which enemies are in a set (found by the player's
 * circle, or inside the dragged rectangle), and which ones entered or left it since the last frame, so only
 * those instances are recoloured.
 */

/** Ids whose colour must be recomputed, deduplicated; cleared by whoever applies them. */
export class ChangeList {
  readonly ids: Int32Array;
  length = 0;
  private readonly marked: Uint8Array;

  constructor(capacity: number) {
    this.ids = new Int32Array(capacity);
    this.marked = new Uint8Array(capacity);
  }

  add(id: number): void {
    if (this.marked[id] === 1) return;
    this.marked[id] = 1;
    this.ids[this.length++] = id;
  }

  clear(): void {
    for (let i = 0; i < this.length; i++) this.marked[this.ids[i]] = 0;
    this.length = 0;
  }
}

const IN_SET = 1;
const IN_NEXT = 2;

/**
 * A set of enemy ids answered by a query. A query writes its answer into {@link next} (with the tree's
 * allocation-free `queryCircleInto` / `queryRectInto`, or a scan), then {@link commit} makes it the members:
 * members that left and newcomers go to the change list. O(old + new), no allocation: both arrays are
 * typed, sized once for every enemy, and swapped on commit.
 */
export class FoundSet {
  /** Current members in their first {@link size} entries, in the order the query returned them. */
  ids: Int32Array;
  size = 0;
  /** Where the next answer is written (room for every enemy). */
  next: Int32Array;
  private readonly flags: Uint8Array;

  constructor(capacity: number) {
    this.ids = new Int32Array(capacity);
    this.next = new Int32Array(capacity);
    this.flags = new Uint8Array(capacity);
  }

  /** Whether `id` is a member. */
  has(id: number): boolean {
    return (this.flags[id] & IN_SET) !== 0;
  }

  /** Make the first `count` entries of {@link next} the members; ids entering or leaving go to `changes`. */
  commit(count: number, changes: ChangeList): void {
    const flags = this.flags;
    const next = this.next;
    const old = this.ids;
    for (let i = 0; i < count; i++) flags[next[i]] |= IN_NEXT;
    for (let i = 0; i < this.size; i++) {
      const id = old[i];
      if ((flags[id] & IN_NEXT) === 0) {
        flags[id] = 0;
        changes.add(id);
      }
    }
    for (let i = 0; i < count; i++) {
      const id = next[i];
      if ((flags[id] & IN_SET) === 0) changes.add(id);
      flags[id] = IN_SET;
    }
    this.ids = next;
    this.next = old;
    this.size = count;
  }

  /** Empty the set; former members go to `changes`. */
  clear(changes: ChangeList): void {
    this.commit(0, changes);
  }

  /** The members as a sorted plain array (for the inspection hook and tests; allocates). */
  sorted(): number[] {
    return Array.from(this.ids.subarray(0, this.size)).sort((a, b) => a - b);
  }
}

/**
 * Brute force: writes every id < count with (x - cx)² + (z - cz)² <= r² (same rule as the tree) into `out`
 * from index 0; returns how many.
 */
export function scanCircle(
  xs: ArrayLike<number>,
  zs: ArrayLike<number>,
  count: number,
  cx: number,
  cz: number,
  radius: number,
  out: Int32Array,
): number {
  const r2 = radius * radius;
  let n = 0;
  for (let i = 0; i < count; i++) {
    const dx = xs[i] - cx;
    const dz = zs[i] - cz;
    if (dx * dx + dz * dz <= r2) out[n++] = i;
  }
  return n;
}

/** Brute force: writes every id < count inside the closed rectangle into `out` from index 0; returns how many. */
export function scanRect(
  xs: ArrayLike<number>,
  zs: ArrayLike<number>,
  count: number,
  minX: number,
  minZ: number,
  maxX: number,
  maxZ: number,
  out: Int32Array,
): number {
  let n = 0;
  for (let i = 0; i < count; i++) {
    const x = xs[i];
    const z = zs[i];
    if (x >= minX && x <= maxX && z >= minZ && z <= maxZ) out[n++] = i;
  }
  return n;
}
