// The separation kernel in AssemblyScript: the per-slot accumulate of src/quadtree/separation.ts (the
// rule is written there) over leaf pairs, two candidates at a time in f64x2 lanes, and the hand-over of
// the slot sums to per-id arrays. Built by kernels/build.mjs into src/quadtree/kernels/separationWasm.ts.
// Every pointer is a byte offset into this module's memory, laid out by src/quadtree/kernels/wasm.ts.

/** Where the caller's buffers may start: above the module's own static data. */
export function heapBase(): usize {
  return __heap_base;
}

/** Adds the pair of slots i, j (one by one: coincident or nearly so, so the lanes' math does not apply). */
function addPair(
  xy: usize,
  ids: usize,
  cnt: usize,
  sx: usize,
  sy: usize,
  i: i32,
  j: i32,
  s: f64,
  inverse: f64,
  radius: f64,
): void {
  const pi = xy + ((<usize>i) << 4);
  const pj = xy + ((<usize>j) << 4);
  const ex = load<f64>(pj) - load<f64>(pi);
  const ey = load<f64>(pj, 8) - load<f64>(pi, 8);
  const dx = ex * s;
  const dy = ey * s;
  const d2 = dx * dx + dy * dy;
  let ux: f64 = 0;
  let uy: f64 = 0;
  if (d2 > 0) {
    const w = 1 / Math.sqrt(d2) - inverse;
    ux = dx * w;
    uy = dy * w;
  } else if (ex === 0 && ey === 0) {
    ux = load<i32>(ids + ((<usize>i) << 2)) < load<i32>(ids + ((<usize>j) << 2)) ? 1 : -1;
  } else {
    // The scaled square underflowed: the exact differences.
    const w = 1 / Math.hypot(ex, ey) - 1 / radius;
    ux = ex * w;
    uy = ey * w;
  }
  const oi = (<usize>i) << 3;
  const oj = (<usize>j) << 3;
  store<f64>(cnt + oi, load<f64>(cnt + oi) + 1);
  store<f64>(sx + oi, load<f64>(sx + oi) - ux);
  store<f64>(sy + oi, load<f64>(sy + oi) - uy);
  store<f64>(cnt + oj, load<f64>(cnt + oj) + 1);
  store<f64>(sx + oj, load<f64>(sx + oj) + ux);
  store<f64>(sy + oj, load<f64>(sy + oj) + uy);
}

/**
 * For each of the `pairs` leaf pairs at `list` (stride 2 i32 node numbers, a leaf with itself as (n, n),
 * the second stored as ~b where the pair is sparse: see leafPairsWithin in src/quadtree/separation.ts),
 * with each leaf's first slot and item count read from `start` / `count` (i32 per node), every pair of
 * items within reach adds to the per-slot count and sums (f64 arrays at cnt, sx, sy, one slot of padding
 * past `slots`; zeroed here). `xy` holds f64 x, y per slot (one slot of padding), `ids` the i32 id per
 * slot. Differences are taken times `s` (r2 = (radius s)², inverse = 1 / (radius s)). Returns the pairs.
 */
