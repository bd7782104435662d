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
 * A set of enemy ids answered by a query. Fill {@link next} (the query's reusable `out` array), then
 * {@link commit}: members that left and newcomers go to the change list. O(old + new), no allocation.
 */
export class FoundSet {
  /** Current members, in the order the query returned them. */
  ids: number[] = [];
  /** The next answer: the caller empties it, passes it to the query as `out`, then commits. */
  next: number[] = [];
  private readonly flags: Uint8Array;

  constructor(capacity: number) {
    this.flags = new Uint8Array(capacity);
  }

  /** Whether `id` is a member. */
  has(id: number): boolean {
    return (this.flags[id] & IN_SET) !== 0;
  }

  get size(): number {
    return this.ids.length;
  }

  /** Make {@link next} the members; ids entering or leaving are added to `changes`. */
  commit(changes: ChangeList): void {
    const flags = this.flags;
    const next = this.next;
    const old = this.ids;
    for (let i = 0; i < next.length; i++) flags[next[i]] |= IN_NEXT;
    for (let i = 0; i < old.length; i++) {
      const id = old[i];
      if ((flags[id] & IN_NEXT) === 0) {
        flags[id] = 0;
        changes.add(id);
      }
    }
    for (let i = 0; i < next.length; i++) {
      const id = next[i];
      if ((flags[id] & IN_SET) === 0) changes.add(id);
      flags[id] = IN_SET;
    }
    this.ids = next;
    this.next = old;
    old.length = 0;
  }

  /** Empty the set; former members go to `changes`. */
  clear(changes: ChangeList): void {
    this.next.length = 0;
    this.commit(changes);
  }
}

/** Brute force: append every id < count with (x - cx)² + (z - cz)² <= r² (same rule as the tree). */
export function scanCircle(
  xs: ArrayLike<number>,
  zs: ArrayLike<number>,
  count: number,
  cx: number,
  cz: number,
  radius: number,
  out: number[],
): number[] {
  const r2 = radius * radius;
  for (let i = 0; i < count; i++) {
    const dx = xs[i] - cx;
    const dz = zs[i] - cz;
    if (dx * dx + dz * dz <= r2) out.push(i);
  }
  return out;
}

/** Brute force: append every id < count inside the closed rectangle. */
export function scanRect(
  xs: ArrayLike<number>,
  zs: ArrayLike<number>,
  count: number,
  minX: number,
  minZ: number,
  maxX: number,
  maxZ: number,
  out: number[],
): number[] {
  for (let i = 0; i < count; i++) {
    const x = xs[i];
    const z = zs[i];
    if (x >= minX && x <= maxX && z >= minZ && z <= maxZ) out.push(i);
  }
  return out;
}
