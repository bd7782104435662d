// Fails when a source file is longer than a reader can hold (shared/STYLE.md: about 500 lines): every
// .ts / .mjs file under src/, bench/ and scripts/ (the library, its kernels' sources, the scene, the
// benchmarks, the tools; built output and dependencies left out). Tests are not held to it: a test file is
// a list of cases, read one case at a time.
//
//   node scripts/file-lines.mjs   lists each file over the limit with its length; exit 1 if any
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAX_LINES = 500;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SKIP = new Set(['node_modules', 'dist', '.git', '.scratch', 'coverage']);

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return SKIP.has(e.name) ? [] : sources(p);
    return /\.(ts|mts|js|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const long = [];
for (const dir of ['src', 'bench', 'scripts']) {
  for (const file of sources(path.join(root, dir))) {
    const lines = readFileSync(file, 'utf8').split('\n').length - 1;
    if (lines > MAX_LINES) long.push(`${path.relative(root, file)}: ${lines} lines`);
  }
}
if (long.length > 0) {
  console.error(`source files over ${MAX_LINES} lines (split them by what they do):\n  ${long.join('\n  ')}`);
  process.exit(1);
}
