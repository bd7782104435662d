import { PointQuadtree } from 'point-quadtree';
import { checkInvariants } from 'point-quadtree/debug';
import { INTERNALS, type QuadtreeInternals } from 'point-quadtree/internal/PointQuadtree';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';

/*
 * Every other test trusts checkInvariants; these show that it catches damage. Each test breaks one rule of
 * a healthy tree by writing into its arrays through the internal accessor (or, for a field that is not an
 * array, by handing the checker a view of the internals with that field changed) and expects the checker
 * to throw naming that rule.
 */

const bounds = { minX: 0, minY: 0, maxX: 16, maxY: 16 };

/**
 * Root split at (8, 8): NW leaf holds ids 0, 1; NE id 2; SW id 3; SE ids 4, 5. maxItems 2, minSize 1.
 * Node numbers: root 0, children 1 (NW), 2 (NE), 3 (SW), 4 (SE).
 */
function healthy(): { tree: PointQuadtree; t: QuadtreeInternals } {
  const tree = new PointQuadtree({ bounds, maxItems: 2, minSize: 1 });
  const points = [
    [1, 1],
    [3, 5],
    [9, 1],
    [1, 9],
    [9, 9],
    [13, 13],
  ];
  points.forEach(([x, y], id) => {
    tree.insert(id, x, y);
  });
  const t = tree[INTERNALS]();
  expect(t.nodeChild[0]).toBe(1);
  expect([...t.nodeCount.subarray(0, 5)]).toEqual([6, 2, 1, 1, 2]);
  checkInvariants(tree);
  return { tree, t };
}

/** The tree as the checker would see it if these fields of its internals were different. */
function withInternals(tree: PointQuadtree, changed: Partial<QuadtreeInternals>): PointQuadtree {
  const internals = { ...tree[INTERNALS](), ...changed };
  return { [INTERNALS]: () => internals } as unknown as PointQuadtree;
}

/** Moves the split lines of inner node `n` to (x, y), keeping its children tiling it. */
function setSplit(t: QuadtreeInternals, n: number, x: number, y: number): void {
  const c = t.nodeChild[n];
  const nb = t.nodeBounds;
  nb[(c << 2) + 2] = x; // NW maxX, maxY
  nb[(c << 2) + 3] = y;
  nb[(c + 1) << 2] = x; // NE minX, maxY
  nb[((c + 1) << 2) + 3] = y;
  nb[((c + 2) << 2) + 1] = y; // SW minY, maxX
  nb[((c + 2) << 2) + 2] = x;
  nb[(c + 3) << 2] = x; // SE minX, minY
  nb[((c + 3) << 2) + 1] = y;
}

/** The next double above / below `x` (x > 0). */
function nextUp(x: number): number {
  const b = new Float64Array([x]);
  new BigInt64Array(b.buffer)[0] += 1n;
  return b[0];
}
function nextDown(x: number): number {
  const b = new Float64Array([x]);
  new BigInt64Array(b.buffer)[0] -= 1n;
  return b[0];
}

const broken = (rule: string, detail: RegExp | string) =>
  new RegExp(
    `^PointQuadtree invariant \\[${rule}\\]: .*${typeof detail === 'string' ? detail : detail.source}`,
  );

