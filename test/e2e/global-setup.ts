/**
 * Finds Chromium and checks once that it starts (printing which browser and version run the tests), then
 * builds the app into a temporary folder (so it never races a developer's `dist/`) and serves it with
 * `vite preview` on 127.0.0.1 and a free port. The browser and the URL reach the tests through
 * `inject('browser')` and `inject('baseUrl')`. A browser that cannot start fails the run with the cause.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, preview } from 'vite';
import type { TestProject } from 'vitest/node';
import { type FoundBrowser, findBrowser, launchBrowser } from './browser';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    browser: FoundBrowser;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = path.resolve(import.meta.dirname, '../..');
  // Unpacking the npm Chromium happens here, once, before any test file runs (never two at once).
  const found = await findBrowser();
  for (const note of found.notes) console.warn(`e2e browser: ${note}`);
  const probe = await launchBrowser(found);
  console.log(`e2e browser: Chromium ${probe.version()} from ${found.source} (${found.executablePath})`);
  await probe.close();
  project.provide('browser', found);

  const outDir = await mkdtemp(path.join(tmpdir(), 'quadtree-e2e-'));
  await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 2000 } });
  const server = await preview({
    root,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  const address = server.httpServer.address() as AddressInfo | null;
  if (address === null || typeof address === 'string')
    throw new Error('vite preview is not listening on a TCP port');
  project.provide('baseUrl', `http://127.0.0.1:${address.port}/`);

  return async () => {
    await server.close();
    await rm(outDir, { recursive: true, force: true });
  };
}
