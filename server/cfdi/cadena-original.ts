import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOMImplementation, DOMParser, type Document, type Element, Node } from '@xmldom/xmldom';

/**
 * The cadena original (the text a CFDI's Sello and a stamp's SelloSAT sign), computed by interpreting SAT's own
 * XSLT files in `sat-xslt/`: field order, Requerido vs Opcional and every complement come from SAT's files, not
 * from code here. Only the small XSLT 1.0 / XPath 1.0 subset those files use is understood, and anything else
 * throws while compiling, so a SAT update that needs more fails loudly instead of giving a wrong cadena.
 */

// Paths from the module's own file, not `new URL(…, import.meta.url)`: a DOM test environment replaces the
// global URL with one whose file: URLs node:url refuses.
const SAT_XSLT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), 'sat-xslt');
const CFDI_40_XSLT = resolve(SAT_XSLT_DIR, 'cfd/4/cadenaoriginal_4_0/cadenaoriginal_4_0.xslt');
const TFD_11_XSLT = resolve(SAT_XSLT_DIR, 'cfd/TimbreFiscalDigital/cadenaoriginal_TFD_1_1.xslt');

const XSL_NAMESPACE = 'http://www.w3.org/1999/XSL/Transform';
const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';
// NOTE: 12 of SAT's included files start with a UTF-8 BOM, which xmldom would read as text before the root.
const BYTE_ORDER_MARK = '\uFEFF';
// XML and XPath 1.0 whitespace is only these four: NBSP and other Unicode spaces are data (JS `\s` is wrong here).
const XML_WHITESPACE_RUN = /[ \t\r\n]+/g;
const XML_WHITESPACE_ONLY = /^[ \t\r\n]*$/;
const XPATH_TOKEN =
  /[ \t\r\n]*(\/\/|\/|\.\.|\.|@|\*|=|\(|\)|'[^']*'|"[^"]*"|\$?[\p{L}_][\p{L}\p{N}_.-]*(?::[\p{L}_][\p{L}\p{N}_.-]*)?)/uy;
const XPATH_NAME = /^[\p{L}_]/u;

type Value = readonly Node[] | string | boolean;
type Variables = ReadonlyMap<string, Value>;

type NameTest = { namespace: string | null; local: string } | { namespace?: undefined; local?: undefined };
type Step =
  | { axis: 'self' }
  | { axis: 'attribute'; namespace: string | null; local: string }
  | ({ axis: 'child' | 'descendant' } & NameTest);

type PathExpression = { kind: 'path'; absolute: boolean; steps: Step[] };
type Expression =
  | PathExpression
  | { kind: 'variable'; name: string }
  | { kind: 'literal'; value: string }
  | { kind: 'function'; name: 'string' | 'normalize-space'; argument: Expression }
  | { kind: 'equals'; left: Expression; right: Expression };

type Instruction =
  | { kind: 'text'; text: string }
  | { kind: 'applyTemplates'; select: Expression }
  | { kind: 'forEach'; select: Expression; body: Instruction[] }
  | { kind: 'if'; test: Expression; body: Instruction[] }
  | { kind: 'callTemplate'; name: string; params: { name: string; select: Expression }[] }
  | { kind: 'valueOf'; select: Expression };

type Template = { params: string[]; body: Instruction[] };

type Stylesheet = {
  root: Template | undefined;
  /** Keyed by `{namespace}local` of the element a template matches. */
  matches: Map<string, Template>;
  named: Map<string, Template>;
};

/** Turns a parsed document into its cadena original, as SAT's XSLT would. */
export type CadenaTransform = (document: Document) => string;

let cfdiTransform: CadenaTransform | undefined;
let tfdTransform: CadenaTransform | undefined;

/**
 * Cadena original of a CFDI 4.0 (what the Comprobante's Sello signs): the output of SAT's
 * cadenaoriginal_4_0.xslt on this document. Like the XSLT, it does not validate: a document whose root is not
 * cfdi:Comprobante 4.0 gives `|||`.
 */
export function cfdiCadenaOriginal(document: Document): string {
  cfdiTransform ??= compileCadenaXslt(CFDI_40_XSLT);
  return cfdiTransform(document);
}

/**
 * Cadena original of a tfd:TimbreFiscalDigital (what its SelloSAT signs): SAT's cadenaoriginal_TFD_1_1.xslt
 * run with the stamp as the root of its own document, wherever it sits in the CFDI.
 */
