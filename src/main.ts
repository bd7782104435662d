/**
 * Entry point: read the URL, load the level preset, start the scene. Problems with the URL or the level are
 * shown on the page (and the defaults used); nothing here throws to the console.
 */
import './ui/style.css';
import { App } from './app/app';
import { createHook, installHook } from './app/quadtreeDemo';
import { type Fetch, loadStartLevel } from './sim/level';
import { DEFAULT_SETTINGS, type Settings } from './sim/settings';
import { parseUrlParams } from './sim/urlParams';
import { MessageBox } from './ui/messages';

function element(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`index.html has no #${id}`);
  return found;
}

const fetchText: Fetch = (url) => fetch(url);

async function main(messages: MessageBox): Promise<void> {
  const request = parseUrlParams(window.location.search);
  messages.add(request.messages);

  // The page says what it waits for; a server that never answers gives the default level after a timeout.
  const loading = element('loading');
  loading.textContent = request.level === undefined ? 'Loading…' : `Loading level "${request.level}"…`;
  loading.hidden = false;
  const {
    level,
    levels,
    messages: levelMessages,
  } = await loadStartLevel(request.level, fetchText, request.levelTimeoutMs);
  loading.hidden = true;
  messages.add(levelMessages);

  // Defaults, then the level's values, then the URL's.
  const settings: Settings = { ...DEFAULT_SETTINGS, ...level.settings, ...request.settings };
  const app = new App({
    container: element('app'),
    panels: element('panels'),
    hudElement: element('hud'),
    messages,
    level,
    settings,
    levels,
    onLoadLevel(name) {
      const url = new URL(window.location.href);
      url.search = '';
      url.searchParams.set('level', name);
      window.location.assign(url.toString());
    },
  });
  installHook(createHook(app));
}

const messages = new MessageBox(element('messages'));
main(messages).catch((error: unknown) => {
  element('loading').hidden = true;
  messages.add([`The scene could not start: ${error instanceof Error ? error.message : String(error)}`]);
});
