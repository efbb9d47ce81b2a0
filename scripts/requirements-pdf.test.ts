import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { REQUIREMENTS_TITLE } from '../src/views/public/requirements-checklist';
import { buildRequirementsPdf } from './requirements-pdf';

describe('the corporate checklist PDF', () => {
  it('is a real, titled Spanish PDF', async () => {
    const bytes = await buildRequirementsPdf('contacto@flujo.mx');
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getTitle()).toBe(`Flujo · ${REQUIREMENTS_TITLE}`);
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(1);
    expect(pdf.getPage(0).getSize()).toEqual({ width: 595.28, height: 841.89 });
  });

  it('prints the same bytes for the same checklist and address', async () => {
    expect(await buildRequirementsPdf('a@b.mx')).toEqual(await buildRequirementsPdf('a@b.mx'));
    expect(await buildRequirementsPdf('a@b.mx')).not.toEqual(await buildRequirementsPdf('otro@b.mx'));
  });
});
