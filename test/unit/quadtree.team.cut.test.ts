/**
 * The team's cut of the leaf-pair list into ranges by work (cutByWork, parallel/teamParts.ts): one pass of
 * running totals and a binary search per cut must give exactly the cuts of the definition, a running sum
 * in list order that cuts after the first pair reaching each range's goal (written out here as the
 * reference, as the team made it before), on lists of every shape: self pairs, pairs marked sparse (~b)
 * and wide (a | 2^30), empty leaves, one pair carrying nearly all the work, no pairs.
 */

import { TOUCH_SHIFT } from 'point-quadtree/internal/crowd/kernels/call';
import { createBuffer, TeamViews } from 'point-quadtree/internal/parallel/teamLayout';
import { addTouchedRegion, cutByWork } from 'point-quadtree/internal/parallel/teamParts';
import { NODE, WIDE } from 'point-quadtree/internal/query/leafPairs';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';

/** The work of pair k, as the team counts it: items of a times items of b (pairs of one leaf: n (n - 1) / 2), plus one. */
function pairWork(list: Int32Array, k: number, count: Int32Array): number {
  const a = list[2 * k] & NODE;
  const marked = list[2 * k + 1];
  const b = marked < 0 ? ~marked : marked;
  return 1 + (a === b ? (count[a] * (count[a] - 1)) / 2 : count[a] * count[b]);
}

/** The definition: a pass for the total, then a running sum that cuts after the pair reaching each goal. */
function referenceCuts(
  list: Int32Array,
  pairs: number,
  count: Int32Array,
  parts: number,
  share: number,
): number[] {
  let total = 0;
  for (let k = 0; k < pairs; k++) total += pairWork(list, k, count);
  const cuts = [0];
  const unit = total / (share + parts - 1);
  let sum = 0;
  for (let k = 0; k < pairs && cuts.length < parts; k++) {
    sum += pairWork(list, k, count);
    while (cuts.length < parts && sum >= unit * (share + cuts.length - 1)) cuts.push(k + 1);
  }
  while (cuts.length <= parts) cuts.push(pairs);
  return cuts;
}

/** A list of `pairs` leaf pairs over `nodes` nodes, grouped by first leaf, some marked sparse or wide. */
function randomList(rnd: () => number, pairs: number, nodes: number): Int32Array {
  const list = new Int32Array(2 * pairs);
  let a = 0;
  for (let k = 0; k < pairs; k++) {
    if (k === 0 || rnd() < 0.3) a = Math.floor(rnd() * nodes);
    const self = rnd() < 0.25;
    const b = self ? a : Math.floor(rnd() * nodes);
    const wide = rnd() < 0.1;
    const sparse = wide || rnd() < 0.3;
    list[2 * k] = wide ? a | WIDE : a;
    list[2 * k + 1] = sparse ? ~b : b;
  }
  return list;
}

function cutsOf(
  list: Int32Array,
  pairs: number,
  count: Int32Array,
  parts: number,
  share: number,
  spare = 6,
): number[] {
  const cuts = new Int32Array(parts + 1);
  // `spare` entries longer than needed (0: exactly pairs + 1) and dirty, as the team's kept scratch is
  // after a larger call.
  const prefix = new Float64Array(pairs + 1 + spare).fill(-3);
  cutByWork(list, pairs, count, parts, share, cuts, prefix);
  return Array.from(cuts);
}

/** The seeded lists of a test: how many, how big, the leaves' sizes, the fewest ranges, the scratch's spare. */
interface SeededLists {
  seed: number;
  trials: number;
  maxNodes: number;
  maxPairs: number;
  leafItems(rnd: () => number): number;
  /** Ranges from this to 5. */
  minParts: number;
  spare(trial: number): number;
}

/** On each seeded list, cutByWork gives exactly the definition's cuts. */
function expectDefinitionCuts(o: SeededLists): void {
  const rnd = mulberry32(o.seed);
  for (let trial = 0; trial < o.trials; trial++) {
    const nodes = 1 + Math.floor(rnd() * o.maxNodes);
    const pairs = Math.floor(rnd() * o.maxPairs);
    const count = new Int32Array(nodes);
    for (let i = 0; i < nodes; i++) count[i] = o.leafItems(rnd);
    const list = randomList(rnd, pairs, nodes);
    const parts = o.minParts + Math.floor(rnd() * (6 - o.minParts));
    const share = 0.25 + rnd() * 3.75;
    expect(cutsOf(list, pairs, count, parts, share, o.spare(trial)), `trial ${trial}`).toEqual(
      referenceCuts(list, pairs, count, parts, share),
    );
  }
}

