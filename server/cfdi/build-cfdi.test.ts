import { readFileSync } from 'node:fs';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { cfdiInput, makeCfdi, testAuthority, withAttribute, withoutElement } from '../../test/fixtures/cfdi';
import { buildCfdiXml, computeCfdiAmounts, deterministicUuid } from './build-cfdi';
import { CFDI_40_NAMESPACE, TFD_NAMESPACE } from './namespaces';
import { parseCfdi } from './parse-cfdi';

const XSD_NAMESPACE = 'http://www.w3.org/2001/XMLSchema';

describe('computeCfdiAmounts', () => {
  it.each([
    ['10000.00', '10000.00', '1600.00', '11600.00'],
    ['12345.67', '12345.67', '1975.31', '14320.98'], // 1975.3072 rounds down
    ['0.04', '0.04', '0.01', '0.05'], // 0.0064 rounds up
    ['0.03', '0.03', '0.00', '0.03'], // 0.0048 rounds down
    ['1', '1.00', '0.16', '1.16'],
    ['2500.5', '2500.50', '400.08', '2900.58'],
    // Largest realistic invoice: 9,999,999,999.99 × 0.16 = 1,599,999,999.9984 → …2000.00 (rounds up).
    ['9999999999.99', '9999999999.99', '1600000000.00', '11599999999.99'],
  ])('%s → IVA %s, Total %s', (input, subtotal, tax, total) => {
    expect(computeCfdiAmounts(input)).toEqual({ subtotal, tax, total });
  });

  it('refuses amounts a peso invoice cannot carry', () => {
    expect(() => computeCfdiAmounts('10.005')).toThrow();
    expect(() => computeCfdiAmounts('-1.00')).toThrow();
    expect(() => computeCfdiAmounts('1,000.00')).toThrow();
    // Beyond the money module's exact range (Number.MAX_SAFE_INTEGER centavos).
    expect(() => computeCfdiAmounts('9999999999999999.99')).toThrow();
  });
});

describe('deterministicUuid', () => {
  it('gives the same RFC 4122 version-4-shaped UUID for the same seed', () => {
    const uuid = deterministicUuid('demo|A|1001');

    expect(uuid).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
    expect(deterministicUuid('demo|A|1001')).toBe(uuid);
    expect(deterministicUuid('demo|A|1002')).not.toBe(uuid);
  });
});

describe('buildCfdiXml', () => {
  it('is byte-for-byte deterministic, and the UUID follows the folio', () => {
    expect(makeCfdi()).toBe(makeCfdi());
    expect(parseUuid(makeCfdi({ folio: '1' }))).not.toBe(parseUuid(makeCfdi({ folio: '2' })));
  });

  it('escapes attribute text so it reads back unchanged', () => {
    const name = 'ACME "EL <MEJOR>" & HIJOS\tO\'NEIL\nDOS LÍNEAS';
    const result = parseCfdi(makeCfdi({ receiver: { name }, description: '<script>&amp;</script>' }));

    expect(result.ok && result.cfdi.receiver.name).toBe(name);
    expect(result.ok && result.cfdi.description).toBe('<script>&amp;</script>');
  });

  it('refuses input that would make an invalid CFDI', () => {
    expect(() => buildCfdiXml(cfdiInput({ description: 'a | b' }), testAuthority())).toThrow('|');
    expect(() => buildCfdiXml(cfdiInput({ description: 'bell \u0007' }), testAuthority())).toThrow(
      'control character',
    );
    expect(() => buildCfdiXml(cfdiInput({ currency: 'USD' }), testAuthority())).toThrow('exchangeRate');
    expect(() => buildCfdiXml(cfdiInput({ issuedAt: '2025-03-14 10:30' }), testAuthority())).toThrow(
      'issuedAt',
    );
  });

  it('writes TipoCambio only for USD, and PPD with FormaPago 99', () => {
    const usd = makeCfdi({ currency: 'USD', exchangeRate: '17.254300' });

    expect(usd).toContain('Moneda="USD" TipoCambio="17.254300"');
    expect(makeCfdi()).not.toContain('TipoCambio');
    expect(makeCfdi()).toContain('FormaPago="99"');
    expect(makeCfdi()).toContain('MetodoPago="PPD"');
  });

  it('stamps one minute after Fecha by default, across midnight and year end', () => {
    const xml = makeCfdi({ issuedAt: '2024-12-31T23:59:30' });

    expect(xml).toContain('FechaTimbrado="2025-01-01T00:00:30"');
  });
});

