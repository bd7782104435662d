import {
  BufferAttribute,
  BufferGeometry,
  Color,
  Group,
  LineBasicMaterial,
  LineLoop,
  Mesh,
  MeshBasicMaterial,
  PlaneGeometry,
} from 'three';
import type { GroundRect } from '../sim/world';
import { COLORS } from './colors';

function writeCorner(p: Float32Array, o: number, x: number, y: number, z: number): void {
  p[o] = x;
  p[o + 1] = y;
  p[o + 2] = z;
}

/** The rectangle query's outline and fill on the ground, updated in place. */
export class RectOutline extends Group {
  private readonly positions = new Float32Array(12);
  private readonly line: LineLoop<BufferGeometry, LineBasicMaterial>;
  private readonly fill: Mesh<PlaneGeometry, MeshBasicMaterial>;

  constructor() {
    super();
    this.name = 'rect-query';
    const color = new Color(COLORS.rect);
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(this.positions, 3));
    this.line = new LineLoop(geometry, new LineBasicMaterial({ color }));
    this.line.frustumCulled = false;
    this.fill = new Mesh(
      new PlaneGeometry(1, 1),
      new MeshBasicMaterial({ color, transparent: true, opacity: 0.12, depthWrite: false }),
    );
    this.fill.rotation.x = -Math.PI / 2;
    this.add(this.fill, this.line);
    this.visible = false;
  }

  /** Show `rect`; does nothing when it is already shown (called every frame while a rectangle is active). */
  set(rect: GroundRect): void {
    this.visible = true;
    const p = this.positions;
    if (p[0] === rect.minX && p[2] === rect.minZ && p[6] === rect.maxX && p[8] === rect.maxZ) return;
    const y = 0.08;
    writeCorner(p, 0, rect.minX, y, rect.minZ);
    writeCorner(p, 3, rect.maxX, y, rect.minZ);
    writeCorner(p, 6, rect.maxX, y, rect.maxZ);
    writeCorner(p, 9, rect.minX, y, rect.maxZ);
    this.line.geometry.getAttribute('position').needsUpdate = true;
    this.fill.position.set((rect.minX + rect.maxX) / 2, 0.05, (rect.minZ + rect.maxZ) / 2);
    this.fill.scale.set(Math.max(rect.maxX - rect.minX, 1e-3), Math.max(rect.maxZ - rect.minZ, 1e-3), 1);
  }

  override dispose(): void {
    this.line.geometry.dispose();
    this.line.material.dispose();
    this.fill.geometry.dispose();
    this.fill.material.dispose();
  }
}
