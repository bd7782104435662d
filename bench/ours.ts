/**
 * Our PointQuadtree as a contender: bulk-loaded (`PointQuadtree.from`) or built insert by insert, kept up to
 * date by `move`, queried by `queryCircle` into one reused `out` array (and by the typed, allocation-free
 * `queryCircleInto` when the library has it).
 */
import { PointQuadtree, type QuadtreeOptions } from 'point-quadtree';
import { CrowdQuadtree } from 'point-quadtree/crowd';
import type { Built, Contender } from './contender';
import { type Points, WORLD } from './data';

/**
 * The tree options the benchmark uses (bounds are always the world). An option left out is the library's
 * default: the headline rows use the defaults, as most users do.
 */
export interface OursConfig {
  readonly maxItems?: number;
  readonly minSize?: number;
  /** Left out (the default, 0) unless said: the rows with loose leaves say so in their label. */
  readonly looseness?: number;
}

export function treeOptions(cfg: OursConfig): QuadtreeOptions {
  return {
    bounds: { minX: 0, minY: 0, maxX: WORLD, maxY: WORLD },
    ...(cfg.maxItems === undefined ? {} : { maxItems: cfg.maxItems }),
    ...(cfg.minSize === undefined ? {} : { minSize: cfg.minSize }),
    ...(cfg.looseness === undefined ? {} : { looseness: cfg.looseness }),
  };
}

/** Whether every option is the library's default. */
export function isDefault(cfg: OursConfig): boolean {
  const d = PointQuadtree.DEFAULTS;
  return (
    (cfg.maxItems ?? d.maxItems) === d.maxItems &&
    (cfg.minSize ?? d.minSize) === d.minSize &&
    (cfg.looseness ?? d.looseness) === d.looseness
  );
}

export function describeOptions(cfg: OursConfig): string {
  const d = PointQuadtree.DEFAULTS;
  const set = [
    cfg.maxItems === undefined ? '' : `maxItems: ${cfg.maxItems}`,
    cfg.minSize === undefined ? '' : `minSize: ${cfg.minSize}`,
    cfg.looseness === undefined ? '' : `looseness: ${cfg.looseness}`,
  ].filter((x) => x);
  const given = set.length ? `, ${set.join(', ')}` : '';
  return `PointQuadtree({ bounds: {minX: 0, minY: 0, maxX: ${WORLD}, maxY: ${WORLD}}${given} })${isDefault(cfg) ? ' (library defaults' : ' (defaults'}: maxItems ${d.maxItems}, minSize ${d.minSize}, looseness ${d.looseness})`;
}

/** The optional typed query (`queryCircleInto(x, y, r, out) -> count`), if the library has one. */
interface TypedQuery {
  queryCircleInto(x: number, y: number, r: number, out: Int32Array): number;
}

export function hasTypedQuery(): boolean {
  return typeof (PointQuadtree.prototype as unknown as Partial<TypedQuery>).queryCircleInto === 'function';
}

function fromBulk(p: Points, cfg: OursConfig): PointQuadtree {
  return PointQuadtree.from(treeOptions(cfg), p.ids, p.xs, p.ys);
}

function fromInserts(p: Points, cfg: OursConfig): PointQuadtree {
  const tree = new PointQuadtree(treeOptions(cfg));
  const { xs, ys, n } = p;
  for (let i = 0; i < n; i++) tree.insert(i, xs[i], ys[i]);
  return tree;
}

/**
 * The ways ours is kept up to date after every point moved: `moveAll` (one call for the frame: the headline
 * row), and `move` per point (for comparison).
 */
const updateModes = (tree: PointQuadtree) => {
  const loose = tree.looseness > 0 ? `, looseness ${tree.looseness}` : '';
  return [
    {
      label: `moveAll${loose}`,
      sync(xs: Float64Array, ys: Float64Array): void {
        tree.moveAll(xs, ys);
      },
    },
    {
      label: `move${loose}`,
      sync(xs: Float64Array, ys: Float64Array, n: number): void {
        for (let i = 0; i < n; i++) tree.move(i, xs[i], ys[i]);
      },
    },
  ];
};