export function tfdCadenaOriginal(stamp: Element): string {
  tfdTransform ??= compileCadenaXslt(TFD_11_XSLT);
  // The XSLT selects `/tfd:TimbreFiscalDigital`, so the stamp must be the document element; a copy costs little.
  const standalone = new DOMImplementation().createDocument(null, '');
  standalone.appendChild(standalone.importNode(stamp, true));
  return tfdTransform(standalone);
}

/** Loads and compiles one of SAT's cadena XSLT files with its includes; throws on anything not understood. */
export function compileCadenaXslt(entryFile: string): CadenaTransform {
  const stylesheet = compileStylesheet(entryFile);
  return (document) => {
    const run: Run = { stylesheet, output: '' };
    applyTemplates(run, document);
    return run.output;
  };
}

// --- Compiling: SAT's files into instruction lists, once per process ---

class UnsupportedXslt extends Error {}

function compileStylesheet(entryFile: string): Stylesheet {
  const stylesheet: Stylesheet = { root: undefined, matches: new Map(), named: new Map() };
  const calls: { name: string; where: string }[] = [];
  const loading = new Set<string>();

  const load = (file: string): void => {
    if (loading.has(file)) throw new UnsupportedXslt(`${where(file)} includes itself`);
    loading.add(file);
    const sheet = readStylesheetFile(file);
    if (
      sheet.namespaceURI !== XSL_NAMESPACE ||
      !['stylesheet', 'transform'].includes(sheet.localName ?? '')
    ) {
      throw new UnsupportedXslt(`${where(file)}: the root is <${sheet.nodeName}>, not <xsl:stylesheet>`);
    }
    assertAttributes(sheet, ['version', 'exclude-result-prefixes'], file);
    for (let node = sheet.firstChild; node; node = node.nextSibling) {
      if (isIgnorable(node) || isWhitespaceText(node)) continue;
      if (!isElement(node) || node.namespaceURI !== XSL_NAMESPACE) {
        throw new UnsupportedXslt(`${where(file)}: unexpected top-level ${describe(node)}`);
      }
      switch (node.localName) {
        case 'include':
          assertAttributes(node, ['href'], file);
          load(resolve(dirname(file), requiredAttribute(node, 'href', file)));
          break;
        case 'output':
          assertAttributes(node, ['method', 'version', 'encoding', 'indent'], file);
          // The cadena is plain text: any other method would escape or serialise differently.
          if (
            node.getAttribute('method') !== 'text' ||
            !/^utf-8$/i.test(node.getAttribute('encoding') ?? '')
          ) {
            throw new UnsupportedXslt(
              `${where(file)}: only <xsl:output method="text" encoding="UTF-8"> is supported`,
            );
          }
          break;
        case 'template':
          addTemplate(stylesheet, node, file, calls);
          break;
        default:
          throw new UnsupportedXslt(`${where(file)}: unsupported top-level <${node.nodeName}>`);
      }
    }
    loading.delete(file);
  };

  load(entryFile);
  for (const call of calls) {
    if (!stylesheet.named.has(call.name)) {
      throw new UnsupportedXslt(`${call.where}: calls template "${call.name}", which is not defined`);
    }
  }
  return stylesheet;
}

function readStylesheetFile(file: string): Element {
  let text = readFileSync(file, 'utf8');
  if (text.startsWith(BYTE_ORDER_MARK)) text = text.slice(1);
  const parser = new DOMParser({
    onError: (level, message) => {
      throw new UnsupportedXslt(`${where(file)}: ${level}: ${message}`);
    },
  });
  const root = parser.parseFromString(text, 'text/xml').documentElement;
  if (!root) throw new UnsupportedXslt(`${where(file)}: no root element`);
  return root;
}

