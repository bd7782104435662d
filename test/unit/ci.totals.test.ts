import { describe, expect, it } from 'vitest';
import { ciTotals, type TestReport } from '../../scripts/ciTotals';

const report = (passed: number, failed: number, pending = 0, todo = 0): TestReport => ({
  numPassedTests: passed,
  numFailedTests: failed,
  numPendingTests: pending,
  numTodoTests: todo,
});
const count = (passed: number, failed = 0, skipped = 0) => ({ passed, failed, skipped });

/** The plain totals form that tools reading a run's totals recognise, and nothing else. */
const PLAIN = /^\d+ passed, \d+ failed$/;

describe("CI's closing lines (scripts/ciTotals.ts)", () => {
  it('end with `N passed, N failed` alone, the per-project counts on the line before', () => {
    const { lines, problems } = ciTotals(report(1135, 0), {
      unit: count(885),
      'unit-wasm': count(200),
      e2e: count(50),
    });
    expect(lines).toEqual([
      'per project: unit 885 passed / 0 failed, unit-wasm 200 passed / 0 failed, e2e 50 passed / 0 failed',
      '1135 passed, 0 failed',
    ]);
    expect(problems).toEqual([]);
    expect(lines[1]).toMatch(PLAIN);
    expect(lines[0]).not.toMatch(/\d+ passed, \d+ failed/); // a reader of totals cannot take it for them
  });

  it('count failed and skipped tests as failed', () => {
    const { lines, problems } = ciTotals(report(1130, 3, 1, 1), {
      unit: count(880, 3, 2),
      'unit-wasm': count(200),
      e2e: count(50),
    });
    expect(lines[1]).toBe('1130 passed, 5 failed');
    expect(lines[0]).toBe(
      'per project: unit 880 passed / 3 failed, unit-wasm 200 passed / 0 failed, e2e 50 passed / 0 failed',
    );
    expect(problems).toEqual(['2 tests were skipped: CI runs every test']);
  });

  it('count a project that ran no test as a failure, and say which', () => {
    const { lines, problems } = ciTotals(report(1085, 0), { unit: count(885), 'unit-wasm': count(200) });
    expect(lines).toEqual([
      'per project: unit 885 passed / 0 failed, unit-wasm 200 passed / 0 failed; no test ran in e2e (counted as failed)',
      '1085 passed, 1 failed',
    ]);
    expect(problems).toEqual(['the e2e test project ran no test: CI runs every project']);
  });

  it('say so when no report was written, and still end with the plain line', () => {
    const { lines, problems } = ciTotals(null, {});
    expect(lines).toEqual(['per project: no test report was written', '0 passed, 1 failed']);
    expect(lines[1]).toMatch(PLAIN);
    expect(problems).toHaveLength(1);
  });
});
