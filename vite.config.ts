import { defaultClientConditions, defineConfig } from 'vite';

/**
 * The export condition under which the library package (src/quadtree, imported as `point-quadtree`) resolves
 * to its .ts sources instead of its built dist/: the scene runs and hot-reloads the library without a build
 * step. vitest.config.ts and the root tsconfig.json (customConditions) name it too; `npm run bench` passes
 * it to Node as `--conditions`.
 */
export const LIBRARY_SOURCE = 'point-quadtree-source';

export default defineConfig({
  // Level presets and other static files live in assets/ and are served from the site root.
  publicDir: 'assets',
  base: './',
  resolve: { conditions: [LIBRARY_SOURCE, ...defaultClientConditions] },
  build: {
    target: 'es2022',
    sourcemap: true,
    // three.js alone is ~650 kB minified; the scene is one page, so one chunk is what we want.
    chunkSizeWarningLimit: 1000,
  },
});
