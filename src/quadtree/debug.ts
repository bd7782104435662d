import { INTERNALS, type PointQuadtree } from './PointQuadtree';

/*
 * The checker computes everything it checks by itself: the split rule, the size classes of the item pool
 * and the loose rectangles are written out here from their documentation, not imported from the code they
 * check, so a change to that code that breaks a rule shows up here as a broken invariant.
 */

/**
 * Where a node spanning lo..hi is split, as the storage layout documents it: lo + (hi - lo) / 2 in doubles
 * (exact for a split made by a split or a bulk build; see {@link checkInvariants} for grown roots).
 */
function halfway(lo: number, hi: number): number {
  return lo + (hi - lo) * 0.5;
}

/** Slots in a block of the item pool's size class `c`: 1, 2, then 3·2^k and 4·2^k in turn (3, 4, 6, 8, ...). */
function slotsOfClass(c: number): number {
  if (c < 2) return c + 1;
  return (c % 2 === 0 ? 3 : 4) * 2 ** Math.floor((c - 2) / 2);
}

/**
 * Whether rectangle minX..maxX is exactly the doubling of its half on one side of `split`, with the
 * arithmetic root growth uses: growing east from (lo, hi) gives maxX = hi + (hi - lo), the old root's
 * edge `hi` becoming the split line; growing west gives minX = lo - (hi - lo). Returns which half the old
 * root was: 1 the low half (grown toward +), 2 the high half (grown toward -), 3 either, 0 neither.
 */
function doubledFrom(min: number, split: number, max: number): number {
  return (max === split + (split - min) ? 1 : 0) | (min === split - (max - split) ? 2 : 0);
}

/**
 * Checks every structural rule of a {@link PointQuadtree} and throws an Error naming the first one broken,
 * as `PointQuadtree invariant [rule]: details`. The rules:
 * - `bounds`: every node has a non-empty rectangle; `minSize`: none below minSize except the root.
 * - `split line`: an inner node is split at its midpoint, exactly as {@link halfway} computes it. The one
 *   exception is a root grown by doubling: the old root becomes one quadrant, so the split lines are the
 *   old root's edges, which rounding may put an ulp or so off the new root's midpoint. Such a node must be
 *   exactly the doubling of that quadrant (the arithmetic of root growth, {@link doubledFrom}), and only the
 *   root and, below it, the quadrants that were earlier roots may be such nodes.
 * - `tiling`: the children tile their parent at the split lines; `parent`: the group names its parent.
 * - `count`: an inner node counts the sum of its children; leaves hold `size` items in total.
 * - `merge`: an inner node holds more than maxItems items (else it should have become a leaf).
 * - `split`: a leaf holds at most maxItems items unless halving it would go below minSize.
 * - `loose`: nodeLoose is each node's rectangle grown by looseness and clipped to the root.
 * - `item outside its leaf`: every item lies in its leaf's (loose) rectangle, half-open except on the
 *   root's far edges.
 * - `id table`: idSlot and idLeaf name each stored item's slot and leaf; no other id is marked present.
 * - `pool`: each leaf's block lies in the pool and fits its items; blocks and free blocks never overlap;
 *   the pool counts the slots the leaves own; free lists end.
 * - `root`: the root holds the constructor's bounds and, when it was refitted (doubling would overflow),
 *   is exactly the extent of the items and those bounds.
 * O(nodes + pool + ids). For tests and debugging.
 */
