import { helperWord, SEQ } from 'point-quadtree/internal/parallel/teamLayout';
import type { SeparationHelperMessage, SeparationHelperPort } from 'point-quadtree/parallel';

/**
 * Helpers played in the test's own thread: each port keeps the message it was sent, and `set` writes a
 * helper's control word (STATE, CLAIM, SEEN, ...) in that buffer, as a helper would, without ever running it.
 */
export function fakeHelpers(n: number) {
  const messages: (SeparationHelperMessage | null)[] = new Array(n).fill(null);
  const ports: SeparationHelperPort[] = messages.map((_, k) => ({
    postMessage: (message: SeparationHelperMessage) => {
      messages[k] = message;
    },
  }));
  const control = (k: number) => new Int32Array(messages[k]!.buffer);
  return {
    ports,
    messages,
    control,
    set: (k: number, word: number, value: number) => {
      control(k)[helperWord(k, word)] = value;
    },
    /** The generation the team's next call publishes. */
    next: (k: number) => (control(k)[SEQ] >> 1) + 1,
  };
}
