import 'leaflet/dist/leaflet.css';
import './styles.css';
import { ConsoleApp } from './app';
import { forgetKey, storedKey, storeKey } from './session';
import { renderSignIn } from './ui/signin';

/** The dispatcher's console (docs/console.md): sign in with an API key, then the day, live. */
const root = document.getElementById('app')!;
const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
const tiles = { url: meta('fieldwork-tile-url'), attribution: meta('fieldwork-tile-attribution') };

function signIn(error?: string): void {
  forgetKey();
  document.body.dataset.stream = 'closed';
  renderSignIn(
    root,
    (key) => {
      storeKey(key);
      start(key);
    },
    error,
  );
}

function start(key: string): void {
  performance.mark('sign-in');
  const app = new ConsoleApp(root, key, tiles, signIn);
  app.start().catch((e: Error) => signIn(`The console could not load: ${e.message}`));
}

const key = storedKey();
if (key) start(key);
else signIn();
