/**
 * The library as a user gets it: build the package and `npm pack` it as its README says, install the tarball
 * into an empty project in a temporary folder (offline: it has no dependencies), then use it there by its
 * name. Node runs a plain
 * ESM consumer whose answers are checked against brute force; tsc type-checks a strict TypeScript consumer
 * under moduleResolution bundler and node16 (the repository's own TypeScript, by path); esbuild bundles a
 * consumer that imports only PointQuadtree and the test prints its minified and gzipped size; publint and
 * @arethetypeswrong/cli lint the tarball. That project has no three.js, so its passing shows the core needs
 * none. A second project also installs three (and @types/three), linked from the repository's node_modules
 * offline, and does the same for `point-quadtree/three`: three's objects made in Node without WebGL, a strict
 * TypeScript consumer, and the bundle of `{ QuadtreeHelper }` with three external. Nothing here reads the
 * library's sources: only the tarball.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/sim/random';
import { BruteForce, sorted } from '../helpers/oracle';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const pkgDir = path.join(root, 'src/quadtree');
const NAME = 'point-quadtree';
const SLOW = 180_000;

/** npm and node as a user's shell runs them: no npm_* variables inherited from an `npm test` around us. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')),
);

async function sh(file: string, args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await run(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${path.basename(file)} ${args.join(' ')} failed in ${cwd}:\n${err.stdout}\n${err.stderr}`,
    );
  }
}

/** A bin of a devDependency of the repository, run with this Node. */
async function binOf(pkg: string, bin: string): Promise<string> {
  const dir = path.join(root, 'node_modules', pkg);
  const json = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  return path.join(dir, json.bin[bin]);
}

// Seeded, awkward data: uniform points, a dense camp, coincident points and points on the root's split lines.
const N = 2000;
const rnd = mulberry32(20260);
const ids = Array.from({ length: N }, (_, i) => i);
function scatter(): { xs: number[]; ys: number[] } {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < N; i++) {
    const kind = i % 10;
    if (kind < 6) {
      xs.push(rnd() * 1000);
      ys.push(rnd() * 1000);
    } else if (kind < 8) {
      xs.push(700 + rnd() * 20);
      ys.push(300 + rnd() * 20);
    } else if (kind === 8) {
      xs.push(123.5);
      ys.push(456.25);
    } else {
      xs.push(500);
      ys.push(rnd() < 0.5 ? 250 : rnd() * 1000);
    }
  }
  return { xs, ys };
}
const start = scatter();
const moved = scatter();
const queries = [
  ...Array.from({ length: 30 }, () => ({ x: rnd() * 1000, y: rnd() * 1000, r: rnd() * 80 })),
  { x: 123.5, y: 456.25, r: 0 },
  { x: 710, y: 310, r: 15 },
  { x: 500, y: 250, r: 1 },
];
const PAIR_RADIUS = 6;

function oracle(xs: number[], ys: number[]): BruteForce {
  const b = new BruteForce();
  for (const id of ids) b.insert(id, xs[id], ys[id]);
  return b;
}

function brutePairs(xs: number[], ys: number[], r: number): string[] {
  const out: string[] = [];
  for (let a = 0; a < N; a++) {
    for (let b = a + 1; b < N; b++) {
      const dx = xs[b] - xs[a];
      const dy = ys[b] - ys[a];
      if (dx * dx + dy * dy <= r * r) out.push(`${a}-${b}`);
    }
  }
  return out.sort();
}

