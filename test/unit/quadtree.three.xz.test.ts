import type { PointQuadtree } from 'point-quadtree';
import { checkInvariants } from 'point-quadtree/debug';
import { indexInstances, indexObjects, syncInstances, syncObjects } from 'point-quadtree/three';
import {
  BoxGeometry,
  Euler,
  Group,
  InstancedMesh,
  Matrix4,
  MeshBasicMaterial,
  Object3D,
  Quaternion,
  Vector3,
} from 'three';
import { describe, expect, it } from 'vitest';
import { allocatedDuring } from '../../bench/memory';
import { mulberry32 } from '../../src/sim/random';
import { instrumented, leastBytesPerCall } from '../helpers/allocation';
import { BruteForce, sorted } from '../helpers/oracle';

const geometry = new BoxGeometry();
const material = new MeshBasicMaterial();
const scratch = new Matrix4();
const position = new Vector3();
const rotation = new Quaternion();
const scale = new Vector3();
const euler = new Euler();

/**
 * Every instance of `mesh` gets a seeded matrix: a translation in -50..50 (y too), a rotation and a scale,
 * which must not change where its origin is.
 */
function scatterInstances(mesh: InstancedMesh, seed: number, from = 0): void {
  const r = mulberry32(seed);
  for (let i = from; i < mesh.instanceMatrix.count; i++) {
    position.set(r() * 100 - 50, r() * 10 - 5, r() * 100 - 50);
    rotation.setFromEuler(euler.set(r() * 6, r() * 6, r() * 6));
    scale.setScalar(0.5 + r());
    mesh.setMatrixAt(i, scratch.compose(position, rotation, scale));
  }
  mesh.instanceMatrix.needsUpdate = true;
}

/** The instances' world positions as three computes them (matrixWorld x instance matrix x origin). */
function worldOfInstances(mesh: InstancedMesh): BruteForce {
  mesh.updateWorldMatrix(true, false);
  const b = new BruteForce();
  for (let i = 0; i < mesh.count; i++) {
    mesh.getMatrixAt(i, scratch);
    position.setFromMatrixPosition(scratch).applyMatrix4(mesh.matrixWorld);
    b.insert(i, position.x, position.z);
  }
  return b;
}

function worldOfObjects(objects: Object3D[]): BruteForce {
  const b = new BruteForce();
  objects.forEach((o, i) => {
    o.getWorldPosition(position);
    b.insert(i, position.x, position.z);
  });
  return b;
}

/**
 * The tree holds exactly the oracle's ids, each at exactly its (x, z): a point query at each id's place
 * finds it, the sizes agree, and seeded circles (some around points, radius 0 among them) find what brute
 * force finds. Then the structure's own invariants.
 */
function expectSameAs(tree: PointQuadtree, oracle: BruteForce, seed: number): void {
  expect(tree.size).toBe(oracle.points.size);
  for (const [id, p] of oracle.points) {
    expect(tree.has(id), `id ${id}`).toBe(true);
    expect(tree.queryRect(p.x, p.y, p.x, p.y), `id ${id} at (${p.x}, ${p.y})`).toContain(id);
  }
  const r = mulberry32(seed);
  const ids = [...oracle.points.keys()];
  for (let q = 0; q < 40; q++) {
    const at = ids.length > 0 && q % 2 === 0 ? oracle.points.get(ids[Math.floor(r() * ids.length)])! : null;
    const x = at ? at.x : r() * 140 - 70;
    const y = at ? at.y : r() * 140 - 70;
    const radius = q % 8 === 0 ? 0 : r() * 30;
    expect(sorted(tree.queryCircle(x, y, radius)), `circle ${q}`).toEqual(oracle.circle(x, y, radius));
  }
  checkInvariants(tree);
}

function instanced(capacity: number, seed: number): InstancedMesh {
  const mesh = new InstancedMesh(geometry, material, capacity);
  scatterInstances(mesh, seed);
  return mesh;
}