export function accumulate(
  xy: usize,
  ids: usize,
  start: usize,
  count: usize,
  list: usize,
  pairs: i32,
  cnt: usize,
  sx: usize,
  sy: usize,
  slots: i32,
  radius: f64,
  s: f64,
  temp: usize,
): i32 {
  const bytes = (<usize>slots + 2) << 3;
  memory.fill(cnt, 0, bytes);
  memory.fill(sx, 0, bytes);
  memory.fill(sy, 0, bytes);
  const rs = radius * s;
  const inverse = 1 / rs;
  const r2 = f64x2.splat(rs * rs);
  const inv = f64x2.splat(inverse);
  const sv = f64x2.splat(s);
  const one = f64x2.splat(1);
  const zero = f64x2.splat(0);
  const lane0 = i64x2(-1, 0);
  let found: i32 = 0;
  for (let k = 0; k < pairs; k++) {
    const first = load<i32>(list + ((<usize>k) << 3));
    const marked = load<i32>(list + ((<usize>k) << 3), 4);
    const a = first & 0x3fffffff;
    if (first === a) {
      // Not wide: a run of pairs of leaf a alike (the list is sorted by first leaf) is one group.
      let k2 = k + 1;
      while (
        k2 < pairs &&
        load<i32>(list + ((<usize>k2) << 3)) === first &&
        load<i32>(list + ((<usize>k2) << 3), 4) < 0 === marked < 0
      ) {
        k2++;
      }
      found += group(xy, ids, start, count, list, k, k2, a, marked < 0, cnt, sx, sy, slots, radius, s, temp);
      k = k2 - 1;
      continue;
    }
    // A sparse pair (leaves much wider than the radius, marked ~b): most candidates are out of reach.
    const sparse = marked < 0;
    const b = sparse ? ~marked : marked;
    const sa = load<i32>(start + ((<usize>a) << 2));
    const ea = sa + load<i32>(count + ((<usize>a) << 2));
    const self = a === b;
    const sb = self ? sa : load<i32>(start + ((<usize>b) << 2));
    const eb = sb + load<i32>(count + ((<usize>b) << 2));
    // A sparse cross pair: b's items' bounding box, to skip the items of a out of reach of all of them.
    let bx0 = Infinity;
    let by0 = Infinity;
    let bx1 = -Infinity;
    let by1 = -Infinity;
    const prune = sparse && !self;
    if (prune) {
      for (let j = sb; j < eb; j++) {
        const pj = xy + ((<usize>j) << 4);
        const x = load<f64>(pj);
        const y = load<f64>(pj, 8);
        bx0 = Math.min(bx0, x);
        bx1 = Math.max(bx1, x);
        by0 = Math.min(by0, y);
        by1 = Math.max(by1, y);
      }
    }
    for (let i = sa; i < ea; i++) {
      const pi = xy + ((<usize>i) << 4);
      if (prune) {
        const x = load<f64>(pi);
        const y = load<f64>(pi, 8);
        const gx = (x < bx0 ? bx0 - x : x > bx1 ? x - bx1 : 0) * s;
        const gy = (y < by0 ? by0 - y : y > by1 ? y - by1 : 0) * s;
        if (gx * gx + gy * gy > rs * rs) continue;
      }
      const xi = f64x2.splat(load<f64>(pi));
      const yi = f64x2.splat(load<f64>(pi, 8));
      let n = zero;
      let px = zero;
      let py = zero;
      for (let j = self ? i + 1 : sb; j < eb; j += 2) {
        const pj = xy + ((<usize>j) << 4);
        const p0 = v128.load(pj);
        const p1 = v128.load(pj, 16);
        const dx = f64x2.mul(f64x2.sub(v128.shuffle<f64>(p0, p1, 0, 2), xi), sv);
        const dy = f64x2.mul(f64x2.sub(v128.shuffle<f64>(p0, p1, 1, 3), yi), sv);
        const d2 = f64x2.add(f64x2.mul(dx, dx), f64x2.mul(dy, dy));
        let m = f64x2.le(d2, r2);
        // Past the leaf's last item (an odd count): lane 1 is the padding or another leaf's slot.
        if (j + 1 === eb) m = v128.and(m, lane0);
        // Sparse: skip the math where neither lane is in reach (then the branch is well predicted).
        if (sparse && !v128.any_true(m)) continue;
        if (v128.any_true(v128.and(m, f64x2.eq(d2, zero)))) {
          // Rare: one by one.
          if (i64x2.extract_lane(m, 0) !== 0) {
            addPair(xy, ids, cnt, sx, sy, i, j, s, inverse, radius);
            found++;
          }
          if (i64x2.extract_lane(m, 1) !== 0) {
            addPair(xy, ids, cnt, sx, sy, i, j + 1, s, inverse, radius);
            found++;
          }
          continue;
        }
        // Lanes out of reach compute a weight too, masked to 0 (no branch to mispredict).
        const w = f64x2.sub(f64x2.div(one, f64x2.sqrt(d2)), inv);
        const ux = v128.and(f64x2.mul(dx, w), m);
        const uy = v128.and(f64x2.mul(dy, w), m);
        const c = v128.and(one, m);
        n = f64x2.add(n, c);
        px = f64x2.sub(px, ux);
        py = f64x2.sub(py, uy);
        const o = (<usize>j) << 3;
        v128.store(cnt + o, f64x2.add(v128.load(cnt + o), c));
        v128.store(sx + o, f64x2.add(v128.load(sx + o), ux));
        v128.store(sy + o, f64x2.add(v128.load(sy + o), uy));
      }
      const o = (<usize>i) << 3;
      const ni = f64x2.extract_lane(n, 0) + f64x2.extract_lane(n, 1);
      store<f64>(cnt + o, load<f64>(cnt + o) + ni);
      store<f64>(sx + o, load<f64>(sx + o) + f64x2.extract_lane(px, 0) + f64x2.extract_lane(px, 1));
      store<f64>(sy + o, load<f64>(sy + o) + f64x2.extract_lane(py, 0) + f64x2.extract_lane(py, 1));
      found += <i32>ni;
    }
  }
  return found;
}

