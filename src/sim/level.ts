/**
 * Level presets: `assets/levels/NAME.json`, listed in `assets/levels/index.json`, loaded with `?level=NAME`.
 *
 * A level file (every field optional; see assets/levels/*.json):
 * ```json
 * { "title": "Camps", "description": "…", "size": { "width": 240, "depth": 240 },
 *   "enemies": 4000, "distribution": "clustered",
 *   "clusters": [{ "x": -60, "z": -50, "radius": 10, "weight": 2 }],
 *   "player": { "x": 0, "z": 0 }, "radius": 20, "seed": 7, "minSize": 1, "maxItems": 8, "looseness": 0,
 *   "moving": false, "speed": 4 }
 * ```
 * The settings a level may set (and how they are checked) come from the settings table. Validation is pure
 * (unit tested in Node) and never throws: a bad field is reported and falls back to its
 * default; a missing or malformed file falls back to the default level.
 */
import { describeRange, inRange, SETTING_ROWS, type Settings, setSetting } from './settings';

/** A cluster centre of the `clustered` distribution. */
export interface Cluster {
  x: number;
  z: number;
  /** Standard deviation of the enemies around the centre, world units. */
  radius: number;
  /** Relative share of the enemies. */
  weight: number;
}

export interface Level {
  /** File name without `.json`, or `default` for the built-in level. */
  name: string;
  title: string;
  description: string;
  /** Ground size along x and z, world units, centred on the origin. */
  width: number;
  depth: number;
  /** Where the player starts. */
  player: { x: number; z: number };
  /** Cluster centres for the `clustered` distribution; `null`: drawn from the seed. */
  clusters: Cluster[] | null;
  /** Settings the level sets (URL parameters override them). */
  settings: Partial<Settings>;
}

export const LEVEL_SIZE = Object.freeze({ min: 20, max: 4000 });
const MAX_CLUSTERS = 256;

/** The level used without `?level=`, and whenever a level cannot be used. */
export function defaultLevel(): Level {
  return {
    name: 'default',
    title: 'Default',
    description: '200 x 200 ground, 2,000 enemies spread uniformly.',
    width: 200,
    depth: 200,
    player: { x: 0, z: 0 },
    clusters: null,
    settings: {},
  };
}

