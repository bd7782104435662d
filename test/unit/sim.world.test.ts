import { describe, expect, it } from 'vitest';
import {
  clamp,
  groundRectToTree,
  levelGround,
  rectFromCorners,
  treeX,
  treeY,
  worldX,
  worldZ,
} from '../../src/sim/world';

describe('world <-> tree mapping', () => {
  it('maps world x to tree x and world z to tree y, and back', () => {
    for (const [x, z] of [
      [0, 0],
      [-12.5, 40],
      [99.75, -100],
    ]) {
      expect(treeX(x)).toBe(x);
      expect(treeY(z)).toBe(z);
      expect(worldX(treeX(x))).toBe(x);
      expect(worldZ(treeY(z))).toBe(z);
    }
  });

  it('maps ground rectangles to tree bounds', () => {
    const ground = { minX: -10, minZ: -20, maxX: 30, maxZ: 40 };
    expect(groundRectToTree(ground)).toEqual({ minX: -10, minY: -20, maxX: 30, maxY: 40 });
  });

  it('centres a level on the origin', () => {
    expect(levelGround(200, 100)).toEqual({ minX: -100, minZ: -50, maxX: 100, maxZ: 50 });
  });

  it('builds a rectangle from corners in any order', () => {
    const out = { minX: 0, minZ: 0, maxX: 0, maxZ: 0 };
    expect(rectFromCorners(5, -1, -3, 7, out)).toEqual({ minX: -3, minZ: -1, maxX: 5, maxZ: 7 });
  });

  it('clamps', () => {
    expect(clamp(-5, 0, 10)).toBe(0);
    expect(clamp(15, 0, 10)).toBe(10);
    expect(clamp(3, 0, 10)).toBe(3);
  });
});
