import { describe, expect, inject, it } from 'vitest';
import {
  explainLaunchFailure,
  type FinderEnvironment,
  type FoundBrowser,
  findBrowser,
  HOW_TO_GET_A_BROWSER,
  launchBrowser,
  missingLibraries,
  NPM_CHROMIUM,
} from './browser';

function fake(
  files: string[],
  env: Record<string, string> = {},
  playwright?: string,
  npm: string | Error = new Error('not installed'),
): FinderEnvironment {
  return {
    env,
    exists: (f) => files.includes(f),
    playwrightPath: () => playwright,
    npmChromium: async () => {
      if (npm instanceof Error) throw npm;
      return npm;
    },
  };
}

const path = async (environment: FinderEnvironment) => (await findBrowser(environment)).executablePath;

describe('finding Chromium', () => {
  it('uses the npm Chromium on this machine unless CHROME_PATH says otherwise, and it launches', async () => {
    const found = await findBrowser();
    if (process.env.CHROME_PATH) expect(found.source).toBe('CHROME_PATH');
    else expect(found.source).toBe(NPM_CHROMIUM);
    // The global setup found the same browser and handed it to every test file.
    expect(inject('browser').executablePath).toBe(found.executablePath);
    const browser = await launchBrowser(found);
    try {
      const page = await browser.newPage();
      const webgl2 = await page.evaluate(
        () => document.createElement('canvas').getContext('webgl2') !== null,
      );
      expect(webgl2).toBe(true);
    } finally {
      await browser.close();
    }
  });

  it('prefers CHROME_PATH, then the npm Chromium, Playwright, /usr/bin/chromium, chromium-browser, google-chrome', async () => {
    const all = [
      '/opt/c',
      '/tmp/chromium',
      '/pw/chrome',
      '/usr/bin/chromium',
      '/usr/bin/chromium-browser',
      '/bin/google-chrome',
    ];
    const env = { CHROME_PATH: '/opt/c', PATH: '/bin' };
    const bin = { PATH: '/bin' };
    expect(await path(fake(all, env, '/pw/chrome', '/tmp/chromium'))).toBe('/opt/c');
    expect(await path(fake(all, bin, '/pw/chrome', '/tmp/chromium'))).toBe('/tmp/chromium');
    expect(await path(fake(all, bin, '/pw/chrome'))).toBe('/pw/chrome');
    expect(await path(fake(all, bin, '/pw/missing'))).toBe('/usr/bin/chromium');
    expect(await path(fake(all.slice(4), bin))).toBe('/usr/bin/chromium-browser');
    expect(await path(fake(all.slice(5), { PATH: '/usr/local/bin:/bin' }))).toBe('/bin/google-chrome');
  });

  it('notes why the npm Chromium was passed over', async () => {
    const found = await findBrowser(fake(['/usr/bin/chromium'], {}, undefined, new Error('disk full')));
    expect(found.executablePath).toBe('/usr/bin/chromium');
    expect(found.notes).toEqual([`${NPM_CHROMIUM} could not be unpacked: disk full`]);
  });

  it('fails with instructions when there is none, or when CHROME_PATH points nowhere', async () => {
    await expect(findBrowser(fake([], { PATH: '/bin' }))).rejects.toThrow(HOW_TO_GET_A_BROWSER);
    await expect(findBrowser(fake([], { PATH: '/bin' }, undefined, new Error('EACCES')))).rejects.toThrow(
      /npm ci[\s\S]*could not be unpacked: EACCES/,
    );
    await expect(findBrowser(fake(['/usr/bin/chromium'], { CHROME_PATH: '/nope' }))).rejects.toThrow(
      /CHROME_PATH is set to \/nope/,
    );
  });
});

describe('a browser that will not start', () => {
  const found: FoundBrowser = { executablePath: '/tmp/chromium', source: NPM_CHROMIUM, env: {}, notes: [] };
  const ldd = [
    '\tlinux-vdso.so.1 (0x00007ffd)',
    '\tlibnss3.so => not found',
    '\tlibdl.so.2 => /lib/x86_64-linux-gnu/libdl.so.2 (0x00007f)',
    '\tlibexpat.so.1 => not found',
    '\tlibnss3.so => not found',
  ].join('\n');

  it('lists the missing system libraries by name, once each', () => {
    expect(missingLibraries(ldd)).toEqual(['libnss3.so', 'libexpat.so.1']);
    expect(missingLibraries('\tlibc.so.6 => /lib/libc.so.6 (0x1)')).toEqual([]);
  });

  it('names the browser, the missing libraries and the launch error', () => {
    const text = explainLaunchFailure(found, new Error('exited with code 127'), ldd);
    expect(text).toContain('/tmp/chromium');
    expect(text).toContain('libnss3.so, libexpat.so.1');
    expect(text).toContain('exited with code 127');
    expect(explainLaunchFailure(found, new Error('boom'), undefined)).toMatch(/CHROME_PATH[\s\S]*boom/);
  });

  it('fails the launch of a file that is not a browser, with that message', async () => {
    await expect(
      launchBrowser({ ...found, executablePath: '/bin/false', source: 'CHROME_PATH' }),
    ).rejects.toThrow(/Chromium \(CHROME_PATH: \/bin\/false\) could not be launched/);
  });
});