export interface LevelResult {
  level: Level;
  messages: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Validate the parsed JSON of a level file. */
export function parseLevel(name: string, data: unknown): LevelResult {
  const level = defaultLevel();
  level.name = name;
  level.title = name;
  level.description = '';
  const messages: string[] = [];
  const where = `Level "${name}"`;
  if (!isRecord(data)) {
    messages.push(`${where} must be a JSON object, got ${show(data)}; using the default level.`);
    return { level: defaultLevel(), messages };
  }
  const bad = (field: string, value: unknown, expected: string, fallback: string) => {
    messages.push(`${where}: ${field} must be ${expected}, got ${show(value)}; using ${fallback}.`);
  };
  const num = (value: unknown, min: number, max: number, integer = false): value is number =>
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= min &&
    value <= max &&
    (!integer || Number.isInteger(value));

  if ('title' in data) {
    if (typeof data.title === 'string') level.title = data.title;
    else bad('title', data.title, 'a string', 'the file name');
  }
  if ('description' in data) {
    if (typeof data.description === 'string') level.description = data.description;
    else bad('description', data.description, 'a string', 'none');
  }

  if ('size' in data) {
    const size = data.size;
    if (!isRecord(size)) {
      bad('size', size, 'an object { "width": …, "depth": … }', '200 x 200');
    } else {
      const range = `a number from ${LEVEL_SIZE.min} to ${LEVEL_SIZE.max}`;
      if (num(size.width, LEVEL_SIZE.min, LEVEL_SIZE.max)) level.width = size.width;
      else bad('size.width', size.width, range, String(level.width));
      if (num(size.depth, LEVEL_SIZE.min, LEVEL_SIZE.max)) level.depth = size.depth;
      else bad('size.depth', size.depth, range, String(level.depth));
    }
  }
  const hw = level.width / 2;
  const hd = level.depth / 2;

  if ('player' in data) {
    const p = data.player;
    if (isRecord(p) && num(p.x, -hw, hw) && num(p.z, -hd, hd)) level.player = { x: p.x, z: p.z };
    else bad('player', p, 'an object { "x": …, "z": … } inside the level', 'the centre');
  }

  if ('clusters' in data) {
    const list = data.clusters;
    if (!Array.isArray(list) || list.length === 0 || list.length > MAX_CLUSTERS) {
      bad('clusters', list, `an array of 1 to ${MAX_CLUSTERS} clusters`, 'clusters drawn from the seed');
    } else {
      const clusters: Cluster[] = [];
      list.forEach((c: unknown, i: number) => {
        const weight = isRecord(c) && 'weight' in c ? c.weight : 1;
        if (
          isRecord(c) &&
          num(c.x, -hw, hw) &&
          num(c.z, -hd, hd) &&
          num(c.radius, 0, Math.max(level.width, level.depth)) &&
          num(weight, 0, 1e6) &&
          weight > 0
        ) {
          clusters.push({ x: c.x, z: c.z, radius: c.radius, weight });
        } else {
          bad(
            `clusters[${i}]`,
            c,
            '{ "x", "z" inside the level, "radius" >= 0, optional "weight" > 0 }',
            'the other clusters',
          );
        }
      });
      level.clusters = clusters.length > 0 ? clusters : null;
    }
  }

  // Every setting a level file may set, from its row in the settings table.
  for (const row of SETTING_ROWS) {
    const field = row.level;
    if (field === null || !(field in data)) continue;
    const value = data[field];
    switch (row.kind) {
      case 'number':
        if (typeof value === 'number' && inRange(row, value)) setSetting(level.settings, row.key, value);
        else bad(field, value, describeRange(row), 'the default');
        break;
      case 'flag':
        if (typeof value === 'boolean') setSetting(level.settings, row.key, value);
        else bad(field, value, 'true or false', 'the default');
        break;
      case 'choice':
        if (typeof value === 'string' && row.options.includes(value))
          setSetting(level.settings, row.key, value as Settings['distribution']);
        else bad(field, value, row.options.map((x) => `"${x}"`).join(' or '), 'the default');
        break;
    }
  }
  return { level, messages };
}

/** The `fetch` subset the loader needs (so tests can pass a fake). */
export type Fetch = (url: string) => Promise<{ ok: boolean; status: number; text(): Promise<string> }>;

/** Names listed in `levels/index.json`; `null` (and a message) when it cannot be read. */
export async function loadLevelIndex(fetchText: Fetch, messages: string[]): Promise<string[] | null> {
  try {
    const response = await fetchText('levels/index.json');
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const data: unknown = JSON.parse(await response.text());
    if (!isRecord(data) || !Array.isArray(data.levels) || !data.levels.every((n) => typeof n === 'string')) {
      throw new Error('expected { "levels": ["name", …] }');
    }
    return data.levels as string[];
  } catch (error) {
    messages.push(`Could not read the level list levels/index.json (${describe(error)}).`);
    return null;
  }
}

/**
 * Load `levels/NAME.json`. `index` is the list from {@link loadLevelIndex}: a name not in it is reported
 * without a request (so the browser logs no 404). Never throws.
 */
export async function loadLevel(
  name: string,
  index: string[] | null,
  fetchText: Fetch,
): Promise<LevelResult> {
  if (index !== null && !index.includes(name)) {
    return {
      level: defaultLevel(),
      messages: [`Level "${name}" not found (available: ${index.join(', ')}); using the default level.`],
    };
  }
  const url = `levels/${name}.json`;
  let text: string;
  try {
    const response = await fetchText(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    text = await response.text();
  } catch (error) {
    return {
      level: defaultLevel(),
      messages: [`Could not load level file ${url} (${describe(error)}); using the default level.`],
    };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return {
      level: defaultLevel(),
      messages: [`Level file ${url} is not valid JSON (${describe(error)}); using the default level.`],
    };
  }
  return parseLevel(name, data);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** How long the page waits for the level list and the level file before it starts the default level. */
export const LEVEL_TIMEOUT_MS = 10_000;

/** What {@link withTimeout} resolves to when the time ran out first. */
export const TIMED_OUT: unique symbol = Symbol('timed out');

/** `promise`'s value, or {@link TIMED_OUT} if it has not settled after `ms` milliseconds. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The level to start with, the level list for the GUI (null: unknown) and the problems to show. */
export interface StartLevel {
  level: Level;
  levels: string[] | null;
  messages: string[];
}

/** `ms` as a readable duration: "10 s", "0.5 s". */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/**
 * Read the level list and, when `name` is given, that level, within `timeoutMs` for both together. A
 * server that never answers gives the default level and a message naming the level and the timeout, never
 * a page that waits for ever. Problems reading the list are shown only when a level was asked for (without
 * one, the list only fills the GUI's level menu). Never throws.
 */
export async function loadStartLevel(
  name: string | undefined,
  fetchText: Fetch,
  timeoutMs = LEVEL_TIMEOUT_MS,
): Promise<StartLevel> {
  const load = async (): Promise<StartLevel> => {
    const indexMessages: string[] = [];
    const levels = await loadLevelIndex(fetchText, indexMessages);
    if (name === undefined) return { level: defaultLevel(), levels, messages: [] };
    const result = await loadLevel(name, levels, fetchText);
    return { level: result.level, levels, messages: [...indexMessages, ...result.messages] };
  };
  const loaded = await withTimeout(load(), timeoutMs);
  if (loaded !== TIMED_OUT) return loaded;
  return {
    level: defaultLevel(),
    levels: null,
    messages: [
      name === undefined
        ? `The level list levels/index.json did not load within ${seconds(timeoutMs)}; starting without the level menu.`
        : `Level "${name}" did not load within ${seconds(timeoutMs)} (no answer from the server); using the default level.`,
    ],
  };
}
