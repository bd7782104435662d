#!/usr/bin/env node
/*
 * `npm run mutate [-- FILE ... [--stryker-flag ...]]`: Stryker over the library's core (the files below) or
 * over the files named, with the unit tests of the library (vitest.mutate.config.ts). Flags that start with
 * `--` go to Stryker as they are (`--concurrency 1`, `--incremental false`, `--force`).
 * Results: reports/mutation/index.html and mutation.json; reports/mutation/incremental.json lets a stopped
 * or later run go on where it was.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The core that `npm run mutate` covers with no file named: the queries, the updates, the pair walk, the checks. */
export const CORE = [
  'src/quadtree/query.ts',
  'src/quadtree/nearest.ts',
  'src/quadtree/insert.ts',
  'src/quadtree/split.ts',
  'src/quadtree/move.ts',
  'src/quadtree/moveAll.ts',
  'src/quadtree/root.ts',
  'src/quadtree/rootFit.ts',
  'src/quadtree/build.ts',
  'src/quadtree/pairs.ts',
  'src/quadtree/checks.ts',
];

const args = process.argv.slice(2);
const flagAt = args.findIndex((a) => a.startsWith('--'));
const files = flagAt < 0 ? args : args.slice(0, flagAt);
const flags = flagAt < 0 ? [] : args.slice(flagAt);
const targets = files.length > 0 ? files : CORE;
const missing = targets.filter((f) => !existsSync(f.split(':')[0]));
if (missing.length > 0) {
  console.error(`mutate: no such file: ${missing.join(', ')}`);
  process.exit(2);
}
const run = spawnSync(
  'npx',
  ['stryker', 'run', 'stryker.config.mjs', '--mutate', targets.join(','), ...flags],
  {
    stdio: 'inherit',
  },
);
process.exit(run.status ?? 1);
