/**
 * The docs of point-quadtree/three kept in step with the code: the package README's "With three.js" snippet
 * is the example page's own code, and docs/api.md names every export of the entry.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as three from 'point-quadtree/three';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** A line's code: without its indentation and its trailing `//` comment. */
function code(line: string): string {
  return line.replace(/\s+\/\/ .*$/, '').trim();
}

describe('docs of point-quadtree/three', () => {
  it("the package README's With three.js snippet is code of the example page, line for line", () => {
    const readme = read('src/quadtree/README.md');
    const section = readme.slice(readme.indexOf('## With three.js'));
    const snippet = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(snippet, 'a ts code block in the section').toBeDefined();
    const example = new Set(read('examples/instanced.ts').split('\n').map(code));
    const lines = snippet!
      .split('\n')
      .filter((line) => code(line) !== '' && !line.trim().startsWith('//'))
      .map(code);
    expect(lines.length).toBeGreaterThan(15);
    expect(lines.filter((line) => !example.has(line))).toEqual([]);
  });

  it('docs/api.md names every export of the entry, and the package README its functions', () => {
    const entry = read('src/quadtree/three/index.ts');
    const names = [...entry.matchAll(/export \{([^}]*)\}/g)].flatMap((m) =>
      m[1]
        .split(',')
        .map((name) => name.replace(/^\s*type\s+/, '').trim())
        .filter((name) => name !== ''),
    );
    // every value the entry exports at run time is in that list
    expect(names).toEqual(expect.arrayContaining(Object.keys(three)));
    const api = read('docs/api.md');
    expect(names.filter((name) => !api.includes(`\`${name}\``))).toEqual([]);
    const readme = read('src/quadtree/README.md');
    expect(Object.keys(three).filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });
});