/** What a user writes in Node: plain ESM, the package by its name. Prints its answers as JSON. */
const CONSUMER_MJS = `import { readFileSync } from 'node:fs';
import * as main from '${NAME}';
import { CrowdQuadtree, separationKernel } from '${NAME}/crowd';
import { checkInvariants, treeStats, visitNodes } from '${NAME}/debug';
const { PointQuadtree } = main;

const { ids, start, moved, queries, pairRadius } = JSON.parse(readFileSync(new URL('./data.json', import.meta.url), 'utf8'));
const tree = PointQuadtree.from({ bounds: { minX: 0, minY: 0, maxX: 1000, maxY: 1000 }, maxItems: 16 }, ids, start.xs, start.ys);
checkInvariants(tree);
const hits = new Int32Array(tree.size);
const circles = () => queries.map((q) => Array.from(hits.subarray(0, tree.queryCircleInto(q.x, q.y, q.r, hits))));
const before = circles();
const nearestBefore = queries.map((q) => tree.nearest(q.x, q.y, 5));
tree.moveAll(Float64Array.from(moved.xs), Float64Array.from(moved.ys));
checkInvariants(tree);
// One by one too (the built package's internals are renamed: every path through them runs here): remove and
// insert again, move away and back, and a far point that grows the root and, removed, lets it shrink.
for (let id = 0; id < 300; id++) tree.remove(id);
for (let id = 0; id < 300; id++) tree.insert(id, start.xs[id], start.ys[id]);
for (let id = 0; id < 300; id++) tree.move(id, moved.xs[id], moved.ys[id]);
tree.insert(ids.length, 5000, -3000);
checkInvariants(tree);
const grown = tree.bounds.maxX > 1000;
tree.remove(ids.length);
checkInvariants(tree);
const shrunk = tree.bounds.maxX === 1000;
let walkedLeaves = 0;
visitNodes(tree, (node) => { if (node.isLeaf) walkedLeaves++; });
const sameLeaves = walkedLeaves === treeStats(tree).leaves && walkedLeaves > 1;
const after = circles();
const outA = new Int32Array(50000);
const outB = new Int32Array(50000);
const n = tree.queryPairsInto(pairRadius, outA, outB);
const pairs = [];
for (let i = 0; i < n; i++) pairs.push(Math.min(outA[i], outB[i]) + '-' + Math.max(outA[i], outB[i]));
let error = null;
try {
  tree.queryCircle(0, 0, -1);
} catch (e) {
  error = e.name + ': ' + e.message;
}
let internal = null;
try {
  await import('${NAME}/internal/core/ItemPool');
} catch (e) {
  internal = e.code;
}
// The crowd's tree (the opt-in subpath): its pair join (WebAssembly here) and the fused separation join.
const crowd = CrowdQuadtree.from({ bounds: { minX: 0, minY: 0, maxX: 1000, maxY: 1000 } }, ids, moved.xs, moved.ys);
checkInvariants(crowd);
const m = crowd.queryPairsInto(pairRadius, outA, outB);
const crowdPairs = [];
for (let i = 0; i < m; i++) crowdPairs.push(Math.min(outA[i], outB[i]) + '-' + Math.max(outA[i], outB[i]));
const counts = new Int32Array(ids.length);
const found = crowd.querySeparationInto(pairRadius, counts, new Float64Array(ids.length), new Float32Array(ids.length));
const entry = Object.keys(main).sort();
const kernel = separationKernel();
console.log(JSON.stringify({ size: tree.size, grown, shrunk, sameLeaves, before, nearestBefore, after, pairs, error, internal, crowdPairs, counts: Array.from(counts), found, entry, kernel }));
`;

