/**
 * The static parts of the scene: renderer, camera, lights and the ground with its grid.
 */
import {
  BufferAttribute,
  BufferGeometry,
  Color,
  DirectionalLight,
  Fog,
  Group,
  HemisphereLight,
  LineBasicMaterial,
  LineSegments,
  Mesh,
  MeshLambertMaterial,
  PerspectiveCamera,
  PlaneGeometry,
  Scene,
  WebGLRenderer,
} from 'three';
import type { Level } from '../sim/level';
import { COLORS } from './colors';

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
