/**
 * Helper threads for a SeparationTeam in Node: worker_threads Workers running bench/separationWorker.mjs.
 * Used by `npm run bench:scene` and by the unit tests of the team.
 */
import { Worker } from 'node:worker_threads';
import type { SeparationHelperPort } from 'point-quadtree/parallel';

export interface NodeHelpers {
  ports: SeparationHelperPort[];
  /** Ends every worker (after the team's dispose, or instead of it). */
  terminate(): Promise<void>;
}

/** Starts `n` helper workers (each takes a fraction of a second to load the library). */
export function startNodeHelpers(n: number): NodeHelpers {
  const workers: Worker[] = [];
  for (let k = 0; k < n; k++) {
    workers.push(
      new Worker(new URL('./separationWorker.mjs', import.meta.url), {
        execArgv: ['--conditions=point-quadtree-source'],
      }),
    );
  }
  return {
    ports: workers,
    terminate: async () => {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

/** Waits until every helper of a team has attached (its figures say so), running `call` meanwhile. */
export async function untilReady(
  ready: () => number,
  n: number,
  call: () => void,
  timeoutMs = 20_000,
): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    call();
    if (ready() >= n) return;
    if (Date.now() - t0 > timeoutMs)
      throw new Error(`only ${ready()} of ${n} helpers attached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
