/**
 * The top-down map: the whole level seen from above on a 2D canvas, with the tree's leaves, the nodes of the
 * player's last circle query by kind (visited, pruned, covered: see src/sim/insight.ts), the enemies in their
 * colours, the player, the detect circle and the rectangle query.
 *
 * Layers, each redrawn only when it changed, so that a frame at 100,000 enemies costs under 1 ms (see
 * docs/scene.md, "Cost"):
 * - the leaves (white outlines): when the tree's version changed; for a large tree at most every
 *   {@link LEAVES_FRAMES} frames and {@link LEAVES_PERIOD_MS} ms (both, so neither a slow nor a fast frame
 *   rate redraws it every frame). The walk never enters nodes whose children would be under 2 pixels.
 * - the node kinds: when the analysis' marked nodes changed (only those are drawn).
 * - the enemies: a density image (src/ui/densityImage.ts), one pixel per enemy (2 x 2 up to 5,000). A pass
 *   adds {@link DOTS_PER_FRAME} enemies per frame, shades the pixels (in the frame of a short last slice,
 *   else the next) and puts the image once, then starts again if the enemies moved or changed colour: at
 *   100,000 enemies a pass takes 13 frames.
 * - the overlay (rectangle, circle, player): when the player, the radius or the rectangle changed.
 * The layers are stacked canvases over the ground colour, blended by the browser's compositor: nothing
 * copies one canvas into another per frame.
 * Nothing is allocated per frame.
 */

import type { NodeInfo, PointQuadtree } from 'point-quadtree';
import { visitNodes } from 'point-quadtree/debug';
import { COVERED, PRUNED, type QueryInsight, VISITED } from '../sim/insight';
import type { GroundRect } from '../sim/world';
import { DensityImage, type DensityInput, pixel } from './densityImage';

/** The map's longer side, canvas pixels (the shorter follows the level's shape). */
export const MAP_SIZE = 240;
/** Enemies added to the density image per frame. */
export const DOTS_PER_FRAME = 8192;
/** Trees of more items than this redraw their leaves at most every so many frames and milliseconds. */
const LEAVES_EVERY_FRAME = 5000;
const LEAVES_FRAMES = 6;
const LEAVES_PERIOD_MS = 100;
/** Leaves narrower than this (canvas pixels) are not outlined: at large counts they would be a grey mush. */
const MIN_OUTLINE_PX = 2;

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
export interface MapFrame extends DensityInput {
  tree: PointQuadtree;
  insight: QueryInsight;
  /** The level's ground, world units: the map's extent. */
  ground: GroundRect;
  /** Whether positions or the sets changed since the last frame. */
  enemiesChanged: boolean;
  playerX: number;
  playerZ: number;
  radius: number;
  rect: GroundRect | null;
  /** Time, ms (performance.now()). */
  now: number;
}

/** A canvas and its context. */
function layer(width: number, height: number): [HTMLCanvasElement, CanvasRenderingContext2D] {
  const c = document.createElement('canvas');
  c.width = width;
  c.height = height;
  return [c, c.getContext('2d')!];
}

export class InsightMap {
  /** The stacked layers (leaves, node kinds, enemies, overlay), each a canvas of {@link width} x {@link height}. */
  readonly element: HTMLElement;
  /** Canvas pixels per world unit, and the canvas size. */
  readonly scale: number;
  readonly width: number;
  readonly height: number;
  /** Nodes of each kind the kinds layer drew last (for tests: they add up with the analysis' counts). */
  readonly drawn = { visited: 0, pruned: 0, covered: 0 };
  /** The enemy image, built over frames. */
  readonly dots: DensityImage;
  private readonly leafCtx: CanvasRenderingContext2D;
  private readonly kindCtx: CanvasRenderingContext2D;
  private readonly dotCtx: CanvasRenderingContext2D;
  private readonly overlayCtx: CanvasRenderingContext2D;
  private readonly image: ImageData;
  private readonly colors: MapColors;
  private frames = 0;
  // The leaves layer: the tree and version drawn, when, and the walk's inputs (the callback is bound once).
  private leafTree: PointQuadtree | null = null;
  private leafVersion = -1;
  private leafFrame = Number.NEGATIVE_INFINITY;
  private leafTime = Number.NEGATIVE_INFINITY;
  private walkScale = 1;
  private walkMinX = 0;
  private walkMinZ = 0;
  private kindRevision = -1;
  private kindInsight: QueryInsight | null = null;
  /** The enemies moved or changed colour since the last pass began. */
  private dotsStale = true;
  /** The overlay's inputs last drawn. */
  private readonly overlay = {
    playerX: Number.NaN,
    playerZ: Number.NaN,
    radius: Number.NaN,
    noRect: true,
    minX: 0,
    minZ: 0,
    maxX: 0,
    maxZ: 0,
  };

  /** A map of `ground` (world units; the level's, fixed for the map's life). */
  constructor(colors: MapColors, ground: GroundRect) {
    this.colors = colors;
    const w = ground.maxX - ground.minX;
    const d = ground.maxZ - ground.minZ;
    this.scale = MAP_SIZE / Math.max(w, d);
    this.width = Math.max(1, Math.round(w * this.scale));
    this.height = Math.max(1, Math.round(d * this.scale));
    this.element = document.createElement('div');
    this.element.className = 'map-view';
    this.element.style.width = `${this.width}px`;
    this.element.style.height = `${this.height}px`;
    this.element.style.background = colors.ground;
    const canvases: HTMLCanvasElement[] = [];
    [canvases[0], this.leafCtx] = layer(this.width, this.height);
    [canvases[1], this.kindCtx] = layer(this.width, this.height);
    [canvases[2], this.dotCtx] = layer(this.width, this.height);
    [canvases[3], this.overlayCtx] = layer(this.width, this.height);
    this.element.append(...canvases);
    this.dots = new DensityImage(this.width, this.height, DOTS_PER_FRAME, {
      // One enemy in a pixel is drawn half-transparent, four or more fully.
      shades: [0, 110, 160, 210, 255].map((a) => pixel(colors.enemy, a)),
      crowd: pixel(colors.crowd, 255),
      rect: pixel(colors.rect, 255),
      detected: pixel(colors.detected, 255),
    });
    this.image = new ImageData(this.dots.data, this.width, this.height);
  }

