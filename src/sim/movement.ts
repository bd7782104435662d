/**
 * Movement on the ground, pure and frame-rate independent: the player's step relative to where the camera
 * looks, and the enemies' random walk. No input handling and no mesh here (see `src/input/keyboard.ts` and
 * `src/view/playerMesh.ts`).
 */
import { clamp, type GroundRect } from './world';

/** Where the player stands and faces. */
export interface PlayerState {
  x: number;
  z: number;
  /** Facing, radians around +Y (0 faces +Z). */
  heading: number;
}

/**
 * What the player is asked to do this frame. `forward` and `right` are keys (+1, -1, 0) or a touch stick's
 * deflection: the player moves along their direction at the speed times their length, capped at 1 (so
 * two keys at once move no faster than one, and a small deflection moves slowly).
 */
export interface MoveInput {
  /** +1 forward, -1 back, 0 neither or both; between for a stick. */
  forward: number;
  /** +1 right, -1 left. */
  right: number;
  running: boolean;
  /** The camera's look direction on the ground (need not be normalised); W moves along it, D to its right. */
  viewX: number;
  viewZ: number;
}

export interface MoveOptions {
  /** Walking and running speeds, world units per second. */
  walkSpeed: number;
  runSpeed: number;
  /** The player keeps this far inside `area`. */
  margin: number;
  /** Where the player may stand (the level's ground). */
  area: GroundRect;
}

/** The scene's speeds and margin (add the `area`). */
export const PLAYER_MOVE = Object.freeze({ walkSpeed: 14, runSpeed: 36, margin: 0.6 });

/**
 * Move the player for one frame of `dt` seconds. Keeps the player `margin` inside `area`. Returns whether
 * the position changed. Allocates nothing.
 */
export function stepPlayer(player: PlayerState, input: MoveInput, dt: number, options: MoveOptions): boolean {
  const { forward, right } = input;
  if ((forward === 0 && right === 0) || dt <= 0) return false;
  const viewLength = Math.hypot(input.viewX, input.viewZ);
  // Looking straight down: fall back to the level's -Z as forward.
  const fx = viewLength > 1e-6 ? input.viewX / viewLength : 0;
  const fz = viewLength > 1e-6 ? input.viewZ / viewLength : -1;
  // Right of forward on the ground (Y up): (-fz, fx).
  let dx = fx * forward - fz * right;
  let dz = fz * forward + fx * right;
  const length = Math.hypot(dx, dz);
  dx /= length;
  dz /= length;
  const amount = Math.min(1, length);
  const distance = (input.running ? options.runSpeed : options.walkSpeed) * amount * dt;
  const { area, margin } = options;
  const x = clamp(player.x + dx * distance, area.minX + margin, area.maxX - margin);
  const z = clamp(player.z + dz * distance, area.minZ + margin, area.maxZ - margin);
  player.heading = Math.atan2(dx, dz);
  if (x === player.x && z === player.z) return false;
  player.x = x;
  player.z = z;
  return true;
}

/** Angular noise of the enemies' random walk, radians per second at most. */
export const TURN_RATE = 3;

/**
 * One frame of the enemies' random walk for ids 0..count-1. Each heading is a unit vector (headX, headZ)
 * turned by an angle uniform in [-turn, turn] (one `random()` per enemy, in id order), then the enemy
 * steps `stepLength` along it; an enemy that leaves `area` is mirrored back in with its heading. The same
 * walk as adding the angle to a heading in radians and stepping by its cosine and sine, without any
 * trigonometry: cos and sin of the small angle by their Taylor series (to within 3e-9 for |angle| <= 0.1)
 * and one Newton step back to unit length (the vector's length stays 1 to within rounding).
 */
export function wanderStep(
  xs: Float32Array,
  zs: Float32Array,
  headX: Float32Array,
  headZ: Float32Array,
  count: number,
  random: () => number,
  stepLength: number,
  turn: number,
  area: GroundRect,
): void {
  const { minX, maxX, minZ, maxZ } = area;
  const spread = 2 * turn;
  for (let i = 0; i < count; i++) {
    const a = (random() - 0.5) * spread;
    const a2 = a * a;
    const c = 1 - a2 * (0.5 - a2 / 24);
    const s = a * (1 - a2 / 6);
    const hx0 = headX[i];
    const hz0 = headZ[i];
    let hx = hx0 * c - hz0 * s;
    let hz = hx0 * s + hz0 * c;
    // Newton's step for 1 / sqrt(len²) from 1: the length drifts by rounding only, never grows.
    const k = 1.5 - 0.5 * (hx * hx + hz * hz);
    hx *= k;
    hz *= k;
    let x = xs[i] + hx * stepLength;
    let z = zs[i] + hz * stepLength;
    // Bounce off the level's edges: mirror the position and the heading.
    if (x < minX) {
      x = 2 * minX - x;
      hx = -hx;
    } else if (x > maxX) {
      x = 2 * maxX - x;
      hx = -hx;
    }
    if (z < minZ) {
      z = 2 * minZ - z;
      hz = -hz;
    } else if (z > maxZ) {
      z = 2 * maxZ - z;
      hz = -hz;
    }
    xs[i] = clamp(x, minX, maxX);
    zs[i] = clamp(z, minZ, maxZ);
    headX[i] = hx;
    headZ[i] = hz;
  }
}
