/**
 * Finding and launching Chromium for the browser tests. Order: env CHROME_PATH, a Playwright-installed
 * Chromium, /usr/bin/chromium, /usr/bin/chromium-browser, google-chrome on PATH. No browser is a test
 * FAILURE with instructions, never a skip.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';

/** Launch flags under which WebGL renders headless on the CPU here (ANGLE + SwiftShader); see BROWSER.md. */
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

export interface FoundBrowser {
  executablePath: string;
  /** Which rule found it, for the log. */
  source: string;
}

export interface FinderEnvironment {
  env: Record<string, string | undefined>;
  exists(file: string): boolean;
  /** Where Playwright would have installed its Chromium (may not exist). */
  playwrightPath(): string | undefined;
}

export const HOW_TO_GET_A_BROWSER =
  'The browser tests need Chromium and none was found. Install one with ' +
  '`sudo apt-get install -y chromium` (Debian/Ubuntu), or point CHROME_PATH at a Chromium or Chrome ' +
  'executable, e.g. `CHROME_PATH=/path/to/chrome npm test`.';

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
  };
}

/** Find a Chromium; throws an Error that says how to get one. */
export function findBrowser(environment: FinderEnvironment = defaultEnvironment()): FoundBrowser {
  const { env, exists } = environment;
  const fromEnv = env.CHROME_PATH;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (exists(fromEnv)) return { executablePath: fromEnv, source: 'CHROME_PATH' };
    throw new Error(`CHROME_PATH is set to ${fromEnv}, but no file is there. ${HOW_TO_GET_A_BROWSER}`);
  }
  const playwright = environment.playwrightPath();
  if (playwright !== undefined && playwright !== '' && exists(playwright)) {
    return { executablePath: playwright, source: 'Playwright-installed Chromium' };
  }
  for (const file of ['/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (exists(file)) return { executablePath: file, source: file };
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    for (const name of ['google-chrome', 'google-chrome-stable']) {
      const file = path.join(dir, name);
      if (exists(file)) return { executablePath: file, source: `${name} on PATH` };
    }
  }
  throw new Error(HOW_TO_GET_A_BROWSER);
}

/** Launch the found Chromium headless with the WebGL-friendly flags. */
export async function launchBrowser(): Promise<Browser> {
  const { executablePath } = findBrowser();
  return chromium.launch({ executablePath, headless: true, args: LAUNCH_ARGS });
}
