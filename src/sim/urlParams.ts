/**
 * Reading the page URL: `?enemies=50000&seed=7&radius=20&minSize=4&maxItems=8&moving=1&distribution=clustered&level=camps`.
 * Every setting's parameter comes from its row in the settings table. Pure (no DOM), so it is unit tested in
 * Node. A bad value never throws: it is dropped with a readable message and the default (or the level's
 * value) stays.
 */
import {
  describeRange,
  inRange,
  SETTING_ROWS,
  type SettingSpec,
  type Settings,
  setSetting,
} from './settings';

/** What the URL asked for: only the values that were present and valid. */
export interface UrlRequest {
  settings: Partial<Settings>;
  /** Level preset name (`assets/levels/NAME.json`), when given and well-formed. */
  level?: string;
  /** `levelTimeout` (seconds in the URL) in milliseconds, when given and valid. */
  levelTimeoutMs?: number;
  /** One readable sentence per problem. */
  messages: string[];
}

/** The parameters the page understands: one per setting, then `level` and `levelTimeout`. */
export const URL_PARAMETERS: readonly string[] = Object.freeze([
  ...SETTING_ROWS.map((row) => row.url),
  'level',
  'levelTimeout',
]);

/** `levelTimeout`: how long to wait for the level files, seconds (the default is 10). */
export const LEVEL_TIMEOUT_LIMITS = Object.freeze({ min: 0.1, max: 600 });

/**
 * A number written in decimal: digits with an optional sign, point and exponent (`12`, `-0.5`, `1e3`).
 * Not `0x10`, `0b1`, `0o7` or `Infinity`, which `Number()` would also read.
 */
const DECIMAL = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;

const LEVEL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const TRUE_WORDS = ['1', 'true', 'yes', 'on'];
const FALSE_WORDS = ['0', 'false', 'no', 'off'];

/** The value `raw` stands for in `row`, or what was expected instead (a phrase for the message). */
function readValue(
  row: SettingSpec,
  raw: string,
): { value: Settings[keyof Settings] } | { expected: string } {
  switch (row.kind) {
    case 'number': {
      const value = DECIMAL.test(raw) ? Number(raw) : Number.NaN;
      return inRange(row, value) ? { value } : { expected: describeRange(row) };
    }
    case 'flag': {
      const word = raw.trim().toLowerCase();
      if (TRUE_WORDS.includes(word)) return { value: true };
      if (FALSE_WORDS.includes(word)) return { value: false };
      return { expected: '1 or 0 (true or false)' };
    }
    case 'choice':
      return row.options.includes(raw)
        ? { value: raw as Settings['distribution'] }
        : { expected: row.options.join(' or ') };
  }
}

/** Parse a query string (with or without the leading `?`). */
export function parseUrlParams(search: string): UrlRequest {
  const params = new URLSearchParams(search);
  const settings: Partial<Settings> = {};
  const messages: string[] = [];

  const reject = (name: string, raw: string, expected: string) => {
    messages.push(`URL parameter ${name}=${JSON.stringify(raw)} ignored: expected ${expected}.`);
  };
  // A repeated parameter: the last one wins (as when a parameter is appended to a URL), with a message.
  const get = (name: string): string | null => {
    const all = params.getAll(name);
    if (all.length === 0) return null;
    const last = all[all.length - 1];
    if (all.length > 1) {
      messages.push(
        `URL parameter ${name} given ${all.length} times; using the last one, ${name}=${JSON.stringify(last)}.`,
      );
    }
    return last;
  };

  for (const row of SETTING_ROWS) {
    const raw = get(row.url);
    if (raw === null) continue;
    const read = readValue(row, raw);
    if ('value' in read) setSetting(settings, row.key, read.value);
    else reject(row.url, raw, read.expected);
  }

  const result: UrlRequest = { settings, messages };
  const level = get('level');
  if (level !== null) {
    if (LEVEL_NAME.test(level)) result.level = level;
    else reject('level', level, 'a level name made of letters, digits, - and _');
  }

  const timeout = get('levelTimeout');
  if (timeout !== null) {
    const value = DECIMAL.test(timeout) ? Number(timeout) : Number.NaN;
    const { min, max } = LEVEL_TIMEOUT_LIMITS;
    if (value >= min && value <= max) result.levelTimeoutMs = value * 1000;
    else reject('levelTimeout', timeout, `seconds from ${min} to ${max}`);
  }

  for (const name of new Set(params.keys())) {
    if (!URL_PARAMETERS.includes(name)) {
      messages.push(`Unknown URL parameter "${name}" ignored (known: ${URL_PARAMETERS.join(', ')}).`);
    }
  }
  return result;
}
