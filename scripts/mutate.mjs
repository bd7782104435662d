#!/usr/bin/env node
/*
 * Mutation testing of the library (Stryker, stryker.config.mjs, with the library's unit tests through
 * vitest.mutate.config.ts). docs/development.md, "Mutation testing", says how to read the results.
 *
 *   npm run mutate                      every file of the core (CORE below)
 *   npm run mutate -- FILE ...          those files (a Stryker mutation range works too: FILE:12-40)
 *   npm run mutate -- --recheck [FILE]  the time-outs (and the static mutants Stryker left out) of the last run
 *                                       (of FILE's mutants) again, each alone
 *                                       (applied to a copy, its covering test files run uninstrumented),
 *                                       5 minutes each (`--recheck-ms N` sets the limit): a time-out counts
 *                                       as killed only if it times out again. Answers add up in
 *                                       test/mutation/recheck.json, so each file can be rechecked alone.
 *                                       `--tests A,B`: only those of its covering test files (timed first on
 *                                       the unmutated code); a mutant they pass stays unchecked.
 *   npm run mutate -- --table           the per-file table of the last run (+ recheck), with the equivalent
 *                                       mutants docs/development.md lists taken out of the score
 *   npm run mutate -- --merge DIR FILE ...
 *                                       FILE's kept results (and rechecks) from the checkout at DIR (another
 *                                       worktree's run of other files, side by side with this one's) into
 *                                       this one's, replacing what it held of FILE (scripts/mutateMerge.mjs)
 * Other flags that start with `--` go to Stryker as they are (`--concurrency 1`, `--force`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { mergeFiles, mergeTests } from './mutateMerge.mjs';

/** The core that `npm run mutate` covers with no file named: the queries, the updates, the pair walk, the checks. */
export const CORE = [
  'src/quadtree/query/range.ts',
  'src/quadtree/query/nearest.ts',
  'src/quadtree/update/insert.ts',
  'src/quadtree/core/split.ts',
  'src/quadtree/update/move.ts',
  'src/quadtree/update/moveAll.ts',
  'src/quadtree/update/root.ts',
  'src/quadtree/update/rootFit.ts',
  'src/quadtree/update/build.ts',
  'src/quadtree/query/pairs.ts',
  'src/quadtree/core/checks.ts',
];

// The kept results, tracked (a run's hours must survive a new machine): Stryker's incremental file, which is
// the whole report of every file run so far (its JSON reporter writes the same report under reports/, not
// tracked), and the rechecks' answers.
const REPORT = 'test/mutation/incremental.json';
const RECHECK = 'test/mutation/recheck.json';
const DOCS = 'docs/development.md';

function stryker(mutate, flags) {
  const run = spawnSync(
    'npx',
    ['stryker', 'run', 'stryker.config.mjs', '--mutate', mutate.join(','), ...flags],
    { stdio: 'inherit' },
  );
  return run.status ?? 1;
}

/** Where a mutant starts and what it becomes: how docs/development.md's equivalent rows name it. */
const startKey = (file, m) => `${file}:${m.location.start.line}:${m.location.start.column} ${m.replacement}`;

/**
 * A mutant's key: where it starts and ends, and what it becomes (mutants of nested expressions that start
 * at the same place, `a && b && c` and `a && b` both made `true`, differ only in their ends).
 */
const keyOf = (file, m) =>
  `${file}:${m.location.start.line}:${m.location.start.column}-${m.location.end.line}:${m.location.end.column} ${m.replacement}`;

/** The mutants of a Stryker JSON report, by key. */
function mutantsOf(path) {
  const out = new Map();
  if (!existsSync(path)) return out;
  const report = JSON.parse(readFileSync(path, 'utf8'));
  for (const [file, { mutants }] of Object.entries(report.files)) {
    for (const m of mutants) out.set(keyOf(file, m), { file, ...m });
  }
  return out;
}

