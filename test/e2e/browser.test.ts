import { describe, expect, it } from 'vitest';
import { type FinderEnvironment, findBrowser, HOW_TO_GET_A_BROWSER } from './browser';

function fake(files: string[], env: Record<string, string> = {}, playwright?: string): FinderEnvironment {
  return { env, exists: (f) => files.includes(f), playwrightPath: () => playwright };
}

describe('finding Chromium', () => {
  it('finds a browser on this machine (the browser tests fail, never skip, without one)', () => {
    expect(findBrowser().executablePath).toBeTruthy();
  });

  it('prefers CHROME_PATH, then Playwright, then /usr/bin/chromium, chromium-browser, google-chrome on PATH', () => {
    const all = [
      '/opt/c',
      '/pw/chrome',
      '/usr/bin/chromium',
      '/usr/bin/chromium-browser',
      '/bin/google-chrome',
    ];
    const env = { CHROME_PATH: '/opt/c', PATH: '/bin' };
    expect(findBrowser(fake(all, env, '/pw/chrome')).executablePath).toBe('/opt/c');
    expect(findBrowser(fake(all, { PATH: '/bin' }, '/pw/chrome')).executablePath).toBe('/pw/chrome');
    expect(findBrowser(fake(all, { PATH: '/bin' }, '/pw/missing')).executablePath).toBe('/usr/bin/chromium');
    expect(findBrowser(fake(all.slice(3), { PATH: '/bin' })).executablePath).toBe(
      '/usr/bin/chromium-browser',
    );
    expect(findBrowser(fake(all.slice(4), { PATH: '/usr/local/bin:/bin' })).executablePath).toBe(
      '/bin/google-chrome',
    );
  });

  it('fails with instructions when there is none, or when CHROME_PATH points nowhere', () => {
    expect(() => findBrowser(fake([], { PATH: '/bin' }))).toThrow(HOW_TO_GET_A_BROWSER);
    expect(() => findBrowser(fake([], { PATH: '/bin' }))).toThrow(/apt-get install -y chromium/);
    expect(() => findBrowser(fake(['/usr/bin/chromium'], { CHROME_PATH: '/nope' }))).toThrow(
      /CHROME_PATH is set to \/nope/,
    );
  });
});