describe('buildCfdiXml against SAT XSDs', () => {
  const cfdiSchema = readSchema('cfdv40.xsd', 'Comprobante');
  const stampSchema = readSchema('TimbreFiscalDigitalv11.xsd', 'TimbreFiscalDigital');

  it('reads the schema (guards against a walker that finds nothing)', () => {
    expect(cfdiSchema.requiredAttributes).toEqual(
      expect.arrayContaining(['Version', 'Fecha', 'Sello', 'Exportacion', 'LugarExpedicion']),
    );
    const names = cfdiSchema.children.map((child) => `${child.declaration.name}${child.required ? '!' : ''}`);
    expect(names).toEqual(expect.arrayContaining(['Emisor!', 'Receptor!', 'Conceptos!', 'Complemento']));
    expect(stampSchema.requiredAttributes).toContain('UUID');
  });

  it.each([
    ['MXN PPD', cfdiInput()],
    [
      'USD PUE without serie',
      cfdiInput({ currency: 'USD', exchangeRate: '18.5', paymentMethod: 'PUE', serie: undefined }),
    ],
  ])('%s: every required node and attribute is present and every inline pattern matches', (_label, input) => {
    const root = parseXml(buildCfdiXml(input, testAuthority()));

    expect(root.namespaceURI).toBe(CFDI_40_NAMESPACE);
    expect(schemaProblems(root, cfdiSchema, CFDI_40_NAMESPACE)).toEqual([]);
    const stamps = Array.from(root.getElementsByTagNameNS(TFD_NAMESPACE, 'TimbreFiscalDigital'));
    expect(stamps).toHaveLength(1);
    for (const stamp of stamps) expect(schemaProblems(stamp, stampSchema, TFD_NAMESPACE)).toEqual([]);
  });

  it('fails when the XML drops what the XSD requires', () => {
    let xml = withAttribute(makeCfdi(), 'Comprobante', 'Exportacion', null);
    xml = withAttribute(xml, 'Concepto', 'ObjetoImp', null);
    xml = withAttribute(xml, 'Comprobante', 'NoCertificado', '123');
    xml = withoutElement(xml, 'Receptor');

    expect(schemaProblems(parseXml(xml), cfdiSchema, CFDI_40_NAMESPACE)).toEqual([
      'Comprobante@Exportacion missing',
      'Comprobante@NoCertificado="123" does not match [0-9]{20}',
      'Comprobante/Receptor missing',
      'Comprobante/Conceptos/Concepto@ObjetoImp missing',
    ]);
  });
});

type ElementDeclaration = {
  name: string;
  requiredAttributes: string[];
  /** Inline xs:pattern facets by attribute name; catalogue types (catCFDI) are not available here. */
  patterns: Map<string, string[]>;
  children: { declaration: ElementDeclaration; required: boolean }[];
};

function readSchema(fileName: string, rootName: string): ElementDeclaration {
  const schema = parseXml(readFileSync(new URL(`./sat-xsd/${fileName}`, import.meta.url), 'utf8'));
  const root = xsChildren(schema, 'element').find((element) => element.getAttribute('name') === rootName);
  if (!root) throw new Error(`${rootName} not declared in ${fileName}`);
  return readDeclaration(root);
}

function readDeclaration(element: Element): ElementDeclaration {
  const [complexType] = xsChildren(element, 'complexType');
  const attributes = complexType ? xsChildren(complexType, 'attribute') : [];
  const patterns = new Map<string, string[]>();
  for (const attribute of attributes) {
    const facets = Array.from(attribute.getElementsByTagNameNS(XSD_NAMESPACE, 'pattern'));
    const values = facets.map((facet) => facet.getAttribute('value') ?? '');
    if (values.length > 0) patterns.set(attribute.getAttribute('name') ?? '', values);
  }
  return {
    name: element.getAttribute('name') ?? '',
    requiredAttributes: attributes
      .filter((attribute) => attribute.getAttribute('use') === 'required')
      .map((attribute) => attribute.getAttribute('name') ?? ''),
    patterns,
    children: (complexType ? xsChildren(complexType, 'sequence') : [])
      .flatMap((sequence) => xsChildren(sequence, 'element'))
      .map((child) => ({
        declaration: readDeclaration(child),
        required: child.getAttribute('minOccurs') !== '0',
      })),
  };
}

/** Walks the XML alongside the XSD; returns one line per missing node/attribute or failed pattern. */
function schemaProblems(
  element: Element,
  declaration: ElementDeclaration,
  namespace: string,
  path = '',
): string[] {
  const here = path === '' ? declaration.name : `${path}/${declaration.name}`;
  const problems: string[] = [];
  for (const name of declaration.requiredAttributes) {
    if (!element.hasAttribute(name)) problems.push(`${here}@${name} missing`);
  }
  for (const [name, patterns] of declaration.patterns) {
    const value = element.getAttribute(name);
    // XSD patterns are implicitly anchored at both ends.
    if (value !== null && !patterns.some((pattern) => new RegExp(`^(?:${pattern})$`, 'u').test(value))) {
      problems.push(`${here}@${name}="${value}" does not match ${patterns.join(' | ')}`);
    }
  }
  for (const { declaration: child, required } of declaration.children) {
    const instances = Array.from(element.children).filter(
      (node) => node.namespaceURI === namespace && node.localName === child.name,
    );
    if (required && instances.length === 0) problems.push(`${here}/${child.name} missing`);
    for (const instance of instances) problems.push(...schemaProblems(instance, child, namespace, here));
  }
  return problems;
}

function xsChildren(parent: Element, localName: string): Element[] {
  return Array.from(parent.children).filter(
    (child) => child.namespaceURI === XSD_NAMESPACE && child.localName === localName,
  );
}

function parseXml(xml: string): Element {
  const root = new DOMParser().parseFromString(xml, 'text/xml').documentElement;
  if (!root) throw new Error('no root element');
  return root;
}

function parseUuid(xml: string): string {
  const result = parseCfdi(xml);
  if (!result.ok) throw new Error(result.reason);
  return result.cfdi.uuid;
}