/**
 * The pairs k..k2-1 of the list, all of leaf a and all sparse or all dense: the items of a's partners are gathered into
 * one row at `temp` (x, y, slot; padded with a NaN item, which is never in reach), so each item of a scans
 * one long row instead of a short one per partner; the row's sums go back to the slots at the end.
 * Returns the pairs found.
 */
function group(
  xy: usize,
  ids: usize,
  start: usize,
  count: usize,
  list: usize,
  k: i32,
  k2: i32,
  a: i32,
  sparse: bool,
  cnt: usize,
  sx: usize,
  sy: usize,
  slots: i32,
  radius: f64,
  s: f64,
  temp: usize,
): i32 {
  const cap = (<usize>slots + 2) << 3;
  const txs = temp;
  const tys = txs + cap;
  const tc = tys + cap;
  const tx = tc + cap;
  const ty = tx + cap;
  const tsl = ty + cap;
  let m = 0;
  let self = false;
  for (let q = k; q < k2; q++) {
    const marked = load<i32>(list + ((<usize>q) << 3), 4);
    const b = sparse ? ~marked : marked;
    if (b === a) {
      self = true;
      continue;
    }
    const sb = load<i32>(start + ((<usize>b) << 2));
    const eb = sb + load<i32>(count + ((<usize>b) << 2));
    for (let j = sb; j < eb; j++) {
      const pj = xy + ((<usize>j) << 4);
      const o = (<usize>m) << 3;
      store<f64>(txs + o, load<f64>(pj));
      store<f64>(tys + o, load<f64>(pj, 8));
      // The row's sums start at 0 (stores, not memory.fill: a call per leaf costs more than the row).
      store<f64>(tc + o, 0);
      store<f64>(tx + o, 0);
      store<f64>(ty + o, 0);
      store<i32>(tsl + ((<usize>m) << 2), j);
      m++;
    }
  }
  store<f64>(txs + ((<usize>m) << 3), NaN);
  store<f64>(tys + ((<usize>m) << 3), NaN);
  store<i32>(tsl + ((<usize>m) << 2), -1);
  // The pad's sums (the second lane of the last step when m is odd).
  store<f64>(tc + ((<usize>m) << 3), 0);
  store<f64>(tx + ((<usize>m) << 3), 0);
  store<f64>(ty + ((<usize>m) << 3), 0);
  const rs = radius * s;
  const inverse = 1 / rs;
  const r2 = f64x2.splat(rs * rs);
  const inv = f64x2.splat(inverse);
  const sv = f64x2.splat(s);
  const one = f64x2.splat(1);
  const zero = f64x2.splat(0);
  const lane0 = i64x2(-1, 0);
  const sa = load<i32>(start + ((<usize>a) << 2));
  const ea = sa + load<i32>(count + ((<usize>a) << 2));
  let found: i32 = 0;
  for (let i = sa; i < ea; i++) {
    const pi = xy + ((<usize>i) << 4);
    const xi = f64x2.splat(load<f64>(pi));
    const yi = f64x2.splat(load<f64>(pi, 8));
    let n = zero;
    let px = zero;
    let py = zero;
    // The partners' row: the NaN pad fails the test, so no lane mask is needed.
    for (let t = 0; t < m; t += 2) {
      const o = (<usize>t) << 3;
      const dx = f64x2.mul(f64x2.sub(v128.load(txs + o), xi), sv);
      const dy = f64x2.mul(f64x2.sub(v128.load(tys + o), yi), sv);
      const d2 = f64x2.add(f64x2.mul(dx, dx), f64x2.mul(dy, dy));
      const hit = f64x2.le(d2, r2);
      // Sparse: skip the math where neither lane is in reach (then the branch is well predicted).
      if (sparse && !v128.any_true(hit)) continue;
      if (v128.any_true(v128.and(hit, f64x2.eq(d2, zero)))) {
        // Rare: one by one, straight into the slots' sums.
        if (i64x2.extract_lane(hit, 0) !== 0) {
          addPair(xy, ids, cnt, sx, sy, i, load<i32>(tsl + ((<usize>t) << 2)), s, inverse, radius);
          found++;
        }
        if (i64x2.extract_lane(hit, 1) !== 0) {
          addPair(xy, ids, cnt, sx, sy, i, load<i32>(tsl + ((<usize>t) << 2), 4), s, inverse, radius);
          found++;
        }
        continue;
      }
      const w = f64x2.sub(f64x2.div(one, f64x2.sqrt(d2)), inv);
      const ux = v128.and(f64x2.mul(dx, w), hit);
      const uy = v128.and(f64x2.mul(dy, w), hit);
      const c = v128.and(one, hit);
      n = f64x2.add(n, c);
      px = f64x2.sub(px, ux);
      py = f64x2.sub(py, uy);
      v128.store(tc + o, f64x2.add(v128.load(tc + o), c));
      v128.store(tx + o, f64x2.add(v128.load(tx + o), ux));
      v128.store(ty + o, f64x2.add(v128.load(ty + o), uy));
    }
    // Leaf a with itself: j > i, straight into the slots' sums.
    if (self) {
      for (let j = i + 1; j < ea; j += 2) {
        const pj = xy + ((<usize>j) << 4);
        const p0 = v128.load(pj);
        const p1 = v128.load(pj, 16);
        const dx = f64x2.mul(f64x2.sub(v128.shuffle<f64>(p0, p1, 0, 2), xi), sv);
        const dy = f64x2.mul(f64x2.sub(v128.shuffle<f64>(p0, p1, 1, 3), yi), sv);
        const d2 = f64x2.add(f64x2.mul(dx, dx), f64x2.mul(dy, dy));
        let hit = f64x2.le(d2, r2);
        if (j + 1 === ea) hit = v128.and(hit, lane0);
        if (sparse && !v128.any_true(hit)) continue;
        if (v128.any_true(v128.and(hit, f64x2.eq(d2, zero)))) {
          if (i64x2.extract_lane(hit, 0) !== 0) {
            addPair(xy, ids, cnt, sx, sy, i, j, s, inverse, radius);
            found++;
          }
          if (i64x2.extract_lane(hit, 1) !== 0) {
            addPair(xy, ids, cnt, sx, sy, i, j + 1, s, inverse, radius);
            found++;
          }
          continue;
        }
        const w = f64x2.sub(f64x2.div(one, f64x2.sqrt(d2)), inv);
        const ux = v128.and(f64x2.mul(dx, w), hit);
        const uy = v128.and(f64x2.mul(dy, w), hit);
        const c = v128.and(one, hit);
        n = f64x2.add(n, c);
        px = f64x2.sub(px, ux);
        py = f64x2.sub(py, uy);
        const o = (<usize>j) << 3;
        v128.store(cnt + o, f64x2.add(v128.load(cnt + o), c));
        v128.store(sx + o, f64x2.add(v128.load(sx + o), ux));
        v128.store(sy + o, f64x2.add(v128.load(sy + o), uy));
      }
    }
    const o = (<usize>i) << 3;
    const ni = f64x2.extract_lane(n, 0) + f64x2.extract_lane(n, 1);
    store<f64>(cnt + o, load<f64>(cnt + o) + ni);
    store<f64>(sx + o, load<f64>(sx + o) + f64x2.extract_lane(px, 0) + f64x2.extract_lane(px, 1));
    store<f64>(sy + o, load<f64>(sy + o) + f64x2.extract_lane(py, 0) + f64x2.extract_lane(py, 1));
    found += <i32>ni;
  }
  // The row's sums back to its slots.
  for (let t = 0; t < m; t++) {
    const q = (<usize>load<i32>(tsl + ((<usize>t) << 2))) << 3;
    const o = (<usize>t) << 3;
    store<f64>(cnt + q, load<f64>(cnt + q) + load<f64>(tc + o));
    store<f64>(sx + q, load<f64>(sx + q) + load<f64>(tx + o));
    store<f64>(sy + q, load<f64>(sy + q) + load<f64>(ty + o));
  }
  return found;
}

