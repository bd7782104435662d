/** The player's mesh: a red capsule with a dark visor showing where it faces. */
import {
  BoxGeometry,
  CapsuleGeometry,
  type Color,
  Group,
  type Material,
  Mesh,
  MeshLambertMaterial,
} from 'three';

export function createPlayerMesh(color: Color): Group {
  const group = new Group();
  group.name = 'player';
  const body = new Mesh(new CapsuleGeometry(0.6, 1.0, 4, 12), new MeshLambertMaterial({ color }));
  body.position.y = 1.1;
  const visor = new Mesh(new BoxGeometry(0.8, 0.25, 0.3), new MeshLambertMaterial({ color: 0x1b1f27 }));
  visor.position.set(0, 1.55, 0.5);
  group.add(body, visor);
  group.scale.setScalar(1.4); // a head taller than the enemies, easy to spot from the follow camera
  return group;
}

/** Dispose the meshes made by {@link createPlayerMesh}. */
export function disposePlayerMesh(group: Group): void {
  group.traverse((object) => {
    if (object instanceof Mesh) {
      object.geometry.dispose();
      (object.material as Material).dispose();
    }
  });
}
