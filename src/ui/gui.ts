/**
 * The lil-gui panel, built from the settings table: one folder per `folder`, one controller per row (a
 * slider for a number row, a number box when the row says so, a checkbox for a flag, a drop-down for a
 * choice), then the folder's buttons. It edits the simulation's requested settings in place; the simulation
 * applies them at the start of the next frame (so every change is answered on the next frame, never half-way
 * through one).
 */
import GUI, { type Controller } from 'lil-gui';
import { FOLDERS, type Folder, SETTING_ROWS, type Settings } from '../sim/settings';

export interface GuiActions {
  regenerate(): void;
  clearRectangle(): void;
  /** Switch to another level preset. */
  loadLevel(name: string): void;
}

export interface SceneGui {
  /** Refresh the displayed values after the simulation changed a setting itself (a click added enemies). */
  refresh(): void;
  dispose(): void;
}

/** Buttons at the end of a folder. */
const BUTTONS: Record<Folder, readonly { action: 'regenerate' | 'clearRectangle'; label: string }[]> = {
  Detection: [{ action: 'clearRectangle', label: 'clear rectangle' }],
  Quadtree: [],
  Enemies: [{ action: 'regenerate', label: 'regenerate' }],
};

/** Where the panel goes and how it starts. */
export interface GuiPlace {
  /** The element the panel is appended to (the page's panel layout places it by its id, `gui`). */
  container: HTMLElement;
  /** Start with the panel closed (its title bar only), as on a narrow screen. */
  closed: boolean;
}

export function createGui(
  settings: Settings,
  actions: GuiActions,
  levels: readonly string[] | null,
  currentLevel: string,
  place: GuiPlace,
): SceneGui {
  const gui = new GUI({ title: 'Quadtree detection', container: place.container });
  gui.domElement.id = 'gui';
  if (place.closed) gui.close();
  const controllers: Controller[] = [];

  for (const name of FOLDERS) {
    const folder = gui.addFolder(name);
    for (const row of SETTING_ROWS) {
      if (row.folder !== name) continue;
      let c: Controller;
      if (row.kind === 'number' && row.slider) c = folder.add(settings, row.key, row.min, row.max, row.step);
      else if (row.kind === 'number') c = folder.add(settings, row.key).min(row.min).step(row.step);
      else if (row.kind === 'choice') c = folder.add(settings, row.key, [...row.options]);
      else c = folder.add(settings, row.key);
      controllers.push(c.name(row.label));
    }
    for (const button of BUTTONS[name]) folder.add(actions, button.action).name(button.label);
  }

  if (levels !== null && levels.length > 0) {
    const choice = { level: levels.includes(currentLevel) ? currentLevel : levels[0] };
    gui
      .add(choice, 'level', [...levels])
      .name('level')
      .onChange((name: string) => actions.loadLevel(name));
  }

  return {
    refresh() {
      for (const c of controllers) c.updateDisplay();
    },
    dispose() {
      gui.destroy();
    },
  };
}
