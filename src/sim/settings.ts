/**
 * The scene's settings: ONE table, {@link SETTINGS}, with a row per setting. Everything else is derived
 * from it: the {@link Settings} type, the defaults, URL parsing (`urlParams.ts`), level-file validation
 * (`level.ts`), the GUI (`src/ui/gui.ts`) and what an edit does (`Simulation.applyRequested`).
 *
 * Adding a setting: one row here, plus the code that uses its value.
 */
import type { SeparationPrecision } from 'point-quadtree/crowd';

/** Instances allocated once for the enemy mesh; `enemies` can never exceed it. */
export const MAX_ENEMIES = 100_000;

export type Distribution = 'uniform' | 'clustered';
export const DISTRIBUTIONS: readonly Distribution[] = ['uniform', 'clustered'];

/** The precision of crowd mode's sums: the library's own option. */
export type CrowdPrecision = SeparationPrecision;
export const CROWD_PRECISIONS: readonly CrowdPrecision[] = ['f64', 'f32'];

/**
 * What changing a setting requires, from the most to the least work:
 * - `regenerate`: every enemy back to its spawn for the seed and distribution, and a new tree;
 * - `resize`: add or remove enemies;
 * - `rebuild`: bulk-load a new tree from the current positions;
 * - `detect`: run the detection again;
 * - `step`: read by every simulation step (wandering); nothing to redo;
 * - `display`: only what is drawn changes.
 */
export type Effect = 'regenerate' | 'resize' | 'rebuild' | 'detect' | 'step' | 'display';

/** The GUI folders, in the order the panel shows them. */
export const FOLDERS = ['Detection', 'Quadtree', 'Enemies'] as const;
export type Folder = (typeof FOLDERS)[number];

interface Common<T> {
  default: T;
  /** Query parameter name, e.g. `?brute=1`. */
  url: string;
  /** Field of a level file, or null when a level cannot set it. */
  level: string | null;
  /** GUI label and folder. */
  label: string;
  folder: Folder;
  effect: Effect;
}

export interface NumberSetting extends Common<number> {
  kind: 'number';
  /** Inclusive range; also the GUI slider's. */
  min: number;
  max: number;
  /** GUI step. */
  step: number;
  integer: boolean;
  /** `false`: a number box instead of a slider (a slider over 0 … 2^32 would be useless). */
  slider: boolean;
}

export interface FlagSetting extends Common<boolean> {
  kind: 'flag';
}

export interface ChoiceSetting<T extends string = string> extends Common<T> {
  kind: 'choice';
  options: readonly T[];
}

export type SettingSpec = NumberSetting | FlagSetting | ChoiceSetting;

function numberRow(row: Omit<NumberSetting, 'kind' | 'integer' | 'slider'> & Partial<NumberSetting>) {
  return { kind: 'number', integer: false, slider: true, ...row } as NumberSetting;
}
function flagRow(row: Omit<FlagSetting, 'kind'>): FlagSetting {
  return { kind: 'flag', ...row };
}
function choiceRow<T extends string>(row: Omit<ChoiceSetting<T>, 'kind'>): ChoiceSetting<T> {
  return { kind: 'choice', ...row };
}

/**
 * Every setting, in the GUI's order. World units are metres-ish; the default level is 200 x 200.
 * Priority at start: these defaults, then the level file, then the URL.
 */
