// Makes every import of the library (src/quadtree) outside it go through the package's name, as a user's
// would, and checks that none goes by a relative path.
//
//   node scripts/use-package-imports.mjs           rewrite, then let Biome re-sort the changed files' imports
//   node scripts/use-package-imports.mjs --check   list the relative imports of the library; exit 1 if any
//
// A relative specifier that lands in src/quadtree becomes:
//   src/quadtree, src/quadtree/index  ->  point-quadtree
//   src/quadtree/debug                ->  point-quadtree/debug
//   src/quadtree/three, .../three/index ->  point-quadtree/three
//   src/quadtree/<anything else>      ->  point-quadtree/internal/<anything else>  (tests of internals; this
//                                        subpath resolves only under the repository's source condition)
// Files inside src/quadtree keep their relative imports: they are the package. Idempotent, so it can be run
// again after other branches that still import by path are merged.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkgDir = path.join(root, 'src/quadtree');
const NAME = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).name;
const SKIP = new Set(['node_modules', 'dist', '.git', '.scratch', 'coverage', 'test-results']);
const check = process.argv.includes('--check');

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return SKIP.has(e.name) || p === pkgDir ? [] : sources(p);
    return /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(e.name) ? [p] : [];
  });
}

/** The package specifier for a relative import from `file`, or null if it does not land in the library. */
function packageSpecifier(file, spec) {
  const rel = path.relative(pkgDir, path.resolve(path.dirname(file), spec));
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const inner = rel
    .split(path.sep)
    .join('/')
    .replace(/\.(ts|js)$/, '')
    .replace(/(^|\/)index$/, '');
  if (inner === '') return NAME;
  if (inner === 'debug' || inner === 'three') return `${NAME}/${inner}`;
  return `${NAME}/internal/${inner}`;
}

// `from '...'`, `import '...'`, `import('...')`, `require('...')`.
const specifier = /(\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"])(\.{1,2}\/[^'"]*|\.{1,2})\2/g;

const changed = [];
const found = [];
for (const file of sources(root)) {
  const text = readFileSync(file, 'utf8');
  const next = text.replace(specifier, (whole, lead, quote, spec) => {
    const to = packageSpecifier(file, spec);
    if (to === null) return whole;
    found.push(`${path.relative(root, file)}: '${spec}' -> '${to}'`);
    return `${lead}${quote}${to}${quote}`;
  });
  if (next !== text) {
    changed.push(file);
    if (!check) writeFileSync(file, next);
  }
}

if (check) {
  if (found.length > 0) {
    console.error(
      `Import the library by its name (${NAME}), not by path; node scripts/use-package-imports.mjs fixes:`,
    );
    for (const f of found) console.error(`  ${f}`);
    process.exit(1);
  }
} else if (changed.length > 0) {
  for (const f of found) console.log(f);
  // The new specifiers sort differently: let Biome put the imports back in its order.
  const biome = spawnSync('npx', ['biome', 'check', '--write', ...changed], { cwd: root, stdio: 'inherit' });
  if (biome.status !== 0) process.exit(biome.status ?? 1);
  console.log(`${changed.length} files now import ${NAME} by name`);
} else {
  console.log(`every import of the library already goes through ${NAME}`);
}
