/**
 * Checks that the documentation does not point at nothing: every relative link, image (Markdown or
 * `<img src>`) and #anchor in README.md and docs/*.md resolves (anchors as GitHub makes them from headings), and every `npm run X` the documents
 * name is a script in package.json. The unit tests and `npm run docs -- --check` call it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The documents checked, relative to the repository root. */
export function documents(root: string): string[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

/** Text outside fenced code blocks, line by line (a link in a code sample is not a link). */
function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return;
    }
    if (!fenced) out.push({ line: i + 1, text: line.replace(/`[^`]*`/g, '') });
  });
  return out;
}

/**
 * The anchor GitHub gives a heading: its text as rendered (code, emphasis and links reduced to their text),
 * lower-cased, everything but letters, digits, spaces, `-` and `_` dropped, spaces turned into `-`.
 */
export function headingSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__|\*|_)(?=\S)([^*_]*?\S)\1/g, '$2')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor of a Markdown document: its headings' slugs, repeated ones numbered `-1`, `-2`, … */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (m === null) continue;
    const base = headingSlug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.add(n === 0 ? base : `${base}-${n}`);
  }
  return result;
}

export interface Problem {
  file: string;
  line: number;
  message: string;
}

/** Relative links (and their anchors) of `file` that lead nowhere. */
export function brokenLinks(root: string, file: string): Problem[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const problems: Problem[] = [];
  for (const { line, text: prose } of proseLines(text)) {
    // Markdown links and images, and HTML images (<img src="…">, for pictures laid out side by side).
    const links = prose.matchAll(
      /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|<img\b[^>]*\bsrc="([^"]+)"/g,
    );
    for (const m of links) {
      const target = m[1] ?? m[2];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const hash = target.indexOf('#');
      const pathPart = hash < 0 ? target : target.slice(0, hash);
      const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
      const resolved =
        pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart));
      const full = path.join(root, resolved);
      if (resolved.startsWith('..') || !existsSync(full)) {
        problems.push({ file, line, message: `link to ${target}: ${resolved} does not exist` });
        continue;
      }
      if (anchor === null) continue;
      if (!resolved.endsWith('.md') || statSync(full).isDirectory()) {
        problems.push({
          file,
          line,
          message: `link to ${target}: an anchor into a file that is not Markdown`,
        });
        continue;
      }
      if (!anchors(readFileSync(full, 'utf8')).has(anchor)) {
        problems.push({ file, line, message: `link to ${target}: ${resolved} has no heading #${anchor}` });
      }
    }
  }
  return problems;
}

/** `npm run X` (also `npm run -s X`) named in `file` whose X is not a script of package.json. */
export function missingScripts(root: string, file: string): Problem[] {
  const scripts = (
    JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const problems: Problem[] = [];
  readFileSync(path.join(root, file), 'utf8')
    .split('\n')
    .forEach((text, i) => {
      for (const m of text.matchAll(/npm run(?:\s+-s)?\s+([A-Za-z0-9][\w:.-]*)/g)) {
        if (!(m[1] in scripts)) {
          problems.push({
            file,
            line: i + 1,
            message: `npm run ${m[1]}: package.json has no script ${m[1]}`,
          });
        }
      }
    });
  return problems;
}

/** Every problem of every document, as `file:line: message` lines. */
export function checkDocs(root: string): string[] {
  return documents(root).flatMap((file) =>
    [...brokenLinks(root, file), ...missingScripts(root, file)].map(
      (p) => `${p.file}:${p.line}: ${p.message}`,
    ),
  );
}
