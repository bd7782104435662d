/**
 * The HUD overlay: live figures, smoothed so a person can read them. It reads the simulation every frame
 * ({@link Hud.update}), times the detect query itself a few times per second, and rewrites its text a few
 * times per second.
 */
import { ONE_THREAD } from '../sim/crowd';
import type { InsightCounts } from '../sim/insight';
import type { Simulation } from '../sim/simulation';
import { FrameRate } from './frameRate';

/** Seconds between two query-time measurements. */
const QUERY_TIMING_PERIOD = 0.25;

/** What the HUD reads from the simulation (the {@link Simulation} is one). */
export type HudSource = Pick<
  Simulation,
  | 'count'
  | 'found'
  | 'inRect'
  | 'rect'
  | 'settings'
  | 'lastQuery'
  | 'treeUpdateMs'
  | 'tree'
  | 'wanderMs'
  | 'crowd'
  | 'crowdMs'
  | 'treeShape'
  | 'measureQuery'
>;

/** Exponential moving average with a time constant, robust to uneven frame times. */
export class Smoothed {
  value = Number.NaN;
  constructor(private readonly seconds: number) {}

  add(sample: number, dt: number): number {
    if (Number.isNaN(this.value)) this.value = sample;
    else this.value += (sample - this.value) * Math.min(1, dt / this.seconds);
    return this.value;
  }
}

/** One frame's figures, as the HUD gathers them from its {@link HudSource}. */
interface HudFrame {
  /** Real time since the last frame, seconds (not the simulation's clamped step). */
  dt: number;
  enemies: number;
  found: number;
  bruteForce: boolean;
  /** Whether a detection ran this frame (visited / tested are only sampled then). */
  detected: boolean;
  /** A fresh query timing, ms per query, or NaN when none was measured this frame. */
  queryMs: number;
  nodesVisited: number;
  pointsTested: number;
  nodes: number;
  leaves: number;
  depth: number;
  /** Index work only: the tree's moves, inserts, removes and rebuilds this frame, ms. */
  treeUpdateMs: number;
  /** Which pass of moveAll updated the tree ('wasm' or 'js': the tree's lastMove), '' when nothing wanders. */
  treeUpdatePass: string;
  /** The enemies' random walk this frame (not the tree), ms. */
  wanderMs: number;
  rectFound: number;
  rectActive: boolean;
  /** Crowd mode on, its pairs and its time this frame (separation + finding the pairs), ms. */
  crowd: boolean;
  crowdPairs: number;
  crowdMs: number;
  /** The crowd's pairs came from an O(n²) scan; or brute force was asked for and refused (too slow). */
  crowdBrute: boolean;
  crowdBruteRefused: boolean;
  /** The tree's kernel that found them: 'wasm-simd' or 'js' (the JavaScript fallback). */
  crowdKernel: string;
  /** The precision their sums ran at: 'f32' (the fast sums, WebAssembly only) or 'f64'. */
  crowdPrecision: string;
  /** Threads that found them (1: the main thread alone, because of `crowdThreadNote`). */
  crowdThreads: number;
  crowdThreadNote: string;
  /** Workers given up on (dead, hung or failed). */
  crowdLost: number;
  /** One O(n²) all-pairs scan: measured when {@link bruteMeasured}, else an estimate, ms. */
  bruteMs: number;
  bruteMeasured: boolean;
}

const ROWS = [
  ['fps', 'FPS'],
  ['slowed', 'simulation'],
  ['enemies', 'enemies'],
  ['found', 'found'],
  ['query', 'query time'],
  ['visited', 'nodes visited / total'],
  ['tested', 'points tested'],
  ['shape', 'depth / leaves'],
  ['update', 'tree update'],
  ['wander', 'wander'],
  ['rect', 'rectangle'],
  ['crowd', 'crowd pairs'],
  ['crowdTime', 'crowd time'],
  ['threads', 'crowd threads'],
  ['crowdBrute', 'brute force pairs'],
  ['kinds', 'visited / pruned / covered'],
  ['mapTime', 'map + plot'],
] as const;

type RowKey = (typeof ROWS)[number][0];

