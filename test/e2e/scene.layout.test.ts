import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openScene, useBrowser, waitFrames } from './helpers';

const { browser, baseUrl } = useBrowser();

/** The panels that must never cover one another or leave the view. */
const PANELS = ['#hud', '#gui', '#map', '#help', '#messages'] as const;

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Runs in the page: each panel's box, whether it shows, and whether its content spills out of it. */
function readPanels(selectors: readonly string[]) {
  return selectors.map((selector) => {
    const el = document.querySelector<HTMLElement>(selector);
    if (el === null) return { selector, shown: false, box: null, spills: false };
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    const shown = style.display !== 'none' && style.visibility !== 'hidden' && r.width > 0 && r.height > 0;
    // A panel that does not scroll must hold its content (the settings panel and the messages scroll).
    const scrolls = selector === '#gui' || selector === '#messages';
    const spills = !scrolls && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
    return { selector, shown, box: { left: r.left, top: r.top, right: r.right, bottom: r.bottom }, spills };
  });
}

/** Area two boxes share (0 when they only touch). */
function overlap(a: Box, b: Box): number {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

/** Every panel shows, inside the view, over no other panel, holding its content. */
async function expectLaidOut(page: Page, width: number, height: number): Promise<void> {
  const panels = await page.evaluate(readPanels, PANELS);
  const where = (p: (typeof panels)[number]) =>
    `${p.selector} ${JSON.stringify(p.box)} at ${width} x ${height}`;
  for (const p of panels) {
    expect(p.shown, `${p.selector} shows at ${width} x ${height}`).toBe(true);
    const b = p.box!;
    expect(b.left, where(p)).toBeGreaterThanOrEqual(0);
    expect(b.top, where(p)).toBeGreaterThanOrEqual(0);
    expect(b.right, where(p)).toBeLessThanOrEqual(width);
    expect(b.bottom, where(p)).toBeLessThanOrEqual(height);
    expect(p.spills, `${where(p)}: its content spills out`).toBe(false);
  }
  for (let i = 0; i < panels.length; i++) {
    for (let j = i + 1; j < panels.length; j++) {
      const shared = overlap(panels[i].box!, panels[j].box!);
      expect(shared, `${where(panels[i])} overlaps ${where(panels[j])}`).toBe(0);
    }
  }
}

/** Crowd mode (the HUD's longest lines), the map, and a bad value so that the message box shows too. */
const QUERY = '?map=1&crowd=1&moving=1&enemies=2000&seed=3&radius=oops';

describe('the panels are laid out for the size of the view', () => {
  it.each([
    [1280, 800, false],
    [900, 600, false],
    [390, 844, true],
    [390, 844, false],
  ])(
    'at %i x %i (touch: %s) with the map on, no panel covers another or leaves the view',
    async (width, height, touch) => {
      const { page, errors } = await openScene(browser(), baseUrl, QUERY, {
        viewport: { width, height },
        touch,
      });
      await page.locator('#map').waitFor({ state: 'visible' });
      await page.locator('#messages').waitFor({ state: 'visible' });
      await waitFrames(page, 3); // the HUD and the map's legend have written their text
      await expectLaidOut(page, width, height);
      if (width < 600) {
        // A phone starts with the settings closed; opened, the panel scrolls inside the room it has.
        expect(await page.locator('#gui').evaluate((el) => el.classList.contains('lil-closed'))).toBe(true);
        await page.locator('#gui > .lil-title').click();
        await waitFrames(page, 1);
        expect(await page.locator('#gui').evaluate((el) => el.classList.contains('lil-closed'))).toBe(false);
        await expectLaidOut(page, width, height);
      }
      expect((await page.evaluate(() => window.quadtreeDemo!.state().messages)).join()).toContain('oops');
      expect(errors).toEqual([]);
    },
  );
});