function addTemplate(
  stylesheet: Stylesheet,
  element: Element,
  file: string,
  calls: { name: string; where: string }[],
): void {
  assertAttributes(element, ['match', 'name'], file);
  const match = element.getAttribute('match');
  const name = element.getAttribute('name');
  if (match !== null && name !== null) {
    throw new UnsupportedXslt(`${where(file)}: a template with both match and name is not supported`);
  }
  const template = compileTemplate(element, file, calls);
  if (name !== null) {
    if (stylesheet.named.has(name))
      throw new UnsupportedXslt(`${where(file)}: template "${name}" defined twice`);
    stylesheet.named.set(name, template);
  } else if (match === '/') {
    // NOTE: SAT's vehiculousado.xslt has its own match="/"; as in xsltproc, the later declaration wins, and
    // the entry file's comes after all its includes.
    stylesheet.root = template;
  } else if (match !== null && /^[\p{L}_][\p{L}\p{N}_.-]*(:[\p{L}_][\p{L}\p{N}_.-]*)?$/u.test(match)) {
    const test = resolveName(match, element, file, `match="${match}"`);
    stylesheet.matches.set(elementKey(test.namespace, test.local), template);
  } else {
    throw new UnsupportedXslt(`${where(file)}: unsupported pattern match="${match ?? ''}"`);
  }
}

function compileTemplate(element: Element, file: string, calls: { name: string; where: string }[]): Template {
  const params: string[] = [];
  let bodyStart = element.firstChild;
  // xsl:param may only open a template; its default is the empty string, the only one SAT's files rely on.
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (isIgnorable(node) || isWhitespaceText(node)) continue;
    if (!isXsl(node, 'param')) break;
    assertAttributes(node, ['name'], file);
    assertEmpty(node, file);
    params.push(requiredAttribute(node, 'name', file));
    bodyStart = node.nextSibling;
  }
  return { params, body: compileBody(bodyStart, new Set(params), file, calls) };
}

function compileBody(
  first: Node | null,
  params: ReadonlySet<string>,
  file: string,
  calls: { name: string; where: string }[],
): Instruction[] {
  const body: Instruction[] = [];
  // XSLT drops whitespace-only text from a stylesheet and copies any other text verbatim. Text on both sides of
  // a comment counts as one node (xsltproc merges them; a processing instruction still separates them).
  let text = '';
  const flushText = (): void => {
    if (!XML_WHITESPACE_ONLY.test(text)) body.push({ kind: 'text', text });
    text = '';
  };
  for (let node = first; node; node = node.nextSibling) {
    if (node.nodeType === Node.COMMENT_NODE) continue;
    if (isText(node)) {
      text += node.nodeValue ?? '';
      continue;
    }
    flushText();
    if (node.nodeType === Node.PROCESSING_INSTRUCTION_NODE) continue;
    if (!isElement(node) || node.namespaceURI !== XSL_NAMESPACE) {
      throw new UnsupportedXslt(`${where(file)}: unsupported ${describe(node)} in a template`);
    }
    const element = node;
    const expression = (attribute: string): Expression =>
      compileExpression(requiredAttribute(element, attribute, file), element, params, file);
    switch (element.localName) {
      case 'apply-templates':
        assertAttributes(element, ['select'], file);
        assertEmpty(element, file);
        body.push({ kind: 'applyTemplates', select: nodeSetExpression(expression('select'), file) });
        break;
      case 'for-each':
        assertAttributes(element, ['select'], file);
        body.push({
          kind: 'forEach',
          select: nodeSetExpression(expression('select'), file),
          body: compileBody(element.firstChild, params, file, calls),
        });
        break;
      case 'if':
        assertAttributes(element, ['test'], file);
        body.push({
          kind: 'if',
          test: expression('test'),
          body: compileBody(element.firstChild, params, file, calls),
        });
        break;
      case 'value-of':
        assertAttributes(element, ['select'], file);
        assertEmpty(element, file);
        body.push({ kind: 'valueOf', select: expression('select') });
        break;
      case 'call-template': {
        assertAttributes(element, ['name'], file);
        const name = requiredAttribute(element, 'name', file);
        calls.push({ name, where: where(file) });
        body.push({ kind: 'callTemplate', name, params: compileWithParams(element, params, file) });
        break;
      }
      default:
        throw new UnsupportedXslt(`${where(file)}: unsupported <${element.nodeName}>`);
    }
  }
  flushText();
  return body;
}

