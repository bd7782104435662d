import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Three projects: `unit` runs in Node (library, app logic that needs no browser); `unit-wasm` runs the core's
// moveAll suites again on moveAll's WebAssembly pass (below);
// `e2e` builds the app, serves it on a free localhost port and drives Chromium with playwright-core.
export default defineConfig({
  // Tests import the library package (point-quadtree) from its .ts sources, as the scene does: the export
  // condition is vite.config.ts's LIBRARY_SOURCE (spelled out because a config file cannot import another
  // without an extension). Tests run in Node, so it is the server side's list that needs it.
  ssr: { resolve: { conditions: ['point-quadtree-source', ...defaultServerConditions] } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          // The seeded fuzz tests take 1-3 s on a quiet machine and past vitest's 5 s default on a busy one:
          // a timeout there would say nothing about the behaviour under test. The kernel's extreme-radius
          // tests took 42-52 s with the 2 cores shared four ways (load average 8-11), so the browser
          // tests' 120 s here too.
          testTimeout: 120_000,
        },
      },
      {
        // The core's moveAll suites again, with PointQuadtree standing for a CrowdQuadtree
        // (test/helpers/crowdAsPoint.ts), whose moveAll runs its pass over the ids in the WebAssembly kernel:
        // every moveAll test on both passes. The setup file fails a file whose moveAll never reached the kernel:
        // so farPoints is not here (its roots grow or refit in every moveAll, which then moves one by one).
        extends: true,
        resolve: {
          alias: [
            {
              find: /^point-quadtree$/,
              replacement: fileURLToPath(new URL('./test/helpers/crowdAsPoint.ts', import.meta.url)),
            },
          ],
        },
        test: {
          name: 'unit-wasm',
          include: [
            'test/unit/quadtree.{moveAll,moveAll.alloc,hardening,inputs,fuzz,extremes,errors}.test.ts',
          ],
          setupFiles: ['test/helpers/wasmPassSetup.ts'],
          environment: 'node',
          testTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/e2e/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
