// Once per call, before prepare: the tree's items gathered leaf by leaf, depth first, dense.
//
// The item pool keeps each leaf's items in a block of its own, but a moving crowd scatters the blocks: a
// leaf that outgrows its block gets a new one wherever one is free, so within a few frames neighbouring
// leaves lie far apart in the pool, and free or half-used blocks take up as many slots again as the items
// (100,000 wandering items: the pool's top 1.4x the items after 5 frames, 1.9-2.5x after 200). The rows
// read each leaf's items once for itself and once for every leaf it is a partner of, and add to their
// per-slot records: copied in as the pool lies, those reads and writes land all over twice the memory.
// Gathered once per call (each leaf's items in their order, the leaves depth first, so that leaves near in
// space are near in memory), the calls that follow read dense, local memory, and the part of every per-slot
// region in use (the prepared offsets, the records, a team's shared records) is only as long as the items.
// The figures: docs/crowd.md. The JavaScript twin that the tests hold it to: test/helpers/gatherOracle.ts.

import { CHILD, COUNT, IDS, PARENT, POOL_IDS, POOL_NODES, POOL_SLOTS, POOL_XY, START, XY } from './call';

/**
 * On the call's record `c` (call.ts): copies the items of every leaf from the pool as it lies (POOL_XY: f64
 * x, y per slot; POOL_IDS: i32 id per slot; POOL_SLOTS of them) to XY and IDS, leaf after leaf in
 * depth-first order (CHILD: the first of each inner node's four children, -1 for a leaf; children in their
 * order; PARENT: per group of four, their parent; POOL_NODES nodes), each leaf's items in their order, from
 * slot 0 with no gap, and rewrites START in place: each node's first slot in the gathered arrays (an inner
 * node's, that of its first leaf). COUNT holds each node's items. Walks without a stack (down to a first
 * child, along to the next sibling, up past last children), so no depth is too deep. Returns the slots
 * filled (the tree's size), or -1, having stopped, where the arrays do not describe one tree (a copy torn
 * by a writer, which a caller must never hand in: every step is checked, so that such a copy can neither
 * walk forever nor read or write outside the regions).
 */
export function gather(c: usize): i32 {
  const pool = load<usize>(c, POOL_XY);
  const poolIds = load<usize>(c, POOL_IDS);
  const xy = load<usize>(c, XY);
  const ids = load<usize>(c, IDS);
  const start = load<usize>(c, START);
  const count = load<usize>(c, COUNT);
  const child = load<usize>(c, CHILD);
  const parent = load<usize>(c, PARENT);
  const slots = load<i32>(c, POOL_SLOTS);
  const nodes = load<i32>(c, POOL_NODES);
  // A tree enters each node once and climbs to each once: more steps than that is not a tree.
  let steps: i32 = 2 * nodes + 2;
  let p: i32 = 0;
  let k: i32 = 0;
  let walking = nodes > 0;
  while (walking) {
    if (--steps < 0) return -1;
    const first = load<i32>(child + ((<usize>k) << 2));
    const s = load<i32>(start + ((<usize>k) << 2));
    store<i32>(start + ((<usize>k) << 2), p);
    if (first >= 0) {
      if (first < 1 || first > nodes - 4) return -1;
      k = first;
      continue;
    }
    const n = load<i32>(count + ((<usize>k) << 2));
    if (n > 0) {
      if (s < 0 || s > slots - n || p > slots - n) return -1;
      memory.copy(xy + ((<usize>p) << 4), pool + ((<usize>s) << 4), (<usize>n) << 4);
      memory.copy(ids + ((<usize>p) << 2), poolIds + ((<usize>s) << 2), (<usize>n) << 2);
      p += n;
    }
    // Up past last children (nodes 4g + 4), then along to the next sibling; the root ends the walk.
    while (k !== 0 && ((k - 1) & 3) === 3) {
      if (--steps < 0) return -1;
      k = load<i32>(parent + ((<usize>(k - 1) >> 2) << 2));
      if (k < 0 || k >= nodes) return -1;
    }
    walking = k !== 0;
    k++;
  }
  return p;
}