/** A strict TypeScript user of the public types. The @ts-expect-error lines fail if the types were `any`. */
const CONSUMER_TS = `import {
  type Bounds,
  type NodeInfo,
  PointQuadtree,
  type QuadtreeOptions,
  type QueryStats,
  type TreeStats,
} from '${NAME}';
import {
  type CountArray,
  CrowdQuadtree,
  type SeparationKernel,
  type SumArray,
  separationKernel,
  setSeparationKernel,
} from '${NAME}/crowd';
import { checkInvariants, treeStats, visitCircle, visitNodes } from '${NAME}/debug';
import { type SeparationHelperPort, SeparationTeam, type SeparationTeamFigures } from '${NAME}/parallel';

const bounds: Bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };
const options: QuadtreeOptions = { bounds, maxItems: 16, minSize: 0.5, looseness: 1 };
const tree: PointQuadtree = PointQuadtree.from(options, [0, 1, 2], new Float64Array([1, 2, 3]), [4, 5, 6]);
tree.insert(3, 50, 50);
tree.move(3, 51, 50);
tree.moveAll(new Float32Array([1, 2, 3, 4]), [4, 5, 6, 7]);
const hits = new Int32Array(tree.size);
const count: number = tree.queryCircleInto(1, 4, 5, hits);
const found: number[] = tree.queryCircle(1, 4, 5);
const inRect: number = tree.queryRectInto(0, 0, 10, 10, new Uint32Array(tree.size));
const near: number[] = tree.nearest(0, 0, 2, 10);
const pairCount: number = tree.queryPairsInto(3, new Int32Array(8), new Uint32Array(8));
tree.forEachPair(3, (a: number, b: number) => a + b);
visitNodes(tree, (node: NodeInfo) => node.depth > 2 || node.isLeaf);
visitCircle(tree, 1, 4, 5, (node: NodeInfo) => node.isLeaf);
const stats: TreeStats = treeStats(tree);
const last: QueryStats = tree.lastQuery;
const grown: Bounds = tree.bounds;
const removed: boolean = tree.remove(0);
const limits: number = PointQuadtree.MAX_ID + PointQuadtree.DEFAULTS.maxItems;
checkInvariants(tree);

const crowd: PointQuadtree = CrowdQuadtree.from(options, [0, 1], [1, 2], [3, 4]);
const counts: CountArray = new Uint32Array(2);
const sums: SumArray = new Float32Array(2);
const pairsNear: number = (crowd as CrowdQuadtree).querySeparationInto(2, counts, sums, new Float64Array(2));
setSeparationKernel('js');
const kernel: SeparationKernel = separationKernel();
const port: SeparationHelperPort = { postMessage: () => {} };
const team = new SeparationTeam([port]);
const figures: SeparationTeamFigures = team.last;
team.dispose();

// @ts-expect-error maxItems is a number
const wrongOption: QuadtreeOptions = { bounds, maxItems: 'many' };
// @ts-expect-error the *Into queries write into an Int32Array or Uint32Array, not a plain array
tree.queryCircleInto(0, 0, 1, [0, 0]);
// @ts-expect-error maxItems is read-only
tree.maxItems = 3;
// @ts-expect-error the fused separation join is the crowd's (point-quadtree/crowd), not every tree's
tree.querySeparationInto(2, counts, sums, sums);
// @ts-expect-error the team takes a CrowdQuadtree
team.querySeparationInto(tree, 2, counts, sums, sums);
// @ts-expect-error the walks are point-quadtree/debug's functions (v4), no longer the tree's methods
tree.visitNodes(() => false);

export {
  count,
  figures,
  found,
  grown,
  inRect,
  kernel,
  last,
  limits,
  near,
  pairCount,
  pairsNear,
  removed,
  stats,
  wrongOption,
};
`;

const STRICT = {
  strict: true,
  noEmit: true,
  target: 'es2022',
  lib: ['es2022'],
  types: [],
  skipLibCheck: false,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
};

/** A bundled user who needs the tree only, and one who also calls the debug checker. */
const BUNDLE_TREE = `import { PointQuadtree } from '${NAME}';
const tree = PointQuadtree.from({ bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 } }, [0, 1], [1, 2], [3, 4]);
tree.moveAll([5, 6], [7, 8]);
const hits = new Int32Array(tree.size);
console.log(tree.queryCircleInto(5, 7, 2, hits));
`;
const BUNDLE_DEBUG = `import { PointQuadtree } from '${NAME}';
import { checkInvariants } from '${NAME}/debug';
const tree = new PointQuadtree({ bounds: { minX: 0, minY: 0, maxX: 1, maxY: 1 } });
checkInvariants(tree);
console.log(tree.size);
`;

/** The crowd's tree: the opt-in subpath with the WebAssembly kernels and the fused separation join. */
const BUNDLE_CROWD = `import { CrowdQuadtree } from '${NAME}/crowd';
const tree = CrowdQuadtree.from({ bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 } }, [0, 1], [1, 2], [3, 4]);
const counts = new Int32Array(2);
console.log(tree.querySeparationInto(5, counts, new Float32Array(2), new Float32Array(2)));
`;
/** The calling thread's side of a separation team (the helpers' script imports serveSeparation alone). */
const BUNDLE_PARALLEL = `import { CrowdQuadtree } from '${NAME}/crowd';
import { SeparationTeam } from '${NAME}/parallel';
const tree = CrowdQuadtree.from({ bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 } }, [0, 1], [1, 2], [3, 4]);
const team = new SeparationTeam([]);
console.log(team.querySeparationInto(tree, 5, new Int32Array(2), new Float32Array(2), new Float32Array(2)));
`;

