// A separation team's helper thread in Node (worker_threads): loads the library from its TypeScript
// sources through tsx (the worker is started with the source export condition, see nodeHelpers.ts) and
// hands every message to serveSeparation, which blocks until the team replaces its buffer or stops.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { serveSeparation } = await import('point-quadtree/parallel');

parentPort.on('message', (message) => {
  if (serveSeparation(message) === 'stopped') parentPort.close();
});
