import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  defaultLevel,
  type Fetch,
  LEVEL_TIMEOUT_MS,
  loadLevel,
  loadLevelIndex,
  loadStartLevel,
  parseLevel,
  TIMED_OUT,
  withTimeout,
} from '../../src/sim/level';
import { DEFAULT_SETTINGS } from '../../src/sim/settings';

const levelsDir = path.resolve(import.meta.dirname, '../../assets/levels');

/** A fetch that serves files from a map; a missing key is a 404. */
function fakeFetch(files: Record<string, string>): Fetch & { urls: string[] } {
  const urls: string[] = [];
  const f = async (url: string) => {
    urls.push(url);
    const body = files[url];
    return { ok: body !== undefined, status: body === undefined ? 404 : 200, text: async () => body ?? '' };
  };
  return Object.assign(f, { urls });
}

describe('parseLevel', () => {
  it('reads every field', () => {
    const { level, messages } = parseLevel('test', {
      title: 'Test',
      description: 'd',
      size: { width: 300, depth: 100 },
      enemies: 1234,
      distribution: 'clustered',
      clusters: [
        { x: 10, z: -20, radius: 5, weight: 2 },
        { x: 0, z: 0, radius: 3 },
      ],
      player: { x: 5, z: 6 },
      radius: 12,
      seed: 9,
      minSize: 2,
      maxItems: 16,
      looseness: 2.5,
      moving: true,
      speed: 3,
    });
    expect(messages).toEqual([]);
    expect(level).toEqual({
      name: 'test',
      title: 'Test',
      description: 'd',
      width: 300,
      depth: 100,
      player: { x: 5, z: 6 },
      clusters: [
        { x: 10, z: -20, radius: 5, weight: 2 },
        { x: 0, z: 0, radius: 3, weight: 1 },
      ],
      settings: {
        enemies: 1234,
        distribution: 'clustered',
        radius: 12,
        seed: 9,
        minSize: 2,
        maxItems: 16,
        looseness: 2.5,
        moving: true,
        speed: 3,
      },
    });
  });

  it('an empty object is the default level under that name', () => {
    const { level, messages } = parseLevel('empty', {});
    expect(messages).toEqual([]);
    expect(level).toMatchObject({ name: 'empty', width: 200, depth: 200, clusters: null, settings: {} });
  });

  it.each([null, 3, 'level', [1, 2]])('falls back to the default level for a non-object (%s)', (data) => {
    const { level, messages } = parseLevel('x', data);
    expect(level).toEqual(defaultLevel());
    expect(messages[0]).toMatch(/^Level "x" must be a JSON object/);
  });

  it('reports each bad field, keeps the good ones', () => {
    const { level, messages } = parseLevel('bad', {
      size: { width: 300, depth: 'big' },
      enemies: -3,
      radius: 9,
      distribution: 'spiral',
      moving: 'yes',
      player: { x: 1000, z: 0 },
      clusters: [{ x: 0, z: 0, radius: 2 }, { x: 'a' }],
    });
    expect(level.width).toBe(300);
    expect(level.depth).toBe(200);
    expect(level.settings).toEqual({ radius: 9 });
    expect(level.player).toEqual({ x: 0, z: 0 });
    expect(level.clusters).toEqual([{ x: 0, z: 0, radius: 2, weight: 1 }]);
    const fields = ['size.depth', 'player', 'clusters[1]', 'enemies', 'moving', 'distribution'];
    expect(messages).toHaveLength(fields.length);
    for (const field of fields)
      expect(messages.some((m) => m.startsWith(`Level "bad": ${field} must be`))).toBe(true);
  });

  it.each([0, 0.25, 3.7, 10])('accepts looseness %s', (looseness) => {
    const { level, messages } = parseLevel('loose', { minSize: 2, looseness });
    expect(messages).toEqual([]);
    expect(level.settings).toEqual({ minSize: 2, looseness });
  });

  it.each([
    [-1, '-1'],
    [-0.25, '-0.25'],
    [10.25, '10.25'],
    [1e9, '1000000000'],
    [Number.NaN, 'null'],
    [Number.POSITIVE_INFINITY, 'null'],
    ['2', '"2"'],
    ['loose', '"loose"'],
    [null, 'null'],
    [true, 'true'],
    [{ x: 1 }, '{"x":1}'],
  ])('rejects looseness %s with a message, keeps the default and the other fields', (looseness, shown) => {
    const { level, messages } = parseLevel('loose', { minSize: 2, maxItems: 16, looseness });
    expect(level.settings).toEqual({ minSize: 2, maxItems: 16 });
    expect(messages).toEqual([
      `Level "loose": looseness must be a number from 0 to 10, got ${shown}; using the default.`,
    ]);
  });

  it('rejects sizes out of range and empty cluster lists', () => {
    const { level, messages } = parseLevel('s', { size: { width: 5, depth: 1e9 }, clusters: [] });
    expect(level.width).toBe(200);
    expect(level.depth).toBe(200);
    expect(level.clusters).toBeNull();
    expect(messages).toHaveLength(3);
  });
});

