/**
 * A vitest reporter for CI (`.ci/run` passes it with `--reporter`): how many tests each project ran, as
 * JSON `{ "<project>": { passed, failed, skipped } }` in the file named by PROJECT_COUNTS_FILE. The JSON
 * reporter counts tests but not projects, so without this a project dropped from vitest.config.ts (or an
 * include pattern that matches nothing) would leave CI green.
 */
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

export interface ProjectCount {
  passed: number;
  failed: number;
  skipped: number;
}

export default class ProjectCounts implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const file = process.env.PROJECT_COUNTS_FILE;
    if (!file) return;
    const counts: Record<string, ProjectCount> = {};
    for (const module of modules) {
      const name = module.project.name;
      counts[name] ??= { passed: 0, failed: 0, skipped: 0 };
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts[name].passed++;
        else if (state === 'failed') counts[name].failed++;
        else counts[name].skipped++;
      }
    }
    writeFileSync(file, `${JSON.stringify(counts, null, 2)}\n`);
  }
}
