/**
 * Reading the page URL: `?enemies=50000&seed=7&radius=20&minSize=4&maxItems=8&moving=1&distribution=clustered&level=camps`.
 * Pure (no DOM), so it is unit tested in Node. A bad value never throws: it is dropped with a readable message
 * and the default (or the level's value) stays.
 */
import { DISTRIBUTIONS, type Distribution, LIMITS, type Settings } from './settings';

/** What the URL asked for: only the values that were present and valid. */
export interface UrlRequest {
  settings: Partial<Settings>;
  /** Level preset name (`assets/levels/NAME.json`), when given and well-formed. */
  level?: string;
  /** One readable sentence per problem. */
  messages: string[];
}

/** The parameters the page understands, for messages and the README. */
export const URL_PARAMETERS = [
  'enemies',
  'seed',
  'radius',
  'minSize',
  'maxItems',
  'looseness',
  'moving',
  'speed',
  'distribution',
  'brute',
  'nodes',
  'visited',
  'level',
] as const;

const LEVEL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const TRUE_WORDS = ['1', 'true', 'yes', 'on'];
const FALSE_WORDS = ['0', 'false', 'no', 'off'];

/** Parse a query string (with or without the leading `?`). */
export function parseUrlParams(search: string): UrlRequest {
  const params = new URLSearchParams(search);
  const settings: Partial<Settings> = {};
  const messages: string[] = [];
  const known = new Set<string>(URL_PARAMETERS);

  const reject = (name: string, raw: string, expected: string) => {
    messages.push(`URL parameter ${name}=${JSON.stringify(raw)} ignored: expected ${expected}.`);
  };

  const number = (name: string, limits: { min: number; max: number }, integer: boolean) => {
    const raw = params.get(name);
    if (raw === null) return undefined;
    const value = raw.trim() === '' ? Number.NaN : Number(raw);
    if (
      !Number.isFinite(value) ||
      (integer && !Number.isInteger(value)) ||
      value < limits.min ||
      value > limits.max
    ) {
      reject(name, raw, `${integer ? 'an integer' : 'a number'} from ${limits.min} to ${limits.max}`);
      return undefined;
    }
    return value;
  };

  const flag = (name: string) => {
    const raw = params.get(name);
    if (raw === null) return undefined;
    const word = raw.trim().toLowerCase();
    if (TRUE_WORDS.includes(word)) return true;
    if (FALSE_WORDS.includes(word)) return false;
    reject(name, raw, '1 or 0 (true or false)');
    return undefined;
  };

  const enemies = number('enemies', LIMITS.enemies, true);
  if (enemies !== undefined) settings.enemies = enemies;
  const seed = number('seed', LIMITS.seed, true);
  if (seed !== undefined) settings.seed = seed;
  const radius = number('radius', LIMITS.radius, false);
  if (radius !== undefined) settings.radius = radius;
  const minSize = number('minSize', LIMITS.minSize, false);
  if (minSize !== undefined) settings.minSize = minSize;
  const maxItems = number('maxItems', LIMITS.maxItems, true);
  if (maxItems !== undefined) settings.maxItems = maxItems;
  const looseness = number('looseness', LIMITS.looseness, false);
  if (looseness !== undefined) settings.looseness = looseness;
  const speed = number('speed', LIMITS.speed, false);
  if (speed !== undefined) settings.speed = speed;
  const moving = flag('moving');
  if (moving !== undefined) settings.moving = moving;
  const brute = flag('brute');
  if (brute !== undefined) settings.bruteForce = brute;
  const nodes = flag('nodes');
  if (nodes !== undefined) settings.showNodes = nodes;
  const visited = flag('visited');
  if (visited !== undefined) settings.showVisited = visited;

  const distribution = params.get('distribution');
  if (distribution !== null) {
    if ((DISTRIBUTIONS as readonly string[]).includes(distribution)) {
      settings.distribution = distribution as Distribution;
    } else {
      reject('distribution', distribution, DISTRIBUTIONS.join(' or '));
    }
  }

  const result: UrlRequest = { settings, messages };
  const level = params.get('level');
  if (level !== null) {
    if (LEVEL_NAME.test(level)) result.level = level;
    else reject('level', level, 'a level name made of letters, digits, - and _');
  }

  for (const name of new Set(params.keys())) {
    if (!known.has(name)) {
      messages.push(`Unknown URL parameter "${name}" ignored (known: ${URL_PARAMETERS.join(', ')}).`);
    }
  }
  return result;
}
