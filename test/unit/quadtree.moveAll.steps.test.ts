/**
 * moveAll where the root changes on the way, so that it moves one by one (moveEach): the check that every
 * step of that spans a finite extent (else the root is refitted straight to the new places), in y as in x,
 * whichever side, with the item that overflows in any slot, and the scratch that check keeps between calls.
 * (quadtree.farPoints has the x case of a far stray that crosses over.)
 */
import { PointQuadtree } from 'point-quadtree';
import { checkInvariants, visitNodes } from 'point-quadtree/debug';
import { describe, expect, it } from 'vitest';
import { bounds } from '../helpers/trees';

/** Every node as "depth minX minY maxX maxY leaf count", parent first: two trees with equal dumps are equal. */
function dump(tree: PointQuadtree): string[] {
  const out: string[] = [];
  visitNodes(tree, (n) => {
    out.push(`${n.depth} ${n.minX} ${n.minY} ${n.maxX} ${n.maxY} ${n.isLeaf} ${n.count}`);
  });
  return out;
}

const FAR = 1.7e308;
const ABSENT = 39;
const gridX = (i: number) => (i * 37) % 100;
const gridY = (i: number) => (i * 53) % 100;

describe('PointQuadtree.moveAll one by one: a step that would span an infinite width or height', () => {
  type Axis = 'x' | 'y';
  /** (along, across) as (x, y) for axis x, as (y, x) for axis y. */
  const at = (axis: Axis, along: number, across: number): [number, number] =>
    axis === 'x' ? [along, across] : [across, along];
  /**
   * Ids 0..40 on a grid but id `far` at side * FAR on the axis, inserted first or last (so that id 0 or id
   * `far` is the first filed, in slot 0: no slot may be skipped), and id 39 absent.
   */
  const make = (axis: Axis, side: number, far: number, farFirst: boolean) => {
    const tree = new PointQuadtree({ bounds, maxItems: 2 });
    if (farFirst) tree.insert(far, ...at(axis, side * FAR, 50));
    for (let i = 0; i <= 40; i++) if (i !== far && i !== ABSENT) tree.insert(i, gridX(i), gridY(i));
    if (!farFirst) tree.insert(far, ...at(axis, side * FAR, 50));
    return tree;
  };
  const places = (axis: Axis, side: number, far: number) => {
    const xs = Array.from({ length: 41 }, (_, i) => gridX(i));
    const ys = Array.from({ length: 41 }, (_, i) => gridY(i));
    const along = axis === 'x' ? xs : ys;
    along[0] = -side * FAR;
    [xs[far], ys[far]] = at(axis, 60, 50);
    // The absent id's finite entry far out on the far side must count nowhere.
    [xs[ABSENT], ys[ABSENT]] = at(axis, side * FAR, 500);
    return { xs, ys };
  };
  /** The extent of the grid (the constructor's bounds) and -side * FAR on the axis. */
  const refitted = (axis: Axis, side: number) => {
    const lo = side > 0 ? -FAR : 0;
    const hi = side > 0 ? 100 : FAR;
    return axis === 'x'
      ? { minX: lo, minY: 0, maxX: hi, maxY: 100 }
      : { minX: 0, minY: lo, maxX: 100, maxY: hi };
  };
  const span = (axis: Axis) =>
    axis === 'x'
      ? /the points span x -?1\.7e\+308 \.\. -?1\.7e\+308, y 0 \.\. 100/
      : /the points span x 0 \.\. 100, y -?1\.7e\+308 \.\. -?1\.7e\+308/;
  for (const axis of ['y', 'x'] as const) {
    for (const side of [1, -1]) {
      const farSide = axis === 'y' ? (side > 0 ? 'north' : 'south') : side > 0 ? 'east' : 'west';
      const otherSide = { north: 'south', south: 'north', east: 'west', west: 'east' }[farSide];
      for (const far of [1, 40]) {
        for (const farFirst of [false, true]) {
          it(`id ${far} far ${farSide} comes back as id 0 leaves ${otherSide} (${
            farFirst ? `id ${far} inserted first` : 'the grid first'
          }): the root is refitted to the new places, exactly`, () => {
            // Moving one by one in id order, id 0 reaches -side * FAR while id `far` is still out (the step
            // of id 0 only, where far is 1): that step throws, so moveAll refits the root to the final places.
            const { xs, ys } = places(axis, side, far);
            expect(() => make(axis, side, far, farFirst).move(0, xs[0], ys[0])).toThrow(span(axis));
            const tree = make(axis, side, far, farFirst);
            tree.moveAll(xs, ys);
            checkInvariants(tree);
            expect(tree.bounds).toEqual(refitted(axis, side));
            expect(tree.size).toBe(40);
            for (let id = 0; id <= 40; id++) {
              if (id !== ABSENT) expect(tree.queryCircle(xs[id], ys[id], 0), `id ${id}`).toContain(id);
            }
            expect(tree.has(ABSENT)).toBe(false);
          });
        }
      }
      it(`id 0 leaves ${otherSide} while id 40 stays ${farSide}: a RangeError naming the extent; nothing moves`, () => {
        for (const farFirst of [false, true]) {
          const { xs, ys } = places(axis, side, 40);
          [xs[40], ys[40]] = at(axis, side * FAR, 50);
          const tree = make(axis, side, 40, farFirst);
          expect(() => tree.moveAll(xs, ys)).toThrow(span(axis));
          checkInvariants(tree);
          for (let id = 0; id < 40; id++) {
            if (id !== ABSENT) expect(tree.queryCircle(gridX(id), gridY(id), 0), `id ${id}`).toContain(id);
          }
          expect(tree.queryCircle(...at(axis, side * FAR, 50), 0)).toEqual([40]);
        }
      });
    }
  }
});

describe('PointQuadtree.moveAll one by one: its scratch', () => {
  it('a second call with one id more: the root grows as with move per id (the scratch grows with the ids)', () => {
    const options = { bounds, maxItems: 2 };
    const all = new PointQuadtree(options);
    const one = new PointQuadtree(options);
    const xs: number[] = [];
    const ys: number[] = [];
    for (let id = 0; id < 10; id++) {
      xs.push(10 + id * 8);
      ys.push(90 - id * 8);
      all.insert(id, xs[id], ys[id]);
      one.insert(id, xs[id], ys[id]);
    }
    const step = (id: number, x: number, y: number) => {
      xs[id] = x;
      ys[id] = y;
      all.moveAll(xs, ys);
      one.move(id, x, y);
      checkInvariants(all);
      expect(all.bounds, `id ${id} to (${x}, ${y})`).toEqual(one.bounds);
      expect(dump(all), `id ${id} to (${x}, ${y})`).toEqual(dump(one));
    };
    // Out east: the root doubles (moving one by one, each step checked).
    step(0, 150, 50);
    for (const extra of [10, 11, 12]) {
      xs.push(20 + extra);
      ys.push(20);
      all.insert(extra, xs[extra], ys[extra]);
      one.insert(extra, xs[extra], ys[extra]);
      // The newest id, the largest, out west: one by one again, with more ids than the scratch had.
      step(extra, -60 - extra, 50);
    }
  });
});
