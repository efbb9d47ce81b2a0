// Drops the rules a public page cannot use, so the app's one stylesheet can be inlined in each page
// (decision 0007). Every class a selector names is judged, Blueprint's and ours alike (the dashboard's
// `flujo-*` rules, the public site's `site-*` rules); element rules and custom-property rules stay.
import postcss, { type AtRule, type Rule } from 'postcss';

const CLASS = /\.(-?[_a-zA-Z][\w-]*)/g;
/** Attribute selectors and their quoted values, which may hold dots that are not classes (`[href$=".pdf"]`). */
const ATTRIBUTE = /\[[^\]]*\]/g;
/**
 * Classes Blueprint and react-transition-group add while an element animates in or out; they never
 * appear in rendered markup.
 */
const TRANSITION_CLASS = /-(enter|exit|appear)(-active|-done)?$|^bp6-overlay-open$/;
/** Selectors whose meaning depends on other elements in ways a class list cannot judge. */
const UNJUDGED = /:(is|where|has)\(/;

function withoutNegations(selector: string): string {
  // A class inside :not(...) is one the element must NOT have; its absence keeps the rule relevant.
  let previous: string;
  let current = selector;
  do {
    previous = current;
    current = current.replace(/:not\([^()]*\)/g, '');
  } while (current !== previous);
  return current;
}

/** The classes a selector requires an element to have (not those inside `:not(...)`). */
function requiredClasses(selector: string): string[] {
  return [...withoutNegations(selector).replace(ATTRIBUTE, '').matchAll(CLASS)].map((match) => match[1]!);
}

/**
 * A selector is kept when every class it requires is one the page uses (or a transition class), and
 * always when it uses `:is`, `:where` or `:has`.
 */
export function selectorIsUsed(selector: string, used: ReadonlySet<string>): boolean {
  if (UNJUDGED.test(selector)) return true;
  return requiredClasses(selector).every((name) => used.has(name) || TRANSITION_CLASS.test(name));
}

/** Every class the stylesheet's selectors require, outside keyframes. */
export function classesInStylesheet(css: string): Set<string> {
  const classes = new Set<string>();
  postcss.parse(css).walkRules((rule) => {
    if (insideKeyframes(rule)) return;
    for (const selector of rule.selectors) for (const name of requiredClasses(selector)) classes.add(name);
  });
  return classes;
}

/** Blueprint's classes, which its components build at run time; only ours are checked for a page. */
const BLUEPRINT_CLASS = /^bp6-/;

/**
 * The classes our own stylesheets (by name) define that a page can never keep: no page renders them and
 * `allowed` (the states views reach after hydration) does not list them. Blueprint's are left out.
 */
export function unaccountedClasses(
  stylesheets: Readonly<Record<string, string>>,
  rendered: ReadonlySet<string>,
  allowed: ReadonlySet<string>,
): { className: string; stylesheet: string }[] {
  return Object.entries(stylesheets).flatMap(([stylesheet, css]) =>
    [...classesInStylesheet(css)]
      .filter((name) => !BLUEPRINT_CLASS.test(name) && !rendered.has(name) && !allowed.has(name))
      .map((className) => ({ className, stylesheet })),
  );
}

function insideKeyframes(rule: Rule): boolean {
  const parent = rule.parent;
  return parent?.type === 'atrule' && /keyframes$/i.test((parent as AtRule).name);
}

/** Custom properties that some declaration outside their own definition reads, directly or through others. */
function referencedProperties(root: postcss.Root): Set<string> {
  const definitions = new Map<string, string[]>();
  const roots: string[] = [];
  root.walkDecls((declaration) => {
    if (declaration.prop.startsWith('--')) {
      const list = definitions.get(declaration.prop) ?? [];
      list.push(declaration.value);
      definitions.set(declaration.prop, list);
    } else {
      roots.push(declaration.value);
    }
  });
  const referenced = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    for (const match of pending.pop()!.matchAll(/var\(\s*(--[\w-]+)/g)) {
      const name = match[1]!;
      if (referenced.has(name)) continue;
      referenced.add(name);
      pending.push(...(definitions.get(name) ?? []));
    }
  }
  return referenced;
}

/**
 * Removes every selector that names a class the page never uses, then empty rules and blocks,
 * keyframes and custom properties (Blueprint's design tokens) nothing reads any more.
 */
export function purgeUnusedClasses(css: string, used: ReadonlySet<string>): string {
  const root = postcss.parse(css);
  root.walkRules((rule) => {
    if (insideKeyframes(rule)) return;
    const kept = rule.selectors.filter((selector) => selectorIsUsed(selector, used));
    if (kept.length === 0) rule.remove();
    else if (kept.length !== rule.selectors.length) rule.selectors = kept;
  });
  const referenced = referencedProperties(root);
  root.walkDecls(/^--/, (declaration) => {
    if (!referenced.has(declaration.prop)) declaration.remove();
  });
  root.walkRules((rule) => {
    if (rule.nodes.length === 0) rule.remove();
  });
  root.walkAtRules((atRule) => {
    if (atRule.nodes && atRule.nodes.length === 0) atRule.remove();
  });
  // Keyframes nobody animates with are dead weight too.
  const text = root.toString();
  root.walkAtRules(/keyframes$/i, (atRule) => {
    const name = atRule.params.trim();
    const uses = text.split(name).length - 1;
    if (uses <= 1) atRule.remove();
  });
  return root.toString();
}