/**
 * The equivalent mutants listed in docs/development.md: table rows under "### Equivalent mutants" whose
 * first cell is `file:line:column` (or `file:line:column-line:column`, where mutants with the same start and
 * replacement differ in their ends: `a && b && c` and `a && b` both made `true`) and second the replacement
 * in backticks (`\|` for a `|` in it).
 */
function equivalents() {
  const text = readFileSync(DOCS, 'utf8');
  const from = text.indexOf('### Equivalent mutants');
  if (from < 0) return new Set();
  const end = text.indexOf('\n## ', from);
  const section = text.slice(from, end < 0 ? undefined : end);
  const keys = new Set();
  // A replacement with `|` in it is written `\|` in the table (a table's cells are split at bare `|`).
  for (const row of section.matchAll(/^\| `([^`]+:\d+:\d+(?:-\d+:\d+)?)` \| `(.+?)` \|(?!\|)/gm))
    keys.add(`${row[1]} ${row[2].replaceAll('\\|', '|')}`);
  return keys;
}

/**
 * Whether Stryker left `m` out as static (`ignoreStatic`, stryker.config.mjs): run only while the test files
 * load, so no single test covers it. `--recheck` tests it alone like a time-out, against every suite (or
 * `--tests`).
 */
const isStatic = (m) => m.status === 'Ignored' && /static/i.test(m.statusReason ?? '');

/** A copy of the project to apply one mutant at a time to (node_modules linked, as Stryker's sandbox). */
function recheckCopy() {
  const dir = mkdtempSync(join(tmpdir(), 'mutate-recheck-'));
  const skip = new Set([
    'node_modules',
    '.git',
    'reports',
    'mutation',
    '.stryker-tmp',
    '.scratch',
    'dist',
    'coverage',
  ]);
  cpSync('.', dir, { recursive: true, filter: (from) => !skip.has(basename(from)) });
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Runs `args` in `cwd` for at most `ms`: 'passed', 'failed' or 'timed out' (its process group killed). */
function runFor(cwd, args, ms) {
  return new Promise((done) => {
    const child = spawn('npx', args, { cwd, stdio: 'ignore', detached: true });
    const timer = setTimeout(() => {
      process.kill(-child.pid, 'SIGKILL');
      done('timed out');
    }, ms);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done(code === 0 ? 'passed' : 'failed');
    });
  });
}

/**
 * The time-outs of the last run (of `files`' mutants when some are named) again, each alone: applied by
 * hand to a copy of the project and tested by the test files that cover it, uninstrumented (faster than
 * under Stryker, so a slow mutant is not mistaken for a loop), for at most `limitMs`. Failed: killed; passed:
 * survived; timed out again: a loop. A Stryker run cannot single one out (a mutation range takes every
 * mutant inside it: a block's time-out would take the whole block's). The answers replace earlier ones for
 * the same mutants in RECHECK; the others there stay.
 */
async function recheckTimeouts(files, limitMs = 300_000, only = []) {
  const report = existsSync(REPORT) ? JSON.parse(readFileSync(REPORT, 'utf8')) : { files: {}, testFiles: {} };
  const fileOfTest = new Map();
  for (const [file, { tests }] of Object.entries(report.testFiles ?? {})) {
    for (const test of tests) fileOfTest.set(test.id, file);
  }
  // Those already settled by an earlier recheck are not run again (a pass against `--tests` settles
  // nothing, so another pass with other test files takes them up).
  const settled = mutantsOf(RECHECK);
  const todo = [...mutantsOf(REPORT).values()].filter(
    (m) =>
      (m.status === 'Timeout' || isStatic(m)) &&
      (files.length === 0 || files.includes(m.file)) &&
      !settled.has(keyOf(m.file, m)),
  );
  if (todo.length === 0) {
    console.log('mutate --recheck: the last run has no time-outs and no static mutants left out');
    return 0;
  }
  console.log(
    `mutate --recheck: ${todo.length} time-outs and static mutants, one at a time, ${limitMs / 1000} s each at most`,
  );
  const dir = recheckCopy();
  const kept = existsSync(RECHECK) ? JSON.parse(readFileSync(RECHECK, 'utf8')) : { files: {} };
  const vitest = ['vitest', 'run', '-c', 'vitest.mutate.config.ts', '--bail', '1'];
  try {
    if (only.length > 0) {
      // What the limit is measured against: the same tests on the unmutated code.
      const began = Date.now();
      const outcome = await runFor(dir, [...vitest, ...only], limitMs);
      console.log(`unmutated, ${only.join(' ')}: ${outcome} in ${Math.round((Date.now() - began) / 1000)} s`);
      if (outcome !== 'passed') return 1;
    }
    for (const m of todo) {
      const path = join(dir, m.file);
      const source = readFileSync(path, 'utf8');
      const lines = source.split('\n');
      const at = ({ line, column }) =>
        lines.slice(0, line - 1).reduce((sum, l) => sum + l.length + 1, 0) + column - 1;
      const from = at(m.location.start);
      const to = at(m.location.end);
      const covering = new Set((m.coveredBy ?? []).map((id) => fileOfTest.get(id)).filter(Boolean));
      // (Named test files run whether or not the report lists them as covering: a file that does not
      // reach the mutant passes, which settles nothing.)
      const tests = only.length > 0 ? only : [...covering];
      // Stryker mutates the syntax tree: a replacement inside a longer expression keeps its own grouping
      // (`a && b` made `a || b` in `a && b && c` is `(a || b) && c`), so the text goes in parentheses.
      const replacement = m.mutatorName === 'BlockStatement' ? m.replacement : `(${m.replacement})`;
      writeFileSync(path, source.slice(0, from) + replacement + source.slice(to));
      const began = Date.now();
      // No covering file known (ids a reused result no longer maps): every suite of the config.
      const outcome = await runFor(dir, [...vitest, ...tests], limitMs);
      writeFileSync(path, source);
      const seconds = Math.round((Date.now() - began) / 1000);
      // With only some of its tests run, a pass says nothing: the mutant stays an unchecked time-out.
      const status =
        outcome === 'failed'
          ? 'Killed'
          : outcome === 'timed out'
            ? 'Timeout'
            : only.length > 0
              ? ''
              : 'Survived';
      console.log(
        `${keyOf(m.file, m)}: ${status || 'unsettled'} (${outcome}, ${seconds} s, ${tests.length} test files)`,
      );
      if (status === '') continue;
      const mutants = (kept.files[m.file]?.mutants ?? []).filter(
        (o) => keyOf(m.file, o) !== keyOf(m.file, m),
      );
      const { file, ...rest } = m;
      mutants.push({ ...rest, status, statusReason: `recheck: ${outcome} in ${seconds} s` });
      kept.files[m.file] = { mutants };
      writeFileSync(RECHECK, JSON.stringify(kept));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return 0;
}

function table() {
  const all = mutantsOf(REPORT);
  const again = mutantsOf(RECHECK);
  const equivalent = equivalents();
  const rows = new Map();
  const unlisted = [];
  for (const [key, m] of all) {
    const row = rows.get(m.file) ?? { mutants: 0, killed: 0, loops: 0, survived: 0, equivalent: 0, open: 0 };
    rows.set(m.file, row);
    row.mutants++;
    let status = m.status;
    if (isStatic(m)) {
      // Left out by Stryker as static: what its recheck alone found, if it has been rechecked.
      const second = again.get(key);
      status =
        second === undefined ? 'Unchecked static' : second.status === 'Timeout' ? 'Loop' : second.status;
    } else if (status === 'Timeout') {
      const second = again.get(key);
      // Counted as killed only when it timed out again alone with the long limit (a real loop).
      status =
        second === undefined ? 'Unchecked time-out' : second.status === 'Timeout' ? 'Loop' : second.status;
    }
    if (status === 'Killed') row.killed++;
    else if (status === 'Loop') row.loops++;
    else if (equivalent.has(startKey(m.file, m)) || equivalent.has(keyOf(m.file, m))) row.equivalent++;
    else if (status === 'Survived' || status === 'NoCoverage') {
      row.survived++;
      unlisted.push(`${status}: ${key}`);
    } else {
      row.open++;
      unlisted.push(`${status}: ${key}`);
    }
  }
  const lines = [
    '| file | mutants | killed | time-outs (loops) | survived | equivalent | unsettled | score |',
  ];
  lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [file, r] of [...rows].sort()) {
    const counted = r.mutants - r.equivalent;
    const score = counted === 0 ? 100 : (100 * (r.killed + r.loops)) / counted;
    lines.push(
      `| ${file} | ${r.mutants} | ${r.killed} | ${r.loops} | ${r.survived} | ${r.equivalent} | ${r.open} | ${score.toFixed(1)}% |`,
    );
  }
  console.log(lines.join('\n'));
  if (unlisted.length > 0) console.log(`\nNot killed and not listed as equivalent:\n${unlisted.join('\n')}`);
  return 0;
}

/** `--merge DIR FILE ...`: FILE's results from DIR's kept report and rechecks into ours. */
function merge(args) {
  const at = args.indexOf('--merge');
  const dir = args[at + 1];
  const files = args.filter((a, i) => i !== at && i !== at + 1 && !a.startsWith('--'));
  if (dir === undefined || dir.startsWith('--') || files.length === 0) {
    console.error('mutate: --merge DIR FILE ...: the checkout to take from, and the files to take');
    return 2;
  }
  const read = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : { files: {} });
  const from = read(join(dir, REPORT));
  const into = read(REPORT);
  const map = mergeTests(into, from);
  mergeFiles(into, from, files, map);
  writeFileSync(REPORT, JSON.stringify(into, null, 2));
  // The rechecks' answers name tests by the ids of the report they were made from: the same map.
  const rechecked = read(join(dir, RECHECK));
  const theirs = files.filter((f) => rechecked.files?.[f] !== undefined);
  if (theirs.length > 0) {
    const kept = read(RECHECK);
    mergeFiles(kept, rechecked, theirs, map);
    writeFileSync(RECHECK, JSON.stringify(kept));
  }
  console.log(`mutate: merged ${files.join(', ')} from ${dir} (rechecks of ${theirs.length} of them)`);
  return 0;
}

const args = process.argv.slice(2);
if (args.includes('--table')) process.exit(table());
if (args.includes('--merge')) process.exit(merge(args));
const flagAt = args.findIndex((a) => a.startsWith('--'));
const files = flagAt < 0 ? args : args.slice(0, flagAt);
if (args.includes('--recheck')) {
  // The files may come before or after `--recheck` (`--recheck FILE` as the docs write it).
  const valued = new Set(['--tests', '--recheck-ms']);
  const named = args.filter((a, i) => !a.startsWith('--') && !valued.has(args[i - 1]));
  const tests = args.indexOf('--tests');
  const only = tests < 0 ? [] : args[tests + 1].split(',');
  const at = args.indexOf('--recheck-ms');
  const limitMs = at < 0 ? undefined : Number(args[at + 1]);
  if (limitMs !== undefined && !(limitMs > 0)) {
    console.error(`mutate: --recheck-ms needs a number of milliseconds, got ${args[at + 1]}`);
    process.exit(2);
  }
  process.exit(await recheckTimeouts(named, limitMs, only));
}
const flags = flagAt < 0 ? [] : args.slice(flagAt);
const targets = files.length > 0 ? files : CORE;
const missing = targets.filter((f) => !existsSync(f.split(':')[0]));
if (missing.length > 0) {
  console.error(`mutate: no such file: ${missing.join(', ')}`);
  process.exit(2);
}
process.exit(stryker(targets, flags));