/** The bundles the package README's size table lists, by the label of their row there. */
const BUNDLES = [
  { label: `\`{ PointQuadtree }\` from \`${NAME}\``, entry: 'tree.mjs', source: BUNDLE_TREE, prints: '2' },
  {
    label: `plus \`{ checkInvariants }\` from \`${NAME}/debug\``,
    entry: 'debug.mjs',
    source: BUNDLE_DEBUG,
    prints: '0',
  },
  {
    label: `\`{ CrowdQuadtree }\` from \`${NAME}/crowd\``,
    entry: 'crowd.mjs',
    source: BUNDLE_CROWD,
    prints: '1',
  },
  {
    label: `plus \`{ SeparationTeam }\` from \`${NAME}/parallel\``,
    entry: 'parallel.mjs',
    source: BUNDLE_PARALLEL,
    prints: '1',
  },
] as const;

/** The figures of the package README's bundle table, by row label: [min kB, min+gzip kB]. */
function readmeSizes(readme: string): Map<string, [number, number]> {
  const rows = new Map<string, [number, number]>();
  for (const m of readme.matchAll(/^\| (.+?) \| ([\d.]+) kB \| ([\d.]+) kB \|$/gm)) {
    rows.set(m[1], [Number(m[2]), Number(m[3])]);
  }
  return rows;
}

/**
 * A three.js user in Node: instanced enemies indexed by world X/Z, moved and synced, queried; the helper
 * drawn from the same tree; objects too. No WebGL: three's objects need none until rendered.
 */
const THREE_MJS = `import { readFileSync } from 'node:fs';
import { PointQuadtree } from '${NAME}';
import { checkInvariants, treeStats } from '${NAME}/debug';
import { indexInstances, indexObjects, QuadtreeHelper, syncInstances, syncObjects } from '${NAME}/three';
import { BoxGeometry, InstancedMesh, LineSegments, Matrix4, MeshBasicMaterial, Object3D } from 'three';

const { start, moved, queries } = JSON.parse(readFileSync(new URL('./data.json', import.meta.url), 'utf8'));
const n = start.xs.length;
const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), n);
const m = new Matrix4();
const place = (p) => { for (let i = 0; i < n; i++) mesh.setMatrixAt(i, m.makeTranslation(p.xs[i], 7, p.ys[i])); };
place(start);
const tree = indexInstances(mesh, { maxItems: 16 });
const circles = () => queries.map((q) => tree.queryCircle(q.x, q.y, q.r));
const before = circles();
place(moved);
syncInstances(tree, mesh);
checkInvariants(tree);
const after = circles();
const helper = new QuadtreeHelper(tree, { height: 0.1 });
const objects = [0, 1, 2].map((i) => new Object3D());
objects.forEach((o, i) => o.position.set(start.xs[i], 0, start.ys[i]));
const few = indexObjects(objects);
objects[1].position.set(-5, 0, -5);
syncObjects(few, objects);
let error = null;
try {
  new QuadtreeHelper(tree, { plane: 'yz' });
} catch (e) {
  error = e.name + ': ' + e.message;
}
console.log(JSON.stringify({
  sameClass: tree instanceof PointQuadtree,
  lineSegments: helper instanceof LineSegments,
  leaves: treeStats(tree).leaves,
  rects: helper.rectCount,
  vertices: helper.geometry.drawRange.count,
  before,
  after,
  moved1: few.queryCircle(-5, -5, 0),
  error,
}));
`;

