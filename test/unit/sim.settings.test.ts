import { describe, expect, it } from 'vitest';
import { defaultLevel, parseLevel } from '../../src/sim/level';
import {
  applyChanged,
  DEFAULT_SETTINGS,
  EFFECT_DETECT,
  EFFECT_REBUILD,
  EFFECT_REGENERATE,
  EFFECT_RESIZE,
  FOLDERS,
  SETTING_KEYS,
  SETTING_ROWS,
  SETTINGS,
  type SettingSpec,
  type Settings,
  setSetting,
  watchedSettings,
} from '../../src/sim/settings';
import { Simulation } from '../../src/sim/simulation';
import { parseUrlParams, URL_PARAMETERS } from '../../src/sim/urlParams';
import { leastBytesPerCall } from '../helpers/allocation';

/** A valid value of the row other than its default. */
function otherValue(row: SettingSpec): Settings[keyof Settings] {
  switch (row.kind) {
    case 'number':
      return row.default + row.step <= row.max ? row.default + row.step : row.min;
    case 'flag':
      return !row.default;
    case 'choice':
      return row.options.find((o) => o !== row.default) as Settings['distribution'];
  }
}

/** How the URL spells a value. */
function urlText(value: Settings[keyof Settings]): string {
  return typeof value === 'boolean' ? (value ? '1' : '0') : String(value);
}

/** A value of the wrong kind for the row, as a URL string and as a level-file value. */
function badValue(row: SettingSpec): { url: string; level: unknown } {
  switch (row.kind) {
    case 'number':
      return { url: String(row.max + 1), level: String(row.default) };
    case 'flag':
      return { url: 'maybe', level: 1 };
    case 'choice':
      return { url: 'spiral', level: 7 };
  }
}

