// The leaf-pair walk of the separation kernel and its sort by first leaf (see kernels/separation.ts).

import {
  CHILD,
  FIRST_AT,
  LIST,
  LIST_CAP,
  NODES,
  RADIUS,
  RECT,
  SCALE,
  SORTED,
  SPARSE_SIDE,
  STACK,
  STACK_CAP,
  WIDE_SIDE,
} from './call';

/** Squared gap between the rectangles of nodes a and b (stride 4 f64 at rect), differences times s. */
function gap2(rect: usize, a: i32, b: i32, s: f64): f64 {
  const pa = rect + ((<usize>a) << 5);
  const pb = rect + ((<usize>b) << 5);
  const dx = Math.max(0, Math.max(load<f64>(pb) - load<f64>(pa, 16), load<f64>(pa) - load<f64>(pb, 16))) * s;
  const dy =
    Math.max(0, Math.max(load<f64>(pb, 8) - load<f64>(pa, 24), load<f64>(pa, 8) - load<f64>(pb, 24))) * s;
  return dx * dx + dy * dy;
}

function side(rect: usize, n: i32): f64 {
  const p = rect + ((<usize>n) << 5);
  return Math.max(load<f64>(p, 16) - load<f64>(p), load<f64>(p, 24) - load<f64>(p, 8));
}

function area(rect: usize, n: i32): f64 {
  const p = rect + ((<usize>n) << 5);
  return (load<f64>(p, 16) - load<f64>(p)) * (load<f64>(p, 24) - load<f64>(p, 8));
}

/**
 * leafPairsWithin of src/quadtree/query/leafPairs.ts, the same walk and the same marks, on the call's
 * record `c` (call.ts): every pair of leaves within reach (loose rectangles at RECT, first child per node at
 * CHILD) into the list at LIST (stride 2), a pair (a, ~b) past SPARSE_SIDE, (a | 2^30, ~b) past WIDE_SIDE.
 * Returns the number of pairs, -1 when the list would pass LIST_CAP pairs, -2 when the stack at STACK would
 * pass STACK_CAP entries (the caller grows, retries).
 */
export function walk(c: usize): i32 {
  const rect = load<usize>(c, RECT);
  const child = load<usize>(c, CHILD);
  const radius = load<f64>(c, RADIUS);
  const s = load<f64>(c, SCALE);
  const sparseSide = load<f64>(c, SPARSE_SIDE);
  const wideSide = load<f64>(c, WIDE_SIDE);
  const stack = load<usize>(c, STACK);
  const stackCap = load<i32>(c, STACK_CAP);
  const list = load<usize>(c, LIST);
  const listCap = load<i32>(c, LIST_CAP);
  const r2 = radius * s * (radius * s);
  let sp = 0;
  store<i32>(stack, 0);
  store<i32>(stack, 0, 4);
  sp = 2;
  let n = 0;
  while (sp > 0) {
    const b = load<i32>(stack + ((<usize>(sp - 1)) << 2));
    const a = load<i32>(stack + ((<usize>(sp - 2)) << 2));
    sp -= 2;
    const ca = load<i32>(child + ((<usize>a) << 2));
    const cb = load<i32>(child + ((<usize>b) << 2));
    if (ca < 0 && cb < 0) {
      if (n >= listCap) return -1;
      const longer = Math.max(side(rect, a), side(rect, b));
      const q = list + ((<usize>n) << 3);
      store<i32>(q, longer > wideSide ? a | 0x40000000 : a);
      store<i32>(q, longer > sparseSide ? ~b : b, 4);
      n++;
      continue;
    }
    if (a === b) {
      if (sp + 20 > stackCap) return -2;
      for (let i = ca; i < ca + 4; i++) {
        store<i32>(stack + ((<usize>sp) << 2), i);
        store<i32>(stack + ((<usize>sp) << 2), i, 4);
        sp += 2;
        for (let j = i + 1; j < ca + 4; j++) {
          if (gap2(rect, i, j, s) > r2) continue;
          store<i32>(stack + ((<usize>sp) << 2), i);
          store<i32>(stack + ((<usize>sp) << 2), j, 4);
          sp += 2;
        }
      }
      continue;
    }
    // Split the inner node with the larger rectangle (a leaf is never split).
    let split = a;
    let other = b;
    if (ca < 0 || (cb >= 0 && area(rect, b) > area(rect, a))) {
      split = b;
      other = a;
    }
    if (sp + 8 > stackCap) return -2;
    const c = load<i32>(child + ((<usize>split) << 2));
    for (let k = c; k < c + 4; k++) {
      if (gap2(rect, k, other, s) > r2) continue;
      store<i32>(stack + ((<usize>sp) << 2), k);
      store<i32>(stack + ((<usize>sp) << 2), other, 4);
      sp += 2;
    }
  }
  return n;
}

/**
 * The first `n` pairs at LIST grouped by first leaf into SORTED, the groups in the order the walk met the
 * leaves (their pairs with themselves: depth first, so consecutive groups are near in space and share
 * partners, whose items are then still in the cache). A counting sort; FIRST_AT holds 2 (NODES + 1) i32.
 */
export function sortByFirst(c: usize, n: i32): void {
  const list = load<usize>(c, LIST);
  const nodes = load<i32>(c, NODES);
  const at = load<usize>(c, FIRST_AT);
  const out = load<usize>(c, SORTED);
  const rank = at;
  const start = at + ((<usize>nodes + 1) << 2);
  memory.fill(rank, 0xff, (<usize>nodes) << 2);
  memory.fill(start, 0, (<usize>nodes + 1) << 2);
  let ranks = 0;
  for (let k = 0; k < n; k++) {
    const a = load<i32>(list + ((<usize>k) << 3)) & 0x3fffffff;
    const marked = load<i32>(list + ((<usize>k) << 3), 4);
    if ((marked < 0 ? ~marked : marked) === a && load<i32>(rank + ((<usize>a) << 2)) < 0) {
      store<i32>(rank + ((<usize>a) << 2), ranks++);
    }
  }
  for (let k = 0; k < n; k++) {
    const p = rank + ((<usize>(load<i32>(list + ((<usize>k) << 3)) & 0x3fffffff)) << 2);
    // A first leaf without a pair with itself (not from walk): ranked where first met.
    if (load<i32>(p) < 0) store<i32>(p, ranks++);
    const c = start + ((<usize>load<i32>(p) + 1) << 2);
    store<i32>(c, load<i32>(c) + 1);
  }
  for (let v = 0; v < ranks; v++) {
    const p = start + ((<usize>v) << 2);
    store<i32>(p, load<i32>(p) + load<i32>(p, 4), 4);
  }
  for (let k = 0; k < n; k++) {
    const first = load<i32>(list + ((<usize>k) << 3));
    const p = start + ((<usize>load<i32>(rank + ((<usize>(first & 0x3fffffff)) << 2))) << 2);
    const q = load<i32>(p);
    store<i32>(p, q + 1);
    store<i32>(out + ((<usize>q) << 3), first);
    store<i32>(out + ((<usize>q) << 3), load<i32>(list + ((<usize>k) << 3), 4), 4);
  }
}
