/**
 * The enemies: one InstancedMesh allocated once at the maximum, drawn `mesh.count` at a time. Positions
 * are written straight into the instance matrices (translation only: the enemy shape is round), colours
 * with `setColorAt`; only the changed range is uploaded.
 */
import {
  Color,
  CylinderGeometry,
  DynamicDrawUsage,
  InstancedBufferAttribute,
  InstancedMesh,
  MeshLambertMaterial,
  StaticDrawUsage,
} from 'three';
import { COLORS } from './colors';

export const ENEMY_HEIGHT = 1.3;

/**
 * The colour policy: an enemy inside the detect radius is yellow, else inside the rectangle cyan, else one
 * with a crowd neighbour (crowd mode) purple, else dark.
 */
export class EnemyPalette {
  readonly enemy = new Color(COLORS.enemy);
  readonly detected = new Color(COLORS.detected);
  readonly rect = new Color(COLORS.rect);
  readonly crowd = new Color(COLORS.crowd);
  readonly player = new Color(COLORS.player);

  /** The colour of an enemy now: detected wins over the rectangle, the rectangle over the crowd. */
  colorOf(found: boolean, inRect: boolean, crowded = false): Color {
    if (found) return this.detected;
    if (inRect) return this.rect;
    if (crowded) return this.crowd;
    return this.enemy;
  }
}

export class EnemyMesh {
  readonly mesh: InstancedMesh;
  readonly capacity: number;
  private readonly matrixRange = { start: 0, count: 0 };
  private readonly colorRange = { start: 0, count: 0 };
  private colorFrom = Number.POSITIVE_INFINITY;
  private colorTo = -1;

  constructor(capacity: number, baseColor: Color) {
    this.capacity = capacity;
    const geometry = new CylinderGeometry(0.32, 0.45, ENEMY_HEIGHT, 7, 1);
    geometry.translate(0, ENEMY_HEIGHT / 2, 0);
    const material = new MeshLambertMaterial({ color: 0xffffff });
    this.mesh = new InstancedMesh(geometry, material, capacity);
    this.mesh.name = 'enemies';
    this.mesh.instanceMatrix.setUsage(DynamicDrawUsage);
    const colors = new Float32Array(capacity * 3);
    for (let i = 0; i < capacity; i++) baseColor.toArray(colors, i * 3);
    this.mesh.instanceColor = new InstancedBufferAttribute(colors, 3);
    this.mesh.instanceColor.setUsage(StaticDrawUsage);
    this.mesh.count = 0;
    // Enemies move and appear anywhere: a bounding sphere computed once would cull them wrongly.
    this.mesh.frustumCulled = false;
  }

  /** Copy positions of ids in [from, to) into the instance matrices. */
  setPositions(xs: Float32Array, zs: Float32Array, from: number, to: number): void {
    if (to <= from) return;
    const m = this.mesh.instanceMatrix;
    const a = m.array as Float32Array;
    for (let i = from; i < to; i++) {
      a[i * 16 + 12] = xs[i];
      a[i * 16 + 14] = zs[i];
    }
    this.matrixRange.start = from * 16;
    this.matrixRange.count = (to - from) * 16;
    m.clearUpdateRanges();
    m.updateRanges.push(this.matrixRange); // one reused range object: no allocation per frame
    m.needsUpdate = true;
  }

  /** Set instance `id`'s colour (call {@link flushColors} once after a batch). */
  setColor(id: number, color: Color): void {
    this.mesh.setColorAt(id, color);
    if (id < this.colorFrom) this.colorFrom = id;
    if (id > this.colorTo) this.colorTo = id;
  }

  /** Upload the colours changed since the last flush. */
  flushColors(): void {
    if (this.colorTo < this.colorFrom) return;
    const c = this.mesh.instanceColor!;
    this.colorRange.start = this.colorFrom * 3;
    this.colorRange.count = (this.colorTo - this.colorFrom + 1) * 3;
    c.clearUpdateRanges();
    c.updateRanges.push(this.colorRange);
    c.needsUpdate = true;
    this.colorFrom = Number.POSITIVE_INFINITY;
    this.colorTo = -1;
  }

  /** Instance `id`'s colour as '#rrggbb'. */
  colorHex(id: number, scratch: Color): string {
    this.mesh.getColorAt(id, scratch);
    return `#${scratch.getHexString()}`;
  }

  set count(n: number) {
    this.mesh.count = n;
  }

  get count(): number {
    return this.mesh.count;
  }

  dispose(): void {
    this.mesh.geometry.dispose();
    (this.mesh.material as MeshLambertMaterial).dispose();
    this.mesh.dispose();
  }
}
