/**
 * The player's movement: a pure, frame-rate independent step on the ground, relative to where the camera
 * looks. No input handling and no mesh here (see `src/input/keyboard.ts` and `src/view/playerMesh.ts`).
 */
import { clamp, type GroundRect } from './world';

/** Where the player stands and faces. */
export interface PlayerState {
  x: number;
  z: number;
  /** Facing, radians around +Y (0 faces +Z). */
  heading: number;
}

/** What the player is asked to do this frame. */
export interface MoveInput {
  /** +1 forward, -1 back, 0 neither or both. */
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
  const distance = (input.running ? options.runSpeed : options.walkSpeed) * dt;
  const { area, margin } = options;
  const x = clamp(player.x + dx * distance, area.minX + margin, area.maxX - margin);
  const z = clamp(player.z + dz * distance, area.minZ + margin, area.maxZ - margin);
  player.heading = Math.atan2(dx, dz);
  if (x === player.x && z === player.z) return false;
  player.x = x;
  player.z = z;
  return true;
}
