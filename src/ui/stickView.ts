/**
 * Draws the touch stick while a finger holds it: a ring where the finger went down and a knob under the
 * finger (kept within the ring). Two absolutely placed elements over the view, #stick; nothing is drawn
 * while the stick is not held.
 */

/** What the view draws: the stick's state (the input's TouchStick is one). */
export interface StickState {
  readonly held: boolean;
  readonly originX: number;
  readonly originY: number;
  readonly x: number;
  readonly y: number;
}

export class StickView {
  readonly element: HTMLElement;
  private readonly ring: HTMLElement;
  private readonly knob: HTMLElement;

  /** A stick of `radius` CSS pixels (full deflection), drawn in `parent`. */
  constructor(
    parent: HTMLElement,
    private readonly radius: number,
  ) {
    this.element = document.createElement('div');
    this.element.id = 'stick';
    this.element.hidden = true;
    this.ring = document.createElement('div');
    this.ring.className = 'stick-ring';
    this.ring.style.width = this.ring.style.height = `${2 * radius}px`;
    this.knob = document.createElement('div');
    this.knob.className = 'stick-knob';
    this.element.append(this.ring, this.knob);
    parent.append(this.element);
  }

  /** Show the stick as `stick` is now (hide it when it is not held). */
  draw(stick: StickState): void {
    this.element.hidden = !stick.held;
    if (!stick.held) return;
    let dx = stick.x - stick.originX;
    let dy = stick.y - stick.originY;
    const length = Math.hypot(dx, dy);
    if (length > this.radius) {
      dx *= this.radius / length;
      dy *= this.radius / length;
    }
    this.ring.style.transform = `translate(${stick.originX}px, ${stick.originY}px) translate(-50%, -50%)`;
    this.knob.style.transform = `translate(${stick.originX + dx}px, ${stick.originY + dy}px) translate(-50%, -50%)`;
  }

  dispose(): void {
    this.element.remove();
  }
}
