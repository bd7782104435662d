import { describe, expect, it } from 'vitest';
import { Smoothed } from '../../src/ui/hud';

describe('HUD smoothing', () => {
  it('starts at the first sample and converges without overshoot', () => {
    const s = new Smoothed(0.5);
    expect(s.add(10, 0.016)).toBe(10);
    let v = 10;
    for (let i = 0; i < 200; i++) {
      const next = s.add(20, 0.016);
      expect(next).toBeGreaterThanOrEqual(v);
      expect(next).toBeLessThanOrEqual(20);
      v = next;
    }
    expect(v).toBeCloseTo(20, 1);
    expect(s.add(5, 10)).toBe(5); // a long frame jumps straight to the sample
  });
});
