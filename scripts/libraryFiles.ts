/**
 * The tables of the library's files in docs/internals.md, written from the folders of src/quadtree: a table
 * per folder, lowest layer first, and in it a row per file with the first sentence of the file's header
 * comment. So a file added, moved or removed changes the table, and what a row says is what the file says of
 * itself. A folder without a line below, or a source file without a header comment, is an error: describe
 * it (a folder here, a file at its top).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The package's folders, lowest layer first (biome.json's import rules keep the layers), and what each holds. */
export const LIBRARY_FOLDERS: Readonly<Record<string, string>> = {
  core: "the bottom layer: the tree's state and storage layout (state.ts), the algorithms' scratch, nodes, the item pool, leaves, the split and merge rules, geometry, the argument checks, the public types",
  update: 'changing the tree: insert, remove, move, moveAll, the root growing and shrinking, the bulk build',
  query:
    'asking it: circles and rectangles, nearest, the node walks, all pairs (the JavaScript join) and the walk over pairs of leaves that every join shares',
  '.': 'the top: the entry points (index.ts, debug.ts, crowd.ts, parallel.ts), the class PointQuadtree, and the package files',
  crowd:
    'point-quadtree/crowd: CrowdQuadtree, the fused separation join in JavaScript and in WebAssembly SIMD, the kernels host (memory layout, call record) and their bytes',
  'crowd/kernels': 'the AssemblyScript sources of the WebAssembly kernels and their build',
  parallel:
    'point-quadtree/parallel: the fused join split over helper threads (the calling side, the helpers, the shared buffer)',
  three:
    'point-quadtree/three: the three.js helper that draws the leaves (QuadtreeHelper) and the XZ adapter for an InstancedMesh or Object3D[]; the only folder that imports three, and the library only through ../index',
  scripts: "the package's build",
};

/** Files with no comment of their own to quote. */
const OWN_FILES: Readonly<Record<string, string>> = {
  'README.md': "the package's README: usage, the API table, edge rules, errors, performance, bundle sizes",
  LICENSE: 'MIT',
  'package.json':
    'the package: its entry points (the exports map, with the in-repository source condition) and the files it ships',
  'tsconfig.json':
    "the package's build: ES2022 modules and declarations from the four entry points into dist/",
};

/** Never listed: build output and installs. */
const SKIP = new Set(['dist', 'node_modules']);

/** The comment a file starts with (a block comment, or a run of line comments), without its markers. */
export function headerComment(text: string): string | null {
  const block = /^\s*\/\*\*?([\s\S]*?)\*\//.exec(text);
  if (block) {
    return block[1]
      .split('\n')
      .map((line) => line.replace(/^\s*\*\s?/, ''))
      .join('\n');
  }
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (!/^\s*\/\//.test(line)) break;
    lines.push(line.replace(/^\s*\/\/\s?/, ''));
  }
  return lines.length > 0 ? lines.join('\n') : null;
}

/** The first sentence of a comment's first paragraph (a period outside parentheses ends it), for a table cell. */
export function firstSentence(comment: string): string {
  const paragraph = comment
    .trim()
    .split(/\n\s*\n/)[0]
    .replace(/\{@link ([^}]+)\}/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  let depth = 0;
  let end = paragraph.length;
  for (let i = 0; i < paragraph.length; i++) {
    const c = paragraph[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '.' && depth === 0 && (i + 1 === paragraph.length || paragraph[i + 1] === ' ')) {
      end = i + 1;
      break;
    }
  }
  return paragraph.slice(0, end).replace(/\|/g, '\\|');
}

/** The files directly in `dir` (sorted) and its sub-folders (relative to the package), skipping build output. */
function listing(pkg: string, rel: string): { files: string[]; folders: string[] } {
  const files: string[] = [];
  const folders: string[] = [];
  for (const name of readdirSync(path.join(pkg, rel)).sort()) {
    if (SKIP.has(name)) continue;
    const child = rel === '.' ? name : `${rel}/${name}`;
    if (statSync(path.join(pkg, child)).isDirectory()) folders.push(child);
    else files.push(child);
  }
  return { files, folders };
}

/** What file `rel` (relative to the package) is, from its header comment or OWN_FILES. */
function describeFile(pkg: string, rel: string): string {
  const own = OWN_FILES[rel];
  if (own !== undefined) return own;
  const comment = headerComment(readFileSync(path.join(pkg, rel), 'utf8'));
  if (comment === null) {
    throw new Error(`libraryFiles: src/quadtree/${rel} starts with no comment; say what it is at its top`);
  }
  return firstSentence(comment);
}

/** Every folder of the package (relative to it), found by walking it. */
function allFolders(pkg: string, rel = '.'): string[] {
  const { folders } = listing(pkg, rel);
  return [rel, ...folders.flatMap((f) => allFolders(pkg, f))];
}

/** The tables: per folder (in LIBRARY_FOLDERS' order) its line, then a row per file. */
export function libraryFileTables(root: string): string {
  const pkg = path.join(root, 'src/quadtree');
  const found = allFolders(pkg);
  for (const folder of found) {
    if (LIBRARY_FOLDERS[folder] === undefined) {
      throw new Error(
        `libraryFiles: the folder src/quadtree/${folder} has no line in LIBRARY_FOLDERS; describe it`,
      );
    }
  }
  for (const folder of Object.keys(LIBRARY_FOLDERS)) {
    if (!found.includes(folder))
      throw new Error(`libraryFiles: LIBRARY_FOLDERS names ${folder}, which is gone`);
  }
  for (const file of Object.keys(OWN_FILES)) {
    if (!listing(pkg, '.').files.includes(file))
      throw new Error(`libraryFiles: OWN_FILES names ${file}, which is gone`);
  }
  const parts: string[] = [];
  for (const [folder, what] of Object.entries(LIBRARY_FOLDERS)) {
    const name = folder === '.' ? 'src/quadtree/' : `${folder}/`;
    parts.push(`**\`${name}\`** ${what}.`, '', '| file | what is there |', '| --- | --- |');
    for (const file of listing(pkg, folder).files) {
      parts.push(`| \`${path.basename(file)}\` | ${describeFile(pkg, file)} |`);
    }
    parts.push('');
  }
  return parts.join('\n').trimEnd();
}
