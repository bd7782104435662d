import { realpathSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultServerConditions, type Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/*
 * The unit tests of the library, for mutation testing (`npm run mutate`, stryker.config.mjs). Stryker copies
 * the project into a sandbox and links the sandbox's node_modules to the original one, where the workspace
 * link `node_modules/point-quadtree` points back at the ORIGINAL src/quadtree: the tests would import the
 * unmutated library and every mutant would survive. `sandboxLibrary` resolves every `point-quadtree` import
 * as usual, then moves the answer from the linked package folder to this config's own src/quadtree, so the
 * tests run the mutated code. Outside a sandbox both folders are the same and it changes nothing.
 */
const here = dirname(fileURLToPath(import.meta.url));
const local = resolve(here, 'src/quadtree');
const linked = realpathSync(resolve(here, 'node_modules/point-quadtree'));

function sandboxLibrary(): Plugin {
  return {
    name: 'point-quadtree-in-sandbox',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source !== 'point-quadtree' && !source.startsWith('point-quadtree/')) return null;
      const found = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (found === null || linked === local || !found.id.startsWith(linked + sep)) return found;
      return { ...found, id: local + found.id.slice(linked.length) };
    },
  };
}

/**
 * Quick files first: vitest runs the slowest (or largest) test files first, and Stryker stops a mutant's run
 * at its first failing test, so a defect that the quick fixture suites catch in a second waited behind the
 * fuzz suites, often past its time limit (a time-out instead of a kill). The reverse of vitest's order.
 */
class QuickFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await super.sort(files)).reverse();
  }
}

export default defineConfig({
  plugins: [sandboxLibrary()],
  ssr: { resolve: { conditions: ['point-quadtree-source', ...defaultServerConditions] } },
  test: {
    include: ['test/unit/quadtree.*.test.ts'],
    environment: 'node',
    sequence: { sequencer: QuickFirst },
    // Stryker times each mutant against this run's own figures; the limit here only stops a test that hangs.
    testTimeout: 600_000,
  },
});
