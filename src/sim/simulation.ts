/**
 * The scene's state without any rendering: the settings, enemy positions, the quadtree over them, wandering,
 * and the per-frame detection. The app drives it once per frame and takes its changes through methods
 * ({@link Simulation.takeMovedRange}, {@link Simulation.drainChanges}) to mirror them into three.js objects.
 * Free of three.js and the DOM, so the per-frame logic is unit tested in Node.
 *
 * Per frame: {@link Simulation.beginFrame}, {@link Simulation.applyRequested} (GUI edits, by the settings
 * table's effects), {@link Simulation.step} (wander, move the enemies in the tree, then detect if anything
 * changed). Nothing in `step` allocates: positions are typed arrays, query answers are written by the tree's
 * typed-array queries (`queryCircleInto` / `queryRectInto`) into the buffers of two {@link FoundSet}s, and
 * recolouring is driven by one {@link ChangeList}.
 */

import type { Bounds } from 'point-quadtree';
import { CrowdQuadtree } from 'point-quadtree/crowd';
import { Crowd, SEPARATION_GAIN } from './crowd';
import { ChangeList, FoundSet, scanCircle, scanRect } from './detection';
import { enemyArea, SpawnLayout, STREAM, scatterAround } from './layout';
import type { Level } from './level';
import { TURN_RATE, wanderStep } from './movement';
import { deriveSeed, mulberry32, type Random } from './random';
import {
  applyChanged,
  EFFECT_REBUILD,
  EFFECT_REGENERATE,
  EFFECT_RESIZE,
  type Settings,
  type WatchedSettings,
  watchedSettings,
} from './settings';
import { type TreeShape, TreeShapeCache } from './treeShape';
import { clamp, type GroundRect, groundRectToTree, levelGround, treeX, treeXs, treeY, treeYs } from './world';

/** Spread (standard deviation) of a click-added batch around the clicked point, world units. */
export const BATCH_SPREAD = 3;
export const BATCH_SIZE = 100;

/** A range of ids [from, to), filled by {@link Simulation.takeMovedRange}. */
export interface IdRange {
  from: number;
  to: number;
}

export type { TreeShape } from './treeShape';

export class Simulation {
  readonly capacity: number;
  /** World x and z of enemy i (ids = instance indices); valid below {@link count}. */
  readonly xs: Float32Array;
  readonly zs: Float32Array;
  /** Heading of each wandering enemy, a unit vector on the ground (world x, z). */
  readonly headX: Float32Array;
  readonly headZ: Float32Array;
  count = 0;
  tree: CrowdQuadtree;
  readonly found: FoundSet;
  readonly inRect: FoundSet;
  /** Crowd mode: the pairs within the crowd radius, who has a neighbour, separation (see {@link Crowd}). */
  readonly crowd: Crowd;
  /**
   * The settings in force: what the tree, the enemies and the last detection were made with. Read them
   * here; change them through {@link requested}.
   */
  readonly settings: Readonly<Settings>;
  /**
   * The settings asked for: the GUI edits this object in place, {@link request} writes into it, and
   * {@link applyRequested} makes it the settings in force at the start of the next frame. The simulation
   * writes back what it changed itself (the enemy count after a click batch or a clamp).
   */
  readonly requested: Settings;
  /** The rectangle query's ground rectangle, or null. */
  rect: GroundRect | null = null;
  /** The player position the current {@link found} answers. */
  playerX = 0;
  playerZ = 0;

  /** Figures of the last detection (the player's circle query). */
  readonly lastQuery = { ms: 0, nodesVisited: 0, pointsTested: 0, found: 0 };
  /**
   * Time spent this frame on index work only: moves, inserts, removes and rebuilds of the tree,
   * milliseconds.
   */
  treeUpdateMs = 0;
  /** Time spent this frame computing the enemies' random walk (not the tree), milliseconds. */
  wanderMs = 0;

  readonly ground: GroundRect;
  readonly area: GroundRect;
  private readonly layout: SpawnLayout;
  private readonly ids: Int32Array;
  private wanderRandom: Random;
  private batchRandom: Random;
  private dirty = true;
  private readonly timingOut: Int32Array;
  private readonly rectScratch: Bounds = { minX: 0, minY: 0, maxX: 0, maxY: 0 };
  private readonly shapes = new TreeShapeCache();
  /** Recolour list: ids whose found / rectangle membership changed, until {@link drainChanges}. */
  private readonly changes: ChangeList;
  /** Ids in [movedFrom, movedTo) moved or appeared since the last {@link takeMovedRange}. */
  private movedFrom = 0;
  private movedTo = 0;
  /** Whether the simulation rewrote {@link requested} itself since {@link takeRequestedRewritten}. */
  private requestedRewritten = false;
  /** {@link requested} with a note of every write to it: applyRequested compares only after one. */
  private readonly watched: WatchedSettings;

