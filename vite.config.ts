import { defineConfig } from 'vite';

export default defineConfig({
  // Level presets and other static files live in assets/ and are served from the site root.
  publicDir: 'assets',
  base: './',
  build: {
    target: 'es2022',
    sourcemap: true,
    // three.js alone is ~650 kB minified; the scene is one page, so one chunk is what we want.
    chunkSizeWarningLimit: 1000,
  },
});
