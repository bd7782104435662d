/**
 * Helpers for the browser tests: open the scene, wait on its frame counter (never a fixed time), drive the
 * lil-gui panel like a person, and read the scene back through `window.quadtreeDemo`.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, onTestFinished } from 'vitest';
import type { DemoState } from '../../src/app/quadtreeDemo';
import { launchBrowser } from './browser';

/**
 * One Chromium for the calling test file: launched before its tests, closed after them. Returns the browser
 * and the URL the global setup serves the built app on.
 */
export function useBrowser(): { browser: () => Browser; baseUrl: string } {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser(inject('browser'));
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    browser: () => {
      if (browser === undefined) throw new Error('the browser is not launched yet');
      return browser;
    },
    baseUrl: inject('baseUrl'),
  };
}

/** A modest viewport: SwiftShader renders on the CPU. */
export const VIEWPORT = { width: 900, height: 600 };

export interface ScenePage {
  page: Page;
  /**
   * Console errors, uncaught page errors, and errors the page showed in its message box (a frame that threw,
   * a start that failed), seen so far. Every test fails at its end while this is not empty: a test that
   * expects an error asserts it and then empties the array.
   */
  errors: string[];
}

export interface SceneOptions {
  viewport?: { width: number; height: number };
  /** A touch screen, as a phone's: touch events, `(pointer: coarse)`, the mobile viewport. */
  touch?: boolean;
  /** Runs before the page loads the scene (e.g. to route requests). */
  beforeGoto?: (page: Page) => Promise<void>;
}

/**
 * The messages the app shows in #messages when it fails, rather than when an input is bad: a frame that
 * threw stops the scene (src/app.ts, the frame loop's catch) and a start that threw (src/main.ts). Bad URL
 * values and level files are shown there too, and are not errors of the app.
 */
export const PAGE_ERROR = /^The scene (stopped|could not start)\b/;

/**
 * Runs in the page before its scripts: whenever #messages changes, hands the messages not yet reported to
 * `window.__e2eShown` (all of them from the hook once it is installed, since the box lists only the first
 * few; until then the listed ones). `window.__e2eCollect()` does the same at once and returns them.
 */
