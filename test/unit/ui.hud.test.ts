import { describe, expect, it } from 'vitest';
import { FrameRate } from '../../src/ui/frameRate';
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

describe('HUD frame rate (FrameRate)', () => {
  it('counts the frames really drawn over about a second of real time', () => {
    const rate = new FrameRate(0.1);
    expect(rate.fps).toBeNaN(); // no window has ended yet
    for (let i = 0; i < 60; i++) rate.add(1 / 60);
    expect(rate.fps).toBeCloseTo(60, 6);
    expect(rate.clamped).toBe(false);
  });

  it('shows below 10 when frames are slow, and says the step clamp was in force', () => {
    const rate = new FrameRate(0.1);
    rate.add(2.5); // one frame of 2.5 s ends a window by itself
    expect(rate.fps).toBeCloseTo(0.4, 9);
    expect(rate.clamped).toBe(true);
    for (let i = 0; i < 4; i++) rate.add(0.3);
    expect(rate.fps).toBeCloseTo(1 / 0.3, 9);
    expect(rate.clamped).toBe(true);
  });

  it('one long frame in a window sets the note for that window only', () => {
    const rate = new FrameRate(0.1);
    for (let i = 0; i < 9; i++) rate.add(0.05);
    rate.add(0.6); // 1.05 s: the window ends here
    expect(rate.fps).toBeCloseTo(10 / 1.05, 9);
    expect(rate.clamped).toBe(true);
    for (let i = 0; i < 20; i++) rate.add(0.05);
    expect(rate.fps).toBeCloseTo(20, 6);
    expect(rate.clamped).toBe(false);
  });

  it('a frame of exactly the clamp is not clamped', () => {
    const rate = new FrameRate(0.125); // exact in binary: eight frames are exactly a second
    for (let i = 0; i < 8; i++) rate.add(0.125);
    expect(rate.fps).toBe(8);
    expect(rate.clamped).toBe(false);
  });
});