export function checkInvariants(tree: PointQuadtree): void {
  // The documented internal accessor: the tree's own arrays, read-only by convention.
  const t = tree[INTERNALS]();
  const pool = t.pool;
  const nb = t.nodeBounds;
  const fail = (rule: string, msg: string): never => {
    throw new Error(`PointQuadtree invariant [${rule}]: ${msg}`);
  };
  const rootMinX = nb[0];
  const rootMinY = nb[1];
  const rootMaxX = nb[2];
  const rootMaxY = nb[3];
  const l = t.looseness;
  const lb = t.nodeLoose;
  if (l === 0 && lb !== nb) fail('loose', 'looseness is 0 but nodeLoose is not nodeBounds');
  if (l > 0 && lb === nb) fail('loose', 'looseness is > 0 but nodeLoose is nodeBounds');
  const ib = t.initialBounds;
  if (!(rootMinX <= ib.minX && rootMinY <= ib.minY && rootMaxX >= ib.maxX && rootMaxY >= ib.maxY))
    fail('root', `the root [${nb.subarray(0, 4)}] does not hold the constructor's bounds`);
  // The extent of the items and the constructor's bounds, for a refitted root.
  const extent = [ib.minX, ib.minY, ib.maxX, ib.maxY];
  const slotOwner = new Int32Array(pool.top).fill(-1);
  let leafSlots = 0;
  const seenNode = new Uint8Array(t.nodeTop);
  // Nodes that may have been a root grown by doubling: the root, and the quadrants earlier roots became.
  const grownRoot = new Uint8Array(t.nodeTop);
  grownRoot[0] = 1;
  let items = 0;
  const stack: number[] = [0];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n < 0 || n >= t.nodeTop) fail('tiling', `node ${n} out of range`);
    if (seenNode[n]) fail('tiling', `node ${n} reached twice`);
    seenNode[n] = 1;
    const b = n << 2;
    const minX = nb[b];
    const minY = nb[b + 1];
    const maxX = nb[b + 2];
    const maxY = nb[b + 3];
    if (!(minX < maxX && minY < maxY))
      fail('bounds', `node ${n} has empty bounds ${minX},${minY},${maxX},${maxY}`);
    if (n !== 0 && (maxX - minX < t.minSize || maxY - minY < t.minSize)) {
      fail('minSize', `node ${n} (${maxX - minX} x ${maxY - minY}) is smaller than minSize ${t.minSize}`);
    }
    const loose =
      n === 0
        ? [minX, minY, maxX, maxY]
        : [
            Math.max(minX - l, rootMinX),
            Math.max(minY - l, rootMinY),
            Math.min(maxX + l, rootMaxX),
            Math.min(maxY + l, rootMaxY),
          ];
    for (let j = 0; j < 4; j++) {
      if (lb[b + j] !== loose[j]) {
        fail('loose', `node ${n} has loose bounds ${lb.subarray(b, b + 4)}, not ${loose}`);
      }
    }
    const [lMinX, lMinY, lMaxX, lMaxY] = loose;
    const mx = halfway(minX, maxX);
    const my = halfway(minY, maxY);
    const c = t.nodeChild[n];
    const count = t.nodeCount[n];
    if (c >= 0) {
      if (t.nodeStart[n] !== -1 || t.nodeCap[n] !== 0) fail('pool', `inner node ${n} owns an item block`);
      if (count <= t.maxItems) {
        fail('merge', `inner node ${n} holds ${count} <= maxItems ${t.maxItems} items: not merged`);
      }
      let sum = 0;
      for (let k = c; k < c + 4; k++) sum += t.nodeCount[k];
      if (sum !== count) fail('count', `inner node ${n} counts ${count} but its children hold ${sum}`);
      const cmx = nb[(c + 3) << 2];
      const cmy = nb[((c + 3) << 2) + 1];
      if (!(minX < cmx && cmx < maxX && minY < cmy && cmy < maxY)) {
        fail('split line', `node ${n} is split at (${cmx}, ${cmy}), outside it`);
      }
      const expect = [
        [minX, minY, cmx, cmy],
        [cmx, minY, maxX, cmy],
        [minX, cmy, cmx, maxY],
        [cmx, cmy, maxX, maxY],
      ];
      for (let q = 0; q < 4; q++) {
        for (let j = 0; j < 4; j++) {
          if (nb[((c + q) << 2) + j] !== expect[q][j])
            fail('tiling', `child ${q} of node ${n} does not tile it`);
        }
        stack.push(c + q);
      }
      // Quadrants that could be the root this node grew from (bit 0 of q: east half; bit 1: south half).
      const alongX = grownRoot[n] ? doubledFrom(minX, cmx, maxX) : 0;
      const alongY = grownRoot[n] ? doubledFrom(minY, cmy, maxY) : 0;
      if (alongX !== 0 && alongY !== 0) {
        for (let q = 0; q < 4; q++) {
          if (alongX & (q & 1 ? 2 : 1) && alongY & (q & 2 ? 2 : 1)) grownRoot[c + q] = 1;
        }
      } else if (cmx !== mx || cmy !== my) {
        fail('split line', `node ${n} is split at (${cmx}, ${cmy}), not at its midpoint (${mx}, ${my})`);
      }
      if (t.groupParent[(c - 1) >> 2] !== n) {
        fail('parent', `children of node ${n} name ${t.groupParent[(c - 1) >> 2]} as parent`);
      }
      continue;
    }
    const splittable =
      mx - minX >= t.minSize && maxX - mx >= t.minSize && my - minY >= t.minSize && maxY - my >= t.minSize;
    if (count > t.maxItems && splittable) {
      fail('split', `leaf ${n} holds ${count} > maxItems ${t.maxItems} items and could split`);
    }
    const cap = t.nodeCap[n];
    const start = t.nodeStart[n];
    if (count > cap) fail('pool', `leaf ${n} holds ${count} items in a block of ${cap}`);
    leafSlots += cap;
    if (cap > 0) {
      if (start < 0 || start + cap > pool.top)
        fail('pool', `leaf ${n} block ${start}+${cap} outside the pool`);
      for (let s = start; s < start + cap; s++) {
        if (slotOwner[s] !== -1) fail('pool', `slot ${s} owned by leaf ${slotOwner[s]} and leaf ${n}`);
        slotOwner[s] = n;
      }
    } else if (start !== -1) {
      fail('pool', `leaf ${n} has a start but no capacity`);
    }
    for (let s = start; s < start + count; s++) {
      const id = pool.ids[s];
      if (id < 0 || id >= t.idSlot.length) fail('id table', `slot ${s} holds bad id ${id}`);
      if (t.idSlot[id] !== s) fail('id table', `id ${id} is in slot ${s} but idSlot says ${t.idSlot[id]}`);
      if (t.idLeaf[id] !== n) fail('id table', `id ${id} is in leaf ${n} but idLeaf says ${t.idLeaf[id]}`);
      const x = pool.xy[s << 1];
      const y = pool.xy[(s << 1) + 1];
      const inX = x >= lMinX && (x < lMaxX || (x === lMaxX && lMaxX === rootMaxX));
      const inY = y >= lMinY && (y < lMaxY || (y === lMaxY && lMaxY === rootMaxY));
      if (!inX || !inY) {
        fail(
          'item outside its leaf',
          `id ${id} at (${x}, ${y}) is outside leaf ${n} [${loose}] (looseness ${l})`,
        );
      }
      extent[0] = Math.min(extent[0], x);
      extent[1] = Math.min(extent[1], y);
      extent[2] = Math.max(extent[2], x);
      extent[3] = Math.max(extent[3], y);
    }
    items += count;
  }
  if (leafSlots !== pool.live)
    fail('pool', `leaves own ${leafSlots} slots but the pool counts ${pool.live} live slots`);
  // Freed node groups: never reachable from the root, and the list ends.
  let guard = 0;
  for (let g = t.freeGroup; g >= 0; g = t.nodeChild[g]) {
    if (++guard > t.nodeTop) fail('tiling', 'the free node-group list loops');
    for (let k = g; k < g + 4; k++) if (seenNode[k]) fail('tiling', `node ${k} is both free and in the tree`);
  }
  if (items !== t.size) fail('count', `leaves hold ${items} items but size is ${t.size}`);
  // Only an item on its edge can stretch a refitted root, so its shrinking is checked when one leaves.
  if (t.refitted && extent.some((v, j) => v !== nb[j]))
    fail(
      'root',
      `the refitted root [${nb.subarray(0, 4)}] is not the extent [${extent}] of the items and bounds`,
    );
  if (t.nodeCount[0] !== t.size) fail('count', `root counts ${t.nodeCount[0]} but size is ${t.size}`);
  let present = 0;
  for (let id = 0; id < t.idSlot.length; id++) if (t.idSlot[id] >= 0) present++;
  if (present !== t.size) fail('id table', `${present} ids are marked present but size is ${t.size}`);
  // Free blocks: inside the pool and never overlapping a leaf's block or each other.
  for (let c = 0; c < pool.freeLists.length; c++) {
    let guard = 0;
    for (let s = pool.freeLists[c]; s >= 0; s = pool.ids[s]) {
      if (++guard > pool.top) fail('pool', `free list ${c} loops`);
      const cap = slotsOfClass(c);
      if (s + cap > pool.top) fail('pool', `free block ${s}+${cap} outside the pool`);
      for (let k = s; k < s + cap; k++) {
        if (slotOwner[k] !== -1) fail('pool', `free block ${s} overlaps slot ${k} of leaf ${slotOwner[k]}`);
        slotOwner[k] = -2;
      }
    }
  }
}
