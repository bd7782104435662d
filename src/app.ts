/**
 * The scene: wires the simulation (positions, quadtree, detection) to three.js objects, the input, the
 * camera, the GUI and the HUD, and runs the frame loop.
 *
 * Frame order: apply GUI edits and queued mouse actions -> move the player -> simulation step (wander, then
 * detect if anything changed) -> mirror positions and changed colours into the instanced mesh -> gizmos ->
 * camera -> render -> HUD. The per-frame path allocates nothing it could reuse.
 */
import { Color, Plane, Raycaster, Timer, Vector2, Vector3 } from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { COLORS } from './colors';
import { EnemyMesh } from './enemies';
import { createGui, type SceneGui } from './gui';
import { Hud } from './hud';
import type { MessageBox } from './messages';
import {
  createPlayerMesh,
  disposePlayerMesh,
  isTyping,
  KeyboardInput,
  type PlayerState,
  stepPlayer,
} from './player';
import { QuadtreeNodesHelper } from './QuadtreeNodesHelper';
import type { Level } from './sim/level';
import { MAX_ENEMIES, type Settings } from './sim/settings';
import { Simulation } from './sim/simulation';
import { clamp, type GroundRect, rectFromCorners, treeX, treeY } from './sim/world';
import { createStage, DetectRing, RectOutline, type Stage } from './stage';

/** Longest frame step, seconds: a stall (tab switch, GC) never teleports the player. */
export const MAX_FRAME_DT = 0.1;
/** A press that moves less than this many pixels is a click, not a drag. */
const CLICK_SLOP = 5;
const CAMERA_TARGET_HEIGHT = 1;
/** Seconds between two query-time measurements for the HUD. */
const QUERY_TIMING_PERIOD = 0.25;

export interface AppOptions {
  container: HTMLElement;
  hudElement: HTMLElement;
  messages: MessageBox;
  level: Level;
  settings: Settings;
  levels: string[] | null;
  /** Navigate to another level preset (the app does not reload itself). */
  onLoadLevel(name: string): void;
}

// Scratch objects of the per-frame and pointer paths (module scope: reused, never reallocated).
const _ndc = new Vector2();
const _hit = new Vector3();
const _groundPlane = new Plane(new Vector3(0, 1, 0), 0);
const _raycaster = new Raycaster();

export class App {
  readonly stage: Stage;
  readonly sim: Simulation;
  readonly enemies: EnemyMesh;
  readonly controls: OrbitControls;
  readonly player: PlayerState;
  readonly params: Settings;
  readonly level: Level;
  readonly nodesHelper: QuadtreeNodesHelper;
  readonly visitedHelper: QuadtreeNodesHelper;
  readonly colors = {
    enemy: new Color(COLORS.enemy),
    detected: new Color(COLORS.detected),
    rect: new Color(COLORS.rect),
  };
  /** Rendered frames. */
  frame = 0;
  private readonly ring = new DetectRing();
  private readonly rectOutline = new RectOutline();
  private readonly playerMesh;
  private readonly input = new KeyboardInput();
  private readonly timer = new Timer();
  private readonly hud: Hud;
  private readonly gui: SceneGui;
  private readonly messages: MessageBox;
  private followX: number;
  private followZ: number;
  private visitedDirty = true;
  private lastShowVisited = false;
  private stopped = false;
  private sinceTiming = Number.POSITIVE_INFINITY;
  private pixelRatioQuery: MediaQueryList | null = null;

  // Mouse actions are queued and applied at the start of the next frame, so state() is always consistent.
  private pendingRegenerate = false;
  private readonly pendingBatches: { x: number; z: number }[] = [];
  private pendingRect: GroundRect | null | undefined;
  private drag: {
    id: number;
    x: number;
    y: number;
    rect: boolean;
    ax: number;
    az: number;
    moved: boolean;
  } | null = null;
  private readonly dragRect: GroundRect = { minX: 0, minZ: 0, maxX: 0, maxZ: 0 };
  private readonly hudFrame = {
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
    rectFound: 0,
    rectActive: false,
  };

