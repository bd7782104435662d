import { describe, expect, it } from 'vitest';
import {
  isTyping,
  PLAYER_MARGIN,
  type PlayerState,
  RUN_SPEED,
  stepPlayer,
  WALK_SPEED,
} from '../../src/player';
import { levelGround } from '../../src/sim/world';

const ground = levelGround(200, 200);

function at(x = 0, z = 0): PlayerState {
  return { x, z, heading: 0 };
}

describe('stepPlayer', () => {
  it('walks along the camera view with W, to its right with D', () => {
    const p = at();
    // Camera looking towards -Z.
    expect(stepPlayer(p, 1, 0, false, 0.5, 0, -10, ground)).toBe(true);
    expect(p.x).toBeCloseTo(0, 12);
    expect(p.z).toBeCloseTo(-WALK_SPEED * 0.5, 12);
    const q = at();
    stepPlayer(q, 0, 1, false, 0.5, 0, -10, ground);
    expect(q.x).toBeCloseTo(WALK_SPEED * 0.5, 12);
    expect(q.z).toBeCloseTo(0, 12);
    // Camera looking towards +X: W walks +X, D walks +Z.
    const r = at();
    stepPlayer(r, 1, 1, false, 1, 5, 0, ground);
    expect(r.x).toBeCloseTo(WALK_SPEED / Math.SQRT2, 12);
    expect(r.z).toBeCloseTo(WALK_SPEED / Math.SQRT2, 12);
  });

  it('is frame-rate independent and runs faster with Shift', () => {
    const a = at();
    for (let i = 0; i < 100; i++) stepPlayer(a, 1, 0, false, 0.01, 0, -1, ground);
    const b = at();
    stepPlayer(b, 1, 0, false, 1, 0, -1, ground);
    expect(a.z).toBeCloseTo(b.z, 9);
    const c = at();
    stepPlayer(c, 1, 0, true, 1, 0, -1, ground);
    expect(c.z).toBeCloseTo(-RUN_SPEED, 9);
  });

  it('does not move without keys, for opposite keys, or for a zero delta', () => {
    const p = at(3, 4);
    expect(stepPlayer(p, 0, 0, true, 1, 0, -1, ground)).toBe(false);
    expect(stepPlayer(p, 1, 0, false, 0, 0, -1, ground)).toBe(false);
    expect(p).toMatchObject({ x: 3, z: 4 });
  });

  it('stays inside the level and reports no move when pressed against an edge', () => {
    const p = at(0, -99);
    expect(stepPlayer(p, 1, 0, true, 1, 0, -1, ground)).toBe(true);
    expect(p.z).toBe(-100 + PLAYER_MARGIN);
    expect(stepPlayer(p, 1, 0, true, 1, 0, -1, ground)).toBe(false);
  });

  it('falls back to -Z when the camera looks straight down', () => {
    const p = at();
    stepPlayer(p, 1, 0, false, 1, 0, 0, ground);
    expect(p.z).toBeCloseTo(-WALK_SPEED, 9);
  });
});

describe('isTyping', () => {
  const el = (tagName: string, extra: Record<string, unknown> = {}) =>
    ({ tagName, ...extra }) as unknown as EventTarget;

  it('text fields keep their keys; checkboxes, buttons and the page do not', () => {
    expect(isTyping(el('INPUT', { type: 'text' }))).toBe(true);
    expect(isTyping(el('INPUT', { type: 'number' }))).toBe(true);
    expect(isTyping(el('TEXTAREA'))).toBe(true);
    expect(isTyping(el('SELECT'))).toBe(true);
    expect(isTyping(el('DIV', { isContentEditable: true }))).toBe(true);
    expect(isTyping(el('INPUT', { type: 'checkbox' }))).toBe(false);
    expect(isTyping(el('BUTTON'))).toBe(false);
    expect(isTyping(el('BODY', { isContentEditable: false }))).toBe(false);
    expect(isTyping(null)).toBe(false);
    expect(isTyping({} as EventTarget)).toBe(false);
  });
});
