// Drops Blueprint rules the public pages cannot use, so their stylesheet can be inlined in each page
// (decision 0007). Only Blueprint's namespaced classes are judged; our own rules and element rules stay.
import postcss, { type AtRule, type Rule } from 'postcss';

const BLUEPRINT_CLASS = /\.(bp6-[\w-]+)/g;
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

export function selectorIsUsed(selector: string, used: ReadonlySet<string>): boolean {
  if (UNJUDGED.test(selector)) return true;
  for (const match of withoutNegations(selector).matchAll(BLUEPRINT_CLASS)) {
    const name = match[1]!;
    if (!used.has(name) && !TRANSITION_CLASS.test(name)) return false;
  }
  return true;
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
 * Removes every selector that names a Blueprint class the pages never use, then empty rules and blocks,
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
