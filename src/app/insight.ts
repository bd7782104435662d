/**
 * Wiring of the insight view: analyses the player's circle query by node kind (src/sim/insight.ts) and
 * feeds the top-down map, its legend and the cost plot (src/ui/insightPanel.ts). Shown with the `map`
 * setting; while it is hidden nothing here runs. It times itself: {@link InsightView.frameMs} is what it
 * cost this frame (the HUD shows it).
 */
import { scanCircle } from '../sim/detection';
import { QueryInsight } from '../sim/insight';
import type { Simulation } from '../sim/simulation';
import { treeX, treeY } from '../sim/world';
import { InsightPanel, type PanelColors } from '../ui/insightPanel';
import type { MapFrame } from '../ui/map';

/** Points a scan calibration covers at most, and how long it repeats, ms. */
const CALIBRATION_POINTS = 4096;
const CALIBRATION_MS = 0.3;
/**
 * Seconds and plot samples between two calibrations of the scan's cost per point (when brute force does not
 * measure it): both, so that at a few frames per second (a sample every frame) it stays rare.
 */
const CALIBRATION_PERIOD = 5;
const CALIBRATION_SAMPLES = 20;
/** Seconds between two legend refreshes. */
const LEGEND_PERIOD = 0.25;

/** What {@link InsightView.snapshot} reports (the hook's `insight`). */
export interface InsightState {
  map: boolean;
  visited: number;
  pruned: number;
  covered: number;
  /** Nodes of each kind the map drew last (0 while the map has not been shown). */
  drawn: { visited: number; pruned: number; covered: number };
  /** Nodes in the analysed tree. */
  nodes: number;
  /** The analysed circle, tree units. */
  circle: { x: number; y: number; radius: number };
  /**
   * This view's own time per frame over the last {@link TIMED_FRAMES} frames it ran, ms: median, mean (the
   * work spread over frames, amortised) and max; `frames` counts every frame it ran.
   */
  timing: { frames: number; medianMs: number; meanMs: number; maxMs: number };
}

/** Frames {@link InsightState.timing} covers. */
const TIMED_FRAMES = 240;

export class InsightView {
  readonly analysis = new QueryInsight();
  /** Time this view took this frame (analysis, map and plot), ms. */
  frameMs = 0;
  private panel: InsightPanel | null = null;
  /** The last frames' {@link frameMs}, a ring. */
  private readonly times = new Float64Array(TIMED_FRAMES);
  private timed = 0;
  private shown = false;
  private readonly frame: MapFrame;
  private readonly scanOut = new Int32Array(CALIBRATION_POINTS);
  /** One scan's cost per enemy, ms. */
  private msPerPoint = Number.NaN;
  /** {@link seconds} at the last calibration, and plot samples since. */
  private calibratedAt = Number.NEGATIVE_INFINITY;
  private samplesSinceCalibration = 0;
  private sinceLegend = Number.POSITIVE_INFINITY;
  private seconds = 0;
  private scanMeasured = false;
  private cx = 0;
  private cy = 0;
  private radius = 0;

  constructor(
    private readonly parent: HTMLElement,
    private readonly colors: PanelColors,
    sim: Simulation,
  ) {
    this.frame = {
      tree: sim.tree,
      insight: this.analysis,
      ground: sim.ground,
      xs: sim.xs,
      zs: sim.zs,
      count: 0,
      foundIds: sim.found.ids,
      foundCount: 0,
      rectIds: sim.inRect.ids,
      rectCount: 0,
      crowd: null,
      enemiesChanged: true,
      playerX: 0,
      playerZ: 0,
      radius: 0,
      rect: null,
      now: 0,
    };
  }

