// Builds the package into dist/: `tsc -p tsconfig.json`, then `tsc -p three/tsconfig.json` for the
// `point-quadtree/three` entry (ESM JavaScript, .d.ts with declaration maps), then gives every relative import
// in the output the file extension that Node's ESM loader and TypeScript's node16 resolution require. The sources import each other without extensions (bundler style, which Vite, vitest
// and tsx read as they are) and tsc copies specifiers verbatim, so `./debug` must become `./debug.js` here.
// A specifier that already ends in `.js` is left alone: sources written with `.js` extensions would make
// this step a no-op. dist/ is emptied first, so a file removed from the sources (say, after a split) leaves
// nothing stale behind.
//
//
// Last, the internal property names listed in MANGLED (the tree's state, its item pool, the algorithms'
// scratch: names no user reads, repeated hundreds of times, which a minifier cannot shorten because they are
// properties) are shortened in every .js file of dist/ at once, preact-style: one esbuild run over all the
// files, so every entry point agrees on each name and no short name collides with a property of any file. The
// .d.ts files keep the long names (none of these is on a public type). The consumer test bundles and runs
// the built package (queries, moveAll, pairs, the crowd's WebAssembly kernels and the threads' entry).
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
/**
 * Internal property names shortened in dist/ (see the top). Never a name of a public type, an option, a
 * WebAssembly export (crowd/wasmModule.ts Exports) or a built-in's member: mangling renames every property of
 * that name in the package.
 */
const MANGLED = [
  // TreeState (core/state.ts)
  'initialBounds',
  'nodeBounds',
  'nodeLoose',
  'nodeChild',
  'nodeCount',
  'nodeStart',
  'nodeCap',
  'groupParent',
  'nodeTop',
  'freeGroup',
  'refitted',
  'pool',
  'idSlot',
  'idLeaf',
  'idTop',
  'splitAt',
  'splitStack',
  'buildStack',
  'quadAt',
  // ItemPool (core/ItemPool.ts)
  'xy',
  'ids',
  'top',
  'live',
  'compactDue',
  'blockCap',
  'freeLists',
  'resetTo',
  // NodeStack (core/stack.ts), the heaps (core/heap.ts), the scratch classes (core/scratch.ts)
  'items',
  'room',
  'dists',
  'topNode',
  'topDist',
  'drainInto',
  'collected',
  'results',
  'box',
  'half',
  'spans',
  'movedX',
  'movedY',
  'visiting',
  'pairing',
  'pairA',
  'pairB',
  'nestedPairA',
  'nestedPairB',
  'stack',
  'tags',
  'info',
  'visit',
  'queue',
  'best',
  'reset',
  'offer',
  'worst',
  'full',
  'alloc',
  'compact',
  // PointQuadtree's private fields (the state, the entry points' argument scratch)
  't',
  'arg',
];

const mangled = await mangleProps(files.filter((f) => f.endsWith('.js')));
console.log(
  `build: ${files.length} files in ${path.relative(process.cwd(), dist) || '.'}, ${rewritten} imports given .js, ` +
    `${mangled} internal property names shortened`,
);

/**
 * Shortens the MANGLED property names in `jsFiles` (in place, one esbuild run); returns how many it renamed.
 * The short names are chosen here, not by esbuild (which may pick a name that a class of another file uses
 * for a property of its own): none is an identifier that appears anywhere in the files.
 */
async function mangleProps(jsFiles) {
  const { build } = await import(createRequire(import.meta.url).resolve('esbuild'));
  const taken = new Set(jsFiles.flatMap((f) => readFileSync(f, 'utf8').match(/[A-Za-z_$][\w$]*/g) ?? []));
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const short = [...letters, ...[...letters].flatMap((a) => [...letters].map((b) => a + b))].filter(
    (name) => !taken.has(name),
  );
  const cache = Object.fromEntries(MANGLED.map((name, i) => [name, short[i]]));
  const out = await build({
    entryPoints: jsFiles,
    outdir: dist,
    outbase: dist,
    allowOverwrite: true,
    bundle: false,
    format: 'esm',
    target: 'es2022',
    mangleProps: new RegExp(`^(${MANGLED.join('|')})$`),
    mangleCache: cache,
    logLevel: 'warning',
  });
  const renamed = Object.values(out.mangleCache).filter((v) => v !== false).length;
  if (renamed !== MANGLED.length) {
    const unused = MANGLED.filter((name) => !(name in out.mangleCache));
    throw new Error(`build: MANGLED names no property of dist/: ${unused.join(', ')}`);
  }
  return renamed;
}
