import { describe, expect, it } from 'vitest';
import {
  CORPORATE_DOCUMENT_KINDS,
  effectiveDocumentStatus,
  isFileComplete,
  looksLikePdf,
  missingDocumentKinds,
} from './corporate-file';

describe('corporate file', () => {
  it('an aprobado document counts as vencido the day after its expiry', () => {
    const doc = { status: 'aprobado' as const, expires_on: '2026-01-31' };
    expect(effectiveDocumentStatus(doc, '2026-01-31')).toBe('aprobado');
    expect(effectiveDocumentStatus(doc, '2026-02-01')).toBe('vencido');
    expect(effectiveDocumentStatus({ status: 'rechazado', expires_on: '2020-01-01' }, '2026-02-01')).toBe(
      'rechazado',
    );
  });

  it('lists the kinds not aprobado, in checklist order', () => {
    const docs = CORPORATE_DOCUMENT_KINDS.map((kind) => ({
      kind,
      status: 'aprobado' as const,
      expires_on: null,
    }));
    expect(missingDocumentKinds(docs, '2026-01-01')).toEqual([]);
    expect(missingDocumentKinds(docs.slice(1), '2026-01-01')).toEqual(['constancia_situacion_fiscal']);
    expect(isFileComplete(docs)).toBe(true);
    expect(isFileComplete(docs.slice(2))).toBe(false);
  });

  it('sniffs the PDF header, not the name', () => {
    expect(looksLikePdf(new TextEncoder().encode('%PDF-1.4\n'))).toBe(true);
    expect(looksLikePdf(new TextEncoder().encode('PK\u0003\u0004'))).toBe(false);
    expect(looksLikePdf(new Uint8Array())).toBe(false);
  });
});