/**
 * Per id below `end`: the slot sums of its slot (i32 `idSlot`, -1 for an absent id, which gets 0) into
 * f64 arrays outCount, outX, outY.
 */
export function scatter(
  idSlot: usize,
  end: i32,
  cnt: usize,
  sx: usize,
  sy: usize,
  outCount: usize,
  outX: usize,
  outY: usize,
): void {
  for (let id = 0; id < end; id++) {
    const slot = load<i32>(idSlot + ((<usize>id) << 2));
    const o = (<usize>id) << 3;
    if (slot < 0) {
      store<f64>(outCount + o, 0);
      store<f64>(outX + o, 0);
      store<f64>(outY + o, 0);
      continue;
    }
    const q = (<usize>slot) << 3;
    store<f64>(outCount + o, load<f64>(cnt + q));
    store<f64>(outX + o, load<f64>(sx + q));
    store<f64>(outY + o, load<f64>(sy + q));
  }
}

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
 * leafPairsWithin of src/quadtree/separation.ts, the same walk and the same marks: every pair of leaves
 * within reach (loose rectangles at rect, first child per node at child) into `list` (stride 2), a pair
 * (a, ~b) past `sparseSide`, (a | 2^30, ~b) past `wideSide`. Returns the number of pairs, -1 when the list
 * would pass `listCap` pairs, -2 when the stack would pass `stackCap` entries (the caller grows, retries).
 */
