/**
 * How many worker threads crowd mode may use on this page, and, where none, why: the page must be
 * cross-origin isolated (the server sends Cross-Origin-Opener-Policy: same-origin and
 * Cross-Origin-Embedder-Policy: require-corp; see vite.config.ts) for SharedArrayBuffer, and the machine
 * must have more than one core. The main thread does a share itself, so at most one worker per other core.
 */

/** Most workers crowd mode starts (beyond four threads the caller's own copying and adding dominate). */
export const MAX_CROWD_WORKERS = 3;

export interface ThreadPlan {
  /** Worker threads to start (0: the main thread alone). */
  workers: number;
  /** Why there are none ('' when there are some), as the HUD shows it. */
  reason: string;
}

export interface ThreadEnvironment {
  /** `globalThis.crossOriginIsolated`. */
  crossOriginIsolated: boolean;
  /** Whether SharedArrayBuffer exists. */
  sharedMemory: boolean;
  /** `navigator.hardwareConcurrency`. */
  cores: number;
}

export function planThreads(env: ThreadEnvironment): ThreadPlan {
  if (!env.crossOriginIsolated) return { workers: 0, reason: 'page not cross-origin isolated' };
  if (!env.sharedMemory) return { workers: 0, reason: 'no SharedArrayBuffer' };
  if (!(env.cores > 1)) return { workers: 0, reason: 'one core' };
  return { workers: Math.min(Math.floor(env.cores) - 1, MAX_CROWD_WORKERS), reason: '' };
}
