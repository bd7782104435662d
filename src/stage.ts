/**
 * The static parts of the scene: renderer, camera, lights, the ground with its grid, the red detect-radius
 * ring and the rectangle-query outline.
 */
import {
  BufferAttribute,
  BufferGeometry,
  CircleGeometry,
  Color,
  DirectionalLight,
  Fog,
  Group,
  HemisphereLight,
  LineBasicMaterial,
  LineLoop,
  LineSegments,
  Mesh,
  MeshBasicMaterial,
  MeshLambertMaterial,
  PerspectiveCamera,
  PlaneGeometry,
  RingGeometry,
  Scene,
  WebGLRenderer,
} from 'three';
import { COLORS } from './colors';
import type { Level } from './sim/level';
import type { GroundRect } from './sim/world';

export interface Stage {
  renderer: WebGLRenderer;
  scene: Scene;
  camera: PerspectiveCamera;
}

/** Renderer, scene, camera, lights and ground for `level`. Throws if WebGL is unavailable. */
export function createStage(container: HTMLElement, level: Level): Stage {
  const renderer = new WebGLRenderer({ antialias: true, powerPreference: 'high-performance' });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  renderer.setSize(container.clientWidth || window.innerWidth, container.clientHeight || window.innerHeight);
  renderer.domElement.id = 'scene';
  container.appendChild(renderer.domElement);

  const size = Math.max(level.width, level.depth);
  const scene = new Scene();
  scene.background = new Color(COLORS.sky);
  scene.fog = new Fog(COLORS.sky, size * 0.9, size * 2.6);

  const camera = new PerspectiveCamera(55, 1, 0.1, size * 4);
  const hemi = new HemisphereLight(0xeef4ff, 0x4a4f57, 2.2);
  const sun = new DirectionalLight(0xffffff, 2.0);
  sun.position.set(-0.45, 1, 0.3);
  scene.add(hemi, sun);

  scene.add(createGround(level));
  return { renderer, scene, camera };
}

/** Spacing of the grid: a round number giving at most ~60 lines across the level. */
function gridSpacing(size: number): number {
  const raw = size / 60;
  const steps = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500];
  return steps.find((s) => s >= raw) ?? 1000;
}

function createGround(level: Level): Group {
  const group = new Group();
  group.name = 'ground';
  const plane = new Mesh(
    new PlaneGeometry(level.width, level.depth),
    new MeshLambertMaterial({ color: COLORS.ground }),
  );
  plane.rotation.x = -Math.PI / 2;
  plane.name = 'ground-plane';
  group.add(plane);

  const spacing = gridSpacing(Math.max(level.width, level.depth));
  const hw = level.width / 2;
  const hd = level.depth / 2;
  const major: number[] = [];
  const minor: number[] = [];
  const y = 0.005;
  for (let i = 0, x = -hw; x <= hw + 1e-6; i++, x = -hw + i * spacing) {
    (i % 5 === 0 ? major : minor).push(x, y, -hd, x, y, hd);
  }
  for (let i = 0, z = -hd; z <= hd + 1e-6; i++, z = -hd + i * spacing) {
    (i % 5 === 0 ? major : minor).push(-hw, y, z, hw, y, z);
  }
  for (const [lines, color] of [
    [minor, COLORS.gridMinor],
    [major, COLORS.gridMajor],
  ] as const) {
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(new Float32Array(lines), 3));
    const grid = new LineSegments(geometry, new LineBasicMaterial({ color }));
    grid.name = 'grid';
    group.add(grid);
  }
  return group;
}

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
