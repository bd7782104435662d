// `npm run mutate -- --merge DIR FILE ...` (scripts/mutateMerge.mjs): another run's kept results of some
// files into this report, with the tests' ids (numbered per run) mapped through their files and names.
import { describe, expect, it } from 'vitest';
import { mergeFiles, mergeTests } from '../../scripts/mutateMerge.mjs';

interface Mutant {
  id: string;
  status: string;
  coveredBy?: string[];
  killedBy?: string[];
}
interface Report {
  files: Record<string, { language: string; mutants: Mutant[] }>;
  testFiles?: Record<string, { tests: { id: string; name: string }[] }>;
}

/** This checkout's report: root.ts run, tests 0..2. */
function ours(): Report {
  return {
    files: {
      'src/a/root.ts': {
        language: 'typescript',
        mutants: [{ id: 'r1', status: 'Killed', killedBy: ['1'], coveredBy: ['0', '1'] }],
      },
      'src/a/pairs.ts': {
        language: 'typescript',
        mutants: [{ id: 'old', status: 'Survived', coveredBy: ['2'] }],
      },
    },
    testFiles: {
      'test/x.test.ts': {
        tests: [
          { id: '0', name: 'x one' },
          { id: '1', name: 'x two' },
        ],
      },
      'test/y.test.ts': { tests: [{ id: '2', name: 'y one' }] },
    },
  };
}

/** The other checkout's: pairs.ts run, the same tests numbered otherwise, and one test this report lacks. */
function theirs(): Report {
  return {
    files: {
      'src/a/pairs.ts': {
        language: 'typescript',
        mutants: [
          { id: 'p1', status: 'Killed', killedBy: ['7'], coveredBy: ['5', '7'] },
          { id: 'p2', status: 'Survived', coveredBy: ['9'] },
          { id: 'p3', status: 'NoCoverage' },
        ],
      },
      'src/a/root.ts': {
        language: 'typescript',
        mutants: [{ id: 'stale', status: 'Survived', coveredBy: ['5'] }],
      },
    },
    testFiles: {
      'test/y.test.ts': {
        tests: [
          { id: '5', name: 'y one' },
          { id: '9', name: 'y new' },
        ],
      },
      'test/x.test.ts': { tests: [{ id: '7', name: 'x two' }] },
    },
  };
}

describe('mutate --merge: another run of other files into the kept results', () => {
  it("takes only the named files, replacing ours, with their tests' ids mapped by file and name", () => {
    const into = ours();
    const from = theirs();
    const map = mergeTests(into, from);
    mergeFiles(into, from, ['src/a/pairs.ts'], map);
    // Our root.ts stays ours (theirs of it is not named).
    expect(into.files['src/a/root.ts'].mutants.map((m) => m.id)).toEqual(['r1']);
    const pairs = into.files['src/a/pairs.ts'].mutants;
    expect(pairs.map((m) => m.id)).toEqual(['p1', 'p2', 'p3']);
    // 'x two' is our 1, 'y one' our 2; 'y new' is added as the next free id, 3.
    expect(pairs[0].killedBy).toEqual(['1']);
    expect(pairs[0].coveredBy).toEqual(['2', '1']);
    expect(pairs[1].coveredBy).toEqual(['3']);
    expect(pairs[2].coveredBy).toBeUndefined();
    expect(into.testFiles?.['test/y.test.ts'].tests).toEqual([
      { id: '2', name: 'y one' },
      { id: '3', name: 'y new' },
    ]);
    expect(into.testFiles?.['test/x.test.ts'].tests).toHaveLength(2);
    // The other report is left as it was.
    expect(from).toEqual(theirs());
  });

  it('into an empty report: every test of the other is added, ids from 0', () => {
    const into: Report = { files: {} };
    const from = theirs();
    const map = mergeTests(into, from);
    mergeFiles(into, from, ['src/a/pairs.ts'], map);
    expect(into.files['src/a/pairs.ts'].mutants[0].coveredBy).toEqual(['0', '2']);
    expect(Object.keys(into.files)).toEqual(['src/a/pairs.ts']);
  });

  it('a file the other report has no results for, or a test id in none of its files: an error, naming it', () => {
    const into = ours();
    const from = theirs();
    expect(() => mergeFiles(into, from, ['src/a/none.ts'], mergeTests(into, from))).toThrow(
      /src\/a\/none\.ts/,
    );
    const broken = theirs();
    broken.files['src/a/pairs.ts'].mutants[1].coveredBy = ['42'];
    expect(() => mergeFiles(ours(), broken, ['src/a/pairs.ts'], mergeTests(ours(), broken))).toThrow(
      /test id 42/,
    );
  });
});