/** A strict TypeScript user of point-quadtree/three (three's types need the DOM's, as in any three.js app). */
const THREE_TS = `import type { PointQuadtree } from '${NAME}';
import {
  indexInstances,
  indexObjects,
  QuadtreeHelper,
  type QuadtreeHelperOptions,
  syncInstances,
  syncObjects,
  type XZIndexOptions,
} from '${NAME}/three';
import { BoxGeometry, InstancedMesh, LineSegments, MeshBasicMaterial, Object3D } from 'three';

const mesh = new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), 10);
const options: XZIndexOptions = { maxItems: 8, looseness: 1 };
const tree: PointQuadtree = indexInstances(mesh, options);
syncInstances(tree, mesh);
const objects: Object3D[] = [new Object3D()];
syncObjects(indexObjects(objects, { bounds: { minX: 0, minY: 0, maxX: 1, maxY: 1 } }), objects);
const helperOptions: QuadtreeHelperOptions = { plane: 'xy', height: 1, mode: 'visited', color: '#ff0000' };
const helper = new QuadtreeHelper(tree, helperOptions);
const asLines: LineSegments = helper;
helper.setCircle(0, 0, 5);
const redrew: boolean = helper.update();
const drawn: number = helper.rectCount + helper.capacityRects;
helper.tree = tree;
helper.mode = 'leaves';
helper.dispose();

// @ts-expect-error the plane is 'xz' or 'xy'
const wrongPlane: QuadtreeHelperOptions = { plane: 'yz' };
// @ts-expect-error the plane is read-only after construction
helper.plane = 'xz';
// @ts-expect-error syncInstances takes an InstancedMesh
syncInstances(tree, objects);

export { asLines, drawn, redrew, wrongPlane };
`;

const THREE_STRICT = { ...STRICT, lib: ['es2022', 'dom'] };

/** A bundled user of the helper alone, and of the helper and the adapter; three is the app's, not bundled. */
const BUNDLE_HELPER = `import { QuadtreeHelper } from '${NAME}/three';
export { QuadtreeHelper };
`;
const BUNDLE_THREE = `import { indexInstances, QuadtreeHelper, syncInstances } from '${NAME}/three';
export { indexInstances, QuadtreeHelper, syncInstances };
`;

