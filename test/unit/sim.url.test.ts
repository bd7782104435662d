import { describe, expect, it } from 'vitest';
import { MAX_ENEMIES, SETTINGS } from '../../src/sim/settings';
import { parseUrlParams } from '../../src/sim/urlParams';

describe('parseUrlParams', () => {
  it('reads the documented example', () => {
    const r = parseUrlParams(
      '?enemies=50000&seed=7&radius=20&minSize=4&maxItems=8&moving=1&distribution=clustered',
    );
    expect(r.messages).toEqual([]);
    expect(r.settings).toEqual({
      enemies: 50000,
      seed: 7,
      radius: 20,
      minSize: 4,
      maxItems: 8,
      moving: true,
      distribution: 'clustered',
    });
    expect(r.level).toBeUndefined();
  });

  it('returns nothing for an empty query', () => {
    expect(parseUrlParams('')).toEqual({ settings: {}, messages: [] });
    expect(parseUrlParams('?')).toEqual({ settings: {}, messages: [] });
  });

  it('reads flags in several spellings and the extra parameters', () => {
    const r = parseUrlParams('moving=true&brute=yes&nodes=0&visited=on&speed=2.5&level=camps');
    expect(r.messages).toEqual([]);
    expect(r.settings).toEqual({
      moving: true,
      bruteForce: true,
      showNodes: false,
      showVisited: true,
      speed: 2.5,
    });
    expect(r.level).toBe('camps');
  });

  it('accepts the ends of every range', () => {
    const r = parseUrlParams(
      `enemies=0&radius=${SETTINGS.radius.min}&minSize=${SETTINGS.minSize.max}&maxItems=1&seed=4294967295`,
    );
    expect(r.messages).toEqual([]);
    expect(r.settings).toMatchObject({ enemies: 0, radius: 0.5, minSize: 50, maxItems: 1, seed: 4294967295 });
    expect(parseUrlParams(`enemies=${MAX_ENEMIES}`).settings.enemies).toBe(MAX_ENEMIES);
  });

  it('reads looseness anywhere in its range, steps or not', () => {
    for (const [raw, value] of [
      ['0', 0],
      ['0.25', 0.25],
      ['2.5', 2.5],
      ['3.7', 3.7],
      [' 4 ', 4],
      ['1e0', 1],
      [String(SETTINGS.looseness.max), SETTINGS.looseness.max],
    ] as const) {
      const r = parseUrlParams(`looseness=${raw}`);
      expect(r.messages, raw).toEqual([]);
      expect(r.settings, raw).toEqual({ looseness: value });
    }
    const r = parseUrlParams('minSize=4&maxItems=16&looseness=1.5&moving=1');
    expect(r.messages).toEqual([]);
    expect(r.settings).toEqual({ minSize: 4, maxItems: 16, looseness: 1.5, moving: true });
  });

  it.each([
    ['enemies=abc', 'enemies'],
    ['enemies=', 'enemies'],
    ['enemies=12.5', 'enemies'],
    ['enemies=-1', 'enemies'],
    [`enemies=${MAX_ENEMIES + 1}`, 'enemies'],
    ['radius=-5', 'radius'],
    ['radius=0', 'radius'],
    ['radius=Infinity', 'radius'],
    ['radius=NaN', 'radius'],
    ['minSize=0', 'minSize'],
    ['maxItems=0', 'maxItems'],
    ['maxItems=2.5', 'maxItems'],
    ['looseness=-1', 'looseness'],
    ['looseness=-0.25', 'looseness'],
    ['looseness=NaN', 'looseness'],
    ['looseness=Infinity', 'looseness'],
    [`looseness=${SETTINGS.looseness.max + 0.25}`, 'looseness'],
    ['looseness=1e3', 'looseness'],
    ['looseness=loose', 'looseness'],
    ['looseness=2m', 'looseness'],
    ['looseness=', 'looseness'],
    ['seed=-3', 'seed'],
    ['seed=1e10', 'seed'],
    ['speed=31', 'speed'],
    ['moving=maybe', 'moving'],
    ['brute=2', 'brute'],
    ['distribution=spiral', 'distribution'],
    ['level=../secret', 'level'],
    ['level=', 'level'],
  ])('rejects %s with a message naming %s and keeps the default', (query, name) => {
    const r = parseUrlParams(query);
    expect(r.settings).toEqual({});
    expect(r.level).toBeUndefined();
    expect(r.messages).toHaveLength(1);
    expect(r.messages[0]).toMatch(new RegExp(`^URL parameter ${name}=".*" ignored: expected .+\\.$`));
  });

  it('names the looseness range in its message and keeps the other parameters', () => {
    const r = parseUrlParams('minSize=2&looseness=-3&maxItems=4');
    expect(r.settings).toEqual({ minSize: 2, maxItems: 4 });
    expect(r.messages).toEqual(['URL parameter looseness="-3" ignored: expected a number from 0 to 10.']);
  });

  it('keeps good parameters next to bad ones and reports unknown ones once', () => {
    const r = parseUrlParams('?enemies=lots&seed=7&foo=1&foo=2');
    expect(r.settings).toEqual({ seed: 7 });
    expect(r.messages).toHaveLength(2);
    expect(r.messages[1]).toContain('Unknown URL parameter "foo"');
  });

  it.each(['0x10', '0X10', '0b1', '0o7', '1_000', '١٢'])(
    'reads numbers in decimal only: enemies=%s is rejected, the default stays',
    (raw) => {
      const r = parseUrlParams(`enemies=${encodeURIComponent(raw)}`);
      expect(r.settings).toEqual({});
      expect(r.messages).toEqual([
        `URL parameter enemies=${JSON.stringify(raw)} ignored: expected an integer from 0 to 100000.`,
      ]);
    },
  );

  it('accepts decimal spellings: signs, points and exponents', () => {
    expect(parseUrlParams('enemies=%2B12&radius=.5&speed=2.&minSize=1E1&seed=010').settings).toEqual({
      enemies: 12,
      radius: 0.5,
      speed: 2,
      minSize: 10,
      seed: 10,
    });
  });

  it('a repeated parameter: the last one wins, and a message says so', () => {
    const r = parseUrlParams('seed=3&enemies=10&seed=9&level=a&level=camps');
    expect(r.settings).toEqual({ seed: 9, enemies: 10 });
    expect(r.level).toBe('camps');
    expect(r.messages).toEqual([
      'URL parameter seed given 2 times; using the last one, seed="9".',
      'URL parameter level given 2 times; using the last one, level="camps".',
    ]);
    // The last value is checked like any other: a bad last value is rejected (the earlier one is not used).
    const bad = parseUrlParams('radius=20&radius=-1');
    expect(bad.settings).toEqual({});
    expect(bad.messages).toHaveLength(2);
  });

  it('levelTimeout: seconds, for tests and slow servers', () => {
    expect(parseUrlParams('levelTimeout=0.5')).toEqual({ settings: {}, messages: [], levelTimeoutMs: 500 });
    for (const raw of ['0', '-1', '601', 'soon', '0x10']) {
      const r = parseUrlParams(`levelTimeout=${raw}`);
      expect(r.levelTimeoutMs, raw).toBeUndefined();
      expect(r.messages, raw).toEqual([
        `URL parameter levelTimeout=${JSON.stringify(raw)} ignored: expected seconds from 0.1 to 600.`,
      ]);
    }
  });
});
