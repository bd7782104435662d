/**
 * The lil-gui panel. It edits a plain {@link Settings} object; the app applies the edits at the start of
 * the next frame (so every change is answered on the next frame, never half-way through one).
 */
import GUI, { type Controller } from 'lil-gui';
import { DISTRIBUTIONS, LIMITS, type Settings } from './sim/settings';

export interface GuiActions {
  regenerate(): void;
  clearRectangle(): void;
  /** Switch to another level preset. */
  loadLevel(name: string): void;
}

export interface SceneGui {
  gui: GUI;
  /** Refresh the displayed values after the app changed the settings itself (e.g. a click added enemies). */
  refresh(): void;
  dispose(): void;
}

export function createGui(
  settings: Settings,
  actions: GuiActions,
  levels: readonly string[] | null,
  currentLevel: string,
): SceneGui {
  const gui = new GUI({ title: 'Quadtree detection' });
  gui.domElement.id = 'gui';
  const controllers: Controller[] = [];
  const add = (c: Controller) => {
    controllers.push(c);
    return c;
  };
  const range = <K extends keyof typeof LIMITS>(folder: GUI, key: K & keyof Settings, name: string) => {
    const l = LIMITS[key];
    return add(folder.add(settings, key, l.min, l.max, l.step).name(name));
  };

  const detection = gui.addFolder('Detection');
  range(detection, 'radius', 'detect radius');
  add(detection.add(settings, 'bruteForce').name('brute force'));
  add(detection.add(settings, 'showNodes').name('show nodes'));
  add(detection.add(settings, 'showVisited').name('show visited'));
  add(detection.add(actions, 'clearRectangle').name('clear rectangle'));

  const tree = gui.addFolder('Quadtree');
  range(tree, 'minSize', 'minSize');
  range(tree, 'maxItems', 'maxItems');
  range(tree, 'looseness', 'looseness');

  const enemies = gui.addFolder('Enemies');
  range(enemies, 'enemies', 'enemies');
  add(enemies.add(settings, 'moving').name('moving'));
  range(enemies, 'speed', 'speed');
  add(enemies.add(settings, 'distribution', DISTRIBUTIONS).name('distribution'));
  // No max: a slider over 0 … 2^32 would be useless; the number box takes any integer seed.
  add(enemies.add(settings, 'seed').min(0).step(1).name('seed'));
  add(enemies.add(actions, 'regenerate').name('regenerate'));

  if (levels !== null && levels.length > 0) {
    const choice = { level: levels.includes(currentLevel) ? currentLevel : levels[0] };
    add(
      gui
        .add(choice, 'level', [...levels])
        .name('level')
        .onChange((name: string) => actions.loadLevel(name)),
    );
  }

  return {
    gui,
    refresh() {
      for (const c of controllers) c.updateDisplay();
    },
    dispose() {
      gui.destroy();
    },
  };
}