/** A new ESM project `name` in `work` with `packages` (tarballs, folders) installed offline; its folder. */
async function emptyProject(work: string, name: string, packages: string[]): Promise<string> {
  const dir = path.join(work, name);
  await mkdir(dir);
  await writeFile(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name, private: true, type: 'module' }, null, 2)}\n`,
  );
  await sh('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', ...packages], dir);
  return dir;
}

/** The two module resolutions a TypeScript user may have. */
const RESOLUTIONS = [
  ['bundler', { module: 'esnext', moduleResolution: 'bundler' }],
  ['node16', { module: 'node16', moduleResolution: 'node16' }],
] as const;

/** Type-checks `source` as `file` in `dir` with `compilerOptions` (the repository's tsc, by path). */
async function typeCheck(dir: string, file: string, source: string, compilerOptions: object, name: string) {
  await writeFile(path.join(dir, file), source);
  const config = `tsconfig.${name}.json`;
  await writeFile(path.join(dir, config), JSON.stringify({ compilerOptions, files: [file] }, null, 2));
  const tsc = await binOf('typescript', 'tsc');
  await sh(process.execPath, [tsc, '-p', config], dir);
}

interface Minified {
  min: number;
  gzip: number;
  text: string;
}

/** `entry` (in `dir`) bundled and minified as a user's bundler would, resolving packages from `from`. */
async function minified(dir: string, entry: string, from = dir, external: string[] = []): Promise<Minified> {
  const out = await build({
    external,
    absWorkingDir: dir,
    entryPoints: [path.join(dir, entry)],
    nodePaths: [path.join(from, 'node_modules')],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const bytes = out.outputFiles[0].contents;
  return { min: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, text: out.outputFiles[0].text };
}

/** A bundle's size as the README's tables give it. */
function kB(b: Minified): string {
  return `${(b.min / 1000).toFixed(1)} / ${(b.gzip / 1000).toFixed(1)} kB`;
}

describe(`the packed ${NAME} package, installed into an empty project`, () => {
  let work = '';
  let consumer = '';
  let tarball = '';
  let packed: string[] = [];

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'quadtree-consumer-'));
    // The package README's install-from-a-clone commands (checked below), run at the repository root; its
    // `npm ci` is this checkout's own install. Built afresh every time: dist/ is never missing or stale.
    await sh('npm', ['run', 'build:lib'], root);
    const pack = JSON.parse(
      await sh('npm', ['pack', '-w', NAME, '--json', '--pack-destination', work], root),
    ) as {
      filename: string;
      files: { path: string }[];
    }[];
    tarball = path.join(work, pack[0].filename);
    packed = pack[0].files.map((f) => f.path).sort();

    consumer = await emptyProject(work, 'consumer', [tarball]);
  }, SLOW);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('is installed as its README says: from a clone, built and packed, until it is on the registry', async () => {
    const readme = await readFile(path.join(pkgDir, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
      m[1].split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#')),
    );
    // The commands this test runs (beforeAll), in order, and the tarball name npm pack printed.
    expect(blocks).toContainEqual([
      'npm ci',
      'npm run build:lib',
      `npm pack -w ${NAME}`,
      `npm install /path/to/the/clone/${path.basename(tarball)}`,
    ]);
    expect(blocks).toContainEqual([`npm install ${NAME}`]); // for when it is published
  });

  it('ships its built JavaScript, declarations with their maps, the README and the LICENSE', async () => {
    for (const file of [
      'package.json',
      'README.md',
      'LICENSE',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/index.d.ts.map',
      'dist/debug.js',
      'dist/debug.d.ts',
      'dist/debug.d.ts.map',
      'dist/crowd.js',
      'dist/crowd.d.ts',
      'dist/parallel.js',
      'dist/parallel.d.ts',
      // The WebAssembly kernels' AssemblyScript sources and their build, beside the bytes built from them.
      'crowd/kernels/separation.ts',
      'crowd/kernels/build.mjs',
      'crowd/separationWasm.ts',
      'dist/three/index.js',
      'dist/three/index.d.ts',
      'dist/three/QuadtreeHelper.js',
      'dist/three/xzIndex.js',
    ]) {
      expect(packed, `the tarball should hold ${file}`).toContain(file);
    }
    // The declaration maps point at the sources, so those ship too; the build script and tsconfig do not.
    expect(packed).toContain('index.ts');
    expect(packed.filter((f) => f.startsWith('scripts/') || f.includes('tsconfig'))).toEqual([]);
    const installed = path.join(consumer, 'node_modules', NAME);
    expect(await readFile(path.join(installed, 'LICENSE'), 'utf8')).toBe(
      await readFile(path.join(root, 'LICENSE'), 'utf8'),
    );
  });

  it(
    'answers from, queryCircleInto, nearest, moveAll, remove / insert / move, queryPairsInto and the crowd subpath in Node like brute force',
    async () => {
      await writeFile(
        path.join(consumer, 'data.json'),
        JSON.stringify({ ids, start, moved, queries, pairRadius: PAIR_RADIUS }),
      );
      await writeFile(path.join(consumer, 'consumer.mjs'), CONSUMER_MJS);
      const got = JSON.parse(await sh(process.execPath, ['consumer.mjs'], consumer)) as {
        size: number;
        grown: boolean;
        shrunk: boolean;
        sameLeaves: boolean;
        before: number[][];
        nearestBefore: number[][];
        after: number[][];
        pairs: string[];
        error: string | null;
        internal: string | null;
        crowdPairs: string[];
        counts: number[];
        found: number;
        entry: string[];
        kernel: string;
      };
      expect(got.size).toBe(N);
      expect([got.grown, got.shrunk, got.sameLeaves]).toEqual([true, true, true]);
      const b0 = oracle(start.xs, start.ys);
      const b1 = oracle(moved.xs, moved.ys);
      queries.forEach((q, i) => {
        expect(sorted(got.before[i]), `circle ${i} before the move`).toEqual(b0.circle(q.x, q.y, q.r));
        expect(sorted(got.after[i]), `circle ${i} after moveAll`).toEqual(b1.circle(q.x, q.y, q.r));
        // Nearest may break ties either way: compare distances, then check the ids are distinct.
        const near = got.nearestBefore[i];
        expect(near.map((id) => b0.distance2(id, q.x, q.y))).toEqual(
          b0.nearestDistances(q.x, q.y, 5, Infinity),
        );
        expect(new Set(near).size).toBe(near.length);
      });
      expect(got.before.some((ids) => ids.length > 50)).toBe(true); // the camp and the coincident points
      const expected = brutePairs(moved.xs, moved.ys, PAIR_RADIUS);
      expect(expected.length).toBeGreaterThan(1000);
      expect(got.pairs.sort()).toEqual(expected);
      // The crowd's tree finds the same pairs in its kernel, and counts each id's neighbours.
      expect(got.kernel).toBe('wasm-simd');
      expect(got.crowdPairs.sort()).toEqual(expected);
      expect(got.found).toBe(expected.length);
      const neighbours = new Array<number>(N).fill(0);
      for (const pair of expected) for (const id of pair.split('-')) neighbours[Number(id)]++;
      expect(got.counts).toEqual(neighbours);
      // The main entry is the class alone: the checker is /debug's, the kernels /crowd's.
      expect(got.entry).toEqual(['PointQuadtree']);
      expect(got.error).toMatch(/^RangeError: PointQuadtree: radius/);
      // The internal subpath resolves only inside this repository.
      expect(got.internal).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
    },
    SLOW,
  );

  it.each(RESOLUTIONS)(
    'type-checks a strict TypeScript consumer of the public types under moduleResolution %s',
    (name, resolution) => typeCheck(consumer, 'consumer.ts', CONSUMER_TS, { ...STRICT, ...resolution }, name),
    SLOW,
  );

  it(
    'bundles each entry point to the size the package README gives, the main one without the checker or the kernels',
    async () => {
      const sizes = new Map<string, Minified>();
      for (const b of BUNDLES) {
        await writeFile(path.join(consumer, b.entry), b.source);
        const out = await minified(consumer, b.entry);
        sizes.set(b.label, out);
        // Each bundle works on its own.
        const bundled = b.entry.replace('.mjs', '.bundle.mjs');
        await writeFile(path.join(consumer, bundled), out.text);
        expect((await sh(process.execPath, [bundled], consumer)).trim(), b.entry).toBe(b.prints);
      }
      const tree = sizes.get(BUNDLES[0].label)!;
      const debug = sizes.get(BUNDLES[1].label)!;
      const crowd = sizes.get(BUNDLES[2].label)!;
      // The checker's own message text is in a bundle exactly when it is imported; the WebAssembly module
      // (base64 of its magic number "\0asm": AGFzbQ) and the fused join only in the crowd's.
      expect(tree.text).not.toContain('PointQuadtree invariant');
      expect(debug.text).toContain('PointQuadtree invariant');
      expect(tree.text).not.toContain('AGFzbQ');
      expect(tree.text).not.toContain('querySeparationInto');
      expect(crowd.text).toContain('AGFzbQ');
      expect(tree.min).toBeLessThan(debug.min);
      expect(tree.min).toBeLessThan(crowd.min);
      // The peers the README compares with, bundled the same way (they are devDependencies of the root).
      await writeFile(path.join(consumer, 'kdbush.mjs'), "import KDBush from 'kdbush'; console.log(KDBush);");
      await writeFile(
        path.join(consumer, 'flatbush.mjs'),
        "import Flatbush from 'flatbush'; console.log(Flatbush);",
      );
      const kdbush = await minified(consumer, 'kdbush.mjs', root);
      const flatbush = await minified(consumer, 'flatbush.mjs', root);
      const kB = (v: number) => (v / 1000).toFixed(1);
      const table = [...sizes].map(([label, b]) => `| ${label} | ${kB(b.min)} kB | ${kB(b.gzip)} kB |`);
      console.log(
        `bundle size, min / min+gzip (esbuild --bundle --minify, gzip -9):\n${table.join('\n')}\n` +
          `kdbush ${kB(kdbush.min)} / ${kB(kdbush.gzip)} kB; flatbush ${kB(flatbush.min)} / ${kB(flatbush.gzip)} kB`,
      );
      // The package README's table gives these figures (to its 0.1 kB, and a rounding step of slack).
      const readme = readmeSizes(await readFile(path.join(pkgDir, 'README.md'), 'utf8'));
      for (const [label, b] of sizes) {
        const row = readme.get(label);
        const hint = `the package README's bundle table should have the row (measured now):\n${table.join('\n')}`;
        expect(row, hint).toBeDefined();
        expect(Math.abs(row![0] - b.min / 1000), hint).toBeLessThanOrEqual(0.15);
        expect(Math.abs(row![1] - b.gzip / 1000), hint).toBeLessThanOrEqual(0.15);
      }
    },
    SLOW,
  );

  it(
    'passes publint with no message at all',
    async () => {
      const data = await readFile(tarball);
      const { messages, pkg } = await publint({
        pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) },
        level: 'suggestion',
        strict: true,
      });
      expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg)}`)).toEqual([]);
    },
    SLOW,
  );

  it(
    'passes @arethetypeswrong/cli (esm-only: the package has no CommonJS build, as kdbush 4 has none)',
    async () => {
      const attw = await binOf('@arethetypeswrong/cli', 'attw');
      await sh(
        process.execPath,
        [attw, tarball, '--profile', 'esm-only', '--no-definitely-typed', '--format', 'ascii', '--no-color'],
        work,
      );
    },
    SLOW,
  );

  describe('with three installed: point-quadtree/three', () => {
    let project = '';

    beforeAll(async () => {
      // three and its types as a three.js app has them; offline, so linked from the repository's
      // node_modules (npm links a folder; @types/three's own dependencies resolve from there).
      project = await emptyProject(work, 'consumer-three', [
        tarball,
        path.join(root, 'node_modules/three'),
        path.join(root, 'node_modules/@types/three'),
      ]);
    }, SLOW);

    it(
      "indexes, syncs and draws three's objects in Node (no WebGL) like brute force",
      async () => {
        await writeFile(path.join(project, 'data.json'), JSON.stringify({ start, moved, queries }));
        await writeFile(path.join(project, 'three.mjs'), THREE_MJS);
        const got = JSON.parse(await sh(process.execPath, ['three.mjs'], project)) as {
          sameClass: boolean;
          lineSegments: boolean;
          leaves: number;
          rects: number;
          vertices: number;
          before: number[][];
          after: number[][];
          moved1: number[];
          error: string | null;
        };
        // one PointQuadtree class behind both entries, one three behind the helper and the app
        expect(got.sameClass).toBe(true);
        expect(got.lineSegments).toBe(true);
        const b0 = oracle(start.xs, start.ys);
        const b1 = oracle(moved.xs, moved.ys);
        queries.forEach((q, i) => {
          expect(sorted(got.before[i]), `circle ${i} after indexInstances`).toEqual(b0.circle(q.x, q.y, q.r));
          expect(sorted(got.after[i]), `circle ${i} after syncInstances`).toEqual(b1.circle(q.x, q.y, q.r));
        });
        expect(got.rects).toBe(got.leaves);
        expect(got.vertices).toBe(8 * got.leaves);
        expect(got.moved1).toEqual([1]);
        expect(got.error).toBe("RangeError: QuadtreeHelper: plane must be 'xz' or 'xy', got 'yz'");
      },
      SLOW,
    );

    it.each(RESOLUTIONS)(
      'type-checks a strict TypeScript consumer of point-quadtree/three under moduleResolution %s',
      (name, resolution) =>
        typeCheck(project, 'three.ts', THREE_TS, { ...THREE_STRICT, ...resolution }, name),
      SLOW,
    );

    it(
      'bundles { QuadtreeHelper } with three external, without the tree',
      async () => {
        await writeFile(path.join(project, 'helper.mjs'), BUNDLE_HELPER);
        await writeFile(path.join(project, 'adapter.mjs'), BUNDLE_THREE);
        const helper = await minified(project, 'helper.mjs', project, ['three']);
        const adapter = await minified(project, 'adapter.mjs', project, ['three']);
        // three stays an import of the app's; the helper takes only types from the tree, so none of the
        // tree's code (its class, with methods such as queryCircleInto that the helper never calls) comes with it
        expect(helper.text).toMatch(/from\s*"three"/);
        expect(helper.text).not.toContain('queryCircleInto');
        expect(adapter.text).toContain('queryCircleInto');
        console.log(
          `bundle size, min / min+gzip (esbuild --bundle --minify --external:three, gzip -9): ` +
            `{ QuadtreeHelper } from ${NAME}/three ${kB(helper)}; ` +
            `with indexInstances and syncInstances (and so the tree) ${kB(adapter)}`,
        );
      },
      SLOW,
    );
  });
});
