/**
 * The mouse tools on the ground: a right-drag (or Shift + left-drag) selects a rectangle, a right click
 * without a drag or Esc clears it, and a left click (or a tap) on the ground asks for a batch of enemies
 * there. A left-drag is left to the camera (orbit), and so is a press that a second finger joins (a pinch). Actions are queued and taken by the app at the start of the next
 * frame, so the scene's state is always consistent within a frame. The tools draw nothing: they report the
 * rectangle being dragged ({@link PointerTools.dragRect}) and the view draws it.
 */
import { type PerspectiveCamera, Plane, Raycaster, Vector2, Vector3 } from 'three';
import { clamp, type GroundRect, rectFromCorners } from '../sim/world';
import { isTyping } from './keyboard';
import type { Listeners } from './listeners';

/** A press that moves less than this many pixels is a click, not a drag. */
const CLICK_SLOP = 5;

// Scratch objects of the pointer paths (module scope: reused, never reallocated).
const _ndc = new Vector2();
const _hit = new Vector3();
const _groundPlane = new Plane(new Vector3(0, 1, 0), 0);
const _raycaster = new Raycaster();

export class PointerTools {
  /** Ground points clicked since the last {@link clearBatches}, each asking for a batch of enemies. */
  readonly batches: { x: number; z: number }[] = [];
  /** A new rectangle, null to clear it, or undefined when nothing was asked; see {@link takeRect}. */
  private pendingRect: GroundRect | null | undefined;
  private drag: {
    id: number;
    x: number;
    y: number;
    rect: boolean;
    ax: number;
    az: number;
    moved: boolean;
  } | null = null;
  private readonly draggedRect: GroundRect = { minX: 0, minZ: 0, maxX: 0, maxZ: 0 };
  /** Whether {@link draggedRect} holds this drag's rectangle yet (the pointer has moved over the ground). */
  private draggedRectSet = false;

  /**
   * @param ground where the tools work (the level's ground): rectangles are clamped to it, clicks outside
   *   it do nothing.
   */
  constructor(
    listeners: Listeners,
    private readonly canvas: HTMLCanvasElement,
    private readonly camera: PerspectiveCamera,
    private readonly ground: GroundRect,
  ) {
    listeners.on(canvas, 'pointerdown', this.onPointerDown);
    listeners.on(canvas, 'pointermove', this.onPointerMove);
    listeners.on(canvas, 'pointerup', this.onPointerUp);
    listeners.on(canvas, 'pointercancel', this.onPointerCancel);
    listeners.on(window, 'keydown', this.onKeyDown, true);
  }

  /** Whether a rectangle is being dragged now (its outline is shown even before it is applied). */
  get draggingRect(): boolean {
    return this.drag?.rect === true;
  }

  /**
   * The rectangle being dragged now, clamped to the ground, or null before the pointer has moved over the
   * ground (and when no rectangle is being dragged). The same object is updated while the drag lasts.
   */
  get dragRect(): Readonly<GroundRect> | null {
    return this.drag?.rect === true && this.draggedRectSet ? this.draggedRect : null;
  }

  /** Ask to clear the rectangle (the GUI's button). */
  clearRect(): void {
    this.pendingRect = null;
  }

  /** The rectangle asked for since the last call: a rectangle, null to clear it, or undefined for none. */
  takeRect(): GroundRect | null | undefined {
    const rect = this.pendingRect;
    this.pendingRect = undefined;
    return rect;
  }

  /** Forget the queued batches (after applying them). */
  clearBatches(): void {
    this.batches.length = 0;
  }

  private readonly onKeyDown = (event: KeyboardEvent): void => {
    if (event.code === 'Escape' && !isTyping(event.target)) this.pendingRect = null;
  };

  /** Where the ray through (`clientX`, `clientY`) meets the ground plane, or null (sky). */
  private groundPoint(clientX: number, clientY: number, out: Vector3): Vector3 | null {
    const rect = this.canvas.getBoundingClientRect();
    _ndc.set(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    _raycaster.setFromCamera(_ndc, this.camera);
    return _raycaster.ray.intersectPlane(_groundPlane, out);
  }

  private readonly onPointerDown = (event: PointerEvent): void => {
    if (this.drag !== null) {
      // A second finger (a pinch): the first one's press is no longer a click.
      this.drag.moved = true;
      return;
    }
    const rect = event.button === 2 || (event.button === 0 && event.shiftKey);
    if (event.button !== 0 && !rect) return;
    let ax = 0;
    let az = 0;
    if (rect) {
      const hit = this.groundPoint(event.clientX, event.clientY, _hit);
      if (hit === null) return;
      const g = this.ground;
      ax = clamp(hit.x, g.minX, g.maxX);
      az = clamp(hit.z, g.minZ, g.maxZ);
    }
    this.drag = { id: event.pointerId, x: event.clientX, y: event.clientY, rect, ax, az, moved: false };
    this.draggedRectSet = false;
  };

  private readonly onPointerMove = (event: PointerEvent): void => {
    const drag = this.drag;
    if (drag === null || event.pointerId !== drag.id) return;
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) > CLICK_SLOP) drag.moved = true;
    if (drag.rect && drag.moved) {
      const hit = this.groundPoint(event.clientX, event.clientY, _hit);
      if (hit === null) return;
      const g = this.ground;
      rectFromCorners(
        drag.ax,
        drag.az,
        clamp(hit.x, g.minX, g.maxX),
        clamp(hit.z, g.minZ, g.maxZ),
        this.draggedRect,
      );
      this.draggedRectSet = true;
    }
  };

  private readonly onPointerUp = (event: PointerEvent): void => {
    const drag = this.drag;
    if (drag === null || event.pointerId !== drag.id) return;
    this.onPointerMove(event);
    this.drag = null;
    if (drag.rect) {
      // A drag selects a rectangle; a right click without a drag clears it.
      this.pendingRect = drag.moved ? { ...this.draggedRect } : null;
      return;
    }
    if (drag.moved) return; // that was an orbit
    this.clickAt(event.clientX, event.clientY);
  };

  /**
   * A click (or a tap) at (`clientX`, `clientY`): on the ground, it asks for a batch of enemies there; in the
   * sky or off the level, nothing.
   */
  clickAt(clientX: number, clientY: number): void {
    const hit = this.groundPoint(clientX, clientY, _hit);
    if (hit === null) return;
    const g = this.ground;
    if (hit.x < g.minX || hit.x > g.maxX || hit.z < g.minZ || hit.z > g.maxZ) return;
    this.batches.push({ x: hit.x, z: hit.z });
  }

  private readonly onPointerCancel = (): void => {
    this.drag = null;
  };
}
