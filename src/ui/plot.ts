/**
 * The cost plot under the map: the last ~10 seconds of what the index costs against what a scan would, on
 * a log scale so microseconds and hundreds of milliseconds fit on one axis. Up to four series, sampled a few
 * times per second (when the HUD measures the query): the tree's circle query and one scan of every enemy
 * (measured with brute force on, else estimated), and in crowd mode the pair finding against the O(n²)
 * all-pairs scan. Ring buffers of typed arrays: nothing is allocated per sample. The axes (a line per
 * decade of milliseconds, a tick every 2 seconds) are drawn once on a background canvas.
 */

/** Seconds shown. */
export const PLOT_SECONDS = 10;
/** Seconds between two time ticks. */
export const TICK_SECONDS = 2;
const CAPACITY = 256;
/** Log axis, ms: 0.1 µs to 1 s. */
const LOG_MIN = -4;
const LOG_MAX = 3;
/** Labelled decades of the log axis, ms. */
const VALUE_LABELS: readonly [number, string][] = [
  [1e-3, '1 µs'],
  [1, '1 ms'],
  [100, '100 ms'],
];
/** Height of the time labels' strip under the plot, px. */
export const TIME_AXIS = 11;

export const SERIES = ['query', 'scan', 'pairs', 'allPairs'] as const;
export type Series = (typeof SERIES)[number];

export class CostPlot {
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  /** The axes and labels, drawn once. */
  private readonly axes: HTMLCanvasElement;
  private readonly times = new Float64Array(CAPACITY);
  /** Sample k of series s at s * CAPACITY + k, ms (NaN: none). */
  private readonly values = new Float64Array(CAPACITY * SERIES.length);
  private head = 0;
  private size = 0;
  /** Height of the plotting area (above the time labels), px. */
  private readonly plotHeight: number;

  constructor(
    private readonly colors: Record<Series, string>,
    width = 240,
    height = 108,
  ) {
    this.canvas = document.createElement('canvas');
    this.canvas.width = width;
    this.canvas.height = height;
    this.canvas.className = 'plot-canvas';
    this.ctx = this.canvas.getContext('2d')!;
    this.plotHeight = height - TIME_AXIS;
    this.axes = document.createElement('canvas');
    this.axes.width = width;
    this.axes.height = height;
    this.drawAxes();
    this.draw(0);
  }

  /** Add a sample at `seconds` (ms values; NaN for a series that has none now), then redraw. */
  push(seconds: number, query: number, scan: number, pairs: number, allPairs: number): void {
    const k = this.head;
    this.times[k] = seconds;
    this.values[k] = query;
    this.values[CAPACITY + k] = scan;
    this.values[2 * CAPACITY + k] = pairs;
    this.values[3 * CAPACITY + k] = allPairs;
    this.head = (k + 1) % CAPACITY;
    if (this.size < CAPACITY) this.size++;
    this.draw(seconds);
  }

  /** Canvas y of a value in ms, on the log axis. */
  y(ms: number): number {
    const h = this.plotHeight;
    const l = Math.log10(Math.max(ms, 10 ** LOG_MIN));
    return h - ((Math.min(l, LOG_MAX) - LOG_MIN) / (LOG_MAX - LOG_MIN)) * h;
  }

  /** Canvas x of a sample `age` seconds old (0: now, at the right edge). */
  x(age: number): number {
    return this.canvas.width - (age / PLOT_SECONDS) * this.canvas.width;
  }

  /** The background: a line per decade of ms (three labelled), a tick per 2 s labelled in seconds ago. */
  private drawAxes(): void {
    const ctx = this.axes.getContext('2d')!;
    const w = this.axes.width;
    const h = this.plotHeight;
    ctx.fillStyle = 'rgba(18, 22, 30, 0.85)';
    ctx.fillRect(0, 0, w, this.axes.height);
    ctx.strokeStyle = 'rgba(255, 255, 255, 0.12)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let d = LOG_MIN + 1; d < LOG_MAX; d++) {
      const y = Math.round(this.y(10 ** d)) + 0.5;
      ctx.moveTo(0, y);
      ctx.lineTo(w, y);
    }
    for (let t = TICK_SECONDS; t < PLOT_SECONDS; t += TICK_SECONDS) {
      const x = Math.round(this.x(t)) + 0.5;
      ctx.moveTo(x, 0);
      ctx.lineTo(x, h + 3);
    }
    ctx.moveTo(0, h + 0.5);
    ctx.lineTo(w, h + 0.5);
    ctx.stroke();
    ctx.fillStyle = 'rgba(233, 238, 245, 0.6)';
    ctx.font = '9px ui-monospace, monospace';
    ctx.textBaseline = 'alphabetic';
    ctx.textAlign = 'left';
    for (const [ms, label] of VALUE_LABELS) ctx.fillText(label, 2, this.y(ms) - 2);
    ctx.textAlign = 'right';
    ctx.fillText('log scale', w - 2, 9);
    // Time labels under the ticks: seconds before now.
    const below = this.axes.height - 2;
    ctx.fillText('now', w - 1, below);
    ctx.textAlign = 'center';
    for (let t = TICK_SECONDS; t < PLOT_SECONDS; t += TICK_SECONDS) ctx.fillText(`-${t} s`, this.x(t), below);
    ctx.textAlign = 'left';
    ctx.fillText(`-${PLOT_SECONDS} s`, 1, below);
  }

  private draw(now: number): void {
    const ctx = this.ctx;
    const w = this.canvas.width;
    ctx.clearRect(0, 0, w, this.canvas.height);
    ctx.drawImage(this.axes, 0, 0);
    ctx.lineWidth = 1.5;
    for (let s = 0; s < SERIES.length; s++) {
      ctx.strokeStyle = this.colors[SERIES[s]];
      ctx.beginPath();
      let pen = false;
      for (let i = this.size; i > 0; i--) {
        const k = (this.head - i + CAPACITY) % CAPACITY;
        const age = now - this.times[k];
        const v = this.values[s * CAPACITY + k];
        if (age > PLOT_SECONDS || Number.isNaN(v)) {
          pen = false;
          continue;
        }
        const x = this.x(age);
        const y = this.y(v);
        if (pen) ctx.lineTo(x, y);
        else ctx.moveTo(x, y);
        pen = true;
      }
      ctx.stroke();
    }
  }
}
