/**
 * point-quadtree in a three.js scene, the smallest useful page: a few thousand instanced enemies wander the
 * ground, the tree follows them with one `syncInstances` per frame, and those within a radius of the mouse
 * are found by a circle query and turn yellow. Two `QuadtreeHelper`s draw the leaves and the leaves the
 * query visits. Served by `npm run dev` at /examples/instanced.html.
 */
import type { Bounds } from 'point-quadtree';
import { treeStats, visitCircle } from 'point-quadtree/debug';
import { indexInstances, QuadtreeHelper, syncInstances } from 'point-quadtree/three';
import * as THREE from 'three';

const COUNT = 4000;
const RADIUS = 12;
const WORLD: Bounds = { minX: -100, minY: -100, maxX: 100, maxY: 100 }; // world X (minX..maxX), Z (minY..maxY)
const BASE = new THREE.Color(0x5a7a8c);
const HIT = new THREE.Color(0xffcc33);

const renderer = new THREE.WebGLRenderer({ antialias: true });
renderer.setSize(innerWidth, innerHeight);
document.body.append(renderer.domElement);
const scene = new THREE.Scene();
scene.add(new THREE.HemisphereLight(0xffffff, 0x334455, 3));
const camera = new THREE.PerspectiveCamera(50, innerWidth / innerHeight, 1, 1000);
camera.position.set(0, 170, 150);
camera.lookAt(0, 0, 0);
const groundGeometry = new THREE.PlaneGeometry(200, 200).rotateX(-Math.PI / 2);
scene.add(new THREE.Mesh(groundGeometry, new THREE.MeshLambertMaterial({ color: 0x1e2a24 })));

// The enemies: one InstancedMesh; each instance's translation is its place, and it walks at a fixed velocity.
const cone = new THREE.ConeGeometry(0.7, 2.4, 6).translate(0, 1.2, 0);
const enemies = new THREE.InstancedMesh(cone, new THREE.MeshLambertMaterial(), COUNT);
enemies.frustumCulled = false; // they move: a bounding sphere computed once would cull them wrongly
const vx = new Float32Array(COUNT);
const vz = new Float32Array(COUNT);
const matrix = new THREE.Matrix4();
for (let i = 0; i < COUNT; i++) {
  enemies.setMatrixAt(i, matrix.makeTranslation(Math.random() * 200 - 100, 0, Math.random() * 200 - 100));
  enemies.setColorAt(i, BASE);
  const angle = Math.random() * 2 * Math.PI;
  vx[i] = Math.cos(angle) * 6; // world units per second
  vz[i] = Math.sin(angle) * 6;
}
scene.add(enemies);

// The index (id = instance index, at world X/Z) and its gizmos.
const tree = indexInstances(enemies, { bounds: WORLD, maxItems: 16 });
const leaves = new QuadtreeHelper(tree, { height: 0.05, color: 0x3f7f5f });
const visited = new QuadtreeHelper(tree, { mode: 'visited', height: 0.1, color: HIT });
scene.add(leaves, visited);
const ring = new THREE.Mesh(new THREE.RingGeometry(RADIUS - 0.3, RADIUS, 64).rotateX(-Math.PI / 2));
scene.add(ring);

// The mouse on the ground (y = 0).
const mouse = new THREE.Vector3();
let mouseOn = false;
const pointer = new THREE.Vector2();
const raycaster = new THREE.Raycaster();
const ground = new THREE.Plane(new THREE.Vector3(0, 1, 0), 0);
addEventListener('pointermove', (event) => {
  pointer.set((event.clientX / innerWidth) * 2 - 1, 1 - (event.clientY / innerHeight) * 2);
  raycaster.setFromCamera(pointer, camera);
  mouseOn = raycaster.ray.intersectPlane(ground, mouse) !== null;
});
addEventListener('resize', () => {
  camera.aspect = innerWidth / innerHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(innerWidth, innerHeight);
});

const found = new Int32Array(COUNT); // room for every id: the query allocates nothing
let count = 0;
// The browser test reads the page through this; point-quadtree/debug's walks come with it (the page has no imports).
const hook = {
  frames: 0,
  scene,
  mouse,
  radius: RADIUS,
  found: () => [...found.subarray(0, count)],
  visitCircle,
  treeStats,
};
Object.assign(window, { quadtreeExample: hook }); // read by the browser test
const timer = new THREE.Timer();

renderer.setAnimationLoop((time) => {
  timer.update(time);
  const dt = Math.min(timer.getDelta(), 0.1);
  const m = enemies.instanceMatrix.array;
  for (let i = 0; i < COUNT; i++) {
    // a step, or a bounce off the world's edge: nobody leaves WORLD, so the tree's root stays as built
    const x = m[16 * i + 12] + vx[i] * dt;
    const z = m[16 * i + 14] + vz[i] * dt;
    if (x < WORLD.minX || x > WORLD.maxX) vx[i] = -vx[i];
    else m[16 * i + 12] = x;
    if (z < WORLD.minY || z > WORLD.maxY) vz[i] = -vz[i];
    else m[16 * i + 14] = z;
  }
  enemies.instanceMatrix.needsUpdate = true;
  syncInstances(tree, enemies); // every id to its instance's world X/Z, in one moveAll

  for (let k = 0; k < count; k++) enemies.setColorAt(found[k], BASE);
  count = mouseOn ? tree.queryCircleInto(mouse.x, mouse.z, RADIUS, found) : 0;
  for (let k = 0; k < count; k++) enemies.setColorAt(found[k], HIT);
  enemies.instanceColor!.needsUpdate = true;

  ring.visible = visited.visible = mouseOn;
  ring.position.set(mouse.x, 0.15, mouse.z);
  if (mouseOn) visited.setCircle(mouse.x, mouse.z, RADIUS);
  leaves.update(); // redraws only when the tree's leaves changed
  visited.update();
  renderer.render(scene, camera);
  hook.frames++;
});
