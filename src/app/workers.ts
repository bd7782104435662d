/**
 * Crowd mode's worker threads: where the page allows them (see planThreads), module workers running
 * src/workers/separationWorker.ts, handed to the crowd as a SeparationTeam; elsewhere the crowd runs on the
 * main thread and the HUD says why.
 */
import { SeparationTeam } from 'point-quadtree/parallel';
import type { Crowd } from '../sim/crowd';
import { planThreads } from '../sim/threads';
import type { MessageBox } from '../ui/messages';

/** Starts the workers (if any) and gives the crowd its team; returns what stops them. */
export function startCrowdWorkers(crowd: Crowd, messages: MessageBox): () => void {
  const plan = planThreads({
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    sharedMemory: typeof SharedArrayBuffer !== 'undefined',
    cores: navigator.hardwareConcurrency ?? 1,
  });
  if (plan.workers === 0) {
    crowd.setTeam(null, plan.reason);
    return () => {};
  }
  const workers: Worker[] = [];
  for (let k = 0; k < plan.workers; k++) {
    workers.push(
      new Worker(new URL('../workers/separationWorker.ts', import.meta.url), {
        type: 'module',
        name: `crowd worker ${k + 1}`,
      }),
    );
  }
  // A worker gets 2 ms to wake for its range before the main thread does it itself (waking takes tens of
  // microseconds on an idle core, longer on a busy one). Below 4,096 leaf pairs (some 7,000 enemies at the
  // default crowd radius) the whole join takes about a millisecond: not worth waking anyone for.
  const team = new SeparationTeam(workers, { claimWaitMs: 2, minPairs: 4096 });
  let failed = false;
  // A worker whose script does not load: the main thread carries on alone and says so.
  const onError = (event: ErrorEvent): void => {
    if (failed) return;
    failed = true;
    crowd.setTeam(null, 'workers failed to start');
    team.dispose();
    messages.add([`Crowd workers failed to start (crowd mode runs on the main thread): ${event.message}`]);
  };
  for (const worker of workers) worker.addEventListener('error', onError);
  crowd.setTeam(team, '');
  return () => {
    team.dispose();
    for (const worker of workers) worker.terminate();
  };
}
