/*
 * `npm run mutate -- --merge DIR FILE ...` (scripts/mutate.mjs): the kept results of FILE ... from another
 * checkout's run (another worktree, another machine) into this one's, so that two runs of different files
 * can go on side by side and their results still end in one report. Stryker's reports number their tests
 * per run and name them by id in each mutant's coveredBy and killedBy: the ids are mapped through the tests'
 * files and names (a test new to this report gets the next free id).
 */

/** The test ids of a report by `file \0 name`, and the next free id. */
function testIds(report) {
  const ids = new Map();
  let next = 0;
  for (const [file, { tests }] of Object.entries(report.testFiles ?? {})) {
    for (const t of tests) {
      ids.set(`${file}\0${t.name}`, t.id);
      next = Math.max(next, Number(t.id) + 1);
    }
  }
  return { ids, next };
}

/**
 * Maps every test of `from` (an incremental report: testFiles) to an id of `into`, adding to `into`'s
 * testFiles the tests it lacks. Returns the map, from's id to into's.
 */
export function mergeTests(into, from) {
  const { ids, next: first } = testIds(into);
  let next = first;
  const map = new Map();
  into.testFiles ??= {};
  for (const [file, { tests }] of Object.entries(from.testFiles ?? {})) {
    for (const t of tests) {
      const key = `${file}\0${t.name}`;
      let id = ids.get(key);
      if (id === undefined) {
        id = String(next++);
        ids.set(key, id);
        into.testFiles[file] ??= { tests: [] };
        into.testFiles[file].tests.push({ ...t, id });
      }
      map.set(t.id, id);
    }
  }
  return map;
}

/**
 * `from`'s entries of `files` (a report's files: mutants) copied into `into`, replacing what it held of
 * them, their tests' ids mapped by `map` (mergeTests).
 * @throws Error naming a file `from` has no results for, or a test id `map` lacks.
 */
export function mergeFiles(into, from, files, map) {
  const id = (t) => {
    const to = map.get(t);
    if (to === undefined)
      throw new Error(`mutate --merge: test id ${t} is in no test file of the other report`);
    return to;
  };
  into.files ??= {};
  for (const file of files) {
    const entry = from.files?.[file];
    if (entry === undefined) throw new Error(`mutate --merge: the other report has no results for ${file}`);
    into.files[file] = {
      ...entry,
      mutants: entry.mutants.map((m) => ({
        ...m,
        ...(m.coveredBy ? { coveredBy: m.coveredBy.map(id) } : {}),
        ...(m.killedBy ? { killedBy: m.killedBy.map(id) } : {}),
      })),
    };
  }
}