describe('indexInstances and syncInstances: an InstancedMesh by world X and Z', () => {
  it('indexes instances 0..count-1 at their world X/Z, through the mesh and its parents (seed 101)', () => {
    const mesh = instanced(2000, 101);
    mesh.count = 1500;
    const parent = new Group();
    parent.position.set(20, 3, -7);
    parent.rotation.y = 0.7;
    parent.scale.set(2, 1, 0.5);
    parent.add(mesh);
    mesh.position.set(-4, 0, 9);
    mesh.rotation.set(0.2, -1.1, 0.1);
    const tree = indexInstances(mesh, { maxItems: 8 });
    expect(tree.maxItems).toBe(8);
    expectSameAs(tree, worldOfInstances(mesh), 101);
    expect(tree.has(1500)).toBe(false);
  });

  it('syncInstances follows the instances, the mesh and its parent, frame after frame (seed 102)', () => {
    const mesh = instanced(3000, 102);
    const parent = new Group();
    parent.add(mesh);
    const tree = indexInstances(mesh);
    for (let frame = 1; frame <= 6; frame++) {
      scatterInstances(mesh, 102 + frame, frame * 400); // a part of the crowd jumps
      parent.position.x += 3; // and everything slides: the world matrix is brought up to date by sync
      mesh.rotation.y += 0.2;
      syncInstances(tree, mesh);
      expectSameAs(tree, worldOfInstances(mesh), 102 + frame);
    }
  });

  it('syncInstances follows mesh.count: ids past it are removed, new ones inserted (seed 103)', () => {
    const mesh = instanced(1000, 103);
    mesh.count = 600;
    const tree = indexInstances(mesh);
    for (const count of [200, 200, 950, 0, 1000, 1]) {
      mesh.count = count;
      scatterInstances(mesh, 103 + count);
      syncInstances(tree, mesh);
      expectSameAs(tree, worldOfInstances(mesh), 103 + count);
    }
  });

  it('the default root is the square around the instances; given bounds are used as they are', () => {
    const mesh = new InstancedMesh(geometry, material, 3);
    for (const [i, x, z] of [
      [0, 10, 20],
      [1, 30, 25],
      [2, 14, 22],
    ])
      mesh.setMatrixAt(i, scratch.makeTranslation(x, 0, z));
    expect(indexInstances(mesh).bounds).toEqual({ minX: 10, minY: 12.5, maxX: 30, maxY: 32.5 });
    const bounds = { minX: 0, minY: 0, maxX: 64, maxY: 64 };
    expect(indexInstances(mesh, { bounds }).bounds).toEqual(bounds);
    mesh.count = 0;
    const empty = indexInstances(mesh);
    expect(empty.size).toBe(0);
    mesh.count = 1;
    syncInstances(empty, mesh);
    expectSameAs(empty, worldOfInstances(mesh), 1);
  });

  it.skipIf(instrumented)(
    'allocates nothing per sync once warm (every instance moving, leaves re-filed)',
    () => {
      const n = 500;
      const mesh = instanced(n, 104);
      // bounds that cover everywhere the crowd goes: a root that grows and shrinks is rebuilt (and allocates)
      const bounds = { minX: -64, minY: -64, maxX: 64, maxY: 64 };
      const tree = indexInstances(mesh, { maxItems: 8, bounds });
      const a = mesh.instanceMatrix.array;
      const r = mulberry32(104);
      const steps = Float32Array.from({ length: 2 * n }, () => r() - 0.5);
      let version = tree.version;
      let restructured = 0;
      let frame = 0;
      const frames = (count: number) => {
        for (let f = 0; f < count; f++, frame++) {
          // back and forth, 10 frames each way: the crowd keeps its extent
          const sign = frame % 20 < 10 ? 1 : -1;
          for (let i = 0; i < n; i++) {
            a[i * 16 + 12] += sign * steps[2 * i];
            a[i * 16 + 14] += sign * steps[2 * i + 1];
          }
          syncInstances(tree, mesh);
          if (tree.version !== version) restructured++;
          version = tree.version;
        }
        return tree.size;
      };
      // Warm: what runs once per sync (the world matrix, the calls around the loops, parts of moveAll) is
      // fully compiled only after some thousands of calls, and until then the engine boxes its numbers.
      frames(10_000);
      expect(tree.bounds).toEqual(bounds);
      // A typed-array view or a copy of the positions per sync is 100 bytes or far more.
      const least = leastBytesPerCall(frames);
      expect(least, `${least} bytes per sync`).toBeLessThan(48);
      expect(restructured).toBeGreaterThan(5000); // the syncs really moved items between leaves
      expectSameAs(tree, worldOfInstances(mesh), 104);
    },
  );

  it('the allocation check sees an allocation of one small view per call', () => {
    const buffer = new Float64Array(64);
    let sink = 0;
    const bytes = allocatedDuring(() => {
      for (let k = 0; k < 100; k++) sink += buffer.subarray(k % 8).length;
      return sink;
    }).bytes;
    expect(bytes / 100).toBeGreaterThan(48);
    // And so does the figure the checks above use, which counts only where code's own objects go.
    const least = leastBytesPerCall((count) => {
      for (let k = 0; k < count; k++) sink += buffer.subarray(k % 8).length;
      return sink;
    });
    expect(least).toBeGreaterThan(48);
  });
});