  constructor(
    readonly level: Level,
    settings: Settings,
    capacity: number,
  ) {
    this.capacity = capacity;
    this.settings = { ...settings };
    this.watched = watchedSettings(settings);
    this.requested = this.watched.settings;
    this.xs = new Float32Array(capacity);
    this.zs = new Float32Array(capacity);
    this.headX = new Float32Array(capacity);
    this.headZ = new Float32Array(capacity);
    this.ids = new Int32Array(capacity);
    for (let i = 0; i < capacity; i++) this.ids[i] = i;
    this.found = new FoundSet(capacity);
    this.timingOut = new Int32Array(capacity);
    this.inRect = new FoundSet(capacity);
    this.crowd = new Crowd(capacity);
    this.changes = new ChangeList(capacity);
    this.ground = levelGround(level.width, level.depth);
    this.area = enemyArea(level);
    this.layout = new SpawnLayout(level, capacity);
    this.wanderRandom = mulberry32(0);
    this.batchRandom = mulberry32(0);
    this.tree = this.emptyTree();
    this.playerX = level.player.x;
    this.playerZ = level.player.z;
    this.regenerate();
  }

  /** The quadtree options for the current settings. */
  treeOptions() {
    const g = this.ground;
    return {
      bounds: groundRectToTree(g),
      maxItems: this.settings.maxItems,
      minSize: this.settings.minSize,
      looseness: this.settings.looseness,
    };
  }

  private emptyTree(): CrowdQuadtree {
    return new CrowdQuadtree(this.treeOptions());
  }

  /**
   * Bulk-load a new tree from the current positions (after minSize / maxItems / looseness changes or a
   * regenerate).
   */
  rebuildTree(): void {
    const t0 = performance.now();
    const n = this.count;
    this.tree = CrowdQuadtree.from(
      this.treeOptions(),
      this.ids.subarray(0, n),
      this.xs.subarray(0, n),
      this.zs.subarray(0, n),
    );
    this.treeUpdateMs += performance.now() - t0;
    this.dirty = true;
  }

  /** Put every enemy back at its spawn for the current seed and distribution; rebuild the tree. */
  regenerate(): void {
    const { seed, distribution } = this.settings;
    this.layout.reset(seed, distribution);
    this.wanderRandom = mulberry32(deriveSeed(seed, STREAM.wander));
    this.batchRandom = mulberry32(deriveSeed(seed, STREAM.batches));
    const n = Math.min(this.settings.enemies, this.capacity);
    this.layout.ensure(n);
    this.xs.set(this.layout.xs.subarray(0, n));
    this.zs.set(this.layout.zs.subarray(0, n));
    for (let i = 0; i < n; i++) this.setHeading(i, this.wanderRandom() * Math.PI * 2);
    this.count = n;
    this.markMoved(0, n);
    this.rebuildTree();
  }

  /** Grow or shrink to `n` enemies; new ones appear at their spawn positions. */
  setCount(n: number): void {
    n = clamp(Math.floor(n), 0, this.capacity);
    const old = this.count;
    if (n === old) return;
    const t0 = performance.now();
    if (n > old) {
      this.layout.ensure(n);
      for (let i = old; i < n; i++) {
        this.xs[i] = this.layout.xs[i];
        this.zs[i] = this.layout.zs[i];
        this.setHeading(i, this.wanderRandom() * Math.PI * 2);
      }
      this.markMoved(old, n);
      this.count = n;
      if (n - old > old) {
        this.treeUpdateMs += performance.now() - t0;
        this.rebuildTree(); // more than doubling: a bulk load is faster than inserts
      } else {
        for (let i = old; i < n; i++) this.tree.insert(i, treeX(this.xs[i]), treeY(this.zs[i]));
        this.treeUpdateMs += performance.now() - t0;
      }
    } else {
      for (let i = old - 1; i >= n; i--) this.tree.remove(i);
      this.count = n;
      this.crowd.markStale(); // the pushes of the enemies left still count those removed
      this.treeUpdateMs += performance.now() - t0;
    }
    this.setEnemySetting(n);
    this.dirty = true;
  }

  /** Add up to {@link BATCH_SIZE} enemies scattered around (x, z); returns how many fit. */
  addBatch(x: number, z: number, n = BATCH_SIZE): number {
    const k = Math.min(n, this.capacity - this.count);
    if (k <= 0) return 0;
    const t0 = performance.now();
    const start = this.count;
    scatterAround(this.batchRandom, x, z, k, BATCH_SPREAD, this.area, this.xs, this.zs, start);
    for (let i = start; i < start + k; i++) {
      this.setHeading(i, this.batchRandom() * Math.PI * 2);
      this.tree.insert(i, treeX(this.xs[i]), treeY(this.zs[i]));
    }
    this.count += k;
    this.setEnemySetting(this.count);
    this.markMoved(start, this.count);
    this.treeUpdateMs += performance.now() - t0;
    this.dirty = true;
    return k;
  }

