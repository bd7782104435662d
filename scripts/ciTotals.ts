/**
 * CI's closing lines (`.ci/run` prints them last): the per-project counts, then the totals alone in the
 * plain form that tools reading a run's totals recognise, `N passed, N failed`.
 *
 *   per project: unit 885 passed / 0 failed, e2e 50 passed / 0 failed
 *   935 passed, 0 failed
 *
 * Skipped tests count as failed (CI runs every test), and so does a project that ran no test (one failed
 * test each: a project dropped from vitest.config.ts must fail CI, not shrink the total quietly).
 *
 * Usage: tsx scripts/ciTotals.ts <vitest JSON report> <PROJECT_COUNTS_FILE>; exits 1 when the run is not
 * green for one of those reasons (failed tests already make `npm test` fail).
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { ProjectCount } from '../test/reporters/projectCounts';

/** The fields of vitest's JSON report read here. */
export interface TestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

/** The projects CI runs; each must run at least one test. */
export const PROJECTS = ['unit', 'unit-wasm', 'e2e'] as const;

export interface Totals {
  /** The per-project line, then the totals line. */
  lines: [string, string];
  /** Why the run is not green beyond failed tests (for stderr); empty when it is. */
  problems: string[];
}

/** CI's closing lines from the JSON report (null: none was written) and the per-project counts. */
export function ciTotals(report: TestReport | null, counts: Record<string, ProjectCount>): Totals {
  if (report === null) {
    const problem = 'no test report was written';
    return { lines: [`per project: ${problem}`, '0 passed, 1 failed'], problems: [problem] };
  }
  const problems: string[] = [];
  const skipped = report.numPendingTests + report.numTodoTests;
  if (skipped > 0) problems.push(`${skipped} tests were skipped: CI runs every test`);
  const idle = PROJECTS.filter((p) => !counts[p] || counts[p].passed + counts[p].failed === 0);
  for (const p of idle) problems.push(`the ${p} test project ran no test: CI runs every project`);
  const each = Object.entries(counts).map(([p, c]) => `${p} ${c.passed} passed / ${c.failed} failed`);
  const none = idle.length > 0 ? `; no test ran in ${idle.join(' and ')} (counted as failed)` : '';
  const perProject = `per project: ${each.length > 0 ? each.join(', ') : 'none'}${none}`;
  const failed = report.numFailedTests + skipped + idle.length;
  return { lines: [perProject, `${report.numPassedTests} passed, ${failed} failed`], problems };
}

function readJson<T>(file: string | undefined): T | null {
  if (file === undefined) return null;
  try {
    const text = readFileSync(file, 'utf8');
    return text.trim() === '' ? null : (JSON.parse(text) as T);
  } catch {
    return null;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [reportFile, countsFile] = process.argv.slice(2);
  const totals = ciTotals(
    readJson<TestReport>(reportFile),
    readJson<Record<string, ProjectCount>>(countsFile) ?? {},
  );
  for (const problem of totals.problems) console.error(problem);
  console.log(totals.lines.join('\n'));
  if (totals.problems.length > 0) process.exitCode = 1;
}
