/**
 * The top-down map: the whole level seen from above on a 2D canvas, with the tree's leaves, the nodes of the
 * player's last circle query by kind (visited, pruned, covered: see src/sim/insight.ts), the enemies in their
 * colours, the player, the detect circle and the rectangle query.
 *
 * Three layers, each redrawn only when it changed: the nodes (when the analysis' revision changes), the
 * enemies (an image with one pixel per enemy, a density image at large counts, refreshed at a capped rate),
 * and the composite with the player, circle and rectangle on top. Nothing is allocated per frame.
 */
import { COVERED, PRUNED, type QueryInsight, UNTOUCHED, VISITED } from '../sim/insight';
import type { GroundRect } from '../sim/world';

/** Map side, canvas pixels. */
export const MAP_SIZE = 240;
/** Enemies drawn every frame up to this count; above it the enemy image refreshes at most every {@link DOTS_PERIOD_MS}. */
const DOTS_EVERY_FRAME = 5000;
const DOTS_PERIOD_MS = 100;
/** Node layers of trees up to this many nodes redraw every frame they change; larger ones at most every {@link NODES_PERIOD_MS}. */
const NODES_EVERY_FRAME = 4000;
const NODES_PERIOD_MS = 50;
/** Leaves narrower than this (canvas pixels) are not outlined: at large counts they would be a grey mush. */
const MIN_OUTLINE_PX = 2;

/** The node kinds in drawing order: fills under outlines, the plain leaves last. */
const LAYER_ORDER = [PRUNED, COVERED, VISITED, UNTOUCHED] as const;

/** The palette, as '#rrggbb'. */
export interface MapColors {
  ground: string;
  nodes: string;
  enemy: string;
  detected: string;
  rect: string;
  crowd: string;
  player: string;
  ring: string;
  visited: string;
  pruned: string;
  covered: string;
}

/** What the map draws in a frame; the app fills one object and reuses it. */
export interface MapFrame {
  insight: QueryInsight;
  /** The level's ground, world units: the map's extent. */
  ground: GroundRect;
  xs: Float32Array;
  zs: Float32Array;
  count: number;
  /** Ids in the detect circle and in the rectangle, each in its first n entries. */
  foundIds: Int32Array;
  foundCount: number;
  rectIds: Int32Array;
  rectCount: number;
  /** Crowd mode's "has a neighbour" test, or null when crowd mode is off. */
  crowd: { has(id: number): boolean } | null;
  /** Whether positions or the sets changed since the last frame. */
  enemiesChanged: boolean;
  playerX: number;
  playerZ: number;
  radius: number;
  rect: GroundRect | null;
  /** Time, ms (performance.now()). */
  now: number;
}

/** `#rrggbb` as a little-endian RGBA pixel (ImageData's byte order) with alpha `a`. */
function pixel(hex: string, a: number): number {
  const v = Number.parseInt(hex.slice(1), 16);
  return ((a << 24) | ((v & 0xff) << 16) | (v & 0xff00) | ((v >> 16) & 0xff)) >>> 0;
}

export class InsightMap {
  readonly canvas: HTMLCanvasElement;
  /** Nodes of each kind the node layer drew last (for tests: they add up with the analysis' counts). */
  readonly drawn = { visited: 0, pruned: 0, covered: 0 };
  private readonly ctx: CanvasRenderingContext2D;
  private readonly nodeLayer: HTMLCanvasElement;
  private readonly nodeCtx: CanvasRenderingContext2D;
  private readonly dotLayer: HTMLCanvasElement;
  private readonly dotCtx: CanvasRenderingContext2D;
  private readonly image: ImageData;
  private readonly pixels: Uint32Array;
  private readonly density: Uint16Array;
  private readonly colors: MapColors;
  private readonly enemyPixel: number[];
  private readonly detectedPixel: number;
  private readonly rectPixel: number;
  private readonly crowdPixel: number;
  private nodeRevision = -1;
  private dotsTime = Number.NEGATIVE_INFINITY;
  private nodesTime = Number.NEGATIVE_INFINITY;
  private dotsStale = true;
  private composed = false;
  // The composite's inputs last drawn.
  private lastPlayerX = Number.NaN;
  private lastPlayerZ = Number.NaN;
  private lastRadius = Number.NaN;
  private lastRectKey = Number.NaN;

