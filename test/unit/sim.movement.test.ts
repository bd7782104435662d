import { describe, expect, it } from 'vitest';
import { type MoveOptions, PLAYER_MOVE, type PlayerState, stepPlayer } from '../../src/sim/movement';
import { levelGround } from '../../src/sim/world';

const ground = levelGround(200, 200);
const WALK_SPEED = PLAYER_MOVE.walkSpeed;
const RUN_SPEED = PLAYER_MOVE.runSpeed;
const PLAYER_MARGIN = PLAYER_MOVE.margin;

/** One frame of the scene's movement: keys, dt, the camera's view direction, the level's ground. */
function move(
  p: PlayerState,
  forward: number,
  right: number,
  running: boolean,
  dt: number,
  viewX: number,
  viewZ: number,
  area = ground,
  options: Partial<MoveOptions> = {},
): boolean {
  return stepPlayer(p, { forward, right, running, viewX, viewZ }, dt, { ...PLAYER_MOVE, area, ...options });
}

function at(x = 0, z = 0): PlayerState {
  return { x, z, heading: 0 };
}

describe('stepPlayer', () => {
  it('walks along the camera view with W, to its right with D', () => {
    const p = at();
    // Camera looking towards -Z.
    expect(move(p, 1, 0, false, 0.5, 0, -10)).toBe(true);
    expect(p.x).toBeCloseTo(0, 12);
    expect(p.z).toBeCloseTo(-WALK_SPEED * 0.5, 12);
    const q = at();
    move(q, 0, 1, false, 0.5, 0, -10);
    expect(q.x).toBeCloseTo(WALK_SPEED * 0.5, 12);
    expect(q.z).toBeCloseTo(0, 12);
    // Camera looking towards +X: W walks +X, D walks +Z.
    const r = at();
    move(r, 1, 1, false, 1, 5, 0);
    expect(r.x).toBeCloseTo(WALK_SPEED / Math.SQRT2, 12);
    expect(r.z).toBeCloseTo(WALK_SPEED / Math.SQRT2, 12);
  });

  it('is frame-rate independent and runs faster with Shift', () => {
    const a = at();
    for (let i = 0; i < 100; i++) move(a, 1, 0, false, 0.01, 0, -1);
    const b = at();
    move(b, 1, 0, false, 1, 0, -1);
    expect(a.z).toBeCloseTo(b.z, 9);
    const c = at();
    move(c, 1, 0, true, 1, 0, -1);
    expect(c.z).toBeCloseTo(-RUN_SPEED, 9);
  });

  it("a stick's deflection scales the speed along its direction, up to the full speed at length 1", () => {
    const half = at();
    move(half, 0.5, 0, false, 1, 0, -1);
    expect(half.z).toBeCloseTo(-WALK_SPEED * 0.5, 12);
    const slant = at(); // length 0.5 at 45 degrees to the right of the view
    move(slant, 0.5 / Math.SQRT2, 0.5 / Math.SQRT2, true, 1, 0, -1);
    expect(slant.x).toBeCloseTo((RUN_SPEED * 0.5) / Math.SQRT2, 12);
    expect(slant.z).toBeCloseTo((-RUN_SPEED * 0.5) / Math.SQRT2, 12);
    const over = at(); // longer than 1: capped, as two keys at once
    move(over, 3, 0, false, 1, 0, -1);
    expect(over.z).toBeCloseTo(-WALK_SPEED, 12);
    const tiny = at();
    move(tiny, 0.01, 0, false, 1, 0, -1);
    expect(tiny.z).toBeCloseTo(-WALK_SPEED * 0.01, 12);
  });

  it('does not move without keys, for opposite keys, or for a zero delta', () => {
    const p = at(3, 4);
    expect(move(p, 0, 0, true, 1, 0, -1)).toBe(false);
    expect(move(p, 1, 0, false, 0, 0, -1)).toBe(false);
    expect(p).toMatchObject({ x: 3, z: 4 });
  });

  it('stays inside the level and reports no move when pressed against an edge', () => {
    const p = at(0, -99);
    expect(move(p, 1, 0, true, 1, 0, -1)).toBe(true);
    expect(p.z).toBe(-100 + PLAYER_MARGIN);
    expect(move(p, 1, 0, true, 1, 0, -1)).toBe(false);
  });

  it('falls back to -Z when the camera looks straight down', () => {
    const p = at();
    move(p, 1, 0, false, 1, 0, 0);
    expect(p.z).toBeCloseTo(-WALK_SPEED, 9);
  });

  it('takes its speeds, margin and area from the options object', () => {
    const p = at();
    move(p, 1, 0, false, 0.5, 0, -1, ground, { walkSpeed: 2 });
    expect(p.z).toBeCloseTo(-1, 12);
    move(p, 1, 0, true, 0.5, 0, -1, ground, { runSpeed: 10 });
    expect(p.z).toBeCloseTo(-6, 12);
    const small = levelGround(20, 10);
    const q = at();
    move(q, 0, 1, true, 1, 0, -1, small, { margin: 2 });
    expect(q.x).toBe(10 - 2);
    move(q, -1, 0, true, 1, 0, -1, small, { margin: 2 });
    expect(q.z).toBe(5 - 2);
  });

  it('faces the way it walks, even when pressed against an edge', () => {
    const p = at(0, -99.4);
    expect(move(p, 1, 0, false, 1, 0, -1)).toBe(false);
    expect(p.heading).toBeCloseTo(Math.PI, 12); // facing -Z
    move(p, 0, 1, false, 0.1, 0, -1);
    expect(p.heading).toBeCloseTo(Math.PI / 2, 12); // facing +X
  });
});
