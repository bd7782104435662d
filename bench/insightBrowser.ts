/**
 * What the top-down map and the cost plot cost per frame in the browser, by their own timing (the HUD's
 * `map + plot` row; `state().insight.timing`): builds the app, serves it, opens the scene in the browser
 * tests' headless Chromium (SwiftShader) with `?map=1&enemies=N&moving=1`, crowd off and on alternately,
 * waits until the map has timed `--frames` frames and prints the median and maximum per run, then the
 * median of the runs' medians.
 *
 *   npx tsx bench/insightBrowser.ts [--runs 3] [--frames 120] [--enemies 100000] [--root DIR]
 *
 * `--root` builds another checkout (e.g. `git archive` of a baseline unpacked beside a node_modules link)
 * for before/after figures in one session. The machine is shared: alternate builds and report medians.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, preview } from 'vite';
import { findBrowser, launchBrowser } from '../test/e2e/browser';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const RUNS = Number(arg('--runs', '3'));
const FRAMES = Number(arg('--frames', '120'));
const ENEMIES = Number(arg('--enemies', '100000'));
const ROOT = path.resolve(arg('--root', path.resolve(import.meta.dirname, '..')));

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[s.length >> 1];
}

interface Timing {
  frames: number;
  medianMs: number;
  /** Absent in builds before the map spread its work over frames. */
  meanMs?: number;
  maxMs: number;
}

const outDir = await mkdtemp(path.join(tmpdir(), 'insight-bench-'));
await build({
  root: ROOT,
  logLevel: 'warn',
  build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 4000 },
});
const server = await preview({
  root: ROOT,
  logLevel: 'warn',
  build: { outDir },
  preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
});
const address = server.httpServer.address() as AddressInfo;
const base = `http://127.0.0.1:${address.port}/`;
const browser = await launchBrowser(await findBrowser());
console.log(
  `${ROOT}: ${ENEMIES} moving enemies, map + plot per frame by its own timing over ${FRAMES} frames, ` +
    `Chromium ${browser.version()} headless (SwiftShader), ${RUNS} runs`,
);
const results: Record<string, number[]> = { off: [], on: [] };
const means: Record<string, number[]> = { off: [], on: [] };
try {
  for (let run = 0; run < RUNS; run++) {
    for (const crowd of run % 2 === 0 ? ['off', 'on'] : ['on', 'off']) {
      const page = await browser.newPage({ viewport: { width: 900, height: 600 } });
      const query = `?map=1&moving=1&enemies=${ENEMIES}&crowd=${crowd === 'on' ? 1 : 0}`;
      await page.goto(new URL(query, base).toString());
      // Building 100,000 enemies (and the crowd's first pass) can take a minute on a busy machine.
      await page.waitForFunction(() => window.quadtreeDemo !== undefined, undefined, {
        polling: 100,
        timeout: 300_000,
      });
      const started = performance.now();
      await page.waitForFunction((n) => window.quadtreeDemo!.state().insight.timing.frames >= n, FRAMES, {
        polling: 500,
        timeout: 600_000,
      });
      const seconds = (performance.now() - started) / 1000;
      const t: Timing = await page.evaluate(() => window.quadtreeDemo!.state().insight.timing);
      const fps = t.frames / seconds;
      results[crowd].push(t.medianMs);
      if (t.meanMs !== undefined) means[crowd].push(t.meanMs);
      const mean = t.meanMs === undefined ? '' : `  mean ${t.meanMs.toFixed(3)} ms`;
      console.log(
        `run ${run + 1} crowd ${crowd.padEnd(3)} median ${t.medianMs.toFixed(3)} ms${mean}  max ${t.maxMs.toFixed(2)} ms  ` +
          `(${t.frames} frames, ~${fps.toFixed(1)} fps)`,
      );
      await page.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
  await rm(outDir, { recursive: true, force: true });
}
for (const crowd of ['off', 'on'])
  console.log(
    `crowd ${crowd}: median of run medians ${median(results[crowd]).toFixed(3)} ms ` +
      `(runs: ${results[crowd].map((v) => v.toFixed(3)).join(', ')})` +
      (means[crowd].length > 0 ? `; median of run means ${median(means[crowd]).toFixed(3)} ms` : ''),
  );