  constructor(colors: MapColors) {
    this.colors = colors;
    this.canvas = this.makeCanvas();
    this.canvas.className = 'map-canvas';
    this.ctx = this.canvas.getContext('2d')!;
    this.nodeLayer = this.makeCanvas();
    this.nodeCtx = this.nodeLayer.getContext('2d')!;
    this.dotLayer = this.makeCanvas();
    this.dotCtx = this.dotLayer.getContext('2d')!;
    this.image = this.dotCtx.createImageData(MAP_SIZE, MAP_SIZE);
    this.pixels = new Uint32Array(this.image.data.buffer);
    this.density = new Uint16Array(MAP_SIZE * MAP_SIZE);
    // Density: one enemy in a pixel is drawn half-transparent, four or more fully.
    this.enemyPixel = [0, 110, 160, 210, 255].map((a) => pixel(colors.enemy, a));
    this.detectedPixel = pixel(colors.detected, 255);
    this.rectPixel = pixel(colors.rect, 255);
    this.crowdPixel = pixel(colors.crowd, 255);
  }

  private makeCanvas(): HTMLCanvasElement {
    const c = document.createElement('canvas');
    c.width = MAP_SIZE;
    c.height = MAP_SIZE;
    return c;
  }

  /** Redraw what changed. */
  update(f: MapFrame): void {
    const scale = MAP_SIZE / Math.max(f.ground.maxX - f.ground.minX, f.ground.maxZ - f.ground.minZ);
    let dirty = !this.composed;
    // A large tree's node layer redraws at a capped rate (the analysis may change every frame when enemies move).
    if (
      f.insight.revision !== this.nodeRevision &&
      (f.insight.nodeCount <= NODES_EVERY_FRAME || f.now - this.nodesTime >= NODES_PERIOD_MS)
    ) {
      this.nodesTime = f.now;
      this.nodeRevision = f.insight.revision;
      this.drawNodes(f.insight, f.ground, scale);
      dirty = true;
    }
    if (f.enemiesChanged) this.dotsStale = true;
    if (this.dotsStale && (f.count <= DOTS_EVERY_FRAME || f.now - this.dotsTime >= DOTS_PERIOD_MS)) {
      this.dotsStale = false;
      this.dotsTime = f.now;
      this.drawDots(f, scale);
      dirty = true;
    }
    const r = f.rect;
    const rectKey = r === null ? 0 : r.minX + 3 * r.minZ + 7 * r.maxX + 11 * r.maxZ + 1;
    if (
      dirty ||
      f.playerX !== this.lastPlayerX ||
      f.playerZ !== this.lastPlayerZ ||
      f.radius !== this.lastRadius ||
      rectKey !== this.lastRectKey
    ) {
      this.lastPlayerX = f.playerX;
      this.lastPlayerZ = f.playerZ;
      this.lastRadius = f.radius;
      this.lastRectKey = rectKey;
      this.compose(f, scale);
    }
  }