export function walk(
  rect: usize,
  child: usize,
  radius: f64,
  s: f64,
  sparseSide: f64,
  wideSide: f64,
  stack: usize,
  stackCap: i32,
  list: usize,
  listCap: i32,
): i32 {
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

/** The `n` pairs at `list` sorted by first leaf into `out` (a counting sort; `at` holds nodes + 1 i32). */
export function sortByFirst(list: usize, n: i32, nodes: i32, at: usize, out: usize): void {
  memory.fill(at, 0, (<usize>nodes + 1) << 2);
  for (let k = 0; k < n; k++) {
    const p = at + ((<usize>((load<i32>(list + ((<usize>k) << 3)) & 0x3fffffff) + 1)) << 2);
    store<i32>(p, load<i32>(p) + 1);
  }
  for (let v = 0; v < nodes; v++) {
    const p = at + ((<usize>v) << 2);
    store<i32>(p, load<i32>(p) + load<i32>(p, 4), 4);
  }
  for (let k = 0; k < n; k++) {
    const first = load<i32>(list + ((<usize>k) << 3));
    const p = at + ((<usize>(first & 0x3fffffff)) << 2);
    const q = load<i32>(p);
    store<i32>(p, q + 1);
    store<i32>(out + ((<usize>q) << 3), first);
    store<i32>(out + ((<usize>q) << 3), load<i32>(list + ((<usize>k) << 3), 4), 4);
  }
}
