/**
 * The third-person camera: it starts behind (+Z of) the player looking towards -Z, follows the player by
 * the same offset, and the mouse orbits (left-drag) and zooms (wheel) around the player; on a touch screen
 * one finger orbits and two pinch to zoom. No panning: right and Shift drags belong to the rectangle tool.
 */
import type { PerspectiveCamera } from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

const TARGET_HEIGHT = 1;

export class FollowCamera {
  readonly controls: OrbitControls;
  private followX: number;
  private followZ: number;

  /** `levelSize`: the level's larger side, world units (bounds the zoom). */
  constructor(
    private readonly camera: PerspectiveCamera,
    canvas: HTMLElement,
    x: number,
    z: number,
    levelSize: number,
  ) {
    camera.position.set(x, 52, z + 40);
    this.followX = x;
    this.followZ = z;
    const controls = new OrbitControls(camera, canvas);
    controls.target.set(x, TARGET_HEIGHT, z);
    controls.enablePan = false;
    controls.enableDamping = true;
    controls.dampingFactor = 0.12;
    controls.minDistance = 6;
    controls.maxDistance = levelSize * 1.2;
    controls.maxPolarAngle = Math.PI * 0.47;
    controls.update();
    this.controls = controls;
  }

  /** The camera's look direction on the ground (not normalised): what W means. */
  get viewX(): number {
    return this.controls.target.x - this.camera.position.x;
  }

  get viewZ(): number {
    return this.controls.target.z - this.camera.position.z;
  }

  /** The orbit now: its angle around the player (radians, 0: behind, on +Z), its tilt from straight down, its distance. */
  get azimuth(): number {
    return this.controls.getAzimuthalAngle();
  }

  get polar(): number {
    return this.controls.getPolarAngle();
  }

  get distance(): number {
    return this.controls.getDistance();
  }

  /** Move by the player's step since the last call, keeping the orbit; `dt` drives the damping. */
  follow(x: number, z: number, dt: number): void {
    const camera = this.camera;
    camera.position.x += x - this.followX;
    camera.position.z += z - this.followZ;
    this.followX = x;
    this.followZ = z;
    this.controls.target.set(x, TARGET_HEIGHT, z);
    this.controls.update(dt);
  }

  dispose(): void {
    this.controls.dispose();
  }
}
