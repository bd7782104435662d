/**
 * `window.quadtreeDemo`: a read-only inspection hook for tests and the browser console. It only reads; the
 * scene is driven like a person would (keys, GUI, mouse).
 */
import type { NodeInfo } from 'point-quadtree';
import type { Settings } from '../sim/settings';
import type { InsightState } from './insight';

/** Every setting in force (one field per row of the settings table), and what the scene shows. */
export interface DemoState extends Settings {
  /** Rendered frames. */
  frame: number;
  /** The player position the `found` ids answer. */
  player: { x: number; z: number };
  /**
   * The orbit camera around the player: `azimuth` (radians, 0: behind the player on +Z, looking towards -Z),
   * `polar` (radians from straight down) and `distance` (world units).
   */
  camera: { azimuth: number; polar: number; distance: number };
  /**
   * The touch stick: whether a finger holds it, and what it asks for (`forward` up the screen, `right`; a
   * vector of length <= 1, 1 at full deflection; 0 while not held).
   */
  stick: { held: boolean; forward: number; right: number };
  /** Enemies in the scene (equal to the `enemies` setting once it is applied). */
  enemyCount: number;
  /** Ids inside the detect radius, ascending. */
  found: number[];
  /** The rectangle query (world x/z) and the ids inside it, ascending. */
  rect: { minX: number; minZ: number; maxX: number; maxZ: number } | null;
  rectFound: number[];
  tree: { nodes: number; leaves: number; depth: number; size: number; version: number };
  lastQuery: { nodesVisited: number; pointsTested: number; found: number; micros: number };
  /** Last frame's times, ms: index work only (tree moves, inserts, removes, rebuilds), and the random walk. */
  timings: { treeUpdateMs: number; wanderMs: number };
  /** What the node gizmos draw: rectangles in the last update, and whether they are shown. */
  gizmo: { nodesVisible: boolean; nodesDrawn: number; visitedVisible: boolean; visitedDrawn: number };
  level: { name: string; title: string; width: number; depth: number };
  colors: { enemy: string; detected: string; rect: string; crowd: string };
  /**
   * Crowd mode: whether it is on (the `crowd` setting), its radius, the unordered pairs of enemies within
   * it among exactly the positions {@link QuadtreeDemo.enemyPositions} returns now, and this frame's crowd
   * time, ms. `pairs` is 0 when off. `threads`: the threads whose work found the last pairs (1: the main
   * thread alone, then `threadNote` says why, e.g. 'page not cross-origin isolated'; '' when workers helped).
   * `kernel`: the tree's kernel of the last pairs ('wasm-simd' or 'js'); `precision`: the precision their
   * sums ran at ('f32', the fast sums on the WebAssembly kernel, or 'f64').
   */
  crowd: {
    enabled: boolean;
    radius: number;
    pairs: number;
    ms: number;
    threads: number;
    threadNote: string;
    kernel: string;
    precision: string;
  };
  /**
   * Which pass of the tree's last moveAll ran (wandering enemies move in one moveAll a frame): 'wasm' (the
   * WebAssembly kernel's, the crowd tree's default) or 'js'; '' when the enemies stand still.
   */
  moveAllPass: string;
  /**
   * The player's last circle query by node kind (see docs/scene.md): `map` whether the top-down map is shown,
   * the counts, the nodes of each kind the map drew last, the tree's node count and the circle (tree units).
   */
  insight: InsightState;
  /** Messages shown on the page (bad URL values, level problems). */
  messages: string[];
  /** GPU objects alive in the renderer (constant while playing: what is replaced is disposed). */
  memory: { geometries: number; textures: number };
}

export interface QuadtreeDemo {
  state(): DemoState;
  /** Enemy positions as x, z pairs (length 2 * enemyCount), a copy. */
  enemyPositions(): Float32Array;
  /** Instance colour of enemy `id` as '#rrggbb'. */
  enemyColor(id: number): string;
  /** Every node of the tree, parent before children (NW NE SW SE), as the tree's visitNodes reports it; copies. */
  treeNodes(): TreeNode[];
}

/** A node as {@link QuadtreeDemo.treeNodes} returns it: the library's NodeInfo, copied (tree units). */
export type TreeNode = NodeInfo;

declare global {
  interface Window {
    readonly quadtreeDemo?: QuadtreeDemo;
  }
}

/**
 * What the hook reads: the app's {@link DemoSource.snapshot} and its enemies. The hook reaches into
 * no field of the app; the app decides what a snapshot holds.
 */
export interface DemoSource {
  /** Everything {@link QuadtreeDemo.state} returns, as fresh copies. */
  snapshot(): DemoState;
  enemyPositions(): Float32Array;
  /** Instances the enemy mesh has room for (valid ids of {@link enemyColor} are below it). */
  readonly enemyCapacity: number;
  enemyColor(id: number): string;
  treeNodes(): TreeNode[];
}

export function createHook(source: DemoSource): QuadtreeDemo {
  return Object.freeze({
    state(): DemoState {
      return source.snapshot();
    },
    enemyPositions(): Float32Array {
      return source.enemyPositions();
    },
    enemyColor(id: number): string {
      const capacity = source.enemyCapacity;
      if (!Number.isInteger(id) || id < 0 || id >= capacity) {
        throw new RangeError(
          `quadtreeDemo.enemyColor: id must be an integer from 0 to ${capacity - 1}, got ${id}`,
        );
      }
      return source.enemyColor(id);
    },
    treeNodes(): TreeNode[] {
      return source.treeNodes();
    },
  });
}

/** Install the hook as a non-writable, non-configurable `window.quadtreeDemo`. */
export function installHook(hook: QuadtreeDemo): void {
  Object.defineProperty(window, 'quadtreeDemo', {
    value: hook,
    writable: false,
    configurable: false,
    enumerable: true,
  });
}
