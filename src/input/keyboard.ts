/**
 * Keyboard input for the player: which movement keys are held, kept by `event.code` (as in three.js'
 * games_fps example). Keys typed into form fields (the GUI's number boxes) are not the player's.
 */
import type { Listeners } from './listeners';

const FORWARD = ['KeyW', 'ArrowUp'];
const BACK = ['KeyS', 'ArrowDown'];
const LEFT = ['KeyA', 'ArrowLeft'];
const RIGHT = ['KeyD', 'ArrowRight'];
const RUN = ['ShiftLeft', 'ShiftRight'];
const HANDLED = new Set([...FORWARD, ...BACK, ...LEFT, ...RIGHT, ...RUN]);

/** Which movement keys are held. */
export class KeyboardInput {
  private readonly held = new Set<string>();

  /** Listen on `target` through `listeners` (which removes the listeners on dispose). */
  constructor(listeners: Listeners, target: Window) {
    // Capture phase: lil-gui stops key events from propagating out of its controllers, and a click on a
    // GUI checkbox leaves the focus there.
    listeners.on(target, 'keydown', this.onKeyDown, true);
    listeners.on(target, 'keyup', this.onKeyUp, true);
    listeners.on(target, 'blur', this.onBlur);
  }

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
