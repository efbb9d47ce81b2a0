import { describe, expect, it } from 'vitest';
import {
  cfdi33Xml,
  externalEntityXml,
  fixtureRfcs,
  makeCfdi,
  missingStampXml,
  notXml,
  stampedUuid,
  withAttribute,
  withoutElement,
  wrongNamespaceXml,
  xmlBomb,
} from '../../test/fixtures/cfdi';
import { type Cfdi, cfdiRejectReasons, parseCfdi, parseCfdiBatch } from './parse-cfdi';
import { MAX_XML_BYTES, parseXmlText, xmlRejectReasons } from './safe-xml';

const UUID = '6f1c2b9e-3d4a-4c5b-9e8f-0a1b2c3d4e5f';

function expectAccepted(xml: string | Uint8Array, fileName?: string): Cfdi {
  const result = parseCfdi(xml, fileName);
  if (!result.ok) throw new Error(`expected acceptance, got: ${result.reason}`);
  return result.cfdi;
}

function reasonFor(xml: string | Uint8Array, fileName?: string): string {
  const result = parseCfdi(xml, fileName);
  if (result.ok) throw new Error('expected a rejection');
  return result.reason;
}

describe('parseCfdi: accepted CFDI 4.0', () => {
  it('round-trips every field the builder writes', () => {
    expect(expectAccepted(makeCfdi({ uuid: UUID }))).toEqual({
      uuid: UUID.toUpperCase(),
      version: '4.0',
      serie: 'A',
      folio: '1001',
      issuedAt: '2025-03-14T10:30:00',
      stampedAt: '2025-03-14T10:31:00',
      subtotal: '10000.00',
      discount: null,
      total: '11600.00',
      currency: 'MXN',
      exchangeRate: null,
      voucherType: 'I',
      paymentMethod: 'PPD',
      paymentForm: '99',
      issuer: { rfc: fixtureRfcs.supplier, name: 'PROVEEDORA FLORES Y LIMÓN', taxRegime: '601' },
      receiver: { rfc: fixtureRfcs.corporate, name: 'CORPORATIVO NORTEÑO', cfdiUse: 'G03' },
      description: 'Servicio de mantenimiento preventivo, marzo 2025',
      pacRfc: 'SAT970701NN3',
      rfcWarnings: [],
    } satisfies Cfdi);
  });

  it('takes the derived UUID, a missing serie and PUE as written', () => {
    const xml = makeCfdi({ serie: undefined, paymentMethod: 'PUE', stampedAt: '2025-03-15T09:00:00' });
    const cfdi = expectAccepted(xml);

    expect(cfdi.uuid).toBe(stampedUuid(xml));
    expect(cfdi).toMatchObject({
      serie: null,
      paymentMethod: 'PUE',
      paymentForm: '03',
      stampedAt: '2025-03-15T09:00:00',
    });
  });

  it('reads a USD CFDI with its TipoCambio', () => {
    const cfdi = expectAccepted(
      makeCfdi({ currency: 'USD', exchangeRate: '17.254300', subtotal: '2500.50' }),
    );

    expect(cfdi).toMatchObject({
      currency: 'USD',
      exchangeRate: '17.254300',
      subtotal: '2500.50',
      total: '2900.58',
    });
  });

  it('accepts UTF-8 bytes with a BOM, keeping accents and Ñ', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(makeCfdi())]);

    expect(expectAccepted(bytes, 'factura.xml').receiver.name).toBe('CORPORATIVO NORTEÑO');
  });

  it('matches by namespace URI whatever the prefixes are', () => {
    const xml = makeCfdi({ uuid: UUID });
    const otherPrefixes = xml
      .replaceAll('cfdi:', 'c:')
      .replaceAll('xmlns:cfdi=', 'xmlns:c=')
      .replaceAll('tfd:', 't:')
      .replace('xmlns:tfd=', 'xmlns:t=');
    const defaultNamespace = xml.replaceAll('cfdi:', '').replace('xmlns:cfdi=', 'xmlns=');

    expect(otherPrefixes).not.toContain('cfdi:');
    expect(expectAccepted(otherPrefixes).uuid).toBe(UUID.toUpperCase());
    expect(expectAccepted(defaultNamespace).uuid).toBe(UUID.toUpperCase());
  });

  it('keeps Descuento and summarises several Conceptos', () => {
    let xml = withAttribute(makeCfdi(), 'Comprobante', 'Descuento', '100.00');
    xml = xml.replace(
      '  </cfdi:Conceptos>',
      '    <cfdi:Concepto ClaveProdServ="84111506" Cantidad="1" ClaveUnidad="E48" Descripcion="Refacciones" ValorUnitario="1.00" Importe="1.00" ObjetoImp="01"/>\n  </cfdi:Conceptos>',
    );
    const cfdi = expectAccepted(xml);

    expect(cfdi.discount).toBe('100.00');
    expect(cfdi.description).toBe('Servicio de mantenimiento preventivo, marzo 2025; Refacciones');
  });

  it('warns, without rejecting, when the RFC check digit does not match', () => {
    const cfdi = expectAccepted(makeCfdi({ issuer: { rfc: fixtureRfcs.checkDigitMismatch } }));

    expect(cfdi.issuer.rfc).toBe('LME060822IH5');
    expect(cfdi.rfcWarnings).toHaveLength(1);
    expect(cfdi.rfcWarnings[0]).toContain('LME060822IH5');
    expect(cfdi.rfcWarnings[0]).toContain('emisor');
  });

  it('warns when the receiver is the generic "público en general" RFC', () => {
    const cfdi = expectAccepted(
      makeCfdi({ receiver: { rfc: 'XAXX010101000', taxRegime: '616', cfdiUse: 'S01' } }),
    );

    expect(cfdi.rfcWarnings).toEqual([expect.stringContaining('receptor es genérico (XAXX010101000)')]);
  });
});

