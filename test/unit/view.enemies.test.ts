import { Color } from 'three';
import { describe, expect, it } from 'vitest';
import { COLORS } from '../../src/view/colors';
import { EnemyMesh, EnemyPalette } from '../../src/view/enemies';

describe('EnemyMesh', () => {
  it('allocates every instance once, dark, and draws mesh.count of them', () => {
    const e = new EnemyMesh(1000, new Color(COLORS.enemy));
    expect(e.mesh.instanceMatrix.count).toBe(1000);
    expect(e.mesh.instanceColor!.count).toBe(1000);
    expect(e.count).toBe(0);
    e.count = 250;
    expect(e.mesh.count).toBe(250);
    const scratch = new Color();
    expect(e.colorHex(0, scratch)).toBe(COLORS.enemy);
    expect(e.colorHex(999, scratch)).toBe(COLORS.enemy);
  });

  it('recolours single instances and uploads only the changed range', () => {
    const e = new EnemyMesh(100, new Color(COLORS.enemy));
    const detected = new Color(COLORS.detected);
    const rect = new Color(COLORS.rect);
    e.setColor(40, detected);
    e.setColor(12, rect);
    e.flushColors();
    const scratch = new Color();
    expect(e.colorHex(40, scratch)).toBe(COLORS.detected);
    expect(e.colorHex(12, scratch)).toBe(COLORS.rect);
    expect(e.colorHex(13, scratch)).toBe(COLORS.enemy);
    const c = e.mesh.instanceColor!;
    expect(c.version).toBeGreaterThan(0);
    expect(c.updateRanges).toEqual([{ start: 36, count: 29 * 3 }]);
    const version = c.version;
    e.flushColors(); // nothing changed: no upload
    expect(c.version).toBe(version);
  });

  it('writes positions into the instance translations', () => {
    const e = new EnemyMesh(10, new Color(COLORS.enemy));
    const xs = new Float32Array([1, 2, 3, 4]);
    const zs = new Float32Array([5, 6, 7, 8]);
    e.setPositions(xs, zs, 1, 3);
    const m = e.mesh.instanceMatrix;
    const a = m.array as Float32Array;
    expect([a[16 + 12], a[16 + 13], a[16 + 14]]).toEqual([2, 0, 6]);
    expect([a[32 + 12], a[32 + 14]]).toEqual([3, 7]);
    expect([a[12], a[14]]).toEqual([0, 0]);
    expect(m.updateRanges).toEqual([{ start: 16, count: 32 }]);
  });
});

describe('crowd colour precedence', () => {
  const palette = new EnemyPalette();
  const hex = (c: Color) => `#${c.getHexString()}`;
  it.each([
    [true, true, true, COLORS.detected],
    [true, false, true, COLORS.detected],
    [false, true, true, COLORS.rect],
    [false, false, true, COLORS.crowd],
    [false, false, false, COLORS.enemy],
  ])('found %s, in rect %s, crowded %s: %s', (found, inRect, crowded, expected) => {
    expect(hex(palette.colorOf(found, inRect, crowded))).toBe(expected);
  });
  it('the crowd colour differs from every other enemy colour', () => {
    const others = [COLORS.enemy, COLORS.detected, COLORS.rect];
    expect(others).not.toContain(COLORS.crowd);
    expect(new Color(COLORS.crowd).getHexString()).toBe(COLORS.crowd.slice(1));
  });
});
