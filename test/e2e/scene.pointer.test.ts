import { describe, expect, it } from 'vitest';
import { canvasPixels, getState, openScene, useBrowser, waitFrames } from './helpers';

const { browser, baseUrl } = useBrowser();

describe('the rectangle tool', () => {
  // The pointer tools report the rectangle being dragged and the view draws it: the outline must show while
  // the button is still down, before any rectangle query is applied.
  it('draws the rectangle while it is dragged, before the release applies it', async () => {
    const { page, errors } = await openScene(browser(), baseUrl, '?enemies=200&seed=4&nodes=0');
    const colors = (await getState(page)).colors;
    const box = (await page.locator('canvas#scene').boundingBox())!;
    // The panel's blue figures are near the rectangle colour too: compare with the same view before the drag.
    const before = await canvasPixels(page, { rect: colors.rect }, 30);

    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.35);
    await page.mouse.down({ button: 'right' });
    await page.mouse.move(box.x + box.width * 0.65, box.y + box.height * 0.75, { steps: 6 });
    await waitFrames(page, 3);
    const dragging = await canvasPixels(page, { rect: colors.rect }, 30);
    const midDrag = await getState(page);
    await page.mouse.up({ button: 'right' });
    await waitFrames(page, 2);

    expect(midDrag.rect).toBeNull(); // not applied yet
    expect(dragging.near.rect).toBeGreaterThan(before.near.rect + 100); // the outline's four edges
    expect((await getState(page)).rect).not.toBeNull();
    expect(errors).toEqual([]);
  });
});
