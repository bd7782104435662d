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
});
