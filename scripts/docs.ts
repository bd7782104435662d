/**
 * `npm run docs`: rewrite the generated tables of the docs (see docTables.ts) from the code, then check the
 * links and `npm run` names of README.md and docs/*.md (see docCheck.ts).
 * `npm run docs -- --check`: write nothing; fail if a generated table is out of date or a check fails.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkDocs } from './docCheck';
import { fillGenerated, GENERATED_DOCS, generatedBlocks } from './docTables';

const root = path.resolve(import.meta.dirname, '..');
const checkOnly = process.argv.includes('--check');
const problems: string[] = [];

for (const file of GENERATED_DOCS) {
  const full = path.join(root, file);
  const text = readFileSync(full, 'utf8');
  const filled = fillGenerated(text, generatedBlocks(root, file));
  if (filled === text) {
    console.log(`${file}: generated tables up to date`);
  } else if (checkOnly) {
    problems.push(`${file}: generated tables are out of date (run npm run docs)`);
  } else {
    writeFileSync(full, filled);
    console.log(`${file}: generated tables rewritten`);
  }
}

problems.push(...checkDocs(root));
for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exitCode = 1;
else console.log('links, anchors and npm scripts of README.md and docs/*.md: all resolve');