  /** Set (or clear, with null) the rectangle query. */
  setRect(rect: GroundRect | null): void {
    if (rect === null) {
      this.rect = null;
    } else {
      this.rect ??= { minX: 0, minZ: 0, maxX: 0, maxZ: 0 };
      this.rect.minX = rect.minX;
      this.rect.minZ = rect.minZ;
      this.rect.maxX = rect.maxX;
      this.rect.maxZ = rect.maxZ;
    }
    this.dirty = true;
  }

  /** Ask for settings (written into {@link requested}; applied by {@link applyRequested}). */
  request(changes: Partial<Settings>): void {
    Object.assign(this.requested, changes);
  }

  /**
   * Make the {@link requested} settings the ones in force, doing what each changed setting's `effect` in
   * the settings table asks: `regenerate` regenerates, `resize` adds or removes enemies, `rebuild` rebuilds
   * the tree; any of these or `detect` makes the next {@link step} detect again. Compares only after a
   * write to {@link requested}: a frame nobody wrote to allocates nothing.
   */
  applyRequested(): void {
    if (!this.watched.takeWritten()) return;
    const s = this.settings as Settings;
    const effects = applyChanged(this.watched.target, s);
    if (effects <= 0) return; // nothing changed (-1), or only settings read as they are used (0)
    this.dirty = true;
    if (effects & EFFECT_REGENERATE) {
      this.regenerate(); // uses every setting in force: enemies, minSize, maxItems, looseness too
    } else {
      if (effects & EFFECT_RESIZE) {
        const wanted = s.enemies;
        s.enemies = this.count;
        this.setCount(wanted);
      }
      if (effects & EFFECT_REBUILD) this.rebuildTree();
    }
  }

  /** Whether the simulation changed {@link requested} itself since the last call (refresh the GUI). */
  takeRequestedRewritten(): boolean {
    const rewritten = this.requestedRewritten;
    this.requestedRewritten = false;
    return rewritten;
  }

  /**
   * Write the ids that moved or appeared since the last call into `out` ([from, to)) and forget them;
   * returns false (and leaves `out` alone) when none did.
   */
  takeMovedRange(out: IdRange): boolean {
    if (this.movedTo <= this.movedFrom) return false;
    out.from = this.movedFrom;
    out.to = this.movedTo;
    this.movedFrom = 0;
    this.movedTo = 0;
    return true;
  }

  /**
   * Call `recolour(id)` for every id whose found / rectangle membership changed since the last call, then
   * empty the list. Returns how many. Pass a function made once (no closure per frame).
   */
  drainChanges(recolour: (id: number) => void): number {
    const changes = this.changes;
    const n = changes.length;
    for (let i = 0; i < n; i++) recolour(changes.ids[i]);
    changes.clear();
    return n;
  }

  /**
   * One frame: wander (if moving), then, if anything moved or changed, run the player's circle query and
   * the rectangle query and record which ids entered or left. Returns whether a detection ran.
   */
  step(dt: number, playerX: number, playerZ: number): boolean {
    if (playerX !== this.playerX || playerZ !== this.playerZ) {
      this.playerX = playerX;
      this.playerZ = playerZ;
      this.dirty = true;
    }
    const s = this.settings;
    const crowdOn = s.crowdMode;
    const { tree, xs, zs, count, crowd } = this;
    crowd.precision = s.crowdPrecision;
    if (s.moving && s.speed > 0 && count > 0 && dt > 0) {
      // Separation (Crowd.separate) times itself (crowd time), so the wander's time starts after it.
      const push = s.speed * SEPARATION_GAIN * dt;
      if (crowdOn)
        crowd.separate(tree, xs, zs, count, s.crowdRadius, s.bruteForce, s.workers, push, this.area);
      const t0 = performance.now();
      this.wander(dt);
      const t1 = performance.now();
      this.moveAllInTree();
      this.wanderMs += t1 - t0;
      this.treeUpdateMs += performance.now() - t1;
      this.dirty = true;
    }
    // Pairs at the positions the frame ends with (what enemyPositions() returns until the next step), and
    // the pushes the next frame's separation applies.
    if (crowdOn) crowd.find(this.tree, xs, zs, count, s.crowdRadius, s.bruteForce, this.changes, s.workers);
    else if (crowd.pairs > 0 || crowd.ms > 0) crowd.clear(this.changes);
    if (!this.dirty) return false;
    this.dirty = false;
    this.detect();
    this.detectRect();
    return true;
  }