function compileWithParams(
  call: Element,
  params: ReadonlySet<string>,
  file: string,
): { name: string; select: Expression }[] {
  const withParams: { name: string; select: Expression }[] = [];
  for (let node = call.firstChild; node; node = node.nextSibling) {
    if (isIgnorable(node) || isWhitespaceText(node)) continue;
    if (!isXsl(node, 'with-param')) {
      throw new UnsupportedXslt(`${where(file)}: unsupported ${describe(node)} in <xsl:call-template>`);
    }
    assertAttributes(node, ['name', 'select'], file);
    assertEmpty(node, file);
    withParams.push({
      name: requiredAttribute(node, 'name', file),
      select: compileExpression(requiredAttribute(node, 'select', file), node, params, file),
    });
  }
  return withParams;
}

function nodeSetExpression(expression: Expression, file: string): Expression {
  if (expression.kind !== 'path' && expression.kind !== 'variable') {
    throw new UnsupportedXslt(`${where(file)}: select must be a location path`);
  }
  return expression;
}

/**
 * Parses the XPath subset SAT's files use: location paths (`/`, `.`, `*`, `p:E`, `@A`, `/` and a final `//`),
 * `$param`, string literals, string() and normalize-space() of one argument, and one `=` comparison.
 */
function compileExpression(
  source: string,
  scope: Element,
  params: ReadonlySet<string>,
  file: string,
): Expression {
  const tokens = tokenize(source, file);
  let position = 0;
  const fail = (why: string): never => {
    throw new UnsupportedXslt(`${where(file)}: ${why} in XPath "${source}"`);
  };
  const next = (): string => tokens[position++] ?? fail('unexpected end');

  const step = (axis: 'child' | 'descendant'): Step => {
    const token = next();
    if (token === '.' && axis === 'child') return { axis: 'self' };
    if (token === '*') return { axis };
    if (token === '@' && axis === 'child') {
      const name = next();
      if (!XPATH_NAME.test(name)) fail(`unsupported attribute "@${name}"`);
      return { axis: 'attribute', ...resolveName(name, scope, file, source) };
    }
    if (!XPATH_NAME.test(token) || tokens[position] === '(') fail(`unsupported step "${token}"`);
    return { axis, ...resolveName(token, scope, file, source) };
  };

  const path = (): PathExpression => {
    const absolute = tokens[position] === '/';
    if (absolute) position += 1;
    const steps: Step[] = [];
    const startsStep = (token: string | undefined): boolean =>
      token !== undefined && (token === '.' || token === '*' || token === '@' || XPATH_NAME.test(token));
    if (absolute && !startsStep(tokens[position])) return { kind: 'path', absolute, steps };
    steps.push(step('child'));
    while (tokens[position] === '/' || tokens[position] === '//') {
      steps.push(step(next() === '//' ? 'descendant' : 'child'));
    }
    // A single trailing `//` step from one node keeps results in document order without sorting.
    const last = steps.length - 1;
    if (steps.some((s, index) => (s.axis === 'descendant' || s.axis === 'attribute') && index !== last)) {
      fail('"//" or "@" before the last step is not supported');
    }
    return { kind: 'path', absolute, steps };
  };

  const operand = (): Expression => {
    const token = tokens[position];
    if (token?.startsWith('$')) {
      position += 1;
      const name = token.slice(1);
      if (!params.has(name)) fail(`unknown variable $${name}`);
      return { kind: 'variable', name };
    }
    if (token?.startsWith("'") || token?.startsWith('"')) {
      position += 1;
      return { kind: 'literal', value: token.slice(1, -1) };
    }
    if (token !== undefined && tokens[position + 1] === '(') {
      if (token !== 'string' && token !== 'normalize-space') fail(`unsupported function ${token}()`);
      position += 2;
      const argument = equality();
      if (next() !== ')') fail('expected ")"');
      return { kind: 'function', name: token === 'string' ? 'string' : 'normalize-space', argument };
    }
    return path();
  };

  const equality = (): Expression => {
    const left = operand();
    if (tokens[position] !== '=') return left;
    position += 1;
    return { kind: 'equals', left, right: operand() };
  };

  const expression = equality();
  if (position < tokens.length) fail(`unexpected "${tokens[position]}"`);
  return expression;
}

function tokenize(source: string, file: string): string[] {
  const tokens: string[] = [];
  XPATH_TOKEN.lastIndex = 0;
  while (!XML_WHITESPACE_ONLY.test(source.slice(XPATH_TOKEN.lastIndex))) {
    const at = XPATH_TOKEN.lastIndex;
    const match = XPATH_TOKEN.exec(source);
    if (!match?.[1]) throw new UnsupportedXslt(`${where(file)}: cannot read XPath "${source}" at ${at}`);
    tokens.push(match[1]);
  }
  return tokens;
}

