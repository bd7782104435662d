/**
 * The frame rate the HUD shows: frames really drawn per second, counted over a window of about a second of
 * real time, whatever the frame loop's step clamp does to the simulation's time. And whether that clamp was
 * in force in the window: a frame longer than the clamp advances the simulation by less than the time that
 * passed, so everything on screen moves slower than it says.
 */

/** Seconds of real time a reading covers (at least one frame: at 0.4 fps, one frame of 2.5 s). */
export const FRAME_RATE_WINDOW = 1;

export class FrameRate {
  /** Frames per second over the last complete window; NaN before the first one ends. */
  fps = Number.NaN;
  /** Whether a frame of the last complete window was longer than the step clamp. */
  clamped = false;
  private frames = 0;
  private seconds = 0;
  private clampedNow = false;

  /** `maxStep`: the frame loop's longest simulation step, seconds. */
  constructor(
    private readonly maxStep: number,
    private readonly window = FRAME_RATE_WINDOW,
  ) {}

  /** Count a drawn frame that took `seconds` of real time (unclamped). */
  add(seconds: number): void {
    this.frames++;
    this.seconds += seconds;
    if (seconds > this.maxStep) this.clampedNow = true;
    if (this.seconds < this.window) return;
    this.fps = this.frames / this.seconds;
    this.clamped = this.clampedNow;
    this.frames = 0;
    this.seconds = 0;
    this.clampedNow = false;
  }
}
