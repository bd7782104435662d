import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anchors, checkDocs, documents, headingSlug } from '../../scripts/docCheck';

const root = path.resolve(import.meta.dirname, '../..');

describe('the docs point at things that exist', () => {
  it('every relative link, #anchor and `npm run` script of README.md and docs/*.md resolves', () => {
    expect(documents(root)).toContain('README.md');
    expect(documents(root)).toContain('docs/scene.md');
    expect(checkDocs(root)).toEqual([]);
  });
});

describe('GitHub heading anchors', () => {
  it.each([
    ['Coming from Unity', 'coming-from-unity'],
    ['The library: `src/quadtree`', 'the-library-srcquadtree'],
    ['`window.quadtreeDemo`', 'windowquadtreedemo'],
    ['Side by side at N = 100,000', 'side-by-side-at-n--100000'],
    ["The scene's frame in Node, crowd mode", 'the-scenes-frame-in-node-crowd-mode'],
    ['Move_all and **bold**', 'move_all-and-bold'],
  ])('%s -> #%s', (heading, slug) => {
    expect(headingSlug(heading)).toBe(slug);
  });

  it('numbers repeated headings and ignores headings in code blocks', () => {
    const found = anchors('# Usage\n## Usage\n```sh\n# not a heading\n```\n### Usage\n');
    expect([...found]).toEqual(['usage', 'usage-1', 'usage-2']);
  });
});

describe('the checker finds what is broken', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'docs-check-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a missing file, a missing anchor and an unknown npm script, each with its line', () => {
    mkdirSync(path.join(dir, 'docs'));
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { dev: 'vite' } }));
    writeFileSync(
      path.join(dir, 'README.md'),
      [
        '# Title',
        'See [the guide](docs/guide.md#setup) and [the title](#title) and [https](https://example.com).',
        'Run `npm run dev`, then `npm run serve`.',
        '![shot](docs/missing.png)',
        '<img src="docs/gone.png" width="20%" alt="gone">',
        '```sh',
        '[not a link](nowhere.md)',
        '```',
      ].join('\n'),
    );
    writeFileSync(path.join(dir, 'docs/guide.md'), '# Guide\n\nBack to [the readme](../README.md#nope).\n');
    expect(checkDocs(dir)).toEqual([
      'README.md:2: link to docs/guide.md#setup: docs/guide.md has no heading #setup',
      'README.md:4: link to docs/missing.png: docs/missing.png does not exist',
      'README.md:5: link to docs/gone.png: docs/gone.png does not exist',
      'README.md:3: npm run serve: package.json has no script serve',
      'docs/guide.md:3: link to ../README.md#nope: README.md has no heading #nope',
    ]);
  });
});
