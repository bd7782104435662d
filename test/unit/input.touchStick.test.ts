import { describe, expect, it } from 'vitest';
import { STICK, stickVector } from '../../src/input/touchStick';

const v = (dx: number, dy: number) => stickVector(dx, dy, { forward: 0, right: 0 });
const length = (s: { forward: number; right: number }) => Math.hypot(s.forward, s.right);

describe('the touch stick vector (stickVector)', () => {
  it('up the screen is forward, right is right, down is back', () => {
    expect(v(0, -STICK.radius)).toEqual({ forward: 1, right: 0 });
    expect(v(STICK.radius, 0).right).toBe(1);
    expect(v(STICK.radius, 0).forward).toBeCloseTo(0, 12);
    expect(v(0, STICK.radius).forward).toBe(-1);
    const slant = v(-40, -40); // up and to the left
    expect(slant.forward).toBeGreaterThan(0);
    expect(slant.right).toBeCloseTo(-slant.forward, 12);
  });

  it('stands still within the dead zone, then grows linearly with the drag up to 1 at the radius', () => {
    expect(length(v(0, 0))).toBe(0);
    expect(length(v(3, -4))).toBe(0); // 5 px: inside the dead zone
    expect(length(v(0, -STICK.deadZone))).toBe(0);
    const span = STICK.radius - STICK.deadZone;
    expect(length(v(0, -(STICK.deadZone + span / 4)))).toBeCloseTo(0.25, 12);
    expect(length(v(0, -(STICK.deadZone + span / 2)))).toBeCloseTo(0.5, 12);
    let last = 0;
    for (let d = STICK.deadZone + 1; d <= STICK.radius; d++) {
      const now = length(v(d * 0.6, -d * 0.8));
      expect(now).toBeGreaterThan(last);
      last = now;
    }
    expect(last).toBeCloseTo(1, 12);
  });

  it('is limited to 1 beyond the radius', () => {
    expect(length(v(0, -STICK.radius * 3))).toBe(1);
    expect(length(v(500, 500))).toBeCloseTo(1, 12);
  });

  it('writes into the given object and returns it', () => {
    const out = { forward: 9, right: 9 };
    expect(stickVector(0, -STICK.radius, out)).toBe(out);
    expect(out).toEqual({ forward: 1, right: 0 });
  });
});
