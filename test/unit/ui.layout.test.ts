import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NARROW_SCREEN, WIDE_SCREEN } from '../../src/ui/layout';

const css = readFileSync(path.resolve(import.meta.dirname, '../../src/ui/style.css'), 'utf8');

describe('the panel layout breakpoints', () => {
  it('style.css lays the panels out at the widths src/ui/layout.ts names, and at no other width', () => {
    const widths = [...css.matchAll(/@media ([^{]*\b(?:min|max)-width[^{]*)\{/g)].map((m) => m[1].trim());
    expect(widths.sort()).toEqual([NARROW_SCREEN, WIDE_SCREEN].sort());
  });
});
