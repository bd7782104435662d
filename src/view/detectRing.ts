import { CircleGeometry, Color, Group, Mesh, MeshBasicMaterial, RingGeometry } from 'three';
import { COLORS } from './colors';

/** The red detect-radius circle on the ground: a ring band and a faint disc. */
export class DetectRing extends Group {
  private band: Mesh<RingGeometry, MeshBasicMaterial>;
  private readonly disc: Mesh<CircleGeometry, MeshBasicMaterial>;
  private radius = -1;

  constructor() {
    super();
    this.name = 'detect-ring';
    const color = new Color(COLORS.ring);
    this.band = new Mesh(
      new RingGeometry(0.9, 1, 8),
      new MeshBasicMaterial({ color, polygonOffset: true, polygonOffsetFactor: -2, polygonOffsetUnits: -2 }),
    );
    this.disc = new Mesh(
      new CircleGeometry(1, 96),
      new MeshBasicMaterial({ color, transparent: true, opacity: 0.1, depthWrite: false }),
    );
    this.band.rotation.x = -Math.PI / 2;
    this.disc.rotation.x = -Math.PI / 2;
    this.band.position.y = 0.06;
    this.disc.position.y = 0.04;
    this.add(this.disc, this.band);
  }

  /** Show radius `r`; rebuilds the band only when r changed (the old geometry is disposed). */
  setRadius(r: number): void {
    if (r === this.radius) return;
    this.radius = r;
    const width = Math.min(0.35, r * 0.2);
    const old = this.band.geometry;
    this.band.geometry = new RingGeometry(r - width, r, 128);
    old.dispose();
    this.disc.scale.setScalar(r);
  }

  override dispose(): void {
    this.band.geometry.dispose();
    this.band.material.dispose();
    this.disc.geometry.dispose();
    this.disc.material.dispose();
  }
}
