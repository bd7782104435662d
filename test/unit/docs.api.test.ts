/**
 * The API docs cannot leave anything out: every name an entry point of the library exports (values and
 * types), and every public member of the classes it exports (methods, getters, fields, statics), must be
 * named in docs/api.md and in the package README's API tables (in code: `name`, `tree.name(...)`, ...).
 * The names come from the entry points' sources and the classes' declarations; the runtime exports are
 * checked against them, so a name cannot hide from the parse.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const pkg = path.join(root, 'src/quadtree');

/** The entry points: the subpath a user imports, and its source file in the package. */
const ENTRIES = [
  ['point-quadtree', 'index.ts'],
  ['point-quadtree/debug', 'debug.ts'],
  ['point-quadtree/crowd', 'crowd.ts'],
  ['point-quadtree/parallel', 'parallel.ts'],
] as const;

const read = (file: string): string => readFileSync(file, 'utf8');

/** Each name `file` exports (`export { a, type B } from`, `export type { ... }`, `export function|class|const`), with the file it is declared in. */
function exportsOf(file: string): Map<string, string> {
  const text = read(file);
  expect(text, `${file}: export * hides what it exports`).not.toMatch(/export \*/);
  const names = new Map<string, string>();
  for (const m of text.matchAll(/export (?:type )?\{([^}]*)\} from '([^']+)'/g)) {
    const from = path.resolve(path.dirname(file), `${m[2]}.ts`);
    for (const part of m[1].split(',')) {
      const name = part.replace(/^\s*type\s+/, '').trim();
      if (name !== '') names.set(name, from);
    }
  }
  for (const m of text.matchAll(/^export (?:async )?(?:function|class|const|let|interface|type) (\w+)/gm)) {
    names.set(m[1], file);
  }
  return names;
}

/** The public members of class `name` declared in `file`: what is not private or protected, nor the constructor. */
function publicMembers(file: string, name: string): string[] {
  const text = read(file);
  const start = text.indexOf(`export class ${name} `);
  expect(start, `class ${name} in ${file}`).toBeGreaterThanOrEqual(0);
  const body = text.slice(start, text.indexOf('\n}\n', start));
  const members = new Set<string>();
  for (const m of body.matchAll(
    /^ {2}(?:static )?(?:override )?(?:readonly )?(?:get |set )?([A-Za-z_$][\w$]*)\s*[(<:?=]/gm,
  )) {
    if (m[1] !== 'constructor') members.add(m[1]);
  }
  return [...members].sort();
}

/** Whether `text` names `name` in code: a `...` span in which it is a whole word. */
function namesInCode(text: string, name: string): boolean {
  const word = new RegExp(`(^|[^\\w$])${name.replace(/\$/g, '\\$')}($|[^\\w$])`);
  return [...text.matchAll(/`([^`\n]+)`/g)].some((m) => word.test(m[1]));
}

/** The table rows of the package README's "## API" section. */
function readmeApiTables(): string {
  const readme = read(path.join(pkg, 'README.md'));
  const start = readme.indexOf('\n## API\n');
  expect(start, 'the package README has an "## API" section').toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .join('\n');
}

const apiMd = read(path.join(root, 'docs/api.md'));
const readmeTables = readmeApiTables();

describe.each(ENTRIES)('%s', (subpath, file) => {
  const names = exportsOf(path.join(pkg, file));

  it('exports at run time only the names its source declares (the parse below misses none)', async () => {
    const module = (await import(subpath)) as Record<string, unknown>;
    expect(Object.keys(module).length).toBeGreaterThan(0);
    for (const key of Object.keys(module))
      expect([...names.keys()], `${subpath} exports ${key}`).toContain(key);
  });

  it('names every export in docs/api.md and in the package README API tables', () => {
    expect(names.size).toBeGreaterThan(0);
    for (const name of names.keys()) {
      expect(namesInCode(apiMd, name), `docs/api.md should name ${subpath}'s ${name}`).toBe(true);
      expect(namesInCode(readmeTables, name), `the package README's API tables should name ${name}`).toBe(
        true,
      );
    }
  });

  it('names every public member of the classes it exports, in both', async () => {
    const module = (await import(subpath)) as Record<string, unknown>;
    for (const [name, source] of names) {
      if (typeof module[name] !== 'function' || !/^class\b/.test(String(module[name]))) continue;
      const members = publicMembers(source, name);
      expect(members.length, `${name} has public members`).toBeGreaterThan(0);
      for (const member of members) {
        expect(namesInCode(apiMd, member), `docs/api.md should name ${name}.${member}`).toBe(true);
        expect(
          namesInCode(readmeTables, member),
          `the package README's API tables should name ${name}.${member}`,
        ).toBe(true);
      }
    }
  });
});
