import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { readStaticHtml, StaticHtmlProvider } from '../../views/common/static-html';
import { isPublicPath } from '../../views/public/public-pages';
import { PUBLIC_PAGE_MODULES } from './pages';
import { PublicShell } from './shell';

/** Makes the prerendered page interactive: same shell, same page component, as prerender.tsx rendered. */
export async function hydratePublicPage(): Promise<void> {
  const path = window.location.pathname;
  const root = document.getElementById('root');
  if (!root || !isPublicPath(path)) return;
  const Page = await PUBLIC_PAGE_MODULES[path].load();
  // Read before React touches the document: static blocks keep this markup instead of being re-created.
  const staticHtml = readStaticHtml(root);
  // As a transition, React hydrates in small slices and yields between them: the page is already
  // painted, so there is no reason to block the main thread (and a tap) for the whole tree at once.
  startTransition(() => {
    hydrateRoot(
      root,
      <StaticHtmlProvider value={{ mode: 'hydrate', html: staticHtml }}>
        <PublicShell path={path}>
          <Page />
        </PublicShell>
      </StaticHtmlProvider>,
    );
  });
}