describe('loadLevel', () => {
  const index = ['camps'];

  it('loads a listed level', async () => {
    const f = fakeFetch({ 'levels/camps.json': JSON.stringify({ enemies: 10 }) });
    const { level, messages } = await loadLevel('camps', index, f);
    expect(messages).toEqual([]);
    expect(level.settings.enemies).toBe(10);
    expect(f.urls).toEqual(['levels/camps.json']);
  });

  it('reports an unlisted level without requesting it', async () => {
    const f = fakeFetch({});
    const { level, messages } = await loadLevel('nope', index, f);
    expect(level).toEqual(defaultLevel());
    expect(messages).toEqual(['Level "nope" not found (available: camps); using the default level.']);
    expect(f.urls).toEqual([]);
  });

  it('reports a missing file', async () => {
    const { level, messages } = await loadLevel('camps', index, fakeFetch({}));
    expect(level).toEqual(defaultLevel());
    expect(messages[0]).toContain('Could not load level file levels/camps.json (HTTP 404)');
  });

  it('reports malformed JSON', async () => {
    const { level, messages } = await loadLevel(
      'camps',
      index,
      fakeFetch({ 'levels/camps.json': '{ "size": ' }),
    );
    expect(level).toEqual(defaultLevel());
    expect(messages[0]).toMatch(
      /^Level file levels\/camps.json is not valid JSON \(.+\); using the default level\.$/,
    );
  });

  it('reports a network error', async () => {
    const failing: Fetch = async () => {
      throw new TypeError('Failed to fetch');
    };
    const { messages } = await loadLevel('camps', index, failing);
    expect(messages[0]).toContain('Failed to fetch');
  });

  it('still tries the file when the index could not be read', async () => {
    const messages: string[] = [];
    const f = fakeFetch({ 'levels/camps.json': '{}' });
    const list = await loadLevelIndex(f, messages);
    expect(list).toBeNull();
    expect(messages[0]).toContain('levels/index.json');
    expect((await loadLevel('camps', list, f)).messages).toEqual([]);
  });

  it('rejects an index of the wrong shape', async () => {
    const messages: string[] = [];
    expect(await loadLevelIndex(fakeFetch({ 'levels/index.json': '["a"]' }), messages)).toBeNull();
    expect(messages).toHaveLength(1);
  });
});

