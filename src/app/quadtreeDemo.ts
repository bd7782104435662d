/**
 * `window.quadtreeDemo`: a read-only inspection hook for tests and the browser console. It only reads; the
 * scene is driven like a person would (keys, GUI, mouse).
 */
import { Color } from 'three';
import type { Settings } from '../sim/settings';
import { COLORS } from '../view/colors';
import type { App } from './app';

/** Every setting in force (one field per row of the settings table), and what the scene shows. */
export interface DemoState extends Settings {
  /** Rendered frames. */
  frame: number;
  /** The player position the `found` ids answer. */
  player: { x: number; z: number };
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
   * time, ms. `pairs` is 0 when off.
   */
  crowd: { enabled: boolean; radius: number; pairs: number; ms: number };
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
}

declare global {
  interface Window {
    readonly quadtreeDemo?: QuadtreeDemo;
  }
}

export function createHook(app: App, messages: () => readonly string[]): QuadtreeDemo {
  const scratch = new Color();
  return Object.freeze({
    state(): DemoState {
      const sim = app.sim;
      const shape = sim.treeShape();
      return {
        ...sim.settings,
        frame: app.frame,
        player: { x: sim.playerX, z: sim.playerZ },
        enemyCount: sim.count,
        found: sim.found.sorted(),
        rect: sim.rect === null ? null : { ...sim.rect },
        rectFound: sim.inRect.sorted(),
        tree: { ...shape, size: sim.tree.size, version: sim.tree.version },
        lastQuery: {
          nodesVisited: sim.lastQuery.nodesVisited,
          pointsTested: sim.lastQuery.pointsTested,
          found: sim.lastQuery.found,
          micros: sim.lastQuery.ms * 1000,
        },
        timings: { treeUpdateMs: sim.treeUpdateMs, wanderMs: sim.wanderMs },
        gizmo: {
          nodesVisible: app.nodesHelper.visible,
          nodesDrawn: app.nodesHelper.rectCount,
          visitedVisible: app.visitedHelper.visible,
          visitedDrawn: app.visitedHelper.rectCount,
        },
        level: {
          name: app.level.name,
          title: app.level.title,
          width: app.level.width,
          depth: app.level.depth,
        },
        colors: { enemy: COLORS.enemy, detected: COLORS.detected, rect: COLORS.rect, crowd: COLORS.crowd },
        crowd: {
          enabled: sim.settings.crowdMode,
          radius: sim.settings.crowdRadius,
          pairs: sim.settings.crowdMode ? sim.crowd.pairs : 0,
          ms: sim.crowdMs(),
        },
        messages: [...messages()],
        memory: {
          geometries: app.stage.renderer.info.memory.geometries,
          textures: app.stage.renderer.info.memory.textures,
        },
      };
    },
    enemyPositions(): Float32Array {
      const { xs, zs, count } = app.sim;
      const out = new Float32Array(count * 2);
      for (let i = 0; i < count; i++) {
        out[2 * i] = xs[i];
        out[2 * i + 1] = zs[i];
      }
      return out;
    },
    enemyColor(id: number): string {
      if (!Number.isInteger(id) || id < 0 || id >= app.enemies.capacity) {
        throw new RangeError(
          `quadtreeDemo.enemyColor: id must be an integer from 0 to ${app.enemies.capacity - 1}, got ${id}`,
        );
      }
      return app.enemies.colorHex(id, scratch);
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
