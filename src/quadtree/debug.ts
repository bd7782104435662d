import { classCapacity } from './ItemPool';
import { INTERNALS, midpoint, type PointQuadtree } from './PointQuadtree';

/**
 * Checks every structural rule of a {@link PointQuadtree} and throws an Error naming the first one broken:
 * leaf-only storage, subtree counts, the split rule (an inner node holds more than maxItems items and was
 * big enough to split; a leaf holds at most maxItems unless it is too small to split), no node below
 * minSize except the root, children tiling their parent, every item inside its leaf's half-open rectangle
 * (grown by `looseness` and clipped to the root: the leaf's loose rectangle, which must be stored right),
 * the id tables, pool blocks that never overlap, and a root that holds the constructor's bounds and, when it
 * was refitted, is exactly the extent of the items and those bounds. O(nodes + pool). For tests and
 * debugging.
 */
export function checkInvariants(tree: PointQuadtree): void {
  // The documented internal accessor: the tree's own arrays, read-only by convention.
  const t = tree[INTERNALS]();
  const pool = t.pool;
  const nb = t.nodeBounds;
  const fail = (msg: string): never => {
    throw new Error(`PointQuadtree invariant: ${msg}`);
  };
  const rootMinX = nb[0];
  const rootMinY = nb[1];
  const rootMaxX = nb[2];
  const rootMaxY = nb[3];
  const l = t.looseness;
  const lb = t.nodeLoose;
  if (l === 0 && lb !== nb) fail('looseness is 0 but nodeLoose is not nodeBounds');
  if (l > 0 && lb === nb) fail('looseness is > 0 but nodeLoose is nodeBounds');
  const ib = t.initialBounds;
  if (!(rootMinX <= ib.minX && rootMinY <= ib.minY && rootMaxX >= ib.maxX && rootMaxY >= ib.maxY))
    fail(`the root [${nb.subarray(0, 4)}] does not hold the constructor's bounds`);
  // The extent of the items and the constructor's bounds, for a refitted root.
  const extent = [ib.minX, ib.minY, ib.maxX, ib.maxY];
  const slotOwner = new Int32Array(pool.top).fill(-1);
  let leafSlots = 0;
  const seenNode = new Uint8Array(t.nodeTop);
  let items = 0;
  const stack: number[] = [0];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n < 0 || n >= t.nodeTop) fail(`node ${n} out of range`);
    if (seenNode[n]) fail(`node ${n} reached twice`);
    seenNode[n] = 1;
    const b = n << 2;
    const minX = nb[b];
    const minY = nb[b + 1];
    const maxX = nb[b + 2];
    const maxY = nb[b + 3];
    if (!(minX < maxX && minY < maxY)) fail(`node ${n} has empty bounds ${minX},${minY},${maxX},${maxY}`);
    if (n !== 0 && (maxX - minX < t.minSize || maxY - minY < t.minSize)) {
      fail(`node ${n} (${maxX - minX} x ${maxY - minY}) is smaller than minSize ${t.minSize}`);
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
      if (lb[b + j] !== loose[j]) fail(`node ${n} has loose bounds ${lb.subarray(b, b + 4)}, not ${loose}`);
    }
    const [lMinX, lMinY, lMaxX, lMaxY] = loose;
    const mx = midpoint(minX, maxX);
    const my = midpoint(minY, maxY);
    const splittable =
      mx - minX >= t.minSize && maxX - mx >= t.minSize && my - minY >= t.minSize && maxY - my >= t.minSize;
    const c = t.nodeChild[n];
    const count = t.nodeCount[n];
    if (c >= 0) {
      if (t.nodeStart[n] !== -1 || t.nodeCap[n] !== 0) fail(`inner node ${n} owns an item block`);
      if (count <= t.maxItems)
        fail(`inner node ${n} holds ${count} <= maxItems ${t.maxItems} items: not merged`);
      let sum = 0;
      for (let k = c; k < c + 4; k++) sum += t.nodeCount[k];
      if (sum !== count) fail(`inner node ${n} counts ${count} but its children hold ${sum}`);
      const cmx = nb[(c + 3) << 2];
      const cmy = nb[((c + 3) << 2) + 1];
      if (!(minX < cmx && cmx < maxX && minY < cmy && cmy < maxY)) fail(`node ${n} split lines outside it`);
      const expect = [
        [minX, minY, cmx, cmy],
        [cmx, minY, maxX, cmy],
        [minX, cmy, cmx, maxY],
        [cmx, cmy, maxX, maxY],
      ];
      for (let q = 0; q < 4; q++) {
        for (let j = 0; j < 4; j++) {
          if (nb[((c + q) << 2) + j] !== expect[q][j]) fail(`child ${q} of node ${n} does not tile it`);
        }
        stack.push(c + q);
      }
      if (t.groupParent[(c - 1) >> 2] !== n)
        fail(`children of node ${n} name ${t.groupParent[(c - 1) >> 2]} as parent`);
      continue;
    }
    if (count > t.maxItems && splittable) fail(`leaf ${n} holds ${count} > maxItems items and could split`);
    const cap = t.nodeCap[n];
    const start = t.nodeStart[n];
    if (count > cap) fail(`leaf ${n} holds ${count} items in a block of ${cap}`);
    leafSlots += cap;
    if (cap > 0) {
      if (start < 0 || start + cap > pool.top) fail(`leaf ${n} block ${start}+${cap} outside the pool`);
      for (let s = start; s < start + cap; s++) {
        if (slotOwner[s] !== -1) fail(`slot ${s} owned by leaf ${slotOwner[s]} and leaf ${n}`);
        slotOwner[s] = n;
      }
    } else if (start !== -1) {
      fail(`leaf ${n} has a start but no capacity`);
    }
    for (let s = start; s < start + count; s++) {
      const id = pool.ids[s];
      if (id < 0 || id >= t.idSlot.length) fail(`slot ${s} holds bad id ${id}`);
      if (t.idSlot[id] !== s) fail(`id ${id} is in slot ${s} but idSlot says ${t.idSlot[id]}`);
      if (t.idLeaf[id] !== n) fail(`id ${id} is in leaf ${n} but idLeaf says ${t.idLeaf[id]}`);
      const x = pool.xy[s << 1];
      const y = pool.xy[(s << 1) + 1];
      const inX = x >= lMinX && (x < lMaxX || (x === lMaxX && lMaxX === rootMaxX));
      const inY = y >= lMinY && (y < lMaxY || (y === lMaxY && lMaxY === rootMaxY));
      if (!inX || !inY) fail(`id ${id} at (${x}, ${y}) is outside its leaf ${n} [${loose}] (looseness ${l})`);
      extent[0] = Math.min(extent[0], x);
      extent[1] = Math.min(extent[1], y);
      extent[2] = Math.max(extent[2], x);
      extent[3] = Math.max(extent[3], y);
    }
    items += count;
  }
  if (leafSlots !== pool.live) fail(`leaves own ${leafSlots} slots but liveSlots is ${pool.live}`);
  // Freed node groups: never reachable from the root, and the list ends.
  let guard = 0;
  for (let g = t.freeGroup; g >= 0; g = t.nodeChild[g]) {
    if (++guard > t.nodeTop) fail('the free node-group list loops');
    for (let k = g; k < g + 4; k++) if (seenNode[k]) fail(`node ${k} is both free and in the tree`);
  }
  if (items !== t.size) fail(`leaves hold ${items} items but size is ${t.size}`);
  // Only an item on its edge can stretch a refitted root, so its shrinking is checked when one leaves.
  if (t.refitted && extent.some((v, j) => v !== nb[j]))
    fail(`the refitted root [${nb.subarray(0, 4)}] is not the extent [${extent}] of the items and bounds`);
  if (t.nodeCount[0] !== t.size) fail(`root counts ${t.nodeCount[0]} but size is ${t.size}`);
  let present = 0;
  for (let id = 0; id < t.idSlot.length; id++) if (t.idSlot[id] >= 0) present++;
  if (present !== t.size) fail(`${present} ids are marked present but size is ${t.size}`);
  // Free blocks: inside the pool and never overlapping a leaf's block or each other.
  for (let c = 0; c < pool.freeLists.length; c++) {
    let guard = 0;
    for (let s = pool.freeLists[c]; s >= 0; s = pool.ids[s]) {
      if (++guard > pool.top) fail(`free list ${c} loops`);
      const cap = classCapacity(c);
      if (s + cap > pool.top) fail(`free block ${s}+${cap} outside the pool`);
      for (let k = s; k < s + cap; k++) {
        if (slotOwner[k] !== -1) fail(`free block ${s} overlaps slot ${k} of leaf ${slotOwner[k]}`);
        slotOwner[k] = -2;
      }
    }
  }
}
