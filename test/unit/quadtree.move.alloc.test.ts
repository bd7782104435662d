import { PointQuadtree } from 'point-quadtree';
import { INTERNALS } from 'point-quadtree/internal/PointQuadtree';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { instrumented, leastBytesPerCall } from '../helpers/allocation';

// A file of its own: the engine's choices of what to inline depend on everything the process ran before,
// and this is about a game that moves its items with move alone.
describe('PointQuadtree.move allocates nothing per frame once warm', () => {
  it.skipIf(instrumented)('a crowd moved point by point, items crossing leaf edges included', () => {
    const n = 20_000;
    const rnd = mulberry32(7);
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      xs[i] = rnd() * 1000;
      ys[i] = rnd() * 1000;
    }
    // Steps drawn once (a random draw per move would box its result in the test's own loop).
    const kinds = 16;
    const steps = new Float64Array(kinds * n * 2);
    for (let k = 0; k < steps.length; k++) steps[k] = 2 * rnd() - 1;
    const tree = PointQuadtree.from(
      { bounds: { minX: 0, minY: 0, maxX: 1000, maxY: 1000 } },
      Int32Array.from({ length: n }, (_, i) => i),
      xs,
      ys,
    );
    const leaves = new Int32Array(n);
    let frame = 0;
    let crossed = 0;
    const frames = (count: number): number => {
      for (let f = 0; f < count; f++, frame++) {
        const base = (frame % kinds) * n * 2;
        for (let i = 0; i < n; i++) {
          xs[i] = Math.min(Math.max(xs[i] + steps[base + 2 * i], 0), 1000);
          ys[i] = Math.min(Math.max(ys[i] + steps[base + 2 * i + 1], 0), 1000);
          tree.move(i, xs[i], ys[i]);
        }
      }
      return tree.size;
    };
    frames(300);
    // How many items a frame leave their leaf (the path that re-files them is the one under test).
    const before = tree.queryRect(0, 0, 1000, 1000).length;
    leaves.set(tree[INTERNALS]().idLeaf.subarray(0, n));
    frames(1);
    const idLeaf = tree[INTERNALS]().idLeaf;
    for (let i = 0; i < n; i++) if (idLeaf[i] !== leaves[i]) crossed++;
    expect(before).toBe(n);
    expect(crossed).toBeGreaterThan(500);
    // Per frame: 20,000 moves, of which ~600 leave their leaf (the count above also has the neighbours that a
    // split or merge re-filed). Boxing a coordinate per leaver (as the out-of-leaf path once did, where move
    // was inlined into this loop and the checks it then called were not) is 16 bytes each: 7,660 bytes a
    // frame here then, and 614,000 (every move's two coordinates) where move grew past what the engine
    // inlines. The measurement's own bytes per round (an empty round: ~3,800) are taken off.
    const perRound = 10;
    const overhead = leastBytesPerCall(() => frames(0), 1);
    const bound = 160;
    const least = leastBytesPerCall(frames, perRound, 12, bound + overhead / perRound) - overhead / perRound;
    expect(least, `${least} bytes per frame`).toBeLessThan(bound);
    expect(tree.queryRect(0, 0, 1000, 1000)).toHaveLength(n);
  });
});
