/**
 * The cost plot under the map: the last ~10 seconds of what the index costs against what a scan would, on
 * a log scale so microseconds and hundreds of milliseconds fit on one axis. Up to four series, sampled a few
 * times per second (when the HUD measures the query): the tree's circle query and one scan of every enemy
 * (measured with brute force on, else estimated), and in crowd mode the pair finding against the O(n²)
 * all-pairs scan. Ring buffers of typed arrays: nothing is allocated per sample.
 */

/** Seconds shown. */
export const PLOT_SECONDS = 10;
const CAPACITY = 256;
/** Log axis, ms: 0.1 µs to 1 s. */
const LOG_MIN = -4;
const LOG_MAX = 3;

export const SERIES = ['query', 'scan', 'pairs', 'allPairs'] as const;
export type Series = (typeof SERIES)[number];

export class CostPlot {
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly times = new Float64Array(CAPACITY);
  /** Sample k of series s at s * CAPACITY + k, ms (NaN: none). */
  private readonly values = new Float64Array(CAPACITY * SERIES.length);
  private head = 0;
  private size = 0;

  constructor(
    private readonly colors: Record<Series, string>,
    width = 240,
    height = 96,
  ) {
    this.canvas = document.createElement('canvas');
    this.canvas.width = width;
    this.canvas.height = height;
    this.canvas.className = 'plot-canvas';
    this.ctx = this.canvas.getContext('2d')!;
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

  private y(ms: number): number {
    const h = this.canvas.height;
    const l = Math.log10(Math.max(ms, 10 ** LOG_MIN));
    return h - ((Math.min(l, LOG_MAX) - LOG_MIN) / (LOG_MAX - LOG_MIN)) * h;
  }

  private draw(now: number): void {
    const ctx = this.ctx;
    const w = this.canvas.width;
    const h = this.canvas.height;
    ctx.clearRect(0, 0, w, h);
    ctx.fillStyle = 'rgba(18, 22, 30, 0.85)';
    ctx.fillRect(0, 0, w, h);
    // A line per decade; labels at 1 µs, 1 ms and 1 s.
    ctx.strokeStyle = 'rgba(255, 255, 255, 0.12)';
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (let d = LOG_MIN + 1; d < LOG_MAX; d++) {
      const y = Math.round(this.y(10 ** d)) + 0.5;
      ctx.moveTo(0, y);
      ctx.lineTo(w, y);
    }
    ctx.stroke();
    ctx.fillStyle = 'rgba(233, 238, 245, 0.6)';
    ctx.font = '9px ui-monospace, monospace';
    ctx.fillText('1 µs', 2, this.y(1e-3) - 2);
    ctx.fillText('1 ms', 2, this.y(1) - 2);
    ctx.fillText('100 ms', 2, this.y(100) - 2);
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
        const x = w - (age / PLOT_SECONDS) * w;
        const y = this.y(v);
        if (pen) ctx.lineTo(x, y);
        else ctx.moveTo(x, y);
        pen = true;
      }
      ctx.stroke();
    }
  }
}
