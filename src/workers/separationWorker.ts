/**
 * A crowd-mode worker: one helper thread of the library's SeparationTeam (src/app/workers.ts starts it as a
 * module worker). Each team message hands it the shared buffer; serveSeparation then serves the team until
 * the buffer is replaced (the next message brings the new one) or the team stops.
 */
import { isSeparationHelperMessage, serveSeparation } from 'point-quadtree/parallel';

self.onmessage = (event: MessageEvent<unknown>): void => {
  if (!isSeparationHelperMessage(event.data)) return;
  if (serveSeparation(event.data) === 'stopped') self.close();
};
