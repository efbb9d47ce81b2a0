import '@blueprintjs/core/lib/css/blueprint.css';
import './views/common/app.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppRouter } from './routes/-app';

/**
 * A dashboard document that painted its prerendered frame fetches the full stylesheet without blocking that
 * paint (decision 0033): it is applied here, and the app renders only once it has arrived, so no screen of
 * the app is ever drawn without its styles.
 */
function applyDeferredStylesheet(): Promise<void> {
  const link = document.querySelector<HTMLLinkElement>('link[data-deferred-stylesheet]');
  if (!link) return Promise.resolve();
  const loaded = link.sheet
    ? Promise.resolve()
    : new Promise<void>((done) => {
        link.addEventListener('load', () => done(), { once: true });
        // A failed stylesheet must not keep the app from starting.
        link.addEventListener('error', () => done(), { once: true });
      });
  link.media = 'all';
  return loaded;
}

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
void applyDeferredStylesheet().then(() => {
  // As a transition React renders in slices and yields between them: a painted frame (or nothing yet) is on
  // screen, so there is no reason to hold the main thread for the whole first render at once.
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App router={createAppRouter()} />
      </StrictMode>,
    );
  });
});
