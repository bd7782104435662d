import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { getState, openScene, useBrowser, waitFrames } from './helpers';

const { browser, baseUrl } = useBrowser();

/** A phone's view, held upright. */
const PHONE = { width: 390, height: 844 };

/** A finger at (x, y); its id is its place in the list unless given. */
type Point = readonly [number, number] | readonly [number, number, number];

/** One touch event through the DevTools protocol: `points` are every finger down after it. */
async function touch(
  cdp: CDPSession,
  type: 'touchStart' | 'touchMove' | 'touchEnd',
  points: readonly Point[],
): Promise<void> {
  await cdp.send('Input.dispatchTouchEvent', {
    type,
    touchPoints: points.map(([x, y, id], i) => ({ x, y, id: id ?? i })),
  });
}

/** A touch device driven through the DevTools protocol, with room for two fingers. */
async function touchScreen(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
  return cdp;
}

/** Wait at least `ms` milliseconds and `frames` frames (condition waits, not sleeps). */
async function hold(page: Page, ms = 500, frames = 5): Promise<void> {
  const start = await page.evaluate(() => ({
    frame: window.quadtreeDemo!.state().frame,
    t: performance.now(),
  }));
  await page.waitForFunction(
    ([f, t, wantMs, wantFrames]) =>
      window.quadtreeDemo!.state().frame >= f + wantFrames && performance.now() >= t + wantMs,
    [start.frame, start.t, ms, frames] as const,
    { polling: 50 },
  );
}

/** Runs in the page: the drawn stick's ring and knob centres, or null while it is hidden. */
function drawnStick(): { ring: Point; knob: Point } | null {
  const stick = document.querySelector<HTMLElement>('#stick');
  if (stick === null || stick.hidden) return null;
  const centre = (selector: string): Point => {
    const r = stick.querySelector(selector)!.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  };
  return { ring: centre('.stick-ring'), knob: centre('.stick-knob') };
}