  constructor(options: AppOptions) {
    this.level = options.level;
    this.messages = options.messages;
    this.params = { ...options.settings };
    this.stage = createStage(options.container, options.level);
    const { scene, camera, renderer } = this.stage;

    this.sim = new Simulation(options.level, this.params, MAX_ENEMIES);
    this.enemies = new EnemyMesh(MAX_ENEMIES, this.colors.enemy);
    scene.add(this.enemies.mesh);

    this.player = { x: this.level.player.x, z: this.level.player.z, heading: Math.PI };
    this.playerMesh = createPlayerMesh(new Color(COLORS.player));
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

    // Third-person camera behind (+Z of) the player, looking towards -Z; the mouse orbits and zooms.
    const size = Math.max(this.level.width, this.level.depth);
    camera.position.set(this.player.x, 52, this.player.z + 40);
    this.followX = this.player.x;
    this.followZ = this.player.z;
    this.controls = new OrbitControls(camera, renderer.domElement);
    this.controls.target.set(this.player.x, CAMERA_TARGET_HEIGHT, this.player.z);
    this.controls.enablePan = false; // the camera orbits the player; right / Shift drag is the rectangle query
    this.controls.enableDamping = true;
    this.controls.dampingFactor = 0.12;
    this.controls.minDistance = 6;
    this.controls.maxDistance = size * 1.2;
    this.controls.maxPolarAngle = Math.PI * 0.47;
    this.controls.update();

    this.hud = new Hud(options.hudElement);
    this.gui = createGui(
      this.params,
      {
        regenerate: () => {
          this.pendingRegenerate = true;
        },
        clearRectangle: () => {
          this.pendingRect = null;
        },
        loadLevel: (name) => options.onLoadLevel(name),
      },
      options.levels,
      this.level.name,
    );

    this.input.attach(window);
    window.addEventListener('resize', this.onResize);
    window.addEventListener('keydown', this.onKeyDown, true);
    renderer.domElement.addEventListener('pointerdown', this.onPointerDown);
    renderer.domElement.addEventListener('pointermove', this.onPointerMove);
    renderer.domElement.addEventListener('pointerup', this.onPointerUp);
    renderer.domElement.addEventListener('pointercancel', this.onPointerCancel);
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

  private frameStep(time: number): void {
    this.timer.update(time);
    const dt = clamp(this.timer.getDelta(), 0, MAX_FRAME_DT);
    const sim = this.sim;
    sim.beginFrame();

    // 1. GUI edits and queued mouse actions.
    sim.applySettings(this.params);
    if (this.pendingRegenerate) {
      this.pendingRegenerate = false;
      sim.regenerate();
    }
    if (this.pendingBatches.length > 0) {
      for (const p of this.pendingBatches) sim.addBatch(p.x, p.z);
      this.pendingBatches.length = 0;
    }
    if (this.pendingRect !== undefined) {
      sim.setRect(this.pendingRect);
      this.pendingRect = undefined;
    }
    if (this.params.enemies !== sim.settings.enemies) {
      this.params.enemies = sim.settings.enemies;
      this.gui.refresh();
    }

    // 2. Player, relative to where the camera looks.
    const { camera } = this.stage;
    const target = this.controls.target;
    stepPlayer(
      this.player,
      this.input.forward,
      this.input.right,
      this.input.running,
      dt,
      target.x - camera.position.x,
      target.z - camera.position.z,
      sim.ground,
    );

    // 3. Simulation: wander, then detect if anything changed.
    const detected = sim.step(dt, this.player.x, this.player.z);

    // 4. Mirror into three.js: moved positions, and only the colours that changed.
    if (sim.dirtyTo > sim.dirtyFrom) {
      this.enemies.setPositions(sim.xs, sim.zs, sim.dirtyFrom, sim.dirtyTo);
      sim.dirtyFrom = 0;
      sim.dirtyTo = 0;
    }
    this.enemies.count = sim.count;
    const changes = sim.changes;
    if (changes.length > 0) {
      for (let i = 0; i < changes.length; i++) {
        const id = changes.ids[i];
        this.enemies.setColor(id, this.colorOf(id));
      }
      changes.clear();
      this.enemies.flushColors();
    }

    // 5. Player, ring, rectangle, gizmos.
    this.playerMesh.position.set(this.player.x, 0, this.player.z);
    this.playerMesh.rotation.y = this.player.heading;
    this.ring.position.set(this.player.x, 0, this.player.z);
    this.ring.setRadius(sim.settings.radius);
    if (sim.rect !== null) this.rectOutline.set(sim.rect);
    else if (this.drag === null || !this.drag.rect) this.rectOutline.visible = false;

    const s = sim.settings;
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

    // 6. Camera follows the player by the same offset; the mouse orbits around it.
    camera.position.x += this.player.x - this.followX;
    camera.position.z += this.player.z - this.followZ;
    this.followX = this.player.x;
    this.followZ = this.player.z;
    target.set(this.player.x, CAMERA_TARGET_HEIGHT, this.player.z);
    this.controls.update(dt);

    this.stage.renderer.render(this.stage.scene, camera);
    this.frame++;

    // 7. HUD.
    const shape = sim.treeShape();
    const h = this.hudFrame;
    h.dt = dt;
    h.enemies = sim.count;
    h.found = sim.found.size;
    h.bruteForce = s.bruteForce;
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
    h.rectFound = sim.inRect.size;
    h.rectActive = sim.rect !== null;
    this.hud.update(h);
  }

  /** The colour an enemy should have now: detected wins over the rectangle. */
  colorOf(id: number): Color {
    if (this.sim.found.has(id)) return this.colors.detected;
    if (this.sim.inRect.has(id)) return this.colors.rect;
    return this.colors.enemy;
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
    this.pixelRatioQuery?.removeEventListener('change', this.onPixelRatioChange);
    this.pixelRatioQuery = window.matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
    this.pixelRatioQuery.addEventListener('change', this.onPixelRatioChange);
  }

  private readonly onPixelRatioChange = (): void => {
    this.onResize();
    this.watchPixelRatio();
  };

  private readonly onKeyDown = (event: KeyboardEvent): void => {
    if (event.code === 'Escape' && !isTyping(event.target)) this.pendingRect = null;
  };

  /** Where the pointer's ray meets the ground plane, or null (sky). */
  private groundPoint(event: PointerEvent, out: Vector3): Vector3 | null {
    const rect = this.stage.renderer.domElement.getBoundingClientRect();
    _ndc.set(
      ((event.clientX - rect.left) / rect.width) * 2 - 1,
      -((event.clientY - rect.top) / rect.height) * 2 + 1,
    );
    _raycaster.setFromCamera(_ndc, this.stage.camera);
    return _raycaster.ray.intersectPlane(_groundPlane, out);
  }

  private readonly onPointerDown = (event: PointerEvent): void => {
    if (this.drag !== null) return;
    const rect = event.button === 2 || (event.button === 0 && event.shiftKey);
    if (event.button !== 0 && !rect) return;
    let ax = 0;
    let az = 0;
    if (rect) {
      const hit = this.groundPoint(event, _hit);
      if (hit === null) return;
      const g = this.sim.ground;
      ax = clamp(hit.x, g.minX, g.maxX);
      az = clamp(hit.z, g.minZ, g.maxZ);
    }
    this.drag = { id: event.pointerId, x: event.clientX, y: event.clientY, rect, ax, az, moved: false };
  };

  private readonly onPointerMove = (event: PointerEvent): void => {
    const drag = this.drag;
    if (drag === null || event.pointerId !== drag.id) return;
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) > CLICK_SLOP) drag.moved = true;
    if (drag.rect && drag.moved) {
      const hit = this.groundPoint(event, _hit);
      if (hit === null) return;
      const g = this.sim.ground;
      rectFromCorners(
        drag.ax,
        drag.az,
        clamp(hit.x, g.minX, g.maxX),
        clamp(hit.z, g.minZ, g.maxZ),
        this.dragRect,
      );
      this.rectOutline.set(this.dragRect);
    }
  };

  private readonly onPointerUp = (event: PointerEvent): void => {
    const drag = this.drag;
    if (drag === null || event.pointerId !== drag.id) return;
    this.onPointerMove(event);
    this.drag = null;
    if (drag.rect) {
      // A drag selects a rectangle; a right click without a drag clears it.
      this.pendingRect = drag.moved ? { ...this.dragRect } : null;
      return;
    }
    if (drag.moved) return; // that was an orbit
    const hit = this.groundPoint(event, _hit);
    if (hit === null) return;
    const g = this.sim.ground;
    if (hit.x < g.minX || hit.x > g.maxX || hit.z < g.minZ || hit.z > g.maxZ) return;
    this.pendingBatches.push({ x: hit.x, z: hit.z });
  };

  private readonly onPointerCancel = (): void => {
    this.drag = null;
  };

  /** Stop the loop and free everything (GPU buffers, listeners, GUI). */
  dispose(): void {
    this.stopped = true;
    const { renderer } = this.stage;
    renderer.setAnimationLoop(null);
    this.input.detach();
    this.pixelRatioQuery?.removeEventListener('change', this.onPixelRatioChange);
    window.removeEventListener('resize', this.onResize);
    window.removeEventListener('keydown', this.onKeyDown, true);
    renderer.domElement.removeEventListener('pointerdown', this.onPointerDown);
    renderer.domElement.removeEventListener('pointermove', this.onPointerMove);
    renderer.domElement.removeEventListener('pointerup', this.onPointerUp);
    renderer.domElement.removeEventListener('pointercancel', this.onPointerCancel);
    this.controls.dispose();
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