/** The rows a narrow screen shows (the others have the class `detail`, which style.css hides there). */
const BRIEF_ROWS: ReadonlySet<RowKey> = new Set<RowKey>([
  'fps',
  'slowed',
  'enemies',
  'found',
  'query',
  'visited',
  'crowd',
  'kinds',
]);

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * "3 threads (main + 2 workers)", or "1 thread (page not cross-origin isolated)"; with workers given up on,
 * "2 threads (main + 1 worker, 1 worker lost)", "1 thread (2 workers lost)".
 */
export function threadsText(threads: number, note: string, lost = 0): string {
  const gone = lost > 0 ? `${lost} worker${lost > 1 ? 's' : ''} lost` : '';
  if (threads > 1) {
    const workers = `main + ${threads - 1} worker${threads > 2 ? 's' : ''}`;
    return `${threads} threads (${gone === '' ? workers : `${workers}, ${gone}`})`;
  }
  // All of them lost: the count says it.
  const why = note === '' ? 'main' : note;
  return `1 thread (${gone === '' ? why : note === ONE_THREAD['helpers lost'] ? gone : `${why}, ${gone}`})`;
}

export class Hud {
  readonly element: HTMLElement;
  private readonly cells = new Map<RowKey, HTMLElement>();
  private readonly rows = new Map<RowKey, HTMLElement>();
  private readonly frameRate: FrameRate;
  private readonly queryUs = new Smoothed(0.5);
  private readonly visited = new Smoothed(0.3);
  private readonly tested = new Smoothed(0.3);
  private readonly updateMs = new Smoothed(0.5);
  private readonly wanderMs = new Smoothed(0.5);
  private readonly crowdMs = new Smoothed(0.5);
  private readonly mapMs = new Smoothed(0.5);
  /** The map's node counts (null while it is hidden), from {@link setInsight}. */
  private insight: InsightCounts | null = null;
  /** The query timing measured this frame, ms, or NaN (the map's plot samples it). */
  measuredQueryMs = Number.NaN;
  private sinceRefresh = Number.POSITIVE_INFINITY;
  private sinceTiming = Number.POSITIVE_INFINITY;
  // Reused every frame (no allocation).
  private readonly frame: HudFrame = {
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
    treeUpdatePass: '',
    wanderMs: 0,
    rectFound: 0,
    rectActive: false,
    crowd: false,
    crowdPairs: 0,
    crowdMs: 0,
    crowdBrute: false,
    crowdBruteRefused: false,
    crowdKernel: 'js',
    crowdPrecision: 'f64',
    crowdThreads: 1,
    crowdThreadNote: '',
    crowdLost: 0,
    bruteMs: 0,
    bruteMeasured: false,
  };
  /** Text refreshes per second. */
  private readonly refreshSeconds = 0.25;

  /**
   * `maxStep`: the frame loop's longest simulation step, seconds; a longer frame slows the simulation, and
   * the HUD says so.
   */
  constructor(element: HTMLElement, maxStep: number) {
    this.element = element;
    this.frameRate = new FrameRate(maxStep);
    element.replaceChildren();
    const table = document.createElement('table');
    for (const [key, label] of ROWS) {
      const row = document.createElement('tr');
      row.dataset.key = key;
      if (!BRIEF_ROWS.has(key)) row.className = 'detail';
      const name = document.createElement('th');
      name.textContent = label;
      const value = document.createElement('td');
      value.textContent = '–';
      row.append(name, value);
      table.append(row);
      this.cells.set(key, value);
      this.rows.set(key, row);
    }
    element.append(table);
    this.rows.get('slowed')!.hidden = true;
    this.set('slowed', `slowed: frames capped at ${maxStep} s`);
  }

  /**
   * Read this frame's figures from `sim` (after its step). `dt`: real time since the last frame, seconds
   * (unclamped); `detected`: whether a detection ran this frame.
   */
  update(dt: number, detected: boolean, sim: HudSource): void {
    const shape = sim.treeShape();
    const h = this.frame;
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
    this.measuredQueryMs = h.queryMs;
    h.nodesVisited = sim.lastQuery.nodesVisited;
    h.pointsTested = sim.lastQuery.pointsTested;
    h.nodes = shape.nodes;
    h.leaves = shape.leaves;
    h.depth = shape.depth;
    h.treeUpdateMs = sim.treeUpdateMs;
    h.treeUpdatePass = sim.settings.moving ? sim.tree.lastMove.kernel : '';
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
    h.crowdPrecision = crowd.precisionRan;
    h.crowdThreads = crowd.threads;
    h.crowdThreadNote = crowd.threadNote;
    h.crowdLost = crowd.lostWorkers;
    h.bruteMs = crowd.bruteMs;
    h.bruteMeasured = crowd.bruteMeasured;
    this.show(h);
  }