describe('checkInvariants catches damage', () => {
  it('a healthy tree passes, through inserts, moves, removes and a clear', () => {
    const { tree } = healthy();
    tree.move(0, 15, 1);
    tree.remove(3);
    tree.insert(9, 8, 8);
    checkInvariants(tree);
    tree.clear();
    checkInvariants(tree);
  });

  it('a wrong count: an inner node, a leaf, the size', () => {
    let { tree, t } = healthy();
    t.nodeCount[0] = 7;
    expect(() => checkInvariants(tree)).toThrow(
      broken('count', 'inner node 0 counts 7 but its children hold 6'),
    );
    ({ tree, t } = healthy());
    t.nodeCount[2] = 0; // the NE leaf forgets its item
    expect(() => checkInvariants(tree)).toThrow(
      broken('count', 'inner node 0 counts 6 but its children hold 5'),
    );
    ({ tree } = healthy());
    expect(() => checkInvariants(withInternals(tree, { size: 5 }))).toThrow(
      broken('count', 'leaves hold 6 items but size is 5'),
    );
  });

  it('an item outside its leaf, and one on its leaf’s open edge', () => {
    let { tree, t } = healthy();
    t.pool.xy[t.idSlot[0] << 1] = 12; // id 0 in the NW leaf, written to x = 12 (the NE quadrant)
    expect(() => checkInvariants(tree)).toThrow(broken('item outside its leaf', /id 0 at \(12, 1\)/));
    ({ tree, t } = healthy());
    t.pool.xy[(t.idSlot[1] << 1) + 1] = 8; // y = 8 is the NW leaf's open south edge
    expect(() => checkInvariants(tree)).toThrow(broken('item outside its leaf', /id 1 at \(3, 8\)/));
  });

  it('a split line off the midpoint, by a lot and by one ulp', () => {
    let { tree, t } = healthy();
    setSplit(t, 0, 8.5, 8);
    expect(() => checkInvariants(tree)).toThrow(
      broken('split line', 'node 0 is split at \\(8.5, 8\\), not at its midpoint \\(8, 8\\)'),
    );
    ({ tree, t } = healthy());
    setSplit(t, 0, 8, nextDown(8));
    expect(() => checkInvariants(tree)).toThrow(broken('split line', 'not at its midpoint'));
    ({ tree, t } = healthy());
    setSplit(t, 0, 8, 20);
    expect(() => checkInvariants(tree)).toThrow(broken('split line', 'outside it'));
  });

  it('children that do not tile their parent, and a group naming the wrong parent', () => {
    let { tree, t } = healthy();
    t.nodeBounds[(4 << 2) + 2] = 15; // the SE leaf ends short of the root's east edge
    expect(() => checkInvariants(tree)).toThrow(broken('tiling', 'child 3 of node 0 does not tile it'));
    ({ tree, t } = healthy());
    t.groupParent[0] = 3;
    expect(() => checkInvariants(tree)).toThrow(broken('parent', 'children of node 0 name 3 as parent'));
  });

  it('a leaf over maxItems that could split; a leaf too small to split may hold more', () => {
    const { tree } = healthy();
    // The NW and SE leaves (8 x 8) hold 2: more than a maxItems of 1, and halves of 4 are above minSize.
    expect(() => checkInvariants(withInternals(tree, { maxItems: 1 }))).toThrow(
      broken('split', 'leaf [14] holds 2 > maxItems 1 items and could split'),
    );
    // Coincident points stop splitting at minSize: that leaf (1 x 1) holds all of them, as it should...
    const crowded = new PointQuadtree({ bounds, maxItems: 1, minSize: 1 });
    for (let id = 0; id < 5; id++) crowded.insert(id, 3, 3);
    checkInvariants(crowded);
    // ...unless minSize were small enough to halve it.
    expect(() => checkInvariants(withInternals(crowded, { minSize: 0.5 }))).toThrow(
      broken('split', 'holds 5 > maxItems 1 items and could split'),
    );
  });

  it('an inner node left unmerged after its subtree emptied to maxItems', () => {
    const { tree, t } = healthy();
    // Take ids 4 and 5 out of the SE leaf, and ids 2 and 3 out of their leaves, without merging the root.
    for (const [leaf, ids] of [
      [4, [4, 5]],
      [2, [2]],
      [3, [3]],
    ] as const) {
      t.nodeCount[leaf] = 0;
      for (const id of ids) t.idSlot[id] = -1;
    }
    t.nodeCount[0] = 2;
    expect(() => checkInvariants(withInternals(tree, { size: 2 }))).toThrow(
      broken('merge', 'inner node 0 holds 2 <= maxItems 2 items: not merged'),
    );
  });

  it('stale id table entries: a wrong slot, a wrong leaf, a removed id still marked present', () => {
    let { tree, t } = healthy();
    t.idSlot[0] = t.idSlot[1];
    expect(() => checkInvariants(tree)).toThrow(broken('id table', /id 0 is in slot \d+ but idSlot says/));
    ({ tree, t } = healthy());
    t.idLeaf[2] = 1;
    expect(() => checkInvariants(tree)).toThrow(broken('id table', 'id 2 is in leaf 2 but idLeaf says 1'));
    ({ tree, t } = healthy());
    const slot = t.idSlot[5];
    tree.remove(5);
    checkInvariants(tree);
    t.idSlot[5] = slot;
    expect(() => checkInvariants(tree)).toThrow(broken('id table', '6 ids are marked present but size is 5'));
  });

  it('wrong loose rectangles', () => {
    const tree = new PointQuadtree({ bounds, maxItems: 2, minSize: 1, looseness: 1.5 });
    for (let id = 0; id < 6; id++) tree.insert(id, 1 + id * 2.5, 15 - id * 2.5);
    checkInvariants(tree);
    const t = tree[INTERNALS]();
    const c = t.nodeChild[0];
    t.nodeLoose[(c << 2) + 2] += 0.25; // the NW child's loose rectangle reaches 0.25 too far east
    expect(() => checkInvariants(tree)).toThrow(broken('loose', `node ${c} has loose bounds`));
    // A strict tree's loose rectangles are its own rectangles (the same array).
    const { tree: strict } = healthy();
    expect(() => checkInvariants(withInternals(strict, { nodeLoose: new Float64Array(64) }))).toThrow(
      broken('loose', 'looseness is 0 but nodeLoose is not nodeBounds'),
    );
  });

  it('pool damage: a free block over a leaf’s block, a wrong live count, a block that does not fit', () => {
    let { tree, t } = healthy();
    const start = t.nodeStart[1]; // the NW leaf's block (2 slots: class 1)
    t.pool.freeLists[0] = start; // a one-slot free block on top of it (its next link is the id there)
    expect(() => checkInvariants(tree)).toThrow(
      broken('pool', `free block ${start} overlaps slot ${start} of leaf 1`),
    );
    ({ tree, t } = healthy());
    t.pool.live += 1;
    expect(() => checkInvariants(tree)).toThrow(broken('pool', 'leaves own \\d+ slots but the pool counts'));
    ({ tree, t } = healthy());
    t.nodeCap[4] = 1; // the SE leaf holds 2 in a block of 1
    expect(() => checkInvariants(tree)).toThrow(broken('pool', 'leaf 4 holds 2 items in a block of 1'));
  });
});

