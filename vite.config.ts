import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';

/**
 * The export condition under which the library package (src/quadtree, imported as `point-quadtree`) resolves
 * to its .ts sources instead of its built dist/: the scene runs and hot-reloads the library without a build
 * step. vitest.config.ts and the root tsconfig.json (customConditions) name it too; `npm run bench` passes
 * it to Node as `--conditions`.
 */
export const LIBRARY_SOURCE = 'point-quadtree-source';

/**
 * Cross-origin isolation: with these two headers on every response the page may use SharedArrayBuffer, which
 * crowd mode's worker threads share the tree through (src/app/workers.ts). Everything the page loads is
 * same-origin, so require-corp blocks nothing; a page served without them runs crowd mode on one thread
 * and the HUD says so.
 */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  // Level presets and other static files live in assets/ and are served from the site root.
  publicDir: 'assets',
  base: './',
  resolve: { conditions: [LIBRARY_SOURCE, ...defaultClientConditions] },
  server: { headers: ISOLATION_HEADERS },
  preview: { headers: ISOLATION_HEADERS },
  // The crowd workers are module workers (src/app/workers.ts).
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    sourcemap: true,
    // three.js alone is ~650 kB minified; each page is one chunk of it and its own code.
    chunkSizeWarningLimit: 1000,
    // Two pages: the scene, and the package's three.js example (`npm run dev` serves both as they are).
    rolldownOptions: {
      input: {
        scene: fileURLToPath(new URL('./index.html', import.meta.url)),
        instanced: fileURLToPath(new URL('./examples/instanced.html', import.meta.url)),
      },
      // The code both pages share (three, the library) in chunks named for it, not for their first module.
      output: {
        codeSplitting: {
          groups: [
            { name: 'three', test: /[\\/]node_modules[\\/]three[\\/]/ },
            { name: 'point-quadtree', test: /[\\/]src[\\/]quadtree[\\/]/ },
          ],
        },
      },
    },
  },
});