  /** Smooth the figures and, a few times per second, rewrite the text. */
  private show(f: HudFrame): void {
    const dt = Math.max(f.dt, 1e-4);
    this.frameRate.add(f.dt);
    this.updateMs.add(f.treeUpdateMs, dt);
    this.wanderMs.add(f.wanderMs, dt);
    if (f.crowd) this.crowdMs.add(f.crowdMs, dt);
    if (!Number.isNaN(f.queryMs)) this.queryUs.add(f.queryMs * 1000, 0.25);
    if (f.detected) {
      this.visited.add(f.nodesVisited, dt);
      this.tested.add(f.pointsTested, dt);
    }
    this.sinceRefresh += dt;
    if (this.sinceRefresh < this.refreshSeconds) return;
    this.sinceRefresh = 0;

    const fps = this.frameRate.fps;
    this.set('fps', Number.isNaN(fps) ? '–' : (fps < 10 ? oneDecimal : integer).format(fps));
    this.rows.get('slowed')!.hidden = !this.frameRate.clamped;
    this.set('enemies', integer.format(f.enemies));
    this.set('found', integer.format(f.found));
    const mode = f.bruteForce ? 'brute force' : 'tree';
    this.set(
      'query',
      Number.isNaN(this.queryUs.value) ? '–' : `${oneDecimal.format(this.queryUs.value)} µs (${mode})`,
    );
    this.set(
      'visited',
      f.bruteForce
        ? `– / ${integer.format(f.nodes)}`
        : `${integer.format(this.visited.value || 0)} / ${integer.format(f.nodes)}`,
    );
    this.set('tested', integer.format(this.tested.value || 0));
    this.set('shape', `${f.depth} / ${integer.format(f.leaves)}`);
    const pass = f.treeUpdatePass === '' ? '' : ` (moveAll, ${f.treeUpdatePass})`;
    this.set('update', `${twoDecimals.format(this.updateMs.value)} ms/frame${pass}`);
    this.set('wander', `${twoDecimals.format(this.wanderMs.value)} ms/frame`);
    this.set('rect', f.rectActive ? `${integer.format(f.rectFound)} inside` : 'right-drag or Shift+drag');
    if (f.crowd) {
      const tree = `tree, ${f.crowdKernel} ${f.crowdPrecision}`;
      const how = f.crowdBrute ? 'brute force' : f.crowdBruteRefused ? `${tree}: brute force refused` : tree;
      this.set('crowd', `${integer.format(f.crowdPairs)} (${how})`);
      this.set('crowdTime', `${twoDecimals.format(this.crowdMs.value)} ms/frame`);
      this.set('threads', threadsText(f.crowdThreads, f.crowdThreadNote, f.crowdLost));
      this.set(
        'crowdBrute',
        `${f.bruteMeasured ? '' : 'est. '}${twoDecimals.format(f.bruteMs)} ms/pass` +
          (f.crowdBruteRefused ? ' (over 200 ms: refused)' : ''),
      );
    } else {
      this.set('crowd', 'off');
      this.set('crowdTime', '–');
      this.set('threads', '–');
      this.set('crowdBrute', '–');
    }
    const k = this.insight;
    this.set('kinds', k === null ? 'map off' : `${k.visited} / ${k.pruned} / ${k.covered}`);
    this.set('mapTime', k === null ? '–' : `${twoDecimals.format(this.mapMs.value)} ms/frame`);
  }

  /** The top-down map's node counts and its time this frame, ms (the counts are read, not kept); null: hidden. */
  setInsight(counts: InsightCounts | null, ms: number, dt: number): void {
    this.insight = counts;
    if (counts !== null) this.mapMs.add(ms, Math.max(dt, 1e-4));
  }

  private set(key: RowKey, text: string): void {
    const cell = this.cells.get(key)!;
    if (cell.textContent !== text) cell.textContent = text;
  }
}