/** XPath 1.0: a prefix is resolved in the stylesheet's scope; no prefix means no namespace. */
function resolveName(
  qualifiedName: string,
  scope: Element,
  file: string,
  context: string,
): { namespace: string | null; local: string } {
  const colon = qualifiedName.indexOf(':');
  if (colon < 0) return { namespace: null, local: qualifiedName };
  const prefix = qualifiedName.slice(0, colon);
  const namespace = scope.lookupNamespaceURI(prefix);
  if (!namespace) throw new UnsupportedXslt(`${where(file)}: undeclared prefix "${prefix}" in "${context}"`);
  return { namespace, local: qualifiedName.slice(colon + 1) };
}

function assertAttributes(element: Element, allowed: readonly string[], file: string): void {
  for (const attribute of Array.from(element.attributes)) {
    if (attribute.namespaceURI === XMLNS_NAMESPACE) continue;
    if (!allowed.includes(attribute.name)) {
      throw new UnsupportedXslt(
        `${where(file)}: unsupported attribute ${attribute.name} on <${element.nodeName}>`,
      );
    }
  }
}

function assertEmpty(element: Element, file: string): void {
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (!isIgnorable(node) && !isWhitespaceText(node)) {
      throw new UnsupportedXslt(`${where(file)}: <${element.nodeName}> must be empty`);
    }
  }
}

function requiredAttribute(element: Element, name: string, file: string): string {
  const value = element.getAttribute(name);
  if (value === null) throw new UnsupportedXslt(`${where(file)}: <${element.nodeName}> needs ${name}`);
  return value;
}

function where(file: string): string {
  return `XSLT ${relative(SAT_XSLT_DIR, file)}`;
}

function describe(node: Node): string {
  return isElement(node) ? `<${node.nodeName}>` : `text "${(node.nodeValue ?? '').trim().slice(0, 40)}"`;
}

function isXsl(node: Node, localName: string): node is Element {
  return isElement(node) && node.namespaceURI === XSL_NAMESPACE && node.localName === localName;
}

function isIgnorable(node: Node): boolean {
  return node.nodeType === Node.COMMENT_NODE || node.nodeType === Node.PROCESSING_INSTRUCTION_NODE;
}

function isWhitespaceText(node: Node): boolean {
  return isText(node) && XML_WHITESPACE_ONLY.test(node.nodeValue ?? '');
}

// --- Running: the instruction lists over one document ---

type Run = { readonly stylesheet: Stylesheet; output: string };

function applyTemplates(run: Run, node: Node): void {
  switch (node.nodeType) {
    case Node.DOCUMENT_NODE:
      if (run.stylesheet.root) invoke(run, run.stylesheet.root, node, new Map());
      else applyToChildren(run, node);
      return;
    case Node.ELEMENT_NODE: {
      const template = run.stylesheet.matches.get(elementKey(node.namespaceURI, node.localName ?? ''));
      if (template) invoke(run, template, node, new Map());
      else applyToChildren(run, node);
      return;
    }
    // XSLT's built-in rules copy text out: this is how an unknown complement leaks its text, indentation included.
    case Node.TEXT_NODE:
    case Node.CDATA_SECTION_NODE:
    case Node.ATTRIBUTE_NODE:
      run.output += node.nodeValue ?? '';
      return;
    default:
      return;
  }
}

function applyToChildren(run: Run, node: Node): void {
  for (let child = node.firstChild; child; child = child.nextSibling) applyTemplates(run, child);
}

function invoke(run: Run, template: Template, context: Node, args: Variables): void {
  const variables = new Map<string, Value>();
  for (const param of template.params) variables.set(param, args.get(param) ?? '');
  execute(run, template.body, context, variables);
}

