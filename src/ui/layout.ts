/**
 * The view sizes at which the panels change their layout (src/ui/style.css lays them out; its media queries
 * use these very queries, and test/unit/ui.layout.test.ts keeps the two in step).
 */

/** A phone: one column of panels, the settings panel starts closed, the HUD shows its first lines only. */
export const NARROW_SCREEN = '(max-width: 599px)';

/** Wide enough for the map and the settings panel side by side at the right of the HUD. */
export const WIDE_SCREEN = '(min-width: 880px)';

/** Whether the view is narrow now ({@link NARROW_SCREEN}). */
export function isNarrowScreen(): boolean {
  return window.matchMedia(NARROW_SCREEN).matches;
}
