/**
 * The touch stick: on a touch screen, a drag that starts in the lower-left quarter of the view moves the
 * player in the drag's direction, up the screen being forward (as W), at a speed that grows with the drag's
 * length up to {@link STICK}'s radius (then the player runs); lifting the finger stops the player at once.
 * A touch there that lifts without a drag is a tap, handed on as a click on the ground would be.
 *
 * The stick takes its finger before anything else sees it (capture listeners on the window): the camera's
 * orbit controls and the pointer tools never get its events, so one finger can steer while another orbits
 * or taps. Touches elsewhere are left to them (one finger orbits, two pinch to zoom, a tap adds enemies).
 * The stick draws nothing: it reports where the finger went down and where it is ({@link TouchStick.held},
 * {@link TouchStick.originX}, ...) and the view draws it.
 */
import type { Listeners } from './listeners';

/** The stick's size, CSS pixels: full deflection at `radius`; under `deadZone` the player stands still. */
export const STICK = Object.freeze({ radius: 60, deadZone: 6 });

/** A press of the stick that moves less than this many pixels before it lifts is a tap. */
const TAP_SLOP = 8;

/** The stick's ask for the player: as {@link MoveInput}'s `forward` and `right`, a vector of length <= 1. */
export interface StickVector {
  forward: number;
  right: number;
}

/**
 * The stick's vector for a drag of (`dx`, `dy`) pixels from where the finger went down (y grows down the
 * screen): up is forward, right is right; its length is 0 up to `deadZone`, then grows linearly to 1 at
 * `radius` and stays 1 beyond. Written into `out` (no allocation).
 */
export function stickVector(
  dx: number,
  dy: number,
  out: StickVector,
  radius: number = STICK.radius,
  deadZone: number = STICK.deadZone,
): StickVector {
  const length = Math.hypot(dx, dy);
  if (!(length > deadZone)) {
    out.forward = 0;
    out.right = 0;
    return out;
  }
  const amount = Math.min(1, (length - deadZone) / (radius - deadZone));
  out.forward = (-dy / length) * amount;
  out.right = (dx / length) * amount;
  return out;
}

export interface TouchStickEvents {
  /** The stick was pressed, moved or lifted (redraw it). */
  changed(): void;
  /** A press of the stick lifted without a drag, at (`clientX`, `clientY`): a tap there. */
  tap(clientX: number, clientY: number): void;
}

export class TouchStick {
  /** What the stick asks for now (zero while it is not held). */
  readonly vector: StickVector = { forward: 0, right: 0 };
  /** Where the finger went down and where it is, client pixels (meaningful while {@link held}). */
  originX = 0;
  originY = 0;
  x = 0;
  y = 0;
  /** The finger's pointer id while the stick is held, else null. */
  private pointerId: number | null = null;
  private moved = false;

  constructor(
    listeners: Listeners,
    private readonly canvas: HTMLCanvasElement,
    private readonly events: TouchStickEvents,
  ) {
    // Capture on the window: before the canvas' own listeners (the camera's, the pointer tools').
    listeners.on(window, 'pointerdown', this.onPointerDown, true);
    listeners.on(window, 'pointermove', this.onPointerMove, true);
    listeners.on(window, 'pointerup', this.onPointerUp, true);
    listeners.on(window, 'pointercancel', this.onPointerCancel, true);
  }

  /** Whether a finger holds the stick now. */
  get held(): boolean {
    return this.pointerId !== null;
  }

  /** Whether (`clientX`, `clientY`) lies in the lower-left quarter of the view (the canvas). */
  private inStickArea(clientX: number, clientY: number): boolean {
    const r = this.canvas.getBoundingClientRect();
    return clientX - r.left < r.width / 2 && clientY - r.top >= r.height / 2;
  }

  private readonly onPointerDown = (event: PointerEvent): void => {
    if (event.pointerType !== 'touch' || this.pointerId !== null || event.target !== this.canvas) return;
    if (!this.inStickArea(event.clientX, event.clientY)) return;
    event.stopPropagation();
    event.preventDefault();
    this.pointerId = event.pointerId;
    this.moved = false;
    this.originX = this.x = event.clientX;
    this.originY = this.y = event.clientY;
    stickVector(0, 0, this.vector);
    this.events.changed();
  };

  private readonly onPointerMove = (event: PointerEvent): void => {
    if (event.pointerId !== this.pointerId) return;
    event.stopPropagation();
    this.x = event.clientX;
    this.y = event.clientY;
    const dx = this.x - this.originX;
    const dy = this.y - this.originY;
    if (Math.hypot(dx, dy) > TAP_SLOP) this.moved = true;
    stickVector(dx, dy, this.vector);
    this.events.changed();
  };

  private readonly onPointerUp = (event: PointerEvent): void => {
    if (event.pointerId !== this.pointerId) return;
    const tap = !this.moved;
    this.release(event);
    if (tap) this.events.tap(event.clientX, event.clientY);
  };

  private readonly onPointerCancel = (event: PointerEvent): void => {
    if (event.pointerId === this.pointerId) this.release(event);
  };

  /** The finger lifted: the stick asks for nothing from now on. */
  private release(event: PointerEvent): void {
    event.stopPropagation();
    this.pointerId = null;
    stickVector(0, 0, this.vector);
    this.events.changed();
  }
}
