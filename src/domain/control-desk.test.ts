import { describe, expect, it } from 'vitest';
import { capBreach } from './concentration';
import { checksSummary, type DeskFacts, deskChecks, failingReasons } from './control-desk';
import { SatStatus } from './sat-status';

const CAP_SENTENCE = capBreach(
  { scope: 'buyer', subject: 'Corporativo Demo', kind: 'amount', value: 5_000_00 },
  { exposure: 0, total: 0, advance: 10_000_00 },
) as string;

const passing: DeskFacts = {
  satStatus: SatStatus.AUTHORIZED,
  satCancelledAt: null,
  proofState: 'trusted',
  satAnswer: { askedAt: '2026-11-28T16:42:00Z', answered: true, estado: 'Vigente' },
  efos: { situation: null, listImportedAt: '2026-11-20T18:00:00Z' },
  alliance: { isActive: true, maxAmount: 1_000_000_00, maxDays: 120 },
  programme: { state: 'activo', reservedForInvoice: 10_000_00 },
  clabe: '002010077777777771',
  duplicate: 'none',
  amount: 10_000_00,
  daysToPayment: 30,
  concentration: [],
};

describe('the control desk checks', () => {
  it('pass for an advance with everything in order', () => {
    const checks = deskChecks(passing);
    expect(checks.map((item) => [item.id, item.ok])).toEqual([
      ['sat_link', true],
      ['cfdi_proof', true],
      ['cfdi_vigente', true],
      ['efos', true],
      ['alliance', true],
      ['programme', true],
      ['clabe', true],
      ['duplicate_uuid', true],
      ['amount_bounds', true],
      ['concentration', true],
    ]);
    expect(failingReasons(checks)).toEqual([]);
  });

  it('fail each with its Spanish reason', () => {
    const reasons = failingReasons(
      deskChecks({
        satStatus: SatStatus.UNAUTHORIZED,
        satCancelledAt: '2026-05-01T00:00:00Z',
        proofState: 'unverified',
        satAnswer: null,
        efos: { situation: 'Presunto', listImportedAt: '2026-11-20T18:00:00Z' },
        alliance: { isActive: false, maxAmount: 5_000_00, maxDays: 20 },
        programme: { state: 'congelado', reservedForInvoice: 10_000_00 },
        clabe: '002010077777777772',
        duplicate: 'already_paid',
        amount: 10_000_00,
        daysToPayment: 30,
        concentration: [CAP_SENTENCE],
      }),
    );
    expect(reasons).toEqual([
      'Vinculación SAT: La vinculación SAT del proveedor ya no está autorizada.',
      'Sello y certificado del CFDI: El CFDI no tiene sello verificado (sin verificar): no se financia hasta verificarlo o importarlo de nuevo.',
      'CFDI vigente en el SAT: El SAT reporta el CFDI como cancelado.',
      'Emisor fuera de la lista 69-B: El emisor está en la lista 69-B como Presunto (lista del 20/11/2026).',
      'Alianza activa: La alianza entre el comprador y el proveedor no está activa.',
      'Programa de crédito: El programa de crédito del comprador está congelado.',
      'CLABE del proveedor: El dígito verificador de la CLABE no es válido.',
      'Folio fiscal único: Ya hay un pago registrado para este folio fiscal.',
      expect.stringMatching(
        /^Límites de la alianza: El monto .* excede el máximo .* Faltan 30 días para el pago; la alianza permite hasta 20\.$/,
      ),
      `Concentración: ${CAP_SENTENCE}`,
    ]);
  });

  it('fail when there is no alliance, programme, reservation or CLABE', () => {
    const checks = deskChecks({
      ...passing,
      alliance: null,
      programme: { state: 'activo', reservedForInvoice: 0 },
      clabe: null,
      duplicate: 'other_invoice',
    });
    expect(Object.fromEntries(checks.filter((c) => !c.ok).map((c) => [c.id, c.reason]))).toEqual({
      alliance: 'No hay alianza entre el comprador y el proveedor.',
      programme: 'La factura no tiene una reserva en el programa de crédito.',
      clabe: 'El proveedor no tiene CLABE de depósito.',
      duplicate_uuid: 'Otra factura tiene el mismo folio fiscal.',
    });
    expect(deskChecks({ ...passing, programme: null }).find((c) => c.id === 'programme')?.reason).toBe(
      'El comprador no tiene un programa de crédito.',
    );
  });

  it('say when SAT was asked, and wait when it did not answer: silence is never a pass', () => {
    const reason = (satAnswer: DeskFacts['satAnswer']) =>
      deskChecks({ ...passing, satAnswer }).find((c) => c.id === 'cfdi_vigente');
    expect(reason(passing.satAnswer)).toMatchObject({
      ok: true,
      reason: 'Vigente en el SAT (consultado el 28/11/2026 10:42).',
    });
    expect(reason({ askedAt: '2026-11-28T16:42:00Z', answered: false, estado: null })).toMatchObject({
      ok: false,
      reason: 'Pendiente (el SAT no respondió el 28/11/2026 10:42).',
    });
    expect(reason(null)).toMatchObject({ ok: false, reason: 'Pendiente: aún no se ha consultado al SAT.' });
    expect(reason({ askedAt: '2026-11-28T16:42:00Z', answered: true, estado: 'No Encontrado' })?.ok).toBe(
      false,
    );
  });
});

describe('checksSummary', () => {
  it('counts the passing checks, or names the failing ones', () => {
    const pass = { label: 'Vinculación SAT', ok: true };
    expect(checksSummary([pass, pass])).toBe('2 de 2 verificaciones pasan');
    expect(checksSummary([pass, { label: 'CLABE del proveedor', ok: false }])).toBe(
      'Falla 1 de 2: CLABE del proveedor',
    );
    expect(
      checksSummary([
        { label: 'Alianza activa', ok: false },
        { label: 'CLABE del proveedor', ok: false },
      ]),
    ).toBe('Fallan 2 de 2: Alianza activa, CLABE del proveedor');
  });
});
