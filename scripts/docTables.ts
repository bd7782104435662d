/**
 * The tables of the docs that must not drift from the code. docs/scene.md's: the URL parameters and the
 * level-file fields come from the settings table (SETTINGS, src/sim/settings.ts) and the URL parser's extras;
 * the level presets from assets/levels. docs/internals.md's: the library's files, from its folders
 * (libraryFiles.ts). Each table sits between two marker comments in the document:
 *
 *   <!-- generated:NAME -->  …  <!-- /generated:NAME -->
 *
 * `npm run docs` rewrites what is between them; a unit test fails when the committed file differs.
 * Pure apart from reading the level files, so the test and the command share it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LEVEL_SIZE, LEVEL_TIMEOUT_MS, parseLevel } from '../src/sim/level';
import {
  DEFAULT_SETTINGS,
  type Effect,
  SETTING_ROWS,
  type SettingKey,
  type SettingSpec,
} from '../src/sim/settings';
import { LEVEL_TIMEOUT_LIMITS, URL_PARAMETERS } from '../src/sim/urlParams';
import { libraryFileTables } from './libraryFiles';

type Row = SettingSpec & { key: SettingKey };

/** What an edit of the setting does, from its `effect`, for a reader. */
const EFFECT_TEXT: Record<Effect, string> = {
  regenerate: 'every enemy back to its spawn, new tree',
  resize: 'enemies added or removed',
  rebuild: 'tree rebuilt from the current positions',
  detect: 'detection runs again',
  step: 'read every frame',
  display: 'drawing only',
};

/** Thousands separators for readability, as the rest of the docs write numbers. */
function num(n: number): string {
  return Number.isInteger(n) && Math.abs(n) >= 10_000 ? n.toLocaleString('en-US') : String(n);
}

/** The values a URL parameter takes for `row`. */
function urlValues(row: Row): string {
  switch (row.kind) {
    case 'number':
      return `${row.integer ? 'integer ' : ''}${num(row.min)} – ${num(row.max)}`;
    case 'flag':
      return '1 / 0 (also true / false, yes / no, on / off)';
    case 'choice':
      return row.options.map((o) => `\`${o}\``).join(' / ');
  }
}

/** The values a level-file field takes for `row` (JSON types). */
function levelValues(row: Row): string {
  switch (row.kind) {
    case 'number':
      return `${row.integer ? 'integer ' : 'number '}${num(row.min)} – ${num(row.max)}`;
    case 'flag':
      return '`true` / `false`';
    case 'choice':
      return row.options.map((o) => `\`"${o}"\``).join(' / ');
  }
}

