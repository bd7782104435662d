// Builds the package into dist/: `tsc -p tsconfig.json`, then `tsc -p three/tsconfig.json` for the
// `point-quadtree/three` entry (ESM JavaScript, .d.ts with declaration maps), then gives every relative import
// in the output the file extension that Node's ESM loader and TypeScript's node16 resolution require. The sources import each other without extensions (bundler style, which Vite, vitest
// and tsx read as they are) and tsc copies specifiers verbatim, so `./debug` must become `./debug.js` here.
// A specifier that already ends in `.js` is left alone: sources written with `.js` extensions would make
// this step a no-op. dist/ is emptied first, so a file removed from the sources (say, after a split) leaves
// nothing stale behind.
//
// Usage: node scripts/build.mjs   (from the package folder, or `npm run build:lib` at the repository root)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(pkgDir, 'dist');

rmSync(dist, { recursive: true, force: true });

// The repository's TypeScript (a devDependency of the root), found the way Node finds any package.
const tsc = path.join(
  path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')),
  'bin',
  'tsc',
);
// The core entries, checked without the DOM's types; then `point-quadtree/three`, whose tsconfig adds them
// (three's declarations need them) and so cannot be one program with the core's.
for (const config of ['tsconfig.json', 'three/tsconfig.json']) {
  const run = spawnSync(process.execPath, [tsc, '-p', path.join(pkgDir, config)], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}

// `from './x'`, `import './x'`, `import('./x')` (declarations use the last for inline types).
const specifier = /(\bfrom\s*|\bimport\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*)\2/g;

function withExtension(file, spec) {
  if (spec.endsWith('.js')) return spec;
  const target = path.resolve(path.dirname(file), spec);
  if (existsSync(`${target}.js`)) return `${spec}.js`;
  if (existsSync(path.join(target, 'index.js'))) return `${spec}/index.js`;
  throw new Error(`build: ${path.relative(pkgDir, file)} imports ${spec}, which is no file in dist/`);
}

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

let rewritten = 0;
const files = walk(dist);
for (const file of files) {
  if (!file.endsWith('.js') && !file.endsWith('.d.ts')) continue;
  const text = readFileSync(file, 'utf8');
  const next = text.replace(specifier, (_, lead, quote, spec) => {
    const fixed = withExtension(file, spec);
    if (fixed !== spec) rewritten++;
    return `${lead}${quote}${fixed}${quote}`;
  });
  if (next !== text) writeFileSync(file, next);
}
console.log(
  `build: ${files.length} files in ${path.relative(process.cwd(), dist) || '.'}, ${rewritten} imports given .js`,
);
