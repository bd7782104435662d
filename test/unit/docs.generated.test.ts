import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  fillGenerated,
  GENERATED_DOCS,
  generatedBlocks,
  levelFieldTable,
  levelPresetTable,
  urlParameterTable,
} from '../../scripts/docTables';
import { SETTING_ROWS } from '../../src/sim/settings';
import { URL_PARAMETERS } from '../../src/sim/urlParams';

const root = path.resolve(import.meta.dirname, '../..');

describe('generated tables of the docs', () => {
  it.each(GENERATED_DOCS)('%s holds exactly what `npm run docs` writes', (file) => {
    const text = readFileSync(path.join(root, file), 'utf8');
    // On failure: run `npm run docs` and commit the result.
    expect(fillGenerated(text, generatedBlocks(root, file))).toBe(text);
  });

  it('the URL table has a row for every parameter the parser reads, in its order', () => {
    const names = [...urlParameterTable().matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
    expect(names).toEqual([...URL_PARAMETERS]);
  });

  it('the level table has a row for every setting a level file may set, and names the others', () => {
    const text = levelFieldTable();
    const fields = [...text.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
    expect(fields).toEqual(SETTING_ROWS.filter((r) => r.level !== null).map((r) => r.level));
    for (const row of SETTING_ROWS.filter((r) => r.level === null)) expect(text).toContain(`\`${row.url}\``);
  });

  it('the presets table says which levels start moving and in crowd mode, as their files do', () => {
    const body = levelPresetTable(root).split('\n').slice(2).join('\n'); // without the header
    const rows = [...body.matchAll(/^\| `([^`]+)` \|(.*)$/gm)].map((m) => [
      m[1],
      m[2].split(' | ').map((cell) => cell.trim()),
    ]);
    const shown = Object.fromEntries(rows.map(([name, cells]) => [name, `${cells[3]} ${cells[4]}`]));
    for (const name of Object.keys(shown)) {
      const file = JSON.parse(readFileSync(path.join(root, `assets/levels/${name}.json`), 'utf8'));
      const onOff = (flag: boolean) => (flag ? 'on' : 'off');
      expect(shown[name], name).toBe(`${onOff(file.moving)} ${onOff(file.crowd)}`);
    }
    expect(shown).toMatchObject({ crowd: 'on on', swarm: 'on on', default: 'off off' });
  });

  it('a stale table is rewritten, and a missing or unknown marker throws', () => {
    const blocks = { a: 'new A' };
    const stale = 'intro\n<!-- generated:a -->\nold A\n<!-- /generated:a -->\nend\n';
    expect(fillGenerated(stale, blocks)).toBe(
      'intro\n<!-- generated:a -->\nnew A\n<!-- /generated:a -->\nend\n',
    );
    expect(() => fillGenerated('no markers\n', blocks)).toThrow(/no <!-- generated:a -->/);
    expect(() => fillGenerated('<!-- generated:b -->\nx\n<!-- /generated:b -->\n', blocks)).toThrow(
      /no generated block named b/,
    );
  });
});
