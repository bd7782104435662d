#!/usr/bin/env node
/*
 * Mutation testing of the library (Stryker, stryker.config.mjs, with the library's unit tests through
 * vitest.mutate.config.ts). docs/development.md, "Mutation testing", says how to read the results.
 *
 *   npm run mutate                      every file of the core (CORE below)
 *   npm run mutate -- FILE ...          those files (a Stryker mutation range works too: FILE:12-40)
 *   npm run mutate -- --recheck [FILE]  the time-outs of the last run (of FILE's mutants) again, one at a
 *                                       time, 5 minutes each (`--recheck-ms N` sets the limit): a time-out
 *                                       counts as killed only if it times out again. Answers add up in
 *                                       reports/mutation/recheck.json, so each file can be rechecked alone.
 *   npm run mutate -- --table           the per-file table of the last run (+ recheck), with the equivalent
 *                                       mutants docs/development.md lists taken out of the score
 * Other flags that start with `--` go to Stryker as they are (`--concurrency 1`, `--force`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

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

const REPORT = 'reports/mutation/mutation.json';
const RECHECK = 'reports/mutation/recheck.json';
/** What the recheck run's Stryker writes (stryker.config.mjs); its mutants are added to RECHECK. */
const RECHECK_LAST = 'reports/mutation/recheck-last.json';
const DOCS = 'docs/development.md';

function stryker(mutate, flags, env = {}) {
  const run = spawnSync(
    'npx',
    ['stryker', 'run', 'stryker.config.mjs', '--mutate', mutate.join(','), ...flags],
    {
      stdio: 'inherit',
      env: { ...process.env, ...env },
    },
  );
  return run.status ?? 1;
}

/** A mutant's key: where it is and what it becomes. */
const keyOf = (file, m) => `${file}:${m.location.start.line}:${m.location.start.column} ${m.replacement}`;

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
 * first cell is `file:line:column` and second the replacement in backticks.
 */
function equivalents() {
  const text = readFileSync(DOCS, 'utf8');
  const from = text.indexOf('### Equivalent mutants');
  if (from < 0) return new Set();
  const end = text.indexOf('\n## ', from);
  const section = text.slice(from, end < 0 ? undefined : end);
  const keys = new Set();
  for (const row of section.matchAll(/^\| `([^`]+:\d+:\d+)` \| `(.+?)` \|/gm))
    keys.add(`${row[1]} ${row[2]}`);
  return keys;
}

/**
 * The time-outs of the last run (of `files`' mutants when some are named) again, alone, with the long limit;
 * their answers replace earlier answers for the same mutants in RECHECK, and the others there stay.
 */
function recheckTimeouts(files, limitMs) {
  const ranges = [];
  for (const m of mutantsOf(REPORT).values()) {
    if (m.status !== 'Timeout' || (files.length > 0 && !files.includes(m.file))) continue;
    const { start, end } = m.location;
    ranges.push(`${m.file}:${start.line}:${start.column}-${end.line}:${end.column}`);
  }
  if (ranges.length === 0) {
    console.log('mutate --recheck: the last run has no time-outs');
    return 0;
  }
  console.log(`mutate --recheck: ${ranges.length} time-outs, one at a time`);
  const env = {
    MUTATE_RECHECK: '1',
    ...(limitMs === undefined ? {} : { MUTATE_RECHECK_MS: String(limitMs) }),
  };
  const status = stryker(ranges, [], env);
  if (!existsSync(RECHECK_LAST)) return status || 1;
  const kept = existsSync(RECHECK) ? JSON.parse(readFileSync(RECHECK, 'utf8')) : { files: {} };
  const last = JSON.parse(readFileSync(RECHECK_LAST, 'utf8'));
  for (const [file, { mutants }] of Object.entries(last.files)) {
    const earlier = kept.files[file]?.mutants ?? [];
    const fresh = new Set(mutants.map((m) => keyOf(file, m)));
    kept.files[file] = { mutants: [...earlier.filter((m) => !fresh.has(keyOf(file, m))), ...mutants] };
  }
  writeFileSync(RECHECK, JSON.stringify(kept));
  return status;
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
    if (status === 'Timeout') {
      const second = again.get(key);
      // Counted as killed only when it timed out again alone with the long limit (a real loop).
      status =
        second === undefined ? 'Unchecked time-out' : second.status === 'Timeout' ? 'Loop' : second.status;
    }
    if (status === 'Killed') row.killed++;
    else if (status === 'Loop') row.loops++;
    else if (equivalent.has(key)) row.equivalent++;
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

const args = process.argv.slice(2);
if (args.includes('--table')) process.exit(table());
const flagAt = args.findIndex((a) => a.startsWith('--'));
const files = flagAt < 0 ? args : args.slice(0, flagAt);
if (args.includes('--recheck')) {
  const at = args.indexOf('--recheck-ms');
  const limitMs = at < 0 ? undefined : Number(args[at + 1]);
  if (limitMs !== undefined && !(limitMs > 0)) {
    console.error(`mutate: --recheck-ms needs a number of milliseconds, got ${args[at + 1]}`);
    process.exit(2);
  }
  process.exit(recheckTimeouts(files, limitMs));
}
const flags = flagAt < 0 ? [] : args.slice(flagAt);
const targets = files.length > 0 ? files : CORE;
const missing = targets.filter((f) => !existsSync(f.split(':')[0]));
if (missing.length > 0) {
  console.error(`mutate: no such file: ${missing.join(', ')}`);
  process.exit(2);
}
process.exit(stryker(targets, flags));