function watchMessages(): void {
  let reported = 0;
  const w = window as unknown as {
    __e2eShown?: (texts: string[]) => void;
    __e2eCollect?: () => string[];
    quadtreeDemo?: { state(): { messages: string[] } };
  };
  const collect = (): string[] => {
    let all: string[];
    try {
      all = w.quadtreeDemo ? w.quadtreeDemo.state().messages : [];
    } catch {
      all = [];
    }
    if (all.length === 0) {
      all = [...document.querySelectorAll('#messages li')].map((li) => li.textContent ?? '');
    }
    const fresh = all.slice(reported);
    reported = Math.max(reported, all.length);
    return fresh;
  };
  w.__e2eCollect = collect;
  const start = () => {
    const box = document.getElementById('messages');
    if (box === null) return;
    new MutationObserver(() => {
      const fresh = collect();
      if (fresh.length > 0) w.__e2eShown?.(fresh);
    }).observe(box, { childList: true, subtree: true, characterData: true, attributes: true });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
}

/**
 * The scene fixture's first half: a new page that records errors (see {@link ScenePage.errors}) and is
 * closed when the test finishes, passed or failed, so a failing test leaks no page into the next one.
 * When the test finishes the page's last messages are read and the test fails if any error was recorded.
 * Call it inside a test.
 */
export async function newScenePage(browser: Browser, options: SceneOptions = {}): Promise<ScenePage> {
  const touch = options.touch === true;
  const page = await browser.newPage({
    viewport: options.viewport ?? VIEWPORT,
    hasTouch: touch,
    isMobile: touch,
  });
  const errors: string[] = [];
  const shown = (texts: string[]) => {
    for (const text of texts) if (PAGE_ERROR.test(text)) errors.push(`page message: ${text}`);
  };
  onTestFinished(async () => {
    if (!page.isClosed()) {
      shown(await page.evaluate(() => (window as { __e2eCollect?: () => string[] }).__e2eCollect?.() ?? []));
      await page.close();
    }
    if (errors.length > 0) throw new Error(`the page reported errors:\n${errors.join('\n')}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  await page.exposeFunction('__e2eShown', shown);
  await page.addInitScript(watchMessages);
  if (options.beforeGoto) await options.beforeGoto(page);
  return { page, errors };
}

/**
 * For pages whose timings a test reads: makes `performance.now()` strictly increasing (each reading adds a
 * microsecond to the real clock), so a timed span is never 0 however coarse the browser's clock. Pass as
 * `beforeGoto`.
 */
export async function strictClock(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const now = performance.now.bind(performance);
    let readings = 0;
    performance.now = () => now() + ++readings * 0.001;
  });
}

/** Wait until the scene is up (its hook is installed) and has rendered a few frames. */
export async function waitForScene(page: Page): Promise<void> {
  await page.waitForFunction(() => window.quadtreeDemo !== undefined, undefined, { polling: 50 });
  await waitFrames(page, 3);
}

/**
 * The scene fixture: open the scene with a query string (e.g. '?enemies=2000') in a new page (closed when
 * the test finishes, see {@link newScenePage}) and wait until it has rendered a few frames.
 */
export async function openScene(
  browser: Browser,
  baseUrl: string,
  query = '',
  options: SceneOptions = {},
): Promise<ScenePage> {
  const scene = await newScenePage(browser, options);
  await scene.page.goto(new URL(query, baseUrl).toString());
  await waitForScene(scene.page);
  return scene;
}

/** The scene's state (one synchronous read in the page: consistent within a frame). */
export function getState(page: Page): Promise<DemoState> {
  return page.evaluate(() => window.quadtreeDemo!.state());
}

/** Wait until at least `n` more frames have been rendered. */
export async function waitFrames(page: Page, n: number): Promise<number> {
  const start = await page.evaluate(() => window.quadtreeDemo?.state().frame ?? 0);
  const target = start + n;
  await page.waitForFunction((t) => (window.quadtreeDemo?.state().frame ?? -1) >= t, target, { polling: 50 });
  return target;
}

/** Hold keys for at least `ms` milliseconds and `frames` frames (condition waits, not sleeps). */
export async function holdKeys(page: Page, keys: string[], ms = 500, frames = 5): Promise<void> {
  const startFrame = await page.evaluate(() => window.quadtreeDemo!.state().frame);
  for (const key of keys) await page.keyboard.down(key);
  const startTime = await page.evaluate(() => performance.now());
  await page.waitForFunction(
    ([f, t, wantMs, wantFrames]) =>
      window.quadtreeDemo!.state().frame >= f + wantFrames && performance.now() >= t + wantMs,
    [startFrame, startTime, ms, frames] as const,
    { polling: 50 },
  );
  for (const key of [...keys].reverse()) await page.keyboard.up(key);
  await waitFrames(page, 1);
}

/** The lil-gui row whose label is exactly `name`. */
export function controller(page: Page, name: string): Locator {
  return page.locator('.lil-controller').filter({
    has: page.locator('.lil-name', {
      hasText: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
    }),
  });
}

/** Click lil-gui's slider where `value` lies on it (min..max), like a person would. */
export async function clickSlider(
  page: Page,
  name: string,
  value: number,
  min: number,
  max: number,
): Promise<void> {
  const slider = controller(page, name).locator('.lil-slider');
  const box = await slider.boundingBox();
  if (box === null) throw new Error(`slider "${name}" is not visible`);
  const x = box.x + ((value - min) / (max - min)) * box.width;
  await page.mouse.click(x, box.y + box.height / 2);
}

/** Type a value into a lil-gui number box and press Enter, then move the focus away. */
export async function typeNumber(page: Page, name: string, value: number): Promise<void> {
  const input = controller(page, name).locator('input');
  await input.fill(String(value));
  await input.press('Enter');
  await input.blur();
}

/** Click a lil-gui checkbox. */
export async function clickCheckbox(page: Page, name: string): Promise<void> {
  await controller(page, name).locator('input[type="checkbox"]').click();
}

/** Ids i < count with (x - cx)² + (z - cz)² <= r², from an x,z pair array: the brute-force oracle. */
export function scanCircle(positions: ArrayLike<number>, cx: number, cz: number, r: number): number[] {
  const ids: number[] = [];
  for (let i = 0; i < positions.length / 2; i++) {
    const dx = positions[2 * i] - cx;
    const dz = positions[2 * i + 1] - cz;
    if (dx * dx + dz * dz <= r * r) ids.push(i);
  }
  return ids;
}

/**
 * One consistent snapshot (all read in the same page task, so in the same frame): state, positions as a
 * plain array, and every enemy's colour.
 */
/** Reads the scene and checks that `found` is exactly a brute-force scan of the enemy positions. */
export async function expectFoundIsBruteForce(page: Page) {
  const snap = await snapshot(page);
  const { state, positions } = snap;
  expect(state.found).toEqual(scanCircle(positions, state.player.x, state.player.z, state.radius));
  return snap;
}

export async function snapshot(
  page: Page,
): Promise<{ state: DemoState; positions: number[]; colors: string[] }> {
  return page.evaluate(() => {
    const demo = window.quadtreeDemo!;
    const state = demo.state();
    const positions = Array.from(demo.enemyPositions());
    const colors: string[] = [];
    for (let i = 0; i < state.enemyCount; i++) colors.push(demo.enemyColor(i));
    return { state, positions, colors };
  });
}

export interface PixelStats {
  width: number;
  height: number;
  /** Distinct colours after quantising each channel to 16 levels. */
  distinct: number;
  /** Share of pixels that differ clearly from the most common colour. */
  nonBackground: number;
  /** Pixels near a given colour, by name. */
  near: Record<string, number>;
}

/**
 * Screenshot the WebGL canvas and measure its pixels, decoding the PNG in the page (no image package).
 * `targets` maps a name to '#rrggbb'; a pixel is "near" within `tolerance` per channel.
 */
export async function canvasPixels(
  page: Page,
  targets: Record<string, string> = {},
  tolerance = 40,
): Promise<PixelStats> {
  const png = await page.locator('canvas#scene').screenshot();
  return page.evaluate(
    async ({ b64, targets, tolerance }) => {
      const blob = await (await fetch(`data:image/png;base64,${b64}`)).blob();
      const bitmap = await createImageBitmap(blob);
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      const data = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
      const histogram = new Map<number, number>();
      const wanted = Object.entries(targets).map(([name, hex]) => ({
        name,
        r: Number.parseInt(hex.slice(1, 3), 16),
        g: Number.parseInt(hex.slice(3, 5), 16),
        b: Number.parseInt(hex.slice(5, 7), 16),
      }));
      const near: Record<string, number> = {};
      for (const w of wanted) near[w.name] = 0;
      for (let i = 0; i < data.length; i += 4) {
        const r = data[i];
        const g = data[i + 1];
        const b = data[i + 2];
        const key = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
        histogram.set(key, (histogram.get(key) ?? 0) + 1);
        for (const w of wanted) {
          if (
            Math.abs(r - w.r) <= tolerance &&
            Math.abs(g - w.g) <= tolerance &&
            Math.abs(b - w.b) <= tolerance
          ) {
            near[w.name]++;
          }
        }
      }
      const total = data.length / 4;
      const top = Math.max(...histogram.values());
      return {
        width: bitmap.width,
        height: bitmap.height,
        distinct: histogram.size,
        nonBackground: (total - top) / total,
        near,
      };
    },
    { b64: png.toString('base64'), targets, tolerance },
  );
}
