/**
 * The scene: wires the simulation (settings, positions, quadtree, detection) to the three.js objects, the
 * input, the camera, the GUI and the HUD, and runs the frame loop.
 *
 * A frame is a list of named phases in the order data flows (see {@link App.frameStep}):
 * input -> settings -> simulation step -> mirror into three.js -> gizmos -> camera and render -> HUD.
 * The per-frame path allocates nothing it could reuse.
 */
import { visitNodes } from 'point-quadtree/debug';
import { Color, Timer } from 'three';
import { KeyboardInput } from '../input/keyboard';
import { Listeners } from '../input/listeners';
import { PointerTools } from '../input/pointerTools';
import { STICK, TouchStick } from '../input/touchStick';
import type { Level } from '../sim/level';
import { type MoveInput, type MoveOptions, PLAYER_MOVE, type PlayerState, stepPlayer } from '../sim/movement';
import { MAX_ENEMIES, type Settings } from '../sim/settings';
import { type IdRange, Simulation } from '../sim/simulation';
import { clamp, treeX, treeY } from '../sim/world';
import { createGui, type SceneGui } from '../ui/gui';
import { Hud } from '../ui/hud';
import { isNarrowScreen } from '../ui/layout';
import type { MessageBox } from '../ui/messages';
import { StickView } from '../ui/stickView';
import { COLORS } from '../view/colors';
import { DetectRing } from '../view/detectRing';
import { EnemyMesh, EnemyPalette } from '../view/enemies';
import { FollowCamera } from '../view/followCamera';
import { createPlayerMesh, disposePlayerMesh } from '../view/playerMesh';
import { QuadtreeNodesHelper } from '../view/QuadtreeNodesHelper';
import { RectOutline } from '../view/rectOutline';
import { createStage, type Stage } from '../view/stage';
import { InsightView } from './insight';
import type { DemoSource, DemoState, TreeNode } from './quadtreeDemo';
import { startCrowdWorkers } from './workers';

/** The top-down map's palette: the scene's colours, plus one per node kind and per plotted cost. */
const INSIGHT_COLORS = {
  ground: COLORS.ground,
  nodes: COLORS.nodes,
  enemy: COLORS.enemy,
  detected: COLORS.detected,
  rect: COLORS.rect,
  crowd: COLORS.crowd,
  player: COLORS.player,
  ring: COLORS.ring,
  visited: COLORS.visited,
  pruned: COLORS.pruned,
  covered: COLORS.covered,
  plot: { query: COLORS.covered, scan: COLORS.ring, pairs: COLORS.rect, allPairs: COLORS.crowd },
};

/** Longest frame step, seconds: a stall (tab switch, GC) never teleports the player. */
const MAX_FRAME_DT = 0.1;

export interface AppOptions {
  container: HTMLElement;
  /** The panel layout: the settings panel and the map are added to it (see src/ui/style.css). */
  panels: HTMLElement;
  hudElement: HTMLElement;
  messages: MessageBox;
  level: Level;
  /** The settings to start with (defaults, then the level's, then the URL's). */
  settings: Settings;
  levels: string[] | null;
  /** Navigate to another level preset (the app does not reload itself). */
  onLoadLevel(name: string): void;
}

/** The scene. What it shows is read through {@link App.snapshot} (the `window.quadtreeDemo` hook does). */
export class App implements DemoSource {
  private readonly stage: Stage;
  /** The settings' one owner, and everything the scene computes; see {@link Simulation}. */
  private readonly sim: Simulation;
  private readonly enemies: EnemyMesh;
  private readonly player: PlayerState;
  private readonly level: Level;
  private readonly nodesHelper: QuadtreeNodesHelper;
  private readonly visitedHelper: QuadtreeNodesHelper;
  /** Rendered frames. */
  private frame = 0;
  private readonly palette = new EnemyPalette();
  private readonly ring = new DetectRing();
  private readonly rectOutline = new RectOutline();
  private readonly playerMesh;
  private readonly listeners = new Listeners();
  private readonly keyboard: KeyboardInput;
  private readonly pointer: PointerTools;
  /** The touch stick (a drag from the lower-left quarter of a touch screen) and its drawing. */
  private readonly stick: TouchStick;
  private readonly stickView: StickView;
  private readonly camera: FollowCamera;
  private readonly timer = new Timer();
  private readonly hud: Hud;
  private readonly gui: SceneGui;
  private readonly messages: MessageBox;
  /** The top-down map and the cost plot (the `map` setting). */
  private readonly insight: InsightView;
  private visitedDirty = true;
  private lastShowVisited = false;
  private stopped = false;
  private pendingRegenerate = false;
  private stopWatchingPixelRatio: (() => void) | null = null;
  /** Ends crowd mode's worker threads (see workers.ts). */
  private readonly stopWorkers: () => void;
  private readonly colorScratch = new Color();

