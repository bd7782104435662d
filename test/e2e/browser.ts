/**
 * Finding and launching Chromium for the browser tests. Order: env CHROME_PATH (an explicit choice wins),
 * the Chromium shipped inside the `@sparticuz/chromium` devDependency (so `npm ci` is the whole set-up),
 * a Playwright-installed Chromium, /usr/bin/chromium, /usr/bin/chromium-browser, google-chrome on PATH.
 * No browser, or one that cannot start, is a test FAILURE whose message names the cause, never a skip.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';

/**
 * Launch flags under which WebGL renders headless on the CPU here (ANGLE + SwiftShader). Not
 * `--use-gl=swiftshader` (no context), nor `--disable-frame-rate-limit` / `--disable-gpu-vsync` (the frame
 * counter runs away and the tests' waits hang).
 */
export const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

/** The `source` of the browser unpacked from the npm package. */
export const NPM_CHROMIUM = '@sparticuz/chromium (npm)';

export interface FoundBrowser {
  executablePath: string;
  /** Which rule found it, for the log. */
  source: string;
  /** Extra environment variables for the browser process (the npm Chromium's own fonts). */
  env: Record<string, string>;
  /** Why earlier candidates were passed over (e.g. the npm Chromium failed to unpack), for the log. */
  notes: string[];
}

export interface FinderEnvironment {
  env: Record<string, string | undefined>;
  exists(file: string): boolean;
  /** Where Playwright would have installed its Chromium (may not exist). */
  playwrightPath(): string | undefined;
  /** Unpacks the npm package's Chromium (first call only) and returns its path; throws if it cannot. */
  npmChromium(): Promise<string>;
}

export const HOW_TO_GET_A_BROWSER =
  'The browser tests need Chromium and none was found. `npm ci` (or `npm install`) installs one inside ' +
  'node_modules/@sparticuz/chromium; run it again if that folder is missing. Or point CHROME_PATH at a ' +
  'Chromium or Chrome executable, e.g. `CHROME_PATH=/path/to/chrome npm test`.';

function defaultEnvironment(): FinderEnvironment {
  return {
    env: process.env,
    exists: (file) => existsSync(file),
    playwrightPath: () => {
      try {
        return chromium.executablePath();
      } catch {
        return undefined;
      }
    },
    npmChromium: async () => {
      const { default: packaged } = await import('@sparticuz/chromium');
      return packaged.executablePath();
    },
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Environment for the npm Chromium: its unpacked fonts.conf names /tmp/fonts, so use it only there. */
function npmChromiumEnv(exists: (file: string) => boolean): Record<string, string> {
  const fonts = path.join(tmpdir(), 'fonts');
  return tmpdir() === '/tmp' && exists(path.join(fonts, 'fonts.conf')) ? { FONTCONFIG_PATH: fonts } : {};
}

/** Find a Chromium; throws an Error that says how to get one. */
export async function findBrowser(
  environment: FinderEnvironment = defaultEnvironment(),
): Promise<FoundBrowser> {
  const { env, exists } = environment;
  const notes: string[] = [];
  const found = (executablePath: string, source: string, extraEnv: Record<string, string> = {}) => ({
    executablePath,
    source,
    env: extraEnv,
    notes,
  });
  const fromEnv = env.CHROME_PATH;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (exists(fromEnv)) return found(fromEnv, 'CHROME_PATH');
    throw new Error(`CHROME_PATH is set to ${fromEnv}, but no file is there. ${HOW_TO_GET_A_BROWSER}`);
  }
  try {
    const packaged = await environment.npmChromium();
    if (exists(packaged)) return found(packaged, NPM_CHROMIUM, npmChromiumEnv(exists));
    notes.push(`${NPM_CHROMIUM} reported ${packaged}, but no file is there`);
  } catch (error) {
    notes.push(`${NPM_CHROMIUM} could not be unpacked: ${message(error)}`);
  }
  const playwright = environment.playwrightPath();
  if (playwright !== undefined && playwright !== '' && exists(playwright)) {
    return found(playwright, 'Playwright-installed Chromium');
  }
  for (const file of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (exists(file)) return found(file, file);
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    for (const name of ['google-chrome', 'google-chrome-stable']) {
      const file = path.join(dir, name);
      if (exists(file)) return found(file, `${name} on PATH`);
    }
  }
  throw new Error([HOW_TO_GET_A_BROWSER, ...notes].join(' '));
}

/** The library names that `ldd` reports as "not found". */
export function missingLibraries(lddOutput: string): string[] {
  const missing: string[] = [];
  for (const line of lddOutput.split('\n')) {
    const match = /^\s*(\S+)\s*=>\s*not found/.exec(line);
    if (match !== null && !missing.includes(match[1])) missing.push(match[1]);
  }
  return missing;
}

/** The message for a browser that would not start, naming missing system libraries when there are any. */
export function explainLaunchFailure(
  found: FoundBrowser,
  error: unknown,
  lddOutput: string | undefined,
): string {
  const what = `Chromium (${found.source}: ${found.executablePath}) could not be launched.`;
  const missing = lddOutput === undefined ? [] : missingLibraries(lddOutput);
  const cause =
    missing.length > 0
      ? ` It needs system libraries that this machine lacks: ${missing.join(', ')}. Install them ` +
        '(on Debian / Ubuntu, the packages that provide them, e.g. libnss3 libnspr4 libexpat1), or point ' +
        'CHROME_PATH at a browser that runs here.'
      : ' Set CHROME_PATH to try another Chromium or Chrome.';
  return `${what}${cause} Launch error: ${message(error)}`;
}

function ldd(executablePath: string): string | undefined {
  try {
    return execFileSync('ldd', [executablePath], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch {
    return undefined;
  }
}

/** Launch a found Chromium headless with the WebGL-friendly flags; a failure says why (see above). */
export async function launchBrowser(found: FoundBrowser): Promise<Browser> {
  try {
    return await chromium.launch({
      executablePath: found.executablePath,
      headless: true,
      args: LAUNCH_ARGS,
      env: { ...process.env, ...found.env },
    });
  } catch (error) {
    throw new Error(explainLaunchFailure(found, error, ldd(found.executablePath)), { cause: error });
  }
}