/** Queries through `queryCircle(x, y, r, out)` with one `out` array reused (cleared by `out.length = 0`). */
function arrayQueries(tree: PointQuadtree): Built {
  const out: number[] = [];
  return {
    collect(x, y, r, res) {
      tree.queryCircle(x, y, r, res);
    },
    queryCentres(cx, cy, from, to, r) {
      let total = 0;
      for (let q = from; q < to; q++) {
        out.length = 0;
        tree.queryCircle(cx[q], cy[q], r, out);
        total += out.length;
      }
      return total;
    },
    queryPoints(xs, ys, n, stride, r) {
      let total = 0;
      for (let i = 0; i < n; i += stride) {
        out.length = 0;
        tree.queryCircle(xs[i], ys[i], r, out);
        total += out.length;
      }
      return total;
    },
    updates: updateModes(tree),
  };
}

/** Queries through `queryCircleInto(x, y, r, out: Int32Array)` into one reused typed array of size n. */
function typedQueries(tree: PointQuadtree): Built {
  const typed = tree as unknown as TypedQuery;
  let out = new Int32Array(0);
  const ensure = () => {
    if (out.length < tree.size) out = new Int32Array(tree.size);
  };
  return {
    collect(x, y, r, res) {
      ensure();
      const count = typed.queryCircleInto(x, y, r, out);
      for (let k = 0; k < count; k++) res.push(out[k]);
    },
    queryCentres(cx, cy, from, to, r) {
      ensure();
      let total = 0;
      for (let q = from; q < to; q++) total += typed.queryCircleInto(cx[q], cy[q], r, out);
      return total;
    },
    queryPoints(xs, ys, n, stride, r) {
      ensure();
      let total = 0;
      for (let i = 0; i < n; i += stride) total += typed.queryCircleInto(xs[i], ys[i], r, out);
      return total;
    },
    updates: updateModes(tree),
  };
}

/** Ours, bulk-loaded by `PointQuadtree.from`, queried by `queryCircle` into a reused array. */
export function oursFrom(cfg: OursConfig): Contender {
  return { name: 'ours', options: describeOptions(cfg), build: (p) => arrayQueries(fromBulk(p, cfg)) };
}

/** Ours, built by n calls to `insert` (W1 and memory only). */
export function oursInsert(cfg: OursConfig): Contender {
  return { name: 'ours', options: describeOptions(cfg), build: (p) => arrayQueries(fromInserts(p, cfg)) };
}

/** Ours, bulk-loaded, queried by `queryCircleInto` into a reused Int32Array (only if the library has it). */
export function oursTyped(cfg: OursConfig): Contender {
  return { name: 'ours', options: describeOptions(cfg), build: (p) => typedQueries(fromBulk(p, cfg)) };
}

/**
 * The crowd's tree (point-quadtree/crowd), bulk-loaded, queried as oursTyped: W4's frame with `moveAll`'s
 * pass in the WebAssembly kernel (the same tree as PointQuadtree's moveAll gives). Its one update mode is
 * labelled `moveAll, CrowdQuadtree` (W5 leaves it out: its crowd frame is the scene's, bench:scene).
 */
export function oursCrowd(cfg: OursConfig): Contender {
  return {
    name: 'ours',
    options: describeOptions(cfg).replace('PointQuadtree(', 'CrowdQuadtree('),
    build: (p) => {
      const tree = buildCrowdTree(p, cfg);
      return {
        ...typedQueries(tree),
        updates: [
          {
            label: 'moveAll, CrowdQuadtree',
            sync(xs: Float64Array, ys: Float64Array): void {
              tree.moveAll(xs, ys);
              // The row says the kernel ran: a fallback to the JavaScript pass (no WebAssembly, the memory
              // cap, a grown root) would time something else.
              if (tree.lastMove.kernel !== 'wasm' && tree.size >= 1024) {
                throw new Error(
                  `CrowdQuadtree's moveAll ran its ${tree.lastMove.kernel} pass, not the kernel`,
                );
              }
            },
            // The first frames lay out the module's memory and run the hosts' code unoptimised (a clustered
            // 10,000-point frame: 8.3 ms over frames 0-4, 4.0 over 10-19, 0.24-0.4 from frame 50 on).
            warmFrames: 100,
          },
        ],
      };
    },
  };
}

/** The crowd's tree (point-quadtree/crowd), bulk-loaded: for the crowd's calls in the zero-allocation check. */
export function buildCrowdTree(p: Points, cfg: OursConfig): CrowdQuadtree {
  return CrowdQuadtree.from(treeOptions(cfg), p.ids, p.xs, p.ys);
}

/** The bare tree (for the memory and zero-allocation checks). */
export function buildTree(p: Points, cfg: OursConfig, how: 'from' | 'insert'): PointQuadtree {
  return how === 'from' ? fromBulk(p, cfg) : fromInserts(p, cfg);
}