describe('the settings table', () => {
  it('has one row per setting, each default valid, labels unique, folders known', () => {
    // The settings in the GUI's order, their URL names and defaults as the README's URL table documents
    // them: written out here, since the table's derived constants agree with it by construction.
    const documented: [string, string, unknown][] = [
      ['radius', 'radius', 15],
      ['bruteForce', 'brute', false],
      ['showNodes', 'nodes', true],
      ['showVisited', 'visited', false],
      ['map', 'map', false],
      ['minSize', 'minSize', 1],
      ['maxItems', 'maxItems', 16],
      ['looseness', 'looseness', 0],
      ['enemies', 'enemies', 2000],
      ['moving', 'moving', false],
      ['speed', 'speed', 4],
      ['crowdMode', 'crowd', false],
      ['crowdRadius', 'crowdRadius', 1.5],
      ['workers', 'workers', true],
      ['crowdPrecision', 'precision', 'f32'],
      ['distribution', 'distribution', 'uniform'],
      ['seed', 'seed', 1],
    ];
    expect(SETTING_KEYS).toEqual(documented.map(([key]) => key));
    expect(SETTING_ROWS.map((r) => [r.key, r.url, r.default])).toEqual(documented);
    expect(Object.entries(DEFAULT_SETTINGS)).toEqual(documented.map(([key, , value]) => [key, value]));
    for (const row of SETTING_ROWS) {
      expect(FOLDERS, row.key).toContain(row.folder);
      if (row.kind === 'number') {
        expect(row.min, row.key).toBeLessThanOrEqual(row.default);
        expect(row.default, row.key).toBeLessThanOrEqual(row.max);
        if (row.integer) expect(Number.isInteger(row.default), row.key).toBe(true);
      }
      if (row.kind === 'choice') expect(row.options, row.key).toContain(row.default);
    }
    const labels = SETTING_ROWS.map((r) => r.label);
    expect(new Set(labels).size).toBe(labels.length);
    const urls = SETTING_ROWS.map((r) => r.url);
    expect(new Set(urls).size).toBe(urls.length);
    expect(Object.isFrozen(SETTINGS)).toBe(true);
    expect(Object.isFrozen(DEFAULT_SETTINGS)).toBe(true);
  });

  it('the URL reads every row by its url name, and knows nothing else but level and levelTimeout', () => {
    expect([...URL_PARAMETERS]).toEqual([...SETTING_ROWS.map((r) => r.url), 'level', 'levelTimeout']);
    for (const row of SETTING_ROWS) {
      const value = otherValue(row);
      const r = parseUrlParams(`?${row.url}=${urlText(value)}`);
      expect(r.messages, row.key).toEqual([]);
      expect(r.settings, row.key).toEqual({ [row.key]: value });
    }
  });

  it('a bad URL value gives a message naming the parameter, and the default stays', () => {
    for (const row of SETTING_ROWS) {
      const bad = badValue(row).url;
      const r = parseUrlParams(`?${row.url}=${encodeURIComponent(bad)}`);
      expect(r.settings, row.key).toEqual({});
      expect(r.messages, row.key).toEqual([
        expect.stringMatching(new RegExp(`^URL parameter ${row.url}="${bad}" ignored: expected .+\\.$`)),
      ]);
      expect({ ...DEFAULT_SETTINGS, ...r.settings }[row.key]).toBe(row.default);
    }
  });

  it('a level file sets exactly the rows with a level field', () => {
    for (const row of SETTING_ROWS) {
      const value = otherValue(row);
      const field = row.level ?? row.key;
      const { level, messages } = parseLevel('t', { [field]: value });
      expect(messages, row.key).toEqual([]);
      expect(level.settings, row.key).toEqual(row.level === null ? {} : { [row.key]: value });
    }
    expect(SETTING_ROWS.filter((r) => r.level === null).map((r) => r.key)).toEqual([
      'bruteForce',
      'showNodes',
      'showVisited',
      'map',
      'workers',
      'crowdPrecision',
    ]);
  });

  it('a bad level value gives a message naming the field, and the default stays', () => {
    for (const row of SETTING_ROWS) {
      if (row.level === null) continue;
      const { level, messages } = parseLevel('t', { [row.level]: badValue(row).level });
      expect(level.settings, row.key).toEqual({});
      expect(messages, row.key).toHaveLength(1);
      expect(messages[0], row.key).toMatch(
        new RegExp(`^Level "t": ${row.level} must be .+; using the default\\.$`),
      );
    }
  });

  it('applying an edit does what the row says, and nothing more', () => {
    for (const row of SETTING_ROWS) {
      const sim = new Simulation(defaultLevel(), { ...DEFAULT_SETTINGS, enemies: 300, seed: 5 }, 3000);
      sim.step(0.016, 0, 0);
      expect(sim.step(0.016, 0, 0)).toBe(false);
      const tree = sim.tree;
      const range = { from: 0, to: 0 };
      sim.takeMovedRange(range);
      sim.request({ [row.key]: otherValue(row) });
      sim.applyRequested();
      expect(sim.settings[row.key], row.key).toBe(otherValue(row));
      const moved = sim.takeMovedRange(range);
      const redetects = sim.step(0, 0, 0); // dt 0: no wandering, only the edit's own effect
      switch (row.effect) {
        case 'regenerate':
          expect(moved && range.from === 0 && range.to === sim.count, row.key).toBe(true);
          expect(sim.tree, row.key).not.toBe(tree);
          expect(redetects, row.key).toBe(true);
          break;
        case 'resize':
          expect(sim.count, row.key).toBe(otherValue(row));
          expect(redetects, row.key).toBe(true);
          break;
        case 'rebuild':
          expect(moved, row.key).toBe(false);
          expect(sim.tree, row.key).not.toBe(tree);
          expect(redetects, row.key).toBe(true);
          break;
        case 'detect':
          expect(moved, row.key).toBe(false);
          expect(sim.tree, row.key).toBe(tree);
          expect(redetects, row.key).toBe(true);
          break;
        case 'step':
        case 'display':
          expect(moved, row.key).toBe(false);
          expect(sim.tree, row.key).toBe(tree);
          expect(redetects, row.key).toBe(false);
          break;
      }
    }
  });

  it('an edit written straight into requested, as the GUI controllers write it, is applied too', () => {
    for (const row of SETTING_ROWS) {
      const sim = new Simulation(defaultLevel(), { ...DEFAULT_SETTINGS, enemies: 300, seed: 5 }, 3000);
      sim.step(0.016, 0, 0);
      sim.applyRequested();
      setSetting(sim.requested, row.key, otherValue(row));
      sim.applyRequested();
      expect(sim.settings[row.key], row.key).toBe(otherValue(row));
    }
  });

  it('a frame nobody wrote to allocates nothing in applyRequested; a write of the same value changes nothing', () => {
    const sim = new Simulation(defaultLevel(), { ...DEFAULT_SETTINGS, enemies: 300, seed: 5 }, 3000);
    sim.applyRequested();
    sim.step(0.016, 0, 0);
    expect(sim.step(0.016, 0, 0)).toBe(false);
    // Against a loop that calls nothing (what the measure itself costs per call), and a control that
    // allocates one small array per call, so the bound is seen to bite.
    const perCall = (body: () => void) =>
      leastBytesPerCall((count) => {
        for (let i = 0; i < count; i++) body();
        return count;
      }, 2000);
    let kept: number[] = [];
    const nothing = perCall(() => {});
    const still = perCall(() => sim.applyRequested());
    const control = perCall(() => {
      sim.applyRequested();
      kept = [sim.settings.radius];
    });
    expect(kept.length).toBe(1);
    expect(still, `${still} bytes a call, the measure's own ${nothing}`).toBeLessThan(nothing + 2);
    expect(control, `the control: ${control} bytes a call`).toBeGreaterThan(nothing + 16);
    // The same radius written again: noted, compared, nothing to do (no new detection).
    sim.requested.radius = sim.settings.radius;
    sim.applyRequested();
    expect(sim.step(0, 0, 0)).toBe(false);
    sim.requested.radius = sim.settings.radius + 1;
    sim.applyRequested();
    expect(sim.settings.radius).toBe(sim.requested.radius);
    expect(sim.step(0, 0, 0)).toBe(true);
  });

  it('watchedSettings notes every kind of write; applyChanged writes what differs and says what it asks for', () => {
    const w = watchedSettings({ ...DEFAULT_SETTINGS });
    expect(w.takeWritten()).toBe(true); // new: compare once
    expect(w.takeWritten()).toBe(false);
    w.settings.speed = DEFAULT_SETTINGS.speed; // the same value: still a write
    expect(w.takeWritten()).toBe(true);
    Object.assign(w.settings, { seed: 9 });
    expect(w.takeWritten()).toBe(true);
    expect(w.target.seed).toBe(9);
    Object.defineProperty(w.settings, 'seed', { value: 10 });
    expect(w.takeWritten()).toBe(true);
    expect(w.settings.seed).toBe(10);
    expect(w.takeWritten()).toBe(false);

    const current = { ...DEFAULT_SETTINGS };
    expect(applyChanged({ ...DEFAULT_SETTINGS }, current)).toBe(-1);
    expect(applyChanged({ ...DEFAULT_SETTINGS, showNodes: !DEFAULT_SETTINGS.showNodes }, current)).toBe(0);
    expect(current.showNodes).toBe(!DEFAULT_SETTINGS.showNodes);
    const next = { ...current, seed: current.seed + 1, enemies: 10, maxItems: 3, radius: 2 };
    expect(applyChanged(next, current)).toBe(
      EFFECT_REGENERATE | EFFECT_RESIZE | EFFECT_REBUILD | EFFECT_DETECT,
    );
    expect(current).toEqual(next);
  });

  it('the simulation writes back a count it changed itself, so the GUI can show it', () => {
    const sim = new Simulation(defaultLevel(), { ...DEFAULT_SETTINGS, enemies: 100 }, 150);
    expect(sim.takeRequestedRewritten()).toBe(false);
    sim.addBatch(0, 0);
    expect(sim.count).toBe(150); // 50 fit
    expect(sim.requested.enemies).toBe(150);
    expect(sim.settings.enemies).toBe(150);
    expect(sim.takeRequestedRewritten()).toBe(true);
    expect(sim.takeRequestedRewritten()).toBe(false);
    sim.request({ enemies: 20 });
    sim.applyRequested();
    expect(sim.count).toBe(20);
    expect(sim.takeRequestedRewritten()).toBe(false); // the GUI asked for exactly that
  });
});
