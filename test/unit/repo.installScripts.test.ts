/**
 * npm 11 skips a dependency's install scripts unless `allowScripts` in package.json covers it, and warns
 * about each one it skipped (`npm warn install-scripts …`) at the end of `npm install` and `npm ci`: the
 * first command a newcomer runs. Every package of the lockfile that has an install script must be approved
 * or denied there (see docs/development.md, "Install scripts").
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));

interface LockEntry {
  version?: string;
  hasInstallScript?: boolean;
}

/** The packages of the lockfile that have an install script, as `name@version`. */
function withInstallScripts(): string[] {
  const lock = read('package-lock.json') as { packages: Record<string, LockEntry> };
  const found = new Set<string>();
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (where === '' || entry.hasInstallScript !== true) continue;
    const name = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
    found.add(`${name}@${entry.version}`);
  }
  return [...found].sort();
}

/** Whether an allowScripts key (`name` or `name@version`) covers `name@version`. */
function covers(key: string, spec: string): boolean {
  const at = spec.lastIndexOf('@');
  return key === spec.slice(0, at) || key === spec;
}

describe('install scripts', () => {
  it('every dependency with an install script is approved or denied in allowScripts (no npm warn on install)', () => {
    const allow = (read('package.json') as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
    const scripts = withInstallScripts();
    expect(scripts.some((spec) => spec.startsWith('esbuild@'))).toBe(true); // the one there is today
    const uncovered = scripts.filter((spec) => !Object.keys(allow).some((key) => covers(key, spec)));
    expect(uncovered).toEqual([]);
  });
});