describe('cutByWork: the team cuts its leaf-pair list by work', () => {
  it("gives the definition's cuts on seeded lists (2 to 5 ranges, shares 0.25 to 4, empty leaves)", () => {
    expectDefinitionCuts({
      seed: 4242,
      trials: 400,
      maxNodes: 300,
      maxPairs: 1500,
      leafItems: (rnd) => (rnd() < 0.15 ? 0 : Math.floor(rnd() * (rnd() < 0.05 ? 400 : 12))),
      minParts: 2,
      spare: () => 6,
    });
  });

  it("gives the definition's cuts where the running totals round (leaves of up to 2^31 - 1 items), in one range, and with a scratch of exactly pairs + 1", () => {
    expectDefinitionCuts({
      seed: 777,
      trials: 300,
      maxNodes: 200,
      maxPairs: 800,
      // Products of two such counts reach 2^62: the totals are far past 2^53 and round at every step.
      leafItems: (rnd) => (rnd() < 0.5 ? Math.floor(rnd() * 2 ** 31) : Math.floor(rnd() * 2 ** 26)),
      minParts: 1,
      spare: (trial) => (trial % 2 === 0 ? 0 : 5),
    });
  });

  it('one pair with nearly all the work: the ranges after it are empty, as the definition cuts them', () => {
    const count = new Int32Array([1, 1, 5000, 1]);
    // Pairs (0, 1), (2, 2) with 12,497,500 item pairs, then (1, 3), (3, 3).
    const list = new Int32Array([0, 1, 2, 2, 1, 3, 3, 3]);
    for (const parts of [2, 3, 4]) {
      for (const share of [0.25, 1, 4]) {
        const cuts = cutsOf(list, 4, count, parts, share);
        expect(cuts).toEqual(referenceCuts(list, 4, count, parts, share));
        // Every goal is reached at the heavy pair: every range but the caller's and the last is empty.
        expect(cuts.slice(1, parts)).toEqual(new Array(parts - 1).fill(2));
      }
    }
  });

  it('no pairs, and leaves that are all empty (each pair costs one)', () => {
    expect(cutsOf(new Int32Array(0), 0, new Int32Array(4), 3, 1)).toEqual([0, 0, 0, 0]);
    const list = new Int32Array([0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3]);
    const empty = new Int32Array(4);
    // Six pairs of work 1 each, two ranges with the caller's share 2: the goal 4 is reached at the fourth.
    expect(cutsOf(list, 6, empty, 2, 2)).toEqual([0, 4, 6]);
    expect(cutsOf(list, 6, empty, 3, 1)).toEqual(referenceCuts(list, 6, empty, 3, 1));
  });
});

describe("addTouchedRegion: the caller adds a helper's records only in the blocks its range marked", () => {
  it('adds the marked blocks (the last one partial) and nothing elsewhere, whatever the region holds there', () => {
    const slots = 3 * (1 << TOUCH_SHIFT) + 9;
    const c = { xy: 8, ids: 4, nodes: 4, pairs: 4, slots, helpers: 2 };
    const v = new TeamViews(createBuffer(c));
    const rnd = mulberry32(71);
    for (const r of [0, 1]) for (let i = 0; i < 4 * slots; i++) v.sums[r][i] = rnd() - 0.5;
    // Helper 0 marked its blocks 1 and 3 (slots 192..200: the last, partial); the other blocks hold
    // what an earlier call left: NaN.
    const block = (b: number) => [b << TOUCH_SHIFT, Math.min(slots, (b + 1) << TOUCH_SHIFT)];
    v.touched[0].fill(0);
    v.touched[0][1] = 1;
    v.touched[0][3] = 1;
    for (const b of [0, 2]) v.sums[0].fill(Number.NaN, 4 * block(b)[0], 4 * block(b)[1]);
    const records = new Float64Array(4 * slots).map((_, i) => i);
    addTouchedRegion(records, v, 0);
    for (let slot = 0; slot < slots; slot++) {
      const marked = v.touched[0][slot >> TOUCH_SHIFT] === 1;
      for (let e = 0; e < 4; e++) {
        const i = 4 * slot + e;
        // The fourth entry is unused: left as it was.
        const want = marked && e < 3 ? i + v.sums[0][i] : i;
        expect(records[i], `slot ${slot} entry ${e}`).toBe(want);
      }
    }
    // Helper 1's region is its own.
    v.touched[1].fill(1);
    const again = new Float64Array(4 * slots);
    addTouchedRegion(again, v, 1);
    expect(again[4 * (slots - 1) + 2]).toBe(v.sums[1][4 * (slots - 1) + 2]);
    expect(again[0]).toBe(v.sums[1][0]);
  });
});
