/**
 * The scene: wires the simulation (settings, positions, quadtree, detection) to the three.js objects, the
 * input, the camera, the GUI and the HUD, and runs the frame loop.
 *
 * A frame is a list of named phases in the order data flows (see {@link App.frameStep}):
 * input -> settings -> simulation step -> mirror into three.js -> gizmos -> camera and render -> HUD.
 * The per-frame path allocates nothing it could reuse.
 */
import { Timer } from 'three';
import { COLORS } from './colors';
import { EnemyMesh, EnemyPalette } from './enemies';
import { FollowCamera } from './followCamera';
import { createGui, type SceneGui } from './gui';
import { Hud, type HudFrame } from './hud';
import { KeyboardInput } from './input';
import { Listeners } from './listeners';
import type { MessageBox } from './messages';
import { createPlayerMesh, disposePlayerMesh } from './playerMesh';
import { PointerTools } from './pointerTools';
import { QuadtreeNodesHelper } from './QuadtreeNodesHelper';
import type { Level } from './sim/level';
import { type MoveInput, type MoveOptions, PLAYER_MOVE, type PlayerState, stepPlayer } from './sim/movement';
import { MAX_ENEMIES, type Settings } from './sim/settings';
import { type IdRange, Simulation } from './sim/simulation';
import { clamp, treeX, treeY } from './sim/world';
import { createStage, DetectRing, RectOutline, type Stage } from './stage';

/** Longest frame step, seconds: a stall (tab switch, GC) never teleports the player. */
export const MAX_FRAME_DT = 0.1;
/** Seconds between two query-time measurements for the HUD. */
const QUERY_TIMING_PERIOD = 0.25;

export interface AppOptions {
  container: HTMLElement;
  hudElement: HTMLElement;
  messages: MessageBox;
  level: Level;
  /** The settings to start with (defaults, then the level's, then the URL's). */
  settings: Settings;
  levels: string[] | null;
  /** Navigate to another level preset (the app does not reload itself). */
  onLoadLevel(name: string): void;
}

export class App {
  readonly stage: Stage;
  /** The settings' one owner, and everything the scene computes; see {@link Simulation}. */
  readonly sim: Simulation;
  readonly enemies: EnemyMesh;
  readonly player: PlayerState;
  readonly level: Level;
  readonly nodesHelper: QuadtreeNodesHelper;
  readonly visitedHelper: QuadtreeNodesHelper;
  /** Rendered frames. */
  frame = 0;
  private readonly palette = new EnemyPalette();
  private readonly ring = new DetectRing();
  private readonly rectOutline = new RectOutline();
  private readonly playerMesh;
  private readonly listeners = new Listeners();
  private readonly keyboard: KeyboardInput;
  private readonly pointer: PointerTools;
  private readonly camera: FollowCamera;
  private readonly timer = new Timer();
  private readonly hud: Hud;
  private readonly gui: SceneGui;
  private readonly messages: MessageBox;
  private visitedDirty = true;
  private lastShowVisited = false;
  private stopped = false;
  private sinceTiming = Number.POSITIVE_INFINITY;
  private pendingRegenerate = false;
  private stopWatchingPixelRatio: (() => void) | null = null;

  // Reused per frame (no allocation).
  private readonly moveInput: MoveInput = { forward: 0, right: 0, running: false, viewX: 0, viewZ: 0 };
  private readonly moveOptions: MoveOptions;
  private readonly moved: IdRange = { from: 0, to: 0 };
  private readonly hudFrame: HudFrame = {
    dt: 0,
    enemies: 0,
    found: 0,
    bruteForce: false,
    detected: false,
    queryMs: 0,
    nodesVisited: 0,
    pointsTested: 0,
    nodes: 0,
    leaves: 0,
    depth: 0,
    treeUpdateMs: 0,
    wanderMs: 0,
    rectFound: 0,
    rectActive: false,
    crowd: false,
    crowdPairs: 0,
    crowdMs: 0,
    crowdBrute: false,
    crowdBruteRefused: false,
    crowdKernel: 'js',
    bruteMs: 0,
    bruteMeasured: false,
  };
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
    this.pointer = new PointerTools(this.listeners, canvas, camera, this.sim.ground, this.rectOutline);

    this.hud = new Hud(options.hudElement);
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
    const dt = clamp(this.timer.getDelta(), 0, MAX_FRAME_DT);
    this.sim.beginFrame();
    this.readInput(dt);
    this.applySettings();
    const detected = this.sim.step(dt, this.player.x, this.player.z);
    this.mirror();
    this.drawGizmos(detected);
    this.render(dt);
    this.updateHud(dt, detected);
  }

  /** Input: the held keys move the player, relative to where the camera looks. */
  private readInput(dt: number): void {
    const move = this.moveInput;
    move.forward = this.keyboard.forward;
    move.right = this.keyboard.right;
    move.running = this.keyboard.running;
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
    if (sim.rect !== null) this.rectOutline.set(sim.rect);
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

  /** HUD: this frame's figures. */
  private updateHud(dt: number, detected: boolean): void {
    const sim = this.sim;
    const shape = sim.treeShape();
    const h = this.hudFrame;
    h.dt = dt;
    h.enemies = sim.count;
    h.found = sim.found.size;
    h.bruteForce = sim.settings.bruteForce;
    h.detected = detected;
    // Query time: a repeated, precise measurement a few times per second (see Simulation.measureQuery).
    this.sinceTiming += dt;
    h.queryMs = Number.NaN;
    if (this.sinceTiming >= QUERY_TIMING_PERIOD) {
      this.sinceTiming = 0;
      h.queryMs = sim.measureQuery();
    }
    h.nodesVisited = sim.lastQuery.nodesVisited;
    h.pointsTested = sim.lastQuery.pointsTested;
    h.nodes = shape.nodes;
    h.leaves = shape.leaves;
    h.depth = shape.depth;
    h.treeUpdateMs = sim.treeUpdateMs;
    h.wanderMs = sim.wanderMs;
    h.rectFound = sim.inRect.size;
    h.rectActive = sim.rect !== null;
    const crowd = sim.crowd;
    h.crowd = sim.settings.crowdMode;
    h.crowdPairs = crowd.pairs;
    h.crowdMs = sim.crowdMs();
    h.crowdBrute = crowd.brute;
    h.crowdBruteRefused = crowd.bruteRefused;
    h.crowdKernel = crowd.kernel;
    h.bruteMs = crowd.bruteMs;
    h.bruteMeasured = crowd.bruteMeasured;
    this.hud.update(h);
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

  /** Stop the loop and free everything (GPU buffers, listeners, GUI). */
  dispose(): void {
    this.stopped = true;
    const { renderer } = this.stage;
    renderer.setAnimationLoop(null);
    this.listeners.dispose();
    this.camera.dispose();
    this.timer.dispose();
    this.gui.dispose();
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