function execute(run: Run, body: readonly Instruction[], context: Node, variables: Variables): void {
  for (const instruction of body) {
    switch (instruction.kind) {
      case 'text':
        run.output += instruction.text;
        break;
      case 'valueOf':
        run.output += toText(evaluate(instruction.select, context, variables));
        break;
      case 'applyTemplates':
        for (const node of nodeSet(instruction.select, context, variables)) applyTemplates(run, node);
        break;
      case 'forEach':
        for (const node of nodeSet(instruction.select, context, variables)) {
          execute(run, instruction.body, node, variables);
        }
        break;
      case 'if':
        if (toBoolean(evaluate(instruction.test, context, variables))) {
          execute(run, instruction.body, context, variables);
        }
        break;
      case 'callTemplate': {
        const template = run.stylesheet.named.get(instruction.name);
        if (!template) throw new Error(`template "${instruction.name}" vanished after compiling`);
        const args = new Map<string, Value>();
        for (const param of instruction.params)
          args.set(param.name, evaluate(param.select, context, variables));
        invoke(run, template, context, args);
        break;
      }
    }
  }
}

function nodeSet(expression: Expression, context: Node, variables: Variables): readonly Node[] {
  const value = evaluate(expression, context, variables);
  if (typeof value === 'string' || typeof value === 'boolean') {
    throw new Error('XSLT select gave a string where a node-set was expected');
  }
  return value;
}

function evaluate(expression: Expression, context: Node, variables: Variables): Value {
  switch (expression.kind) {
    case 'path':
      return selectPath(expression, context);
    case 'variable':
      return variables.get(expression.name) ?? '';
    case 'literal':
      return expression.value;
    case 'function': {
      const text = toText(evaluate(expression.argument, context, variables));
      return expression.name === 'string' ? text : normalizeSpace(text);
    }
    case 'equals':
      return equals(
        evaluate(expression.left, context, variables),
        evaluate(expression.right, context, variables),
      );
  }
}

function selectPath(path: PathExpression, context: Node): Node[] {
  let nodes: Node[] = [path.absolute ? rootOf(context) : context];
  for (const step of path.steps) {
    const selected: Node[] = [];
    for (const node of nodes) {
      if (step.axis === 'self') selected.push(node);
      else if (step.axis === 'attribute') {
        const attribute = isElement(node) ? node.getAttributeNodeNS(step.namespace, step.local) : null;
        if (attribute) selected.push(attribute);
      } else collectElements(node, step, step.axis === 'descendant', selected);
    }
    nodes = selected;
  }
  return nodes;
}

function collectElements(parent: Node, test: NameTest, deep: boolean, into: Node[]): void {
  for (let child = parent.firstChild; child; child = child.nextSibling) {
    if (!isElement(child)) continue;
    if (
      test.local === undefined ||
      (child.localName === test.local && child.namespaceURI === test.namespace)
    ) {
      into.push(child);
    }
    if (deep) collectElements(child, test, deep, into);
  }
}

function rootOf(node: Node): Node {
  let current = node;
  while (current.parentNode) current = current.parentNode;
  return current;
}

/** XPath string(): a node-set's value is that of its first node in document order. */
function toText(value: Value): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  const [first] = value;
  return first ? stringValue(first) : '';
}

/** XPath boolean(): a node-set is true when not empty, so an attribute present but empty counts (Opcional). */
function toBoolean(value: Value): boolean {
  return typeof value === 'boolean' ? value : value.length > 0;
}

function equals(left: Value, right: Value): boolean {
  if (typeof left === 'boolean' || typeof right === 'boolean') return toBoolean(left) === toBoolean(right);
  const rightTexts = typeof right === 'string' ? [right] : right.map(stringValue);
  const leftTexts = typeof left === 'string' ? [left] : left.map(stringValue);
  return leftTexts.some((text) => rightTexts.includes(text));
}

function stringValue(node: Node): string {
  if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_NODE)
    return node.nodeValue ?? '';
  let text = '';
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (isText(child)) text += child.nodeValue ?? '';
    else if (isElement(child)) text += stringValue(child);
  }
  return text;
}

/** XPath 1.0 normalize-space: collapses only space, TAB, CR and LF; NBSP stays, as in the signed cadena. */
function normalizeSpace(text: string): string {
  return text.replace(XML_WHITESPACE_RUN, ' ').replace(/^ | $/g, '');
}

function elementKey(namespace: string | null, local: string): string {
  return `{${namespace ?? ''}}${local}`;
}

function isElement(node: Node): node is Element {
  return node.nodeType === Node.ELEMENT_NODE;
}

function isText(node: Node): boolean {
  return node.nodeType === Node.TEXT_NODE || node.nodeType === Node.CDATA_SECTION_NODE;
}
