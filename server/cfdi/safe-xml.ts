import { DOMParser, type Document, type Element } from '@xmldom/xmldom';

/** Product limit for uploaded XML: real CFDIs weigh a few KB, so 2 MB leaves room for many Conceptos. */
export const MAX_XML_BYTES = 2 * 1024 * 1024;

export const xmlRejectReasons = {
  empty: 'El archivo está vacío',
  tooLarge: 'El archivo excede el tamaño máximo de 2 MB',
  notXml: 'El archivo no es un XML válido',
  notUtf8: 'El archivo no es un XML válido: no está codificado en UTF-8',
  pdf: 'El archivo es un PDF; sube el XML del CFDI',
  zip: 'El archivo es un ZIP; descomprímelo y sube los XML que contiene',
  dtd: 'El XML contiene declaraciones DOCTYPE o ENTITY, que no se permiten',
} as const;

export type XmlReadResult = { ok: true; document: Document; root: Element } | { ok: false; reason: string };

const PDF_MAGIC = '%PDF-';
const ZIP_MAGIC = 'PK\u0003\u0004';
/** Any DTD is refused: it is the vehicle for entity-expansion bombs and XXE, and a CFDI never needs one. */
export const DTD_DECLARATION = /<!\s*(DOCTYPE|ENTITY)/i;

/**
 * Decodes and parses untrusted XML without ever throwing.
 * Layered defence: size cap, DTD scan before parsing, and a parser that treats every warning as fatal
 * (xmldom 0.9 keeps only the five predefined entities, so `&custom;` fails instead of expanding).
 */
export function readXmlSafely(input: string | Uint8Array, fileName?: string): XmlReadResult {
  const byteLength = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.byteLength;
  if (byteLength === 0) return { ok: false, reason: xmlRejectReasons.empty };
  if (byteLength > MAX_XML_BYTES) return { ok: false, reason: xmlRejectReasons.tooLarge };

  const head =
    typeof input === 'string' ? input.slice(0, 8) : Buffer.from(input.subarray(0, 8)).toString('latin1');
  const extension = fileName?.toLowerCase().split('.').pop();
  // Users often pick the PDF representation or the ZIP from their PAC; say so instead of "not XML".
  const notXmlReason = (fallback: string): string =>
    extension === 'pdf' ? xmlRejectReasons.pdf : extension === 'zip' ? xmlRejectReasons.zip : fallback;
  if (head.startsWith(PDF_MAGIC)) return { ok: false, reason: xmlRejectReasons.pdf };
  if (head.startsWith(ZIP_MAGIC)) return { ok: false, reason: xmlRejectReasons.zip };

  let text: string;
  if (typeof input === 'string') {
    text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  } else {
    try {
      // NOTE: Anexo 20 (CFDI 4.0) requires UTF-8; `fatal` refuses Latin-1 instead of inventing U+FFFD.
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      return { ok: false, reason: notXmlReason(xmlRejectReasons.notUtf8) };
    }
  }
  if (text.trim() === '') return { ok: false, reason: xmlRejectReasons.empty };
  if (DTD_DECLARATION.test(text)) return { ok: false, reason: xmlRejectReasons.dtd };

  const parsed = parseXmlText(text);
  return parsed.ok ? parsed : { ok: false, reason: notXmlReason(parsed.reason) };
}

/** Parses already-decoded text; exported so tests can prove the parser alone refuses entity expansion. */
export function parseXmlText(text: string): XmlReadResult {
  const parser = new DOMParser({
    locator: false,
    onError: (level, message) => {
      throw new Error(`${level}: ${message}`);
    },
  });
  try {
    const document = parser.parseFromString(text, 'text/xml');
    const root = document.documentElement;
    if (!root) return { ok: false, reason: xmlRejectReasons.notXml };
    return { ok: true, document, root };
  } catch {
    // xmldom wraps whatever onError throws in a ParseError; its English detail is not for users.
    return { ok: false, reason: xmlRejectReasons.notXml };
  }
}

/** Direct children in a namespace, never descendants: an Addenda is not sealed and may hold look-alike nodes. */
export function childElements(parent: Element, namespaceUri: string, localName: string): Element[] {
  return Array.from(parent.children).filter(
    (child) => child.namespaceURI === namespaceUri && child.localName === localName,
  );
}

/** Unqualified attribute (CFDI attributes have no namespace); empty counts as absent, as the XSD demands length ≥ 1. */
export function attribute(element: Element, name: string): string | null {
  const value = element.getAttributeNS(null, name);
  return value === null || value === '' ? null : value;
}
