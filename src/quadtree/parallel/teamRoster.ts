/*
 * Which of a separation team's helpers are in use (team.ts): attached to the team's buffer, able to run the
 * kernel, and not given up on. A helper is given up on for good when it threw, cannot run the kernel or its
 * thread exited; for now (until it picks up a later generation: it is alive after all) when it finished its
 * range too late, or when it missed a hand-over for patienceMs: it did not pick up a generation that gave it a
 * range, or did not attach to a new buffer after it had attached to an earlier one. That is how a helper
 * whose thread died without a word (a terminated Web Worker says nothing) is noticed and no longer waited for.
 */

import { ATTACHED, FROM, helperWord, NO_KERNEL, SEEN, STATE, TO } from './teamLayout';
import { now } from './teamParts';

export class TeamRoster {
  /**
   * Per helper: 0 in use; g > 0 given up on at generation g, used again once it picked up a later one; -1
   * given up on for good.
   */
  private readonly lost: Int32Array;
  /** Per helper: the last generation of this buffer that gave it a range (0: none). */
  private readonly handedAt: Int32Array;
  /** Per helper: whether it ever attached to a buffer of the team's. */
  private readonly attached: Uint8Array;
  /** Per helper: when a call first found it missing a hand-over (0: it is not). */
  private readonly missedSince: Float64Array;

  constructor(
    helpers: number,
    private readonly patienceMs: number,
  ) {
    this.lost = new Int32Array(helpers);
    this.handedAt = new Int32Array(helpers);
    this.attached = new Uint8Array(helpers);
    this.missedSince = new Float64Array(helpers);
  }

  /**
   * Puts in `chosen[1..]` the helpers that can take a range of generation `g` in the buffer of `control`,
   * and clears every helper's range there; returns 1 + their number.
   */
  choose(control: Int32Array, g: number, chosen: Int32Array): number {
    let parts = 1;
    for (let k = 0; k < this.lost.length; k++) {
      control[helperWord(k, FROM)] = 0;
      control[helperWord(k, TO)] = 0;
      const state = Atomics.load(control, helperWord(k, STATE));
      if (state === NO_KERNEL) this.lost[k] = -1;
      if (state === ATTACHED) this.attached[k] = 1;
      // Given up on for now: back once it has picked up a later generation than the one it was lost in.
      const seen = Atomics.load(control, helperWord(k, SEEN)) >> 1;
      const lostAt = this.lost[k];
      if (lostAt > 0 && seen > lostAt) this.lost[k] = 0;
      if (this.lost[k] !== 0 || this.missedHandOver(k, state, seen, g)) continue;
      if (state === ATTACHED) chosen[parts++] = k;
    }
    return parts;
  }

  /**
   * Whether helper k is given up on now (at generation g) for missing a hand-over that patienceMs have
   * passed since a call first found missing. The clock is read only while one is missing.
   */
  private missedHandOver(k: number, state: number, seen: number, g: number): boolean {
    const missing = state === ATTACHED ? seen < this.handedAt[k] : this.attached[k] === 1;
    if (!missing) {
      this.missedSince[k] = 0;
      return false;
    }
    const t = now();
    if (this.missedSince[k] === 0) this.missedSince[k] = t;
    if (t - this.missedSince[k] <= this.patienceMs) return false;
    this.lost[k] = g;
    this.missedSince[k] = 0;
    return true;
  }

  /** Helper k was given a range of generation g. */
  handed(k: number, g: number): void {
    this.handedAt[k] = g;
  }

  /** Whether helper k is missing a hand-over (its range is then taken over without waiting for its claim). */
  missing(k: number): boolean {
    return this.missedSince[k] !== 0;
  }

  /** Helper k is given up on: for good (it threw, its thread exited), or until a generation after g. */
  giveUp(k: number, forGood: boolean, g: number): void {
    this.lost[k] = forGood ? -1 : g;
  }

  /** The team sent a new buffer: what the helpers were handed in the old one no longer counts. */
  newBuffer(): void {
    this.handedAt.fill(0);
    this.missedSince.fill(0);
  }

  /** Whether a helper is given up on for now (it is used again once it picks up a later generation). */
  mayComeBack(): boolean {
    for (let k = 0; k < this.lost.length; k++) if (this.lost[k] > 0) return true;
    return false;
  }

  /** Helpers not in use now (given up on, for now or for good). */
  countLost(): number {
    let n = 0;
    for (let k = 0; k < this.lost.length; k++) if (this.lost[k] !== 0) n++;
    return n;
  }
}