  // Reused per frame (no allocation).
  private readonly moveInput: MoveInput = { forward: 0, right: 0, running: false, viewX: 0, viewZ: 0 };
  private readonly moveOptions: MoveOptions;
  private readonly moved: IdRange = { from: 0, to: 0 };
  /** Bound once: the simulation calls it for every id whose colour may have changed. */
  private readonly recolour = (id: number): void => {
    this.enemies.setColor(
      id,
      this.palette.colorOf(this.sim.found.has(id), this.sim.inRect.has(id), this.sim.crowd.has(id)),
    );
  };

  constructor(options: AppOptions) {
    this.level = options.level;
    this.messages = options.messages;
    this.stage = createStage(options.container, options.level);
    const { scene, camera, renderer } = this.stage;
    const canvas = renderer.domElement;

    this.sim = new Simulation(options.level, options.settings, MAX_ENEMIES);
    this.stopWorkers = startCrowdWorkers(this.sim.crowd, this.messages);
    this.enemies = new EnemyMesh(MAX_ENEMIES, this.palette.enemy);
    scene.add(this.enemies.mesh);

    this.player = { x: this.level.player.x, z: this.level.player.z, heading: Math.PI };
    this.moveOptions = { ...PLAYER_MOVE, area: this.sim.ground };
    this.playerMesh = createPlayerMesh(this.palette.player);
    scene.add(this.playerMesh, this.ring, this.rectOutline);

    this.nodesHelper = new QuadtreeNodesHelper(this.sim.tree, 'leaves', {
      color: COLORS.nodes,
      opacity: 0.8,
      height: 0.03,
    });
    this.visitedHelper = new QuadtreeNodesHelper(this.sim.tree, 'visited', {
      color: COLORS.visited,
      height: 0.05,
    });
    scene.add(this.nodesHelper, this.visitedHelper);

    const size = Math.max(this.level.width, this.level.depth);
    this.camera = new FollowCamera(camera, canvas, this.player.x, this.player.z, size);
    this.keyboard = new KeyboardInput(this.listeners, window);
    this.pointer = new PointerTools(this.listeners, canvas, camera, this.sim.ground);
    this.stickView = new StickView(document.body, STICK.radius);
    this.stick = new TouchStick(this.listeners, canvas, {
      changed: () => this.stickView.draw(this.stick),
      tap: (x, y) => this.pointer.clickAt(x, y),
    });

    this.hud = new Hud(options.hudElement, MAX_FRAME_DT);
    this.insight = new InsightView(options.panels, INSIGHT_COLORS, this.sim);
    this.gui = createGui(
      this.sim.requested,
      {
        regenerate: () => {
          this.pendingRegenerate = true;
        },
        clearRectangle: () => this.pointer.clearRect(),
        loadLevel: (name) => options.onLoadLevel(name),
      },
      options.levels,
      this.level.name,
      { container: options.panels, closed: isNarrowScreen() },
    );

    this.listeners.on(window, 'resize', this.onResize);
    this.timer.connect(document);
    this.watchPixelRatio();
    this.onResize();
    renderer.setAnimationLoop(this.onFrame);
  }

  private readonly onFrame = (time: number): void => {
    if (this.stopped) return;
    try {
      this.frameStep(time);
    } catch (error) {
      // Never a console exception loop: stop, and say why on the page.
      this.stopped = true;
      this.stage.renderer.setAnimationLoop(null);
      this.messages.add([`The scene stopped: ${error instanceof Error ? error.message : String(error)}`]);
    }
  };

  /** One frame, phase by phase, in the order data flows. */
  private frameStep(time: number): void {
    this.timer.update(time);
    // The simulation steps at most MAX_FRAME_DT; what is shown about time (HUD, map) uses the real one.
    const seconds = this.timer.getDelta();
    const dt = clamp(seconds, 0, MAX_FRAME_DT);
    this.sim.beginFrame();
    this.readInput(dt);
    this.applySettings();
    const detected = this.sim.step(dt, this.player.x, this.player.z);
    this.mirror();
    this.drawGizmos(detected);
    this.render(dt);
    this.updateHud(seconds, detected);
  }

