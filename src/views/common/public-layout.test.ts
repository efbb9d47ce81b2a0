import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PublicLayout, type PublicLayoutProps } from './public-layout';
import { CONTACT_EMAIL } from './site-config';

// NOTE: valtio's useSnapshot calls useLayoutEffect, which React's development server renderer warns about
// (the build prerenders with the production renderer, which does not). Any other console error fails.
beforeAll(() => {
  vi.spyOn(console, 'error').mockImplementation((message: unknown) => {
    if (!String(message).includes('useLayoutEffect does nothing on the server'))
      throw new Error(String(message));
  });
});
afterAll(() => vi.restoreAllMocks());

/** The layout as the build prerenders it: no DOM, no visitor. */
function prerendered(currentPath: string): string {
  return renderToString(
    createElement(
      PublicLayout,
      // The children go as createElement's third argument.
      { isAuthenticated: false, onLogout: () => {}, currentPath } as PublicLayoutProps,
      'contenido',
    ),
  );
}

describe('PublicLayout, prerendered', () => {
  it('makes the menu a native popover, so the Menú button works before hydration', () => {
    const html = prerendered('/inicio/');
    const target = html.match(/<button[^>]*class="site-menu-button"[^>]*popovertarget="([^"]+)"/)?.[1];
    expect(target).toBeTruthy();
    expect(html).toMatch(new RegExp(`<nav[^>]*id="${target}"[^>]*popover="auto"`));
    // The browser derives the expanded state from the popover until React owns the button.
    expect(html).not.toMatch(/class="site-menu-button"[^>]*aria-expanded/);
  });

  it('sends the newsletter back to the page it is on, already in the HTML', () => {
    expect(prerendered('/compradores/')).toContain(
      '<input type="hidden" name="origen" value="/compradores/"/>',
    );
  });

  it('tells how to unsubscribe with the address that exists, not a link that does not', () => {
    const html = prerendered('/inicio/');
    expect(html).toContain(`Para darte de baja, escríbenos a <a href="mailto:${CONTACT_EMAIL}`);
    expect(html).not.toContain('cuando quieras');
  });
});
