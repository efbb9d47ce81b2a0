import { describe, expect, it } from 'vitest';
import { classesInStylesheet, purgeUnusedClasses, selectorIsUsed, unaccountedClasses } from './purge-css';

describe('purgeUnusedClasses', () => {
  const used = new Set(['bp6-button', 'bp6-intent-primary', 'site-nav']);

  it('keeps a Blueprint selector only when every Blueprint class in it is used', () => {
    expect(selectorIsUsed('.bp6-button.bp6-intent-primary:hover', used)).toBe(true);
    expect(selectorIsUsed('.bp6-button.bp6-intent-danger', used)).toBe(false);
    expect(selectorIsUsed('.bp6-dark .bp6-button', used)).toBe(false);
  });

  it('judges our own classes too: the dashboard rules leave the public pages', () => {
    expect(selectorIsUsed('.site-nav a', used)).toBe(true);
    expect(selectorIsUsed('.site-calculator input', used)).toBe(false);
    expect(selectorIsUsed('.flujo-dashboard-header', used)).toBe(false);
    expect(selectorIsUsed('.flujo-dashboard.bp6-dark', used)).toBe(false);
  });

  it('never judges element selectors, negations, attribute values or :has()', () => {
    expect(selectorIsUsed('body', used)).toBe(true);
    expect(selectorIsUsed('.bp6-button:not(.bp6-minimal)', used)).toBe(true);
    expect(selectorIsUsed('.bp6-button:not([class*=bp6-intent-])', used)).toBe(true);
    expect(selectorIsUsed('.site-nav a[href$=".pdf"]', used)).toBe(true);
    expect(selectorIsUsed('.site-nav:has(.site-anything)', used)).toBe(true);
  });

  it('keeps the classes transitions add at run time', () => {
    expect(selectorIsUsed('.bp6-toast-enter-active', used)).toBe(true);
    expect(selectorIsUsed('.bp6-toast-exit', used)).toBe(true);
  });

  it('drops unused rules, empty media blocks and keyframes nobody uses', () => {
    const css =
      '.bp6-button{color:red}.bp6-callout{color:blue}.bp6-button,.bp6-tag{margin:0}' +
      '@media (max-width:10px){.bp6-tag{color:green}}' +
      '@keyframes bp6-spin{to{transform:rotate(1turn)}}@keyframes site-pulse{to{opacity:0}}' +
      '.site-nav{animation:site-pulse 1s}';
    expect(purgeUnusedClasses(css, used)).toBe(
      '.bp6-button{color:red}.bp6-button{margin:0}@keyframes site-pulse{to{opacity:0}}.site-nav{animation:site-pulse 1s}',
    );
  });

  it('lists the classes a stylesheet requires, outside negations and keyframes', () => {
    const css =
      '.site-nav a,.site-nav--open{display:flex}.bp6-button:not(.bp6-minimal){color:red}' +
      '@media (max-width:10px){.flujo-sidebar{display:none}}@keyframes x{from{opacity:0}}';
    expect([...classesInStylesheet(css)].sort()).toEqual([
      'bp6-button',
      'flujo-sidebar',
      'site-nav',
      'site-nav--open',
    ]);
  });

  it("names every class of our stylesheets that no page renders and no runtime state lists, not Blueprint's", () => {
    const stylesheets = {
      'layout.css': '.site-nav a,.site-nav--open{display:flex}.bp6-button.site-button{color:red}',
      'page.css': '.keen-slider{overflow:hidden}.calc-old{color:red}.site-field__error{color:red}',
    };
    const rendered = new Set(['site-nav', 'site-button', 'keen-slider']);
    expect(unaccountedClasses(stylesheets, rendered, new Set(['site-nav--open']))).toEqual([
      { className: 'calc-old', stylesheet: 'page.css' },
      { className: 'site-field__error', stylesheet: 'page.css' },
    ]);
    expect(
      unaccountedClasses(stylesheets, rendered, new Set(['site-nav--open', 'site-field__error'])),
    ).toEqual([{ className: 'calc-old', stylesheet: 'page.css' }]);
  });
});