  /**
   * Input: the touch stick while a finger holds it (its full deflection runs), else the held keys, move the
   * player relative to where the camera looks.
   */
  private readInput(dt: number): void {
    const move = this.moveInput;
    const stick = this.stick;
    move.forward = stick.held ? stick.vector.forward : this.keyboard.forward;
    move.right = stick.held ? stick.vector.right : this.keyboard.right;
    move.running = stick.held || this.keyboard.running;
    move.viewX = this.camera.viewX;
    move.viewZ = this.camera.viewZ;
    stepPlayer(this.player, move, dt, this.moveOptions);
  }

  /** Settings: the GUI's edits, then the queued button and pointer actions. */
  private applySettings(): void {
    const sim = this.sim;
    sim.applyRequested();
    if (this.pendingRegenerate) {
      this.pendingRegenerate = false;
      sim.regenerate();
    }
    const batches = this.pointer.batches;
    if (batches.length > 0) {
      for (const p of batches) sim.addBatch(p.x, p.z);
      this.pointer.clearBatches();
    }
    const rect = this.pointer.takeRect();
    if (rect !== undefined) sim.setRect(rect);
    if (sim.takeRequestedRewritten()) this.gui.refresh();
  }

  /** Mirror into three.js: moved positions, and only the colours that changed. */
  private mirror(): void {
    const sim = this.sim;
    if (sim.takeMovedRange(this.moved))
      this.enemies.setPositions(sim.xs, sim.zs, this.moved.from, this.moved.to);
    this.enemies.count = sim.count;
    if (sim.drainChanges(this.recolour) > 0) this.enemies.flushColors();
  }

  /** Gizmos: the player, its ring, the rectangle, the tree's nodes and the leaves the query visited. */
  private drawGizmos(detected: boolean): void {
    const sim = this.sim;
    const s = sim.settings;
    this.playerMesh.position.set(this.player.x, 0, this.player.z);
    this.playerMesh.rotation.y = this.player.heading;
    this.ring.position.set(this.player.x, 0, this.player.z);
    this.ring.setRadius(s.radius);
    // The applied rectangle wins; else the one being dragged, once the pointer has moved over the ground.
    const dragged = this.pointer.dragRect;
    if (sim.rect !== null) this.rectOutline.set(sim.rect);
    else if (dragged !== null) this.rectOutline.set(dragged);
    else if (!this.pointer.draggingRect) this.rectOutline.visible = false;

    this.nodesHelper.visible = s.showNodes;
    if (s.showNodes) {
      this.nodesHelper.tree = sim.tree;
      this.nodesHelper.update();
    }
    const showVisited = s.showVisited && !s.bruteForce;
    this.visitedHelper.visible = showVisited;
    if (detected || showVisited !== this.lastShowVisited) this.visitedDirty = true;
    this.lastShowVisited = showVisited;
    if (showVisited && this.visitedDirty) {
      this.visitedDirty = false;
      this.visitedHelper.tree = sim.tree;
      this.visitedHelper.setCircle(treeX(sim.playerX), treeY(sim.playerZ), s.radius);
      this.visitedHelper.update();
    }
  }

  /** Camera and render: the camera follows the player by the same offset; the mouse orbits around it. */
  private render(dt: number): void {
    this.camera.follow(this.player.x, this.player.z, dt);
    this.stage.renderer.render(this.stage.scene, this.stage.camera);
    this.frame++;
  }

  /**
   * HUD: this frame's figures (the HUD reads them from the simulation). `seconds`: real time since the last
   * frame, unclamped, so that the frame rate and the plot's time axis are true however slow the frames.
   */
  private updateHud(seconds: number, detected: boolean): void {
    this.hud.update(seconds, detected, this.sim);
    this.insight.update(this.sim, seconds, detected, this.hud.measuredQueryMs);
    this.hud.setInsight(this.sim.settings.map ? this.insight.analysis : null, this.insight.frameMs, seconds);
  }