describe('indexObjects and syncObjects: an Object3D[] by world X and Z', () => {
  function crowd(n: number, seed: number): { objects: Object3D[]; groups: Group[] } {
    const r = mulberry32(seed);
    const groups = [new Group(), new Group()];
    groups[0].position.set(5, 0, -5);
    groups[1].rotation.y = 1.3;
    groups[0].add(groups[1]);
    const objects: Object3D[] = [];
    for (let i = 0; i < n; i++) {
      const o = new Object3D();
      o.position.set(r() * 100 - 50, r(), r() * 100 - 50);
      // some at the top level, some nested
      if (i % 3 === 1) groups[0].add(o);
      else if (i % 3 === 2) groups[1].add(o);
      objects.push(o);
    }
    return { objects, groups };
  }

  it('indexes objects by array index at their world X/Z and follows them, without updateMatrixWorld (seed 201)', () => {
    const { objects, groups } = crowd(900, 201);
    const tree = indexObjects(objects);
    expectSameAs(tree, worldOfObjects(objects), 201);
    const r = mulberry32(202);
    for (let frame = 0; frame < 4; frame++) {
      for (const o of objects) o.position.x += r() * 4 - 2;
      groups[1].rotation.y += 0.3;
      syncObjects(tree, objects);
      expectSameAs(tree, worldOfObjects(objects), 202 + frame);
    }
    // the array shrinks and grows
    const fewer = objects.slice(0, 300);
    syncObjects(tree, fewer);
    expectSameAs(tree, worldOfObjects(fewer), 210);
    syncObjects(tree, objects);
    expectSameAs(tree, worldOfObjects(objects), 211);
  });

  it.skipIf(instrumented)('allocates nothing per sync once warm', () => {
    const { objects } = crowd(300, 203);
    const tree = indexObjects(objects, { bounds: { minX: -64, minY: -64, maxX: 64, maxY: 64 } });
    let frame = 0;
    const frames = (count: number) => {
      for (let f = 0; f < count; f++, frame++) {
        const step = frame % 20 < 10 ? 0.3 : -0.3; // back and forth: the crowd keeps its extent
        for (let i = 0; i < objects.length; i++) objects[i].position.z += i % 2 === 0 ? step : -step;
        syncObjects(tree, objects);
      }
      return tree.size;
    };
    frames(10_000);
    const least = leastBytesPerCall(frames);
    expect(least, `${least} bytes per sync`).toBeLessThan(48);
    expectSameAs(tree, worldOfObjects(objects), 204);
  });
});