describe('checkInvariants: split lines at the midpoint, except where a root grew by doubling', () => {
  /**
   * Root 0.1 .. 0.3 (both axes), split once, then grown east and south by doubling: the new root is
   * 0.1 .. 0.5 and its split lines are the old root's far edges, 0.3, while 0.1 + (0.5 - 0.1) / 2 is
   * 0.30000000000000004.
   */
  function grown(): { tree: PointQuadtree; t: QuadtreeInternals } {
    const tree = new PointQuadtree({
      bounds: { minX: 0.1, minY: 0.1, maxX: 0.3, maxY: 0.3 },
      maxItems: 1,
      minSize: 0.01,
    });
    tree.insert(0, 0.12, 0.12);
    tree.insert(1, 0.28, 0.28);
    tree.insert(2, 0.45, 0.45);
    const t = tree[INTERNALS]();
    expect(tree.bounds).toEqual({ minX: 0.1, minY: 0.1, maxX: 0.5, maxY: 0.5 });
    const se = (t.nodeChild[0] + 3) << 2;
    expect([t.nodeBounds[se], t.nodeBounds[se + 1]]).toEqual([0.3, 0.3]);
    expect(0.1 + (0.5 - 0.1) * 0.5).toBe(0.30000000000000004);
    return { tree, t };
  }

  it('a grown root split at the old root’s edge passes; a bulk build of it splits at the midpoint and passes', () => {
    const { tree } = grown();
    checkInvariants(tree);
    const bulk = PointQuadtree.from(
      { bounds: tree.bounds, maxItems: 1, minSize: 0.01 },
      [0, 1, 2],
      [0.12, 0.28, 0.45],
      [0.12, 0.28, 0.45],
    );
    const b = bulk[INTERNALS]();
    expect(b.nodeBounds[(b.nodeChild[0] + 3) << 2]).toBe(0.30000000000000004);
    checkInvariants(bulk);
  });

  it('a grown root split one ulp off its doubling line (and off its midpoint) fails', () => {
    const { tree, t } = grown();
    setSplit(t, 0, nextDown(0.3), 0.3);
    expect(() => checkInvariants(tree)).toThrow(broken('split line', 'node 0 is split at'));
  });

  it('a node that is not a grown root may not use the doubling exception', () => {
    // Root 0.1 .. 1.3 splits at 0.7, which is not a doubling of either half: its children were never roots.
    // Its NW child 0.1 .. 0.7 splits at 0.4; 0.39999999999999997 is a doubling line of it (0.7 is exactly
    // 0.39999999999999997 + (0.39999999999999997 - 0.1)), so only a grown root could be split there.
    const tree = new PointQuadtree({
      bounds: { minX: 0.1, minY: 0.1, maxX: 1.3, maxY: 1.3 },
      maxItems: 1,
      minSize: 0.01,
    });
    tree.insert(0, 0.2, 0.2);
    tree.insert(1, 0.6, 0.6);
    tree.insert(2, 1.2, 1.2);
    checkInvariants(tree);
    const t = tree[INTERNALS]();
    const nw = t.nodeChild[0];
    expect(t.nodeBounds.slice(nw << 2, (nw << 2) + 4)).toEqual(new Float64Array([0.1, 0.1, 0.7, 0.7]));
    expect(t.nodeChild[nw]).toBeGreaterThan(0);
    const line = 0.39999999999999997;
    expect(line + (line - 0.1)).toBe(0.7);
    expect(nextUp(line)).toBe(0.4);
    setSplit(t, nw, line, line);
    expect(() => checkInvariants(tree)).toThrow(
      broken(
        'split line',
        `node ${nw} is split at \\(${line}, ${line}\\), not at its midpoint \\(0.4, 0.4\\)`,
      ),
    );
  });

  it('seed 31: trees grown many times over, in every direction, pass after every step', () => {
    const rnd = mulberry32(31);
    const tree = new PointQuadtree({
      bounds: { minX: 0.1, minY: 0.7, maxX: 0.3, maxY: 0.9 },
      maxItems: 2,
      minSize: 1e-6,
    });
    let grownOffMidpoint = 0;
    for (let id = 0; id < 400; id++) {
      const far = 10 ** (rnd() * 6);
      tree.insert(id, 0.2 + (rnd() - 0.5) * far, 0.8 + (rnd() - 0.5) * far);
      checkInvariants(tree);
      const t = tree[INTERNALS]();
      const c = t.nodeChild[0];
      if (c < 0) continue;
      const b = t.nodeBounds;
      const mx = b[0] + (b[2] - b[0]) * 0.5;
      if (b[(c + 3) << 2] !== mx) grownOffMidpoint++;
    }
    // The exception was needed: some grown roots were split off their midpoint.
    expect(grownOffMidpoint).toBeGreaterThan(0);
  });
});
