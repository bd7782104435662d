/**
 * The player: keyboard state (kept by `event.code`, as in three.js' games_fps example), a frame-rate
 * independent ground move relative to the camera, and the player's mesh.
 */
import {
  BoxGeometry,
  CapsuleGeometry,
  type Color,
  Group,
  type Material,
  Mesh,
  MeshLambertMaterial,
} from 'three';
import { clamp, type GroundRect } from './sim/world';

/** Walking and running (Shift) speeds, world units per second. */
export const WALK_SPEED = 14;
export const RUN_SPEED = 36;
/** The player keeps this far from the level's edge. */
export const PLAYER_MARGIN = 0.6;

const FORWARD = ['KeyW', 'ArrowUp'];
const BACK = ['KeyS', 'ArrowDown'];
const LEFT = ['KeyA', 'ArrowLeft'];
const RIGHT = ['KeyD', 'ArrowRight'];
const RUN = ['ShiftLeft', 'ShiftRight'];
const HANDLED = new Set([...FORWARD, ...BACK, ...LEFT, ...RIGHT, ...RUN]);

/** Which movement keys are held. Ignores keys typed into form fields (the GUI's number inputs). */
export class KeyboardInput {
  private readonly held = new Set<string>();
  private target: Window | null = null;

  private readonly onKeyDown = (event: KeyboardEvent) => {
    if (isTyping(event.target) || !HANDLED.has(event.code)) return;
    this.held.add(event.code);
    if (event.code.startsWith('Arrow')) event.preventDefault(); // no page scroll
  };
  private readonly onKeyUp = (event: KeyboardEvent) => {
    this.held.delete(event.code);
  };
  private readonly onBlur = () => {
    this.held.clear();
  };

  attach(target: Window): void {
    this.target = target;
    // Capture phase: lil-gui stops key events from propagating out of its controllers, and a click on a
    // GUI checkbox leaves the focus there.
    target.addEventListener('keydown', this.onKeyDown, true);
    target.addEventListener('keyup', this.onKeyUp, true);
    target.addEventListener('blur', this.onBlur);
  }

  detach(): void {
    const t = this.target;
    if (t === null) return;
    t.removeEventListener('keydown', this.onKeyDown, true);
    t.removeEventListener('keyup', this.onKeyUp, true);
    t.removeEventListener('blur', this.onBlur);
    this.target = null;
  }

  private any(codes: string[]): boolean {
    for (const code of codes) if (this.held.has(code)) return true;
    return false;
  }

  /** +1 forward, -1 back, 0 neither or both. */
  get forward(): number {
    return (this.any(FORWARD) ? 1 : 0) - (this.any(BACK) ? 1 : 0);
  }

  /** +1 right, -1 left. */
  get right(): number {
    return (this.any(RIGHT) ? 1 : 0) - (this.any(LEFT) ? 1 : 0);
  }

  get running(): boolean {
    return this.any(RUN);
  }
}

/** Input types that take typed text: keys pressed there are for the field, not for the player. */
const TEXT_INPUTS = new Set(['text', 'number', 'search', 'email', 'password', 'url', 'tel']);

/**
 * Whether a key event belongs to a text field (the GUI's number boxes, the seed). A focused checkbox or
 * button (left focused by a click in the GUI) does not count: WASD keeps moving the player.
 */
export function isTyping(target: EventTarget | null): boolean {
  if (target === null || typeof (target as Element).tagName !== 'string') return false;
  const element = target as HTMLElement;
  switch (element.tagName) {
    case 'INPUT':
      return TEXT_INPUTS.has((element as HTMLInputElement).type);
    case 'TEXTAREA':
    case 'SELECT':
      return true;
    default:
      return element.isContentEditable === true;
  }
}

/** Where the player stands and faces. */
export interface PlayerState {
  x: number;
  z: number;
  /** Facing, radians around +Y (0 faces +Z). */
  heading: number;
}

/**
 * Move the player for one frame. `viewX`, `viewZ`: the camera's look direction on the ground (need not be
 * normalised); W moves along it, D to its right. Keeps the player inside `area`. Returns whether the
 * position changed.
 */
export function stepPlayer(
  player: PlayerState,
  forward: number,
  right: number,
  running: boolean,
  dt: number,
  viewX: number,
  viewZ: number,
  area: GroundRect,
): boolean {
  if ((forward === 0 && right === 0) || dt <= 0) return false;
  const viewLength = Math.hypot(viewX, viewZ);
  // Looking straight down: fall back to the level's -Z as forward.
  const fx = viewLength > 1e-6 ? viewX / viewLength : 0;
  const fz = viewLength > 1e-6 ? viewZ / viewLength : -1;
  // Right of forward on the ground (Y up): (-fz, fx).
  let dx = fx * forward - fz * right;
  let dz = fz * forward + fx * right;
  const length = Math.hypot(dx, dz);
  dx /= length;
  dz /= length;
  const distance = (running ? RUN_SPEED : WALK_SPEED) * dt;
  const x = clamp(player.x + dx * distance, area.minX + PLAYER_MARGIN, area.maxX - PLAYER_MARGIN);
  const z = clamp(player.z + dz * distance, area.minZ + PLAYER_MARGIN, area.maxZ - PLAYER_MARGIN);
  player.heading = Math.atan2(dx, dz);
  if (x === player.x && z === player.z) return false;
  player.x = x;
  player.z = z;
  return true;
}

/** The player's mesh: a red capsule with a dark visor showing where it faces. */
export function createPlayerMesh(color: Color): Group {
  const group = new Group();
  group.name = 'player';
  const body = new Mesh(new CapsuleGeometry(0.6, 1.0, 4, 12), new MeshLambertMaterial({ color }));
  body.position.y = 1.1;
  const visor = new Mesh(new BoxGeometry(0.8, 0.25, 0.3), new MeshLambertMaterial({ color: 0x1b1f27 }));
  visor.position.set(0, 1.55, 0.5);
  group.add(body, visor);
  group.scale.setScalar(1.4); // a head taller than the enemies, easy to spot from the follow camera
  return group;
}

/** Dispose the meshes made by {@link createPlayerMesh}. */
export function disposePlayerMesh(group: Group): void {
  group.traverse((object) => {
    if (object instanceof Mesh) {
      object.geometry.dispose();
      (object.material as Material).dispose();
    }
  });
}