  /** The node layer: leaves, then pruned, covered and visited nodes, each kind in one path. */
  private drawNodes(insight: QueryInsight, g: GroundRect, scale: number): void {
    const ctx = this.nodeCtx;
    const c = this.colors;
    const n = insight.nodeCount;
    const b = insight.bounds;
    const kind = insight.kind;
    ctx.clearRect(0, 0, MAP_SIZE, MAP_SIZE);
    const drawn = this.drawn;
    drawn.visited = 0;
    drawn.pruned = 0;
    drawn.covered = 0;
    // Fills first (pruned, covered, visited leaves), then outlines on top.
    for (const k of LAYER_ORDER) {
      ctx.beginPath();
      let drew = 0;
      for (let i = 0; i < n; i++) {
        if (kind[i] !== k) continue;
        const j = i << 2;
        const x = (b[j] - g.minX) * scale;
        const y = (b[j + 1] - g.minZ) * scale;
        const w = (b[j + 2] - b[j]) * scale;
        const h = (b[j + 3] - b[j + 1]) * scale;
        if (k === UNTOUCHED && (insight.leaf[i] === 0 || w < MIN_OUTLINE_PX)) continue;
        ctx.rect(x, y, w, h);
        drew++;
      }
      if (k === PRUNED) {
        drawn.pruned = drew;
        ctx.fillStyle = c.pruned;
        ctx.globalAlpha = 0.35;
        ctx.fill();
        ctx.globalAlpha = 0.9;
        ctx.strokeStyle = c.pruned;
      } else if (k === COVERED) {
        drawn.covered = drew;
        ctx.fillStyle = c.covered;
        ctx.globalAlpha = 0.45;
        ctx.fill();
        ctx.globalAlpha = 0.9;
        ctx.strokeStyle = c.covered;
      } else if (k === VISITED) {
        drawn.visited = drew;
        ctx.fillStyle = c.visited;
        ctx.globalAlpha = 0.18;
        ctx.fill();
        ctx.globalAlpha = 1;
        ctx.strokeStyle = c.visited;
      } else {
        ctx.globalAlpha = 0.55;
        ctx.strokeStyle = c.nodes;
      }
      ctx.lineWidth = 1;
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
  }

  /** The enemy layer: a density of every enemy, then the crowd, rectangle and detected ones on top. */
  private drawDots(f: MapFrame, scale: number): void {
    const px = this.pixels;
    const density = this.density;
    const g = f.ground;
    const last = MAP_SIZE - 1;
    density.fill(0);
    const big = f.count > DOTS_EVERY_FRAME ? 0 : 1; // few enemies: 2 x 2 dots
    const { xs, zs, count } = f;
    const minX = g.minX;
    const minZ = g.minZ;
    const top = last - big;
    for (let i = 0; i < count; i++) {
      let x = ((xs[i] - minX) * scale) | 0;
      let y = ((zs[i] - minZ) * scale) | 0;
      x = x < 0 ? 0 : x > top ? top : x;
      y = y < 0 ? 0 : y > top ? top : y;
      const p = y * MAP_SIZE + x;
      density[p]++;
      if (big) {
        density[p + 1]++;
        density[p + MAP_SIZE]++;
        density[p + MAP_SIZE + 1]++;
      }
    }
    const shades = this.enemyPixel;
    for (let p = 0; p < px.length; p++) {
      const d = density[p];
      px[p] = shades[d > 4 ? 4 : d];
    }
    // One test per enemy, not per pair: at 100,000 crowded enemies there are close to a million pairs.
    const crowd = f.crowd;
    if (crowd !== null)
      for (let i = 0; i < count; i++) if (crowd.has(i)) this.dot(i, this.crowdPixel, f, scale, big);
    for (let k = 0; k < f.rectCount; k++) this.dot(f.rectIds[k], this.rectPixel, f, scale, big);
    for (let k = 0; k < f.foundCount; k++) this.dot(f.foundIds[k], this.detectedPixel, f, scale, big);
    this.dotCtx.putImageData(this.image, 0, 0);
  }

  private dot(id: number, colour: number, f: MapFrame, scale: number, big: number): void {
    const last = MAP_SIZE - 1;
    const x = Math.min(last - big, Math.max(0, ((f.xs[id] - f.ground.minX) * scale) | 0));
    const y = Math.min(last - big, Math.max(0, ((f.zs[id] - f.ground.minZ) * scale) | 0));
    const p = y * MAP_SIZE + x;
    this.pixels[p] = colour;
    if (big) {
      this.pixels[p + 1] = colour;
      this.pixels[p + MAP_SIZE] = colour;
      this.pixels[p + MAP_SIZE + 1] = colour;
    }
  }

  /** The visible canvas: ground, nodes, enemies, then the rectangle, the circle and the player. */
  private compose(f: MapFrame, scale: number): void {
    const ctx = this.ctx;
    const g = f.ground;
    const c = this.colors;
    ctx.fillStyle = c.ground;
    ctx.fillRect(0, 0, MAP_SIZE, MAP_SIZE);
    ctx.drawImage(this.nodeLayer, 0, 0);
    ctx.drawImage(this.dotLayer, 0, 0);
    const r = f.rect;
    if (r !== null) {
      ctx.strokeStyle = c.rect;
      ctx.lineWidth = 2;
      ctx.strokeRect(
        (r.minX - g.minX) * scale,
        (r.minZ - g.minZ) * scale,
        (r.maxX - r.minX) * scale,
        (r.maxZ - r.minZ) * scale,
      );
    }
    const x = (f.playerX - g.minX) * scale;
    const y = (f.playerZ - g.minZ) * scale;
    ctx.strokeStyle = c.ring;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.arc(x, y, f.radius * scale, 0, Math.PI * 2);
    ctx.stroke();
    ctx.fillStyle = c.player;
    ctx.beginPath();
    ctx.arc(x, y, 3, 0, Math.PI * 2);
    ctx.fill();
    this.composed = true;
  }
}