export const SETTINGS = Object.freeze({
  /** Detect radius around the player, world units. */
  radius: numberRow({
    default: 15,
    min: 0.5,
    max: 100,
    step: 0.5,
    url: 'radius',
    level: 'radius',
    label: 'detect radius',
    folder: 'Detection',
    effect: 'detect',
  }),
  /** Detect by scanning every enemy instead of asking the tree. */
  bruteForce: flagRow({
    default: false,
    url: 'brute',
    level: null,
    label: 'brute force',
    folder: 'Detection',
    effect: 'detect',
  }),
  /** Draw the tree's leaves. */
  showNodes: flagRow({
    default: true,
    url: 'nodes',
    level: null,
    label: 'show nodes',
    folder: 'Detection',
    effect: 'display',
  }),
  /** Draw the leaves the last circle query reached. */
  showVisited: flagRow({
    default: false,
    url: 'visited',
    level: null,
    label: 'show visited',
    folder: 'Detection',
    effect: 'display',
  }),
  /**
   * The top-down map with the node kinds of the player's query (visited, pruned, covered) and the cost plot
   * (see docs/scene.md).
   */
  map: flagRow({
    default: false,
    url: 'map',
    level: null,
    label: 'top-down map',
    folder: 'Detection',
    effect: 'display',
  }),
  /** Quadtree `minSize`: no node is split below this width/depth, world units. */
  minSize: numberRow({
    default: 1,
    min: 0.25,
    max: 50,
    step: 0.25,
    url: 'minSize',
    level: 'minSize',
    label: 'minSize',
    folder: 'Quadtree',
    effect: 'rebuild',
  }),
  /** Quadtree `maxItems`: a leaf with more items splits (when it may). */
  maxItems: numberRow({
    default: 16,
    min: 1,
    max: 64,
    step: 1,
    integer: true,
    url: 'maxItems',
    level: 'maxItems',
    label: 'maxItems',
    folder: 'Quadtree',
    effect: 'rebuild',
  }),
  /**
   * Quadtree `looseness`: how far an enemy may stray outside its leaf before `move` re-files it, world
   * units. 0 keeps every enemy inside its leaf; a few steps' length makes wandering crowds cheaper to keep
   * up to date. Detection stays exact either way.
   */
  looseness: numberRow({
    default: 0,
    min: 0,
    max: 10,
    step: 0.25,
    url: 'looseness',
    level: 'looseness',
    label: 'looseness',
    folder: 'Quadtree',
    effect: 'rebuild',
  }),
  /** Enemies in the scene. */
  enemies: numberRow({
    default: 2000,
    min: 0,
    max: MAX_ENEMIES,
    step: 1,
    integer: true,
    url: 'enemies',
    level: 'enemies',
    label: 'enemies',
    folder: 'Enemies',
    effect: 'resize',
  }),
  /** Enemies wander (seeded random walk). */
  moving: flagRow({
    default: false,
    url: 'moving',
    level: 'moving',
    label: 'moving',
    folder: 'Enemies',
    effect: 'step',
  }),
  /** Wandering speed, world units per second. */
  speed: numberRow({
    default: 4,
    min: 0,
    max: 30,
    step: 0.5,
    url: 'speed',
    level: 'speed',
    label: 'speed',
    folder: 'Enemies',
    effect: 'step',
  }),
  /**
   * Crowd mode: every frame, find the pairs of enemies within {@link SETTINGS.crowdRadius} of each other
   * and colour the enemies that have a neighbour; with `moving` on, they also steer apart (separation).
   */
  crowdMode: flagRow({
    default: false,
    url: 'crowd',
    level: 'crowd',
    label: 'crowd',
    folder: 'Enemies',
    effect: 'step',
  }),
  /** Personal space of crowd mode: enemies closer than this are neighbours, world units. */
  crowdRadius: numberRow({
    default: 1.5,
    min: 0.5,
    max: 10,
    step: 0.1,
    url: 'crowdRadius',
    level: 'crowdRadius',
    label: 'crowd radius',
    folder: 'Enemies',
    effect: 'step',
  }),
  /**
   * Crowd mode's join split over worker threads where the page allows them (cross-origin isolated, more
   * than one core); off: on the main thread alone, to compare.
   */
  workers: flagRow({
    default: true,
    url: 'workers',
    level: null,
    label: 'worker threads',
    folder: 'Enemies',
    effect: 'step',
  }),
  /**
   * The precision of crowd mode's pushes: 'f64' (exact) or 'f32' (the library's fast sums: the WebAssembly
   * kernel takes each pair's weight in f32 lanes; the pairs and counts stay exact, each push sum within
   * 1e-5 x the enemy's neighbour count). The JavaScript kernel and brute force compute in f64 either way.
   * The default is f32, the fast mode the scene shows off (issue 34); measured on the scene's crowd it is on
   * par with f64, neither faster nor slower beyond the noise (docs/crowd.md#the-fast-precision).
   */
  crowdPrecision: choiceRow<CrowdPrecision>({
    default: 'f32',
    options: CROWD_PRECISIONS,
    url: 'precision',
    level: null,
    label: 'crowd precision',
    folder: 'Enemies',
    effect: 'step',
  }),
  distribution: choiceRow<Distribution>({
    default: 'uniform',
    options: DISTRIBUTIONS,
    url: 'distribution',
    level: 'distribution',
    label: 'distribution',
    folder: 'Enemies',
    effect: 'regenerate',
  }),
  /** Seed of every random choice (layout, clusters, wandering, click batches). */
  seed: numberRow({
    default: 1,
    min: 0,
    max: 0xffffffff,
    step: 1,
    integer: true,
    slider: false,
    url: 'seed',
    level: 'seed',
    label: 'seed',
    folder: 'Enemies',
    effect: 'regenerate',
  }),
});