  /** Call at the start of a frame: resets the per-frame times. */
  beginFrame(): void {
    this.treeUpdateMs = 0;
    this.wanderMs = 0;
    this.crowd.separateMs = 0;
  }

  /** Crowd mode's time this frame: separation plus finding the pairs, ms. */
  crowdMs(): number {
    return this.settings.crowdMode ? this.crowd.separateMs + this.crowd.ms : 0;
  }

  /** The enemy count changed: in force and requested alike (the GUI shows it on its next refresh). */
  private setEnemySetting(n: number): void {
    (this.settings as Settings).enemies = n;
    if (this.requested.enemies !== n) {
      this.requested.enemies = n;
      this.requestedRewritten = true;
    }
  }

  /** Enemy `id` heads at `angle` radians (0 = +x, pi / 2 = +z). */
  private setHeading(id: number, angle: number): void {
    this.headX[id] = Math.cos(angle);
    this.headZ[id] = Math.sin(angle);
  }

  /** The random walk: new positions and headings of every enemy (the tree is updated afterwards). */
  private wander(dt: number): void {
    const stepLength = this.settings.speed * dt;
    wanderStep(
      this.xs,
      this.zs,
      this.headX,
      this.headZ,
      this.count,
      this.wanderRandom,
      stepLength,
      TURN_RATE * dt,
      this.area,
    );
    this.markMoved(0, this.count);
  }

  /**
   * Index work of a wandering frame: every enemy moves in the tree, in one `moveAll` (ids 0..count-1 are
   * the tree's ids; the arrays' spare capacity past `count` holds no id in the tree and is ignored). The
   * tree reads the stored float32 values, so it and enemyPositions() agree to the bit.
   */
  private moveAllInTree(): void {
    this.tree.moveAll(treeXs(this.xs), treeYs(this.zs));
  }

  /** The player's circle query, by the tree or by brute force, written into `out`; returns the count. */
  private runCircle(out: Int32Array): number {
    const r = this.settings.radius;
    if (this.settings.bruteForce) {
      return scanCircle(this.xs, this.zs, this.count, this.playerX, this.playerZ, r, out);
    }
    // `out` has room for every enemy, so the typed query never runs out of room.
    return this.tree.queryCircleInto(treeX(this.playerX), treeY(this.playerZ), r, out);
  }

  private detect(): void {
    const q = this.lastQuery;
    const t0 = performance.now();
    const found = this.runCircle(this.found.next);
    q.ms = performance.now() - t0;
    if (this.settings.bruteForce) {
      q.nodesVisited = 0;
      q.pointsTested = this.count;
    } else {
      q.nodesVisited = this.tree.lastQuery.nodesVisited;
      q.pointsTested = this.tree.lastQuery.pointsTested;
    }
    q.found = found;
    this.found.commit(found, this.changes);
  }

  /**
   * Time the current circle query precisely: repeat it until at least `budgetMs` passed, because browsers
   * coarsen `performance.now()` to 0.1 ms and one query takes microseconds. Returns milliseconds per query.
   * The answer is discarded (a scratch array), so the scene is unchanged.
   */
  measureQuery(budgetMs = 1): number {
    const out = this.timingOut;
    let reps = 1;
    for (;;) {
      const t0 = performance.now();
      for (let k = 0; k < reps; k++) this.runCircle(out);
      const elapsed = performance.now() - t0;
      if (elapsed >= budgetMs || reps >= 1 << 16) return elapsed / reps;
      reps *= elapsed > 0 ? Math.min(16, Math.max(2, Math.ceil((budgetMs / elapsed) * 1.2))) : 16;
    }
  }

  private detectRect(): void {
    const rect = this.rect;
    if (rect === null) {
      if (this.inRect.size > 0) this.inRect.clear(this.changes);
      return;
    }
    const out = this.inRect.next;
    let found: number;
    if (this.settings.bruteForce) {
      found = scanRect(this.xs, this.zs, this.count, rect.minX, rect.minZ, rect.maxX, rect.maxZ, out);
    } else {
      const b = groundRectToTree(rect, this.rectScratch);
      found = this.tree.queryRectInto(b.minX, b.minY, b.maxX, b.maxY, out);
    }
    this.inRect.commit(found, this.changes);
  }

  private markMoved(from: number, to: number): void {
    this.crowd.markStale();
    if (this.movedTo <= this.movedFrom) {
      this.movedFrom = from;
      this.movedTo = to;
    } else {
      this.movedFrom = Math.min(this.movedFrom, from);
      this.movedTo = Math.max(this.movedTo, to);
    }
  }

  /** Node count, leaves and depth of the tree; recomputed only when the tree's structure changed. */
  treeShape(): TreeShape {
    return this.shapes.of(this.tree);
  }
}