/** A default as the URL writes it (flags as 1 / 0) or as a level file does (JSON). */
function defaultText(row: Row, where: 'url' | 'level'): string {
  switch (row.kind) {
    case 'number':
      return num(row.default);
    case 'flag':
      return where === 'url' ? (row.default ? '1' : '0') : `\`${row.default}\``;
    case 'choice':
      return where === 'url' ? `\`${row.default}\`` : `\`"${row.default}"\``;
  }
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Every URL parameter: one per setting, then the parser's own (`level`, `levelTimeout`). */
export function urlParameterTable(): string {
  const rows = SETTING_ROWS.map((row) => [
    `\`${row.url}\``,
    row.label,
    urlValues(row),
    defaultText(row, 'url'),
    EFFECT_TEXT[row.effect],
  ]);
  const extra: Record<string, string[]> = {
    level: [
      '`level`',
      'level preset',
      'a preset name (letters, digits, `_`, `-`)',
      'none',
      'reloads the page',
    ],
    levelTimeout: [
      '`levelTimeout`',
      'wait for the level files, seconds',
      `${LEVEL_TIMEOUT_LIMITS.min} – ${LEVEL_TIMEOUT_LIMITS.max}`,
      String(LEVEL_TIMEOUT_MS / 1000),
      'start-up only',
    ],
  };
  for (const name of URL_PARAMETERS) {
    if (SETTING_ROWS.some((row) => row.url === name)) continue;
    const row = extra[name];
    if (row === undefined) throw new Error(`docTables: URL parameter ${name} has no row here; describe it`);
    rows.push(row);
  }
  return table(['parameter', 'sets (panel label)', 'values', 'default', 'what a change does'], rows);
}

/** Every setting a level file may set, with the URL parameter that overrides it. */
export function levelFieldTable(): string {
  const rows = SETTING_ROWS.filter((row) => row.level !== null).map((row) => [
    `\`${row.level}\``,
    row.label,
    levelValues(row),
    defaultText(row, 'level'),
    `\`${row.url}\``,
  ]);
  const notInLevels = SETTING_ROWS.filter((row) => row.level === null).map((row) => `\`${row.url}\``);
  return [
    table(['field', 'sets (panel label)', 'values', 'default', 'URL parameter'], rows),
    '',
    `Only the URL sets ${notInLevels.join(', ')}. The ground's \`size.width\` and \`size.depth\` are each ` +
      `${num(LEVEL_SIZE.min)} – ${num(LEVEL_SIZE.max)}.`,
  ].join('\n');
}

/** A flag as the presets table shows it. */
const onOff = (on: boolean): string => (on ? 'on' : 'off');

/**
 * The presets listed in assets/levels/index.json: title, ground, enemies, whether they move and whether crowd
 * mode is on (what each level starts with: its file read as the page reads it, over the defaults), and the
 * description.
 */
export function levelPresetTable(root: string): string {
  const dir = path.join(root, 'assets/levels');
  const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')) as { levels: string[] };
  const rows = index.levels.map((name) => {
    const data: unknown = JSON.parse(readFileSync(path.join(dir, `${name}.json`), 'utf8'));
    const { level } = parseLevel(name, data);
    const s = { ...DEFAULT_SETTINGS, ...level.settings };
    return [
      `\`${name}\``,
      level.title,
      `${num(level.width)} x ${num(level.depth)}`,
      s.enemies.toLocaleString('en-US'),
      onOff(s.moving),
      onOff(s.crowdMode),
      level.description,
    ];
  });
  return table(['`?level=`', 'title', 'ground', 'enemies', 'moving', 'crowd', 'what it is'], rows);
}

/** The generated blocks of document `file` (one of GENERATED_DOCS), by marker name. */
export function generatedBlocks(root: string, file: GeneratedDoc): Record<string, string> {
  if (file === 'docs/internals.md') return { 'library-files': libraryFileTables(root) };
  return {
    'url-parameters': urlParameterTable(),
    'level-fields': levelFieldTable(),
    'level-presets': levelPresetTable(root),
  };
}

/**
 * `text` with every generated block rewritten. Throws when a marker is missing, unpaired or unknown, so a
 * document cannot silently lose a table.
 */
export function fillGenerated(text: string, blocks: Record<string, string>): string {
  const seen = new Set<string>();
  const result = text.replace(
    /<!-- generated:([a-z-]+) -->\n[\s\S]*?<!-- \/generated:([a-z-]+) -->/g,
    (_match, open: string, close: string) => {
      if (open !== close) throw new Error(`docTables: marker generated:${open} is closed by ${close}`);
      const block = blocks[open];
      if (block === undefined) throw new Error(`docTables: no generated block named ${open}`);
      seen.add(open);
      return `<!-- generated:${open} -->\n${block}\n<!-- /generated:${open} -->`;
    },
  );
  for (const name of Object.keys(blocks)) {
    if (!seen.has(name)) throw new Error(`docTables: the document has no <!-- generated:${name} --> block`);
  }
  return result;
}

/** The documents with generated blocks, relative to the repository root. */
export const GENERATED_DOCS = ['docs/scene.md', 'docs/internals.md'] as const;
export type GeneratedDoc = (typeof GENERATED_DOCS)[number];
