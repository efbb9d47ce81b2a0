// Server entry of the public pages, built and run once by `vite build` (scripts/prerender.ts).
import { Button, Callout, FormGroup, InputGroup } from '@blueprintjs/core';
import { renderToString } from 'react-dom/server';
import { StaticHtmlProvider } from '../../views/common/static-html';
import { ToastOverlay } from '../../views/common/toast-overlay';
import type { PublicPath } from '../../views/public/public-pages';
import { PUBLIC_PAGE_MODULES } from './pages';
import { PublicShell } from './shell';

export { PUBLIC_PAGES, PUBLIC_PATHS } from '../../views/public/public-pages';
export { PUBLIC_PAGE_MODULES } from './pages';

/** The page's markup as the browser will hydrate it: same shell, same component, no visitor. */
export async function renderPublicPage(path: PublicPath): Promise<string> {
  const Page = await PUBLIC_PAGE_MODULES[path].load();
  return renderToString(
    <StaticHtmlProvider value={{ mode: 'prerender' }}>
      <PublicShell path={path}>
        <Page />
      </PublicShell>
    </StaticHtmlProvider>,
  );
}

/**
 * The Blueprint states a visitor can bring about on a public page (the demo forms and the login: a field in
 * error, the button while sending, the result toasts, the notice after sign-up). Rendered only so their
 * classes keep their CSS rules.
 */
export function renderDynamicStates(): string {
  return renderToString(
    <>
      <FormGroup label="-" labelFor="-" intent="danger" helperText="-">
        <InputGroup id="-" intent="danger" disabled />
      </FormGroup>
      <Button type="submit" intent="primary" loading disabled text="-" />
      <Callout intent="success">-</Callout>
      <ToastOverlay
        toasts={[
          { key: 'ok', intent: 'success', message: '-' },
          { key: 'error', intent: 'danger', message: '-' },
        ]}
        onDismiss={() => {}}
      />
    </>,
  );
}