type Table = typeof SETTINGS;
type ValueOf<S> = S extends ChoiceSetting<infer T> ? T : S extends Common<infer T> ? T : never;

/** One value per row of {@link SETTINGS}. */
export type Settings = { -readonly [K in keyof Table]: ValueOf<Table[K]> };
export type SettingKey = keyof Settings;

/** The keys in table order. */
export const SETTING_KEYS = Object.freeze(Object.keys(SETTINGS) as SettingKey[]);

/** The rows in table order, each with its key. */
export const SETTING_ROWS: readonly (SettingSpec & { key: SettingKey })[] = Object.freeze(
  SETTING_KEYS.map((key) => Object.freeze({ ...(SETTINGS[key] as SettingSpec), key })),
);

/** Every setting at its default. */
export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze(
  Object.fromEntries(SETTING_ROWS.map((row) => [row.key, row.default])) as Settings,
);

/** `value` as an `expected … ` phrase for messages: "an integer from 1 to 64". */
export function describeRange(row: NumberSetting): string {
  return `${row.integer ? 'an integer' : 'a number'} from ${row.min} to ${row.max}`;
}

/** Whether `value` is a valid value of a number row (finite, in range, integer if required). */
export function inRange(row: NumberSetting, value: number): boolean {
  return (
    Number.isFinite(value) &&
    value >= row.min &&
    value <= row.max &&
    (!row.integer || Number.isInteger(value))
  );
}

/** Write `value` into `out[key]` (the table guarantees the type; one place for the one cast). */
export function setSetting(out: Partial<Settings>, key: SettingKey, value: Settings[SettingKey]): void {
  (out as Record<SettingKey, Settings[SettingKey]>)[key] = value;
}

/**
 * A settings object that notes every write to it: `settings` is written by its owners as a plain object (the
 * GUI's controllers, `Object.assign`, a test) and `target` is the same object unwatched, for the reader.
 * `takeWritten()` says whether anything was written since it last asked (true at first). The simulation asks
 * once a frame and compares only then: the compare reads every setting by a variable key, which boxes a
 * fractional number where its field holds one unboxed (~250 bytes a frame at the default level in Node 20).
 */
export interface WatchedSettings {
  readonly settings: Settings;
  readonly target: Settings;
  takeWritten(): boolean;
}

export function watchedSettings(initial: Settings): WatchedSettings {
  const target = { ...initial };
  let written = true;
  const settings = new Proxy(target, {
    set(object, key, value) {
      written = true;
      return Reflect.set(object, key, value);
    },
    defineProperty(object, key, descriptor) {
      written = true;
      return Reflect.defineProperty(object, key, descriptor);
    },
    deleteProperty(object, key) {
      written = true;
      return Reflect.deleteProperty(object, key);
    },
  });
  return {
    settings,
    target,
    takeWritten() {
      const was = written;
      written = false;
      return was;
    },
  };
}

/** Bits of {@link applyChanged}'s answer: the effects the changed settings ask for. */
export const EFFECT_REGENERATE = 1;
export const EFFECT_RESIZE = 2;
export const EFFECT_REBUILD = 4;
export const EFFECT_DETECT = 8;
const EFFECT_BITS: Readonly<Partial<Record<Effect, number>>> = {
  regenerate: EFFECT_REGENERATE,
  resize: EFFECT_RESIZE,
  rebuild: EFFECT_REBUILD,
  detect: EFFECT_DETECT,
};

/**
 * Writes into `current` each setting of `next` that differs from it, and returns the effects they ask for
 * (EFFECT_* bits; 0 where only `display` or `step` settings changed), or -1 where none differed. An indexed
 * loop that writes only the changed settings: a for-of and a write of every setting allocated ~1.5 KB a
 * call more (iterators, and the numbers boxed by the writes).
 */
export function applyChanged(next: Settings, current: Settings): number {
  let changed = false;
  let effects = 0;
  for (let k = 0; k < SETTING_KEYS.length; k++) {
    const key = SETTING_KEYS[k];
    if (next[key] === current[key]) continue;
    changed = true;
    effects |= EFFECT_BITS[SETTINGS[key].effect] ?? 0;
    setSetting(current, key, next[key]);
  }
  return changed ? effects : -1;
}