  private readonly onResize = (): void => {
    const { renderer, camera } = this.stage;
    const parent = renderer.domElement.parentElement;
    const width = parent?.clientWidth || window.innerWidth;
    const height = parent?.clientHeight || window.innerHeight;
    renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    renderer.setSize(width, height);
    camera.aspect = width / Math.max(height, 1);
    camera.updateProjectionMatrix();
  };

  /** Resize again when the device pixel ratio changes (browser zoom, a window moved to another screen). */
  private watchPixelRatio(): void {
    this.stopWatchingPixelRatio?.();
    const query = window.matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
    this.stopWatchingPixelRatio = this.listeners.on(query, 'change', this.onPixelRatioChange);
  }

  private readonly onPixelRatioChange = (): void => {
    this.onResize();
    this.watchPixelRatio();
  };

  /**
   * What the scene shows now, as fresh copies: every setting in force, the found ids, the tree's shape, the
   * gizmos, the level, the colours, crowd mode, the page's messages and the renderer's GPU objects.
   */
  snapshot(): DemoState {
    const sim = this.sim;
    const shape = sim.treeShape();
    const memory = this.stage.renderer.info.memory;
    return {
      ...sim.settings,
      frame: this.frame,
      player: { x: sim.playerX, z: sim.playerZ },
      camera: { azimuth: this.camera.azimuth, polar: this.camera.polar, distance: this.camera.distance },
      stick: { held: this.stick.held, forward: this.stick.vector.forward, right: this.stick.vector.right },
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
        nodesVisible: this.nodesHelper.visible,
        nodesDrawn: this.nodesHelper.rectCount,
        visitedVisible: this.visitedHelper.visible,
        visitedDrawn: this.visitedHelper.rectCount,
      },
      level: {
        name: this.level.name,
        title: this.level.title,
        width: this.level.width,
        depth: this.level.depth,
      },
      colors: { enemy: COLORS.enemy, detected: COLORS.detected, rect: COLORS.rect, crowd: COLORS.crowd },
      crowd: {
        enabled: sim.settings.crowdMode,
        radius: sim.settings.crowdRadius,
        pairs: sim.settings.crowdMode ? sim.crowd.pairs : 0,
        ms: sim.crowdMs(),
        threads: sim.crowd.threads,
        threadNote: sim.crowd.threadNote,
        kernel: sim.crowd.kernel,
        precision: sim.crowd.precisionRan,
      },
      moveAllPass: sim.settings.moving ? sim.tree.lastMove.kernel : '',
      insight: this.insight.snapshot(this.sim),
      messages: [...this.messages.messages],
      memory: { geometries: memory.geometries, textures: memory.textures },
    };
  }

  /** Enemy positions as x, z pairs (length 2 * enemy count), a copy. */
  enemyPositions(): Float32Array {
    const { xs, zs, count } = this.sim;
    const out = new Float32Array(count * 2);
    for (let i = 0; i < count; i++) {
      out[2 * i] = xs[i];
      out[2 * i + 1] = zs[i];
    }
    return out;
  }

  /** Every node of the tree (visitNodes), copies. */
  treeNodes(): TreeNode[] {
    const out: TreeNode[] = [];
    visitNodes(this.sim.tree, (n) => {
      out.push({ ...n });
    });
    return out;
  }

  /** Instances the enemy mesh has room for. */
  get enemyCapacity(): number {
    return this.enemies.capacity;
  }

  /** Instance colour of enemy `id` (below {@link enemyCapacity}) as '#rrggbb'. */
  enemyColor(id: number): string {
    return this.enemies.colorHex(id, this.colorScratch);
  }

  /** Stop the loop and free everything (GPU buffers, listeners, GUI). */
  dispose(): void {
    this.stopped = true;
    const { renderer } = this.stage;
    renderer.setAnimationLoop(null);
    this.stopWorkers();
    this.listeners.dispose();
    this.camera.dispose();
    this.stickView.dispose();
    this.timer.dispose();
    this.gui.dispose();
    this.insight.dispose();
    this.enemies.dispose();
    this.nodesHelper.dispose();
    this.visitedHelper.dispose();
    this.ring.dispose();
    this.rectOutline.dispose();
    disposePlayerMesh(this.playerMesh);
    this.stage.scene.traverse((object) => {
      const o = object as { geometry?: { dispose(): void }; material?: { dispose(): void } };
      o.geometry?.dispose();
      o.material?.dispose();
    });
    renderer.dispose();
    renderer.domElement.remove();
  }
}