describe('loadStartLevel', () => {
  const files = { 'levels/index.json': JSON.stringify({ levels: ['camps'] }) };
  /** A fetch that never answers for `url` and serves `files` otherwise. */
  function hanging(url: string): Fetch {
    const serve = fakeFetch(files);
    return (u) => (u === url ? new Promise(() => {}) : serve(u));
  }

  it('loads the list and the level', async () => {
    const f = fakeFetch({ ...files, 'levels/camps.json': JSON.stringify({ enemies: 10 }) });
    const start = await loadStartLevel('camps', f);
    expect(start.messages).toEqual([]);
    expect(start.levels).toEqual(['camps']);
    expect(start.level.settings.enemies).toBe(10);
    expect(await loadStartLevel(undefined, f)).toEqual({
      level: defaultLevel(),
      levels: ['camps'],
      messages: [],
    });
  });

  it('a level file that never answers: the default level after the timeout, with a message naming both', async () => {
    const start = await loadStartLevel('camps', hanging('levels/camps.json'), 30);
    expect(start.level).toEqual(defaultLevel());
    expect(start.messages).toEqual([
      'Level "camps" did not load within 0.03 s (no answer from the server); using the default level.',
    ]);
  });

  it('a level list that never answers: the default level, without the level menu', async () => {
    const start = await loadStartLevel(undefined, hanging('levels/index.json'), 30);
    expect(start).toEqual({
      level: defaultLevel(),
      levels: null,
      messages: [
        'The level list levels/index.json did not load within 0.03 s; starting without the level menu.',
      ],
    });
  });

  it('waits 10 s by default', async () => {
    vi.useFakeTimers();
    try {
      const pending = loadStartLevel('camps', hanging('levels/camps.json'));
      await vi.advanceTimersByTimeAsync(LEVEL_TIMEOUT_MS - 1);
      let settled = false;
      void pending.then(() => {
        settled = true;
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await pending).messages[0]).toContain('did not load within 10 s');
    } finally {
      vi.useRealTimers();
    }
  });

  it('withTimeout passes a value through and clears its timer', async () => {
    expect(await withTimeout(Promise.resolve(7), 10)).toBe(7);
    expect(await withTimeout(new Promise(() => {}), 5)).toBe(TIMED_OUT);
    await expect(withTimeout(Promise.reject(new Error('no')), 10)).rejects.toThrow('no');
  });
});

describe('the shipped level presets', () => {
  const files = readdirSync(levelsDir)
    .filter((f) => f.endsWith('.json') && f !== 'index.json')
    .map((f) => f.slice(0, -5))
    .sort();

  it('index.json lists exactly the level files', async () => {
    const messages: string[] = [];
    const text = readFileSync(path.join(levelsDir, 'index.json'), 'utf8');
    const list = await loadLevelIndex(fakeFetch({ 'levels/index.json': text }), messages);
    expect(messages).toEqual([]);
    expect([...(list ?? [])].sort()).toEqual(files);
    expect(files.length).toBeGreaterThanOrEqual(3);
  });

  it.each(files)('%s.json is valid', (name) => {
    const { level, messages } = parseLevel(
      name,
      JSON.parse(readFileSync(path.join(levelsDir, `${name}.json`), 'utf8')),
    );
    expect(messages).toEqual([]);
    expect(level.title).not.toBe(name);
    expect(level.description).not.toBe('');
  });

  it.each(files)('%s.json states whether its enemies move and whether crowd mode is on', (name) => {
    const data = JSON.parse(readFileSync(path.join(levelsDir, `${name}.json`), 'utf8'));
    expect(typeof data.moving).toBe('boolean');
    expect(typeof data.crowd).toBe('boolean');
  });

  it.each(['crowd', 'swarm'])(
    '%s starts with crowd mode on and everyone moving, as the README says',
    (name) => {
      const { level } = parseLevel(
        name,
        JSON.parse(readFileSync(path.join(levelsDir, `${name}.json`), 'utf8')),
      );
      expect({ ...DEFAULT_SETTINGS, ...level.settings }).toMatchObject({ crowdMode: true, moving: true });
    },
  );

  it('default.json matches the built-in default level and settings', () => {
    const { level } = parseLevel(
      'default',
      JSON.parse(readFileSync(path.join(levelsDir, 'default.json'), 'utf8')),
    );
    const builtIn = defaultLevel();
    expect({ ...level, settings: {} }).toEqual(builtIn);
    expect({ ...DEFAULT_SETTINGS, ...level.settings }).toEqual(DEFAULT_SETTINGS);
  });
});