describe('on a touch screen', () => {
  it('a drag from the lower-left quarter moves the player forward while held, drawn under the finger, and the lift stops it at once', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?enemies=300&seed=2&nodes=0', {
      viewport: PHONE,
      touch: true,
    });
    const cdp = await touchScreen(page);
    const start = await getState(page);
    expect(start.camera.azimuth).toBeCloseTo(0, 6); // behind the player: up the screen is -Z
    const down: Point = [90, 700]; // the lower-left quarter of 390 x 844
    await touch(cdp, 'touchStart', [down]);
    await touch(cdp, 'touchMove', [[down[0], down[1] - 20]]); // a short drag: a slow walk
    await waitFrames(page, 1);
    const short = (await getState(page)).stick;
    expect(short.held).toBe(true);
    expect(short.forward).toBeGreaterThan(0.1);
    expect(short.forward).toBeLessThan(0.5);
    await touch(cdp, 'touchMove', [[down[0], down[1] - 150]]); // past the stick's radius: the limit
    await waitFrames(page, 1);
    expect((await getState(page)).stick).toMatchObject({ held: true, forward: 1 });
    const finger: Point = [down[0], down[1] - 60];
    await touch(cdp, 'touchMove', [finger]); // the radius: full deflection
    await waitFrames(page, 1);
    const before = await getState(page);
    expect(before.stick.forward).toBeCloseTo(1, 6);
    expect(before.stick.right).toBeCloseTo(0, 6);
    const drawn = await page.evaluate(drawnStick);
    expect(drawn, 'the stick is drawn while held').not.toBeNull();
    expect(Math.hypot(drawn!.ring[0] - down[0], drawn!.ring[1] - down[1])).toBeLessThan(2);
    expect(Math.hypot(drawn!.knob[0] - finger[0], drawn!.knob[1] - finger[1])).toBeLessThan(2);

    await hold(page);
    const during = await getState(page);
    const dz = during.player.z - before.player.z;
    expect(dz, 'forward: towards -Z').toBeLessThan(-1);
    expect(Math.abs(during.player.x - before.player.x)).toBeLessThan(Math.abs(dz) * 0.05);
    // The stick is no orbit and no zoom: the camera only follows the player.
    expect(during.camera.azimuth).toBeCloseTo(start.camera.azimuth, 6);
    expect(during.camera.polar).toBeCloseTo(start.camera.polar, 6);
    expect(during.camera.distance).toBeCloseTo(start.camera.distance, 6);

    await touch(cdp, 'touchEnd', []);
    await waitFrames(page, 1);
    const lifted = await getState(page);
    expect(lifted.stick).toEqual({ held: false, forward: 0, right: 0 });
    expect(await page.evaluate(drawnStick)).toBeNull();
    await hold(page);
    expect((await getState(page)).player).toEqual(lifted.player); // stopped at once, and stays
    expect(lifted.enemyCount).toBe(300); // a drag of the stick is no tap
    expect(errors).toEqual([]);
  });

  it('one finger elsewhere orbits, two pinch to zoom, a tap on the ground adds 100 enemies, and the help names the gestures', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?enemies=300&seed=2&nodes=0', {
      viewport: PHONE,
      touch: true,
    });
    const help = await page.locator('#help').innerText();
    expect(help).toMatch(/lower left: move/);
    expect(help).toMatch(/pinch: zoom/);
    expect(help).toMatch(/tap: \+100/);
    expect(help).not.toMatch(/WASD|wheel|click/);
    const cdp = await touchScreen(page);
    const s0 = await getState(page);

    // One finger in the right half: an orbit, not the stick, and no tap.
    await touch(cdp, 'touchStart', [[340, 550]]);
    for (const x of [320, 290, 260, 230, 220]) await touch(cdp, 'touchMove', [[x, 550]]);
    await touch(cdp, 'touchEnd', []);
    await waitFrames(page, 3);
    const s1 = await getState(page);
    expect(Math.abs(s1.camera.azimuth - s0.camera.azimuth)).toBeGreaterThan(0.2);
    expect(s1.player).toEqual(s0.player);
    expect(s1.enemyCount).toBe(300);

    // Two fingers, the first held still and the second moving away: zoom in; the first one's lift is no tap.
    await touch(cdp, 'touchStart', [[250, 600]]);
    await touch(cdp, 'touchStart', [
      [250, 600],
      [300, 600],
    ]);
    for (const x of [320, 340, 360, 380]) {
      await touch(cdp, 'touchMove', [
        [250, 600],
        [x, 600],
      ]);
    }
    await touch(cdp, 'touchEnd', [[380, 600, 1]]); // the first finger lifts, the second stays
    await touch(cdp, 'touchEnd', []);
    await waitFrames(page, 3);
    const s2 = await getState(page);
    expect(s2.camera.distance).toBeLessThan(s1.camera.distance * 0.8);
    expect(s2.enemyCount).toBe(300);
    expect(s2.player).toEqual(s0.player);

    // A tap on the ground adds 100 enemies, as a click does; in the stick's quarter too.
    await touch(cdp, 'touchStart', [[300, 520]]);
    await touch(cdp, 'touchEnd', []);
    await waitFrames(page, 2);
    expect((await getState(page)).enemyCount).toBe(400);
    await touch(cdp, 'touchStart', [[90, 700]]);
    await touch(cdp, 'touchEnd', []);
    await waitFrames(page, 2);
    const s3 = await getState(page);
    expect(s3.enemyCount).toBe(500);
    expect(s3.player).toEqual(s0.player);
    expect(errors).toEqual([]);
  });
});

describe('with a mouse', () => {
  it('the lower-left quarter is no stick: a drag there orbits; the help names the keys', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?enemies=300&seed=2&nodes=0');
    const help = await page.locator('#help').innerText();
    expect(help).toMatch(/W\s*A\s*S\s*D/);
    expect(help).toMatch(/wheel to zoom/);
    expect(help).not.toMatch(/pinch/);
    const s0 = await getState(page);
    await page.mouse.move(100, 500);
    await page.mouse.down();
    await page.mouse.move(200, 500, { steps: 5 });
    await page.mouse.up();
    await waitFrames(page, 3);
    const s1 = await getState(page);
    expect(s1.stick.held).toBe(false);
    expect(Math.abs(s1.camera.azimuth - s0.camera.azimuth)).toBeGreaterThan(0.2);
    expect(s1.player).toEqual(s0.player);
    expect(errors).toEqual([]);
  });
});