describe('XZ adapter errors: clear, and nothing changed', () => {
  /** Everything a test can see of a tree: its size, version, root and the ids around each instance. */
  function snapshot(tree: PointQuadtree, at: BruteForce): string {
    const near = [...at.points.values()].slice(0, 50).map((p) => sorted(tree.queryCircle(p.x, p.y, 5)));
    return JSON.stringify([tree.size, tree.version, tree.bounds, near]);
  }

  it('a non-finite instance position names the instance; the tree stays as it was', () => {
    const mesh = instanced(100, 301);
    const tree = indexInstances(mesh);
    const before = snapshot(tree, worldOfInstances(mesh));
    const good = worldOfInstances(mesh);
    mesh.instanceMatrix.array[37 * 16 + 14] = Number.NaN;
    expect(() => syncInstances(tree, mesh)).toThrow(
      /^syncInstances: instance 37 is not at a finite world position, got x NaN, z NaN$/,
    );
    mesh.count = 50; // a count change too: the check comes before any removal
    expect(() => syncInstances(tree, mesh)).toThrow(RangeError);
    expect(() => indexInstances(mesh)).toThrow(/^indexInstances: instance 37 /);
    expect(snapshot(tree, good)).toBe(before);
    expect(tree.size).toBe(100);
  });

  it('positions whose extent is not finite are a RangeError; the tree stays as it was', () => {
    const mesh = instanced(10, 302);
    const tree = indexInstances(mesh);
    const good = worldOfInstances(mesh);
    const before = snapshot(tree, good);
    // each finite (the instance matrices are float32: the mesh's scale takes them near the doubles' end)
    mesh.scale.x = 1e298;
    mesh.setMatrixAt(2, scratch.makeTranslation(-1.5e10, 0, 0));
    mesh.setMatrixAt(3, scratch.makeTranslation(1.5e10, 0, 0));
    mesh.count = 5;
    expect(() => syncInstances(tree, mesh)).toThrow(/^syncInstances: the instances' extent is not a finite/);
    expect(snapshot(tree, good)).toBe(before);
  });

  it('a tree that does not hold ids 0..size-1 is an Error when the count changes, a RangeError when not; unchanged', () => {
    const mesh = instanced(100, 303);
    const tree = indexInstances(mesh);
    tree.remove(40);
    tree.insert(5000, 1, 1);
    const good = worldOfInstances(mesh);
    const before = snapshot(tree, good);
    expect(() => syncInstances(tree, mesh)).toThrow(RangeError); // same size: moveAll finds no place for id 5000
    expect(snapshot(tree, good)).toBe(before);
    mesh.count = 90;
    expect(() => syncInstances(tree, mesh)).toThrow(
      /^syncInstances: the tree must hold ids 0\.\.99, as index\* built it; id 40 is missing$/,
    );
    expect(snapshot(tree, good)).toBe(before);
    // a foreign id below the scratch's end: NaN there, so moveAll refuses it too
    const small = indexInstances(instanced(10, 304));
    small.remove(9);
    small.insert(20, 0, 0);
    const mesh10 = instanced(10, 304);
    expect(() => syncInstances(small, mesh10)).toThrow(/PointQuadtree: .*20/);
  });

  it('wrong kinds of argument are TypeErrors naming the function', () => {
    const mesh = instanced(5, 305);
    const tree = indexInstances(mesh);
    expect(() => indexInstances({} as InstancedMesh)).toThrow(
      /^indexInstances: mesh must be an InstancedMesh, got \[object Object\]$/,
    );
    expect(() => syncInstances(tree, new Object3D() as InstancedMesh)).toThrow(TypeError);
    expect(() => syncInstances({} as PointQuadtree, mesh)).toThrow(
      /^syncInstances: tree must be a PointQuadtree/,
    );
    expect(() => indexInstances(mesh, 3 as unknown as object)).toThrow(
      /^indexInstances: options must be an object/,
    );
    expect(() => indexObjects('abc' as unknown as Object3D[])).toThrow(
      /^indexObjects: objects must be an array, got abc$/,
    );
    const objects = [new Object3D(), new Object3D()];
    const ot = indexObjects(objects);
    expect(() => syncObjects(ot, [objects[0], null as unknown as Object3D])).toThrow(
      /^syncObjects: objects\[1\] must be an Object3D, got null$/,
    );
    expect(ot.size).toBe(2);
    // the tree's own option checks stay the tree's
    expect(() => indexInstances(mesh, { maxItems: 0 })).toThrow(/^PointQuadtree: maxItems/);
  });
});