describe('parseCfdi: rejected files', () => {
  it('rejects empty and oversized files', () => {
    expect(reasonFor('')).toBe(xmlRejectReasons.empty);
    expect(reasonFor(new Uint8Array())).toBe(xmlRejectReasons.empty);
    expect(reasonFor('  \n ')).toBe(xmlRejectReasons.empty);
    const padded = makeCfdi().replace(
      '</cfdi:Comprobante>',
      `<!--${'x'.repeat(MAX_XML_BYTES)}--></cfdi:Comprobante>`,
    );
    expect(reasonFor(padded)).toBe('El archivo excede el tamaño máximo de 2 MB');
  });

  it('rejects text that is not XML, PDFs, ZIPs and non-UTF-8 bytes', () => {
    expect(reasonFor(notXml())).toBe('El archivo no es un XML válido');
    expect(reasonFor('{"uuid": "x"}')).toBe('El archivo no es un XML válido');
    expect(reasonFor(new TextEncoder().encode('%PDF-1.7\n%âãÏÓ'))).toBe(xmlRejectReasons.pdf);
    expect(reasonFor('garbage', 'Factura-A1001.PDF')).toBe(xmlRejectReasons.pdf);
    expect(reasonFor(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]))).toBe(xmlRejectReasons.zip);
    const latin1 = Buffer.from(makeCfdi(), 'latin1');
    expect(reasonFor(new Uint8Array(latin1))).toBe(xmlRejectReasons.notUtf8);
  });

  it('never throws on malformed XML, whatever the cut', () => {
    const xml = makeCfdi();
    const lastCut = xml.length - '</cfdi:Comprobante>'.length;
    for (let end = 1; end <= lastCut; end += 37) {
      const result = parseCfdi(xml.slice(0, end));
      expect(result.ok).toBe(false);
    }
    expect(reasonFor(xml.replace('<cfdi:Emisor', '<cfdi:Emisor Rfc=sin-comillas'))).toBe(
      xmlRejectReasons.notXml,
    );
    expect(reasonFor(`${xml}<otro/>`)).toBe(xmlRejectReasons.notXml);
  });

  it('rejects the billion-laughs bomb before parsing, and the parser alone would not expand it either', () => {
    const bomb = xmlBomb();
    const started = performance.now();

    expect(reasonFor(bomb)).toBe('El XML contiene declaraciones DOCTYPE o ENTITY, que no se permiten');
    expect(parseXmlText(bomb)).toEqual({ ok: false, reason: xmlRejectReasons.notXml });
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('rejects external entities (XXE), also when the DOCTYPE is written in lower case', () => {
    expect(reasonFor(externalEntityXml())).toBe(xmlRejectReasons.dtd);
    expect(reasonFor(externalEntityXml().replace('<!DOCTYPE', '<!doctype'))).toBe(xmlRejectReasons.dtd);
    const unscanned = parseXmlText(externalEntityXml());
    expect(unscanned.ok).toBe(false);
  });

  it('rejects CFDI 3.3 with its own message', () => {
    expect(reasonFor(cfdi33Xml())).toBe('El CFDI es versión 3.3; solo se aceptan CFDI 4.0');
  });

  it('rejects a cfdi: prefix bound to another namespace, and other root elements', () => {
    expect(reasonFor(wrongNamespaceXml())).toBe(cfdiRejectReasons.notCfdi40);
    expect(reasonFor('<Comprobante Version="4.0"/>')).toBe(cfdiRejectReasons.notCfdi40);
  });

  it('rejects a Version other than 4.0 inside the 4.0 namespace', () => {
    expect(reasonFor(withAttribute(makeCfdi(), 'Comprobante', 'Version', '4.1'))).toBe(
      'El CFDI declara Version="4.1"; solo se aceptan CFDI 4.0',
    );
  });

  it('rejects an unstamped CFDI, even with a look-alike timbre hidden in the Addenda', () => {
    expect(reasonFor(missingStampXml())).toBe('El CFDI no está timbrado (falta el Timbre Fiscal Digital)');
    const stamped = makeCfdi();
    const stampLine = stamped.split('\n').find((line) => line.includes('<tfd:TimbreFiscalDigital')) ?? '';
    const withAddendaStamp = missingStampXml().replace(
      '</cfdi:Comprobante>',
      `<cfdi:Addenda>${stampLine.trim()}</cfdi:Addenda></cfdi:Comprobante>`,
    );
    expect(withAddendaStamp).toContain('<cfdi:Addenda><tfd:TimbreFiscalDigital');
    expect(reasonFor(withAddendaStamp)).toBe(cfdiRejectReasons.notStamped);
  });

  it('rejects a malformed UUID', () => {
    const xml = withAttribute(makeCfdi(), 'TimbreFiscalDigital', 'UUID', '6F1C2B9E3D4A4C5B9E8F0A1B2C3D4E5F');

    expect(reasonFor(xml)).toBe(
      'El UUID del timbre no tiene un formato válido: "6F1C2B9E3D4A4C5B9E8F0A1B2C3D4E5F"',
    );
  });

  it('names every missing required attribute', () => {
    let xml = withAttribute(makeCfdi(), 'Comprobante', 'Sello', null);
    xml = withAttribute(xml, 'Emisor', 'Rfc', null);
    xml = withAttribute(xml, 'Receptor', 'UsoCFDI', '');
    xml = withAttribute(xml, 'TimbreFiscalDigital', 'FechaTimbrado', null);

    expect(reasonFor(xml)).toBe(
      'Faltan atributos requeridos: Sello (Comprobante), Rfc (Emisor), UsoCFDI (Receptor), FechaTimbrado (TimbreFiscalDigital)',
    );
  });

  it('rejects missing nodes', () => {
    expect(reasonFor(withoutElement(makeCfdi(), 'Receptor'))).toBe('Falta el nodo cfdi:Receptor');
    expect(reasonFor(withoutElement(makeCfdi(), 'Concepto'))).toBe('El CFDI no tiene ningún cfdi:Concepto');
  });

  it('rejects issuer and receiver RFCs with a bad format, naming which one', () => {
    expect(reasonFor(makeCfdi({ issuer: { rfc: 'PFL2001' } }))).toMatch(/^RFC del emisor inválido: .+/);
    expect(reasonFor(makeCfdi({ receiver: { rfc: 'CNO-100823-HX5' } }))).toMatch(
      /^RFC del receptor inválido: .+/,
    );
  });

  it('rejects amounts that are not t_Importe', () => {
    const xml = makeCfdi();

    expect(reasonFor(withAttribute(xml, 'Comprobante', 'SubTotal', '10,000.00'))).toBe(
      'El importe SubTotal no es válido: "10,000.00"',
    );
    expect(reasonFor(withAttribute(xml, 'Comprobante', 'Total', '-11600.00'))).toBe(
      'El importe Total no es válido: "-11600.00"',
    );
    expect(reasonFor(withAttribute(xml, 'Comprobante', 'Total', '11600.0000001'))).toBe(
      'El importe Total no es válido: "11600.0000001"',
    );
    expect(reasonFor(withAttribute(xml, 'Comprobante', 'Descuento', '1e3'))).toBe(
      'El importe Descuento no es válido: "1e3"',
    );
  });

  it('rejects a foreign currency without TipoCambio', () => {
    const usd = makeCfdi({ currency: 'USD', exchangeRate: '17.25' });

    expect(reasonFor(withAttribute(usd, 'Comprobante', 'TipoCambio', null))).toBe(
      'El CFDI en USD no indica TipoCambio, obligatorio cuando la moneda no es MXN ni XXX',
    );
    expect(reasonFor(withAttribute(usd, 'Comprobante', 'TipoCambio', '0'))).toBe(
      'El TipoCambio "0" no es válido',
    );
    expect(reasonFor(withAttribute(usd, 'Comprobante', 'Moneda', 'usd'))).toBe(
      'La Moneda "usd" no es una clave ISO 4217 válida',
    );
  });

  it('rejects a Fecha that is not t_FechaH or not a real day', () => {
    const xml = makeCfdi();
    const fechaReason = (fecha: string) => reasonFor(withAttribute(xml, 'Comprobante', 'Fecha', fecha));

    expect(fechaReason('2025-03-14 10:30:00')).toBe(
      'La Fecha del CFDI no tiene el formato AAAA-MM-DDThh:mm:ss: "2025-03-14 10:30:00"',
    );
    expect(fechaReason('2025-03-14T10:30:00-06:00')).toMatch(/^La Fecha del CFDI no tiene el formato/);
    expect(fechaReason('2009-12-31T23:59:59')).toMatch(/^La Fecha del CFDI no tiene el formato/);
    expect(fechaReason('2025-02-29T10:00:00')).toBe(
      'La Fecha del CFDI no es una fecha que exista: "2025-02-29T10:00:00"',
    );
    expect(parseCfdi(withAttribute(xml, 'Comprobante', 'Fecha', '2024-02-29T10:00:00')).ok).toBe(true);
    expect(reasonFor(withAttribute(xml, 'TimbreFiscalDigital', 'FechaTimbrado', '2025-03-14'))).toMatch(
      /^La FechaTimbrado del timbre no tiene el formato/,
    );
  });

  it('rejects unknown TipoDeComprobante and MetodoPago', () => {
    expect(reasonFor(withAttribute(makeCfdi(), 'Comprobante', 'TipoDeComprobante', 'X'))).toBe(
      'TipoDeComprobante "X" no es válido; se espera I, E, T, N, P',
    );
    expect(reasonFor(withAttribute(makeCfdi(), 'Comprobante', 'MetodoPago', 'PPX'))).toBe(
      'MetodoPago "PPX" no es válido; se espera PUE, PPD',
    );
  });
});

describe('parseCfdiBatch', () => {
  it('accepts each UUID once, comparing them case-insensitively', () => {
    const first = makeCfdi({ uuid: UUID, folio: '1' });
    const sameUuidLowerCase = makeCfdi({ uuid: UUID.toLowerCase(), folio: '2' });
    const other = makeCfdi({ folio: '3' });

    const result = parseCfdiBatch([
      { name: 'a.xml', content: first },
      { name: 'b.xml', content: sameUuidLowerCase },
      { name: 'c.txt', content: notXml() },
      { name: 'd.xml', content: new TextEncoder().encode(other) },
    ]);

    expect(result.accepted.map((cfdi) => cfdi.folio)).toEqual(['1', '3']);
    expect(result.rejected).toEqual([
      { name: 'b.xml', reason: 'UUID duplicado en el lote' },
      { name: 'c.txt', reason: 'El archivo no es un XML válido' },
    ]);
  });
});