  /**
   * One frame, after the simulation step. `detected`: a detection ran (the player or the enemies moved);
   * `queryMs`: the HUD's query timing when it measured one this frame, else NaN.
   */
  update(sim: Simulation, dt: number, detected: boolean, queryMs: number): void {
    const s = sim.settings;
    this.seconds += dt;
    if (s.map !== this.shown) {
      this.shown = s.map;
      if (this.shown && this.panel === null)
        this.panel = new InsightPanel(this.parent, this.colors, sim.ground);
      if (this.panel !== null) this.panel.visible = this.shown;
      this.frame.enemiesChanged = true;
    }
    if (!this.shown || this.panel === null) {
      this.frameMs = 0;
      return;
    }
    const t0 = performance.now();
    this.analyse(sim, detected);
    const f = this.frame;
    f.tree = sim.tree;
    f.ground = sim.ground;
    f.xs = sim.xs;
    f.zs = sim.zs;
    f.count = sim.count;
    f.foundIds = sim.found.ids;
    f.foundCount = sim.found.size;
    f.rectIds = sim.inRect.ids;
    f.rectCount = sim.inRect.size;
    f.crowd = s.crowdMode ? sim.crowd : null;
    f.enemiesChanged = f.enemiesChanged || detected;
    f.playerX = sim.playerX;
    f.playerZ = sim.playerZ;
    f.radius = s.radius;
    f.rect = sim.rect;
    f.now = t0;
    this.panel.map.update(f);
    f.enemiesChanged = false;
    if (!Number.isNaN(queryMs)) this.sample(sim, queryMs);
    this.sinceLegend += dt;
    if (this.sinceLegend >= LEGEND_PERIOD) {
      this.sinceLegend = 0;
      const a = this.analysis;
      this.panel.setCounts(a.visited, a.pruned, a.covered, this.scanMeasured);
    }
    this.frameMs = performance.now() - t0;
    this.times[this.timed++ % TIMED_FRAMES] = this.frameMs;
  }

  /** A plot sample: the HUD's query timing, the scan (measured or estimated) and the crowd's figures. */
  private sample(sim: Simulation, queryMs: number): void {
    const s = sim.settings;
    let tree = queryMs;
    let scan: number;
    this.scanMeasured = s.bruteForce;
    if (s.bruteForce) {
      // The HUD timed the scan itself; it also gives the cost per point for later estimates.
      scan = queryMs;
      tree = Number.NaN;
      if (sim.count > 0) this.msPerPoint = queryMs / sim.count;
    } else {
      this.samplesSinceCalibration++;
      if (
        Number.isNaN(this.msPerPoint) ||
        (this.seconds - this.calibratedAt >= CALIBRATION_PERIOD &&
          this.samplesSinceCalibration >= CALIBRATION_SAMPLES)
      )
        this.calibrate(sim);
      scan = this.msPerPoint * sim.count;
    }
    const crowd = s.crowdMode;
    this.panel!.plot.push(
      this.seconds,
      tree,
      scan,
      crowd ? sim.crowd.ms : Number.NaN,
      crowd ? sim.crowd.bruteMs : Number.NaN,
    );
  }

  /** Time a scan of up to {@link CALIBRATION_POINTS} enemies, repeated for {@link CALIBRATION_MS}. */
  private calibrate(sim: Simulation): void {
    this.calibratedAt = this.seconds;
    this.samplesSinceCalibration = 0;
    const n = Math.min(sim.count, CALIBRATION_POINTS);
    if (n === 0) return;
    let reps = 0;
    const t0 = performance.now();
    let elapsed = 0;
    do {
      scanCircle(sim.xs, sim.zs, n, sim.playerX, sim.playerZ, sim.settings.radius, this.scanOut);
      reps++;
      elapsed = performance.now() - t0;
    } while (elapsed < CALIBRATION_MS);
    this.msPerPoint = elapsed / reps / n;
  }

  /**
   * The player's circle over the tree (brute force runs no tree query: then it is what the tree would do
   * for the same circle).
   */
  private analyse(sim: Simulation, force: boolean): void {
    this.cx = treeX(sim.playerX);
    this.cy = treeY(sim.playerZ);
    this.radius = sim.settings.radius;
    this.analysis.analyse(sim.tree, this.cx, this.cy, this.radius, sim.settings.looseness, force);
  }

  /** The counts for the player's current circle (analysed now when the map is hidden: it costs nothing per frame then). */
  snapshot(sim: Simulation): InsightState {
    if (!this.shown) this.analyse(sim, true);
    const a = this.analysis;
    const d = this.panel?.map.drawn;
    return {
      map: this.shown,
      visited: a.visited,
      pruned: a.pruned,
      covered: a.covered,
      drawn: { visited: d?.visited ?? 0, pruned: d?.pruned ?? 0, covered: d?.covered ?? 0 },
      nodes: sim.treeShape().nodes,
      circle: { x: this.cx, y: this.cy, radius: this.radius },
      timing: this.timing(),
    };
  }

  private timing(): InsightState['timing'] {
    const n = Math.min(this.timed, TIMED_FRAMES);
    const sorted = Array.from(this.times.subarray(0, n)).sort((a, b) => a - b);
    const sum = sorted.reduce((t, v) => t + v, 0);
    return {
      frames: this.timed,
      medianMs: sorted[n >> 1] ?? 0,
      meanMs: n > 0 ? sum / n : 0,
      maxMs: sorted[n - 1] ?? 0,
    };
  }

  dispose(): void {
    this.panel?.dispose();
    this.panel = null;
  }
}
