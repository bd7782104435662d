import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openScene, useBrowser, waitFrames } from './helpers';

const { browser, baseUrl } = useBrowser();

/**
 * Runs in the page before its scripts: every animation frame first spends `window.__frameCostMs` of busy
 * time, so a test can make frames slow by a known amount whatever the machine (the rAF timestamp the scene
 * reads is taken before it, as for any slow frame).
 */
function slowFrames(): void {
  const w = window as unknown as { __frameCostMs: number };
  w.__frameCostMs = 0;
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) =>
    raf((time) => {
      const end = performance.now() + w.__frameCostMs;
      while (performance.now() < end) {
        // busy: the page's main thread is taken, as by a heavy frame
      }
      callback(time);
    });
}

/** Frames drawn per second of real time, counted in the page over at least `frames` frames and `ms`. */
async function measuredFps(page: Page, frames: number, ms: number): Promise<number> {
  const start = await page.evaluate(() => ({
    frame: window.quadtreeDemo!.state().frame,
    t: performance.now(),
  }));
  const end = await page.waitForFunction(
    ([f, t, wantFrames, wantMs]) => {
      const frame = window.quadtreeDemo!.state().frame;
      const now = performance.now();
      return frame >= f + wantFrames && now >= t + wantMs ? { frame, t: now } : false;
    },
    [start.frame, start.t, frames, ms] as const,
    { polling: 20 },
  );
  const { frame, t } = (await end.jsonValue()) as { frame: number; t: number };
  return (frame - start.frame) / ((t - start.t) / 1000);
}

describe('the HUD', () => {
  it('shows the frames really drawn per second, below 10 too, and says when the 0.1 s step clamp slows the simulation', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?enemies=300&seed=2', {
      beforeGoto: async (p) => {
        await p.addInitScript(slowFrames);
      },
    });
    // Every frame takes at least 250 ms: at most 4 a second, each over the 0.1 s clamp.
    await page.evaluate(() => {
      (window as unknown as { __frameCostMs: number }).__frameCostMs = 250;
    });
    await waitFrames(page, 6); // the HUD's window (about a second) holds only slow frames now
    const real = await measuredFps(page, 5, 1500);
    const hud = await page.evaluate(() => ({
      fps: document.querySelector('#hud tr[data-key="fps"] td')!.textContent,
      slowed: (document.querySelector('#hud tr[data-key="slowed"]') as HTMLElement).hidden,
      note: document.querySelector('#hud tr[data-key="slowed"] td')!.textContent,
    }));
    const shown = Number(hud.fps);
    expect(real).toBeLessThan(4.1);
    expect(shown, `HUD says ${hud.fps} FPS, the page drew ${real.toFixed(2)} a second`).toBeLessThan(10);
    // The same rate (the HUD's window is the last second, the count here the last 1.5 s or more).
    expect(shown).toBeGreaterThan(real / 2);
    expect(shown).toBeLessThan(real * 2);
    expect(hud.fps).toMatch(/^\d\.\d$/); // one decimal below 10
    expect(hud.slowed).toBe(false);
    expect(hud.note).toBe('slowed: frames capped at 0.1 s');
    expect(errors).toEqual([]);
  });
});