  /** Redraw what changed. */
  update(f: MapFrame): void {
    const frame = ++this.frames;
    const g = f.ground;
    const scale = this.scale;
    const tree = f.tree;
    if (
      tree !== this.leafTree ||
      (tree.version !== this.leafVersion &&
        (tree.size <= LEAVES_EVERY_FRAME ||
          (frame - this.leafFrame >= LEAVES_FRAMES && f.now - this.leafTime >= LEAVES_PERIOD_MS)))
    ) {
      this.leafTree = tree;
      this.leafVersion = tree.version;
      this.leafFrame = frame;
      this.leafTime = f.now;
      this.drawLeaves(tree, g, scale);
    }
    if (f.insight.revision !== this.kindRevision || f.insight !== this.kindInsight) {
      this.kindRevision = f.insight.revision;
      this.kindInsight = f.insight;
      this.drawKinds(f.insight, g, scale);
    }
    if (f.enemiesChanged) this.dotsStale = true;
    if (this.dots.busy || this.dotsStale) {
      if (!this.dots.busy) this.dotsStale = false;
      if (this.dots.step(f, scale)) this.dotCtx.putImageData(this.image, 0, 0);
    }
    const r = f.rect;
    const o = this.overlay;
    if (
      f.playerX !== o.playerX ||
      f.playerZ !== o.playerZ ||
      f.radius !== o.radius ||
      (r === null) !== o.noRect ||
      (r !== null && (r.minX !== o.minX || r.minZ !== o.minZ || r.maxX !== o.maxX || r.maxZ !== o.maxZ))
    ) {
      o.playerX = f.playerX;
      o.playerZ = f.playerZ;
      o.radius = f.radius;
      o.noRect = r === null;
      if (r !== null) {
        o.minX = r.minX;
        o.minZ = r.minZ;
        o.maxX = r.maxX;
        o.maxZ = r.maxZ;
      }
      this.drawOverlay(f, scale);
    }
  }

  /** The leaves layer: every leaf at least {@link MIN_OUTLINE_PX} wide, outlined, in one path. */
  private drawLeaves(tree: PointQuadtree, g: GroundRect, scale: number): void {
    const ctx = this.leafCtx;
    ctx.clearRect(0, 0, this.width, this.height);
    this.walkScale = scale;
    this.walkMinX = g.minX;
    this.walkMinZ = g.minZ;
    ctx.beginPath();
    visitNodes(tree, this.onLeafWalk);
    ctx.globalAlpha = 0.55;
    ctx.strokeStyle = this.colors.nodes;
    ctx.lineWidth = 1;
    ctx.stroke();
    ctx.globalAlpha = 1;
  }

  /** Outlines a leaf; returns true (skip the children) where they would be too small to outline. */
  private readonly onLeafWalk = (n: NodeInfo): boolean => {
    const s = this.walkScale;
    const w = (n.maxX - n.minX) * s;
    if (n.isLeaf) {
      if (w >= MIN_OUTLINE_PX)
        this.leafCtx.rect(
          (n.minX - this.walkMinX) * s,
          (n.minY - this.walkMinZ) * s,
          w,
          (n.maxY - n.minY) * s,
        );
      return true;
    }
    return w * 0.5 < MIN_OUTLINE_PX;
  };

  /** The kinds layer: pruned, covered and visited nodes, each kind in one path, filled then outlined. */
  private drawKinds(insight: QueryInsight, g: GroundRect, scale: number): void {
    const ctx = this.kindCtx;
    ctx.clearRect(0, 0, this.width, this.height);
    const c = this.colors;
    this.drawn.pruned = this.drawKind(insight, PRUNED, g, scale, c.pruned, 0.35, 0.9);
    this.drawn.covered = this.drawKind(insight, COVERED, g, scale, c.covered, 0.45, 0.9);
    this.drawn.visited = this.drawKind(insight, VISITED, g, scale, c.visited, 0.18, 1);
    ctx.globalAlpha = 1;
  }

  private drawKind(
    insight: QueryInsight,
    kind: number,
    g: GroundRect,
    scale: number,
    colour: string,
    fillAlpha: number,
    lineAlpha: number,
  ): number {
    const ctx = this.kindCtx;
    const m = insight.marked;
    const b = m.bounds;
    let drew = 0;
    ctx.beginPath();
    for (let i = 0; i < m.count; i++) {
      if (m.kind[i] !== kind) continue;
      const j = i << 2;
      ctx.rect(
        (b[j] - g.minX) * scale,
        (b[j + 1] - g.minZ) * scale,
        (b[j + 2] - b[j]) * scale,
        (b[j + 3] - b[j + 1]) * scale,
      );
      drew++;
    }
    ctx.fillStyle = colour;
    ctx.globalAlpha = fillAlpha;
    ctx.fill();
    ctx.globalAlpha = lineAlpha;
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1;
    ctx.stroke();
    return drew;
  }

  /** The overlay: the rectangle, the detect circle and the player. */
  private drawOverlay(f: MapFrame, scale: number): void {
    const ctx = this.overlayCtx;
    const g = f.ground;
    const c = this.colors;
    ctx.clearRect(0, 0, this.width, this.height);
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
  }
}
