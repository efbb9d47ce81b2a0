import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvoiceStatus } from '../../domain/invoice-status';
import type { MachineDetails } from '../../machines/diagram-details';
import { STATE_BY_STATUS } from '../../machines/invoice-lifecycle.machine';
import { INITIAL_STEP_LABEL, mapTrail, stepsByElement, type TrailItem } from './trail-path';

// The generated details of the lifecycle (npm run diagrams), as the dialog reads them.
const lifecycle = JSON.parse(
  readFileSync(new URL('../../../docs/diagrams/invoice-lifecycle.json', import.meta.url), 'utf8'),
) as MachineDetails;
const stateOf = (status: number) => STATE_BY_STATUS[status as keyof typeof STATE_BY_STATUS];

const item = (event: string, from: number | null, to: number): TrailItem => ({
  event,
  from_status: from,
  to_status: to,
  actor: 'ana',
  at: '2026-03-01T10:00:00.000Z',
});

// The demo world's paid invoice (server/seed/demo-world.ts): imported, pre-authorized, advanced, disbursed.
const paid = [
  item('invoice.imported', null, InvoiceStatus.AVAILABLE),
  item('invoice.preAuthorize', InvoiceStatus.AVAILABLE, InvoiceStatus.APPROVED),
  item('invoice.approveAdvance', InvoiceStatus.APPROVED, InvoiceStatus.PROCESS),
  item('invoice.disburse', InvoiceStatus.PROCESS, InvoiceStatus.PAID),
];

describe('mapTrail', () => {
  it('maps a paid invoice to the initial arrow and three transitions, numbered in order', () => {
    const steps = mapTrail(paid, lifecycle, stateOf);
    expect(steps.map((step) => [step.n, step.kind, step.elementId])).toEqual([
      [1, 'initial', 'init:invoiceLifecycle.available'],
      [2, 'transition', 't:invoiceLifecycle.available|invoice.preAuthorize|1:0'],
      [3, 'transition', 't:invoiceLifecycle.approved|invoice.approveAdvance|0:0'],
      [4, 'transition', 't:invoiceLifecycle.process|invoice.disburse|0:0'],
    ]);
    expect(steps[0]!.label).toBe(INITIAL_STEP_LABEL);
    expect(steps[0]!.to?.label).toBe('Por Autorizar');
    expect(steps[3]!.from?.label).toBe('En trámite');
    // The Spanish event label, as the machine gives it.
    const disburse = lifecycle.transitions.find(
      (t) => t.key === 'invoiceLifecycle.process|invoice.disburse|0',
    );
    expect(steps[3]!.label).toBe(disburse!.label);
  });

  it('draws the general variant when the trail cannot tell two transitions apart, and names the other', () => {
    const [, preAuthorize] = mapTrail(paid, lifecycle, stateOf);
    expect(preAuthorize!.transitionKey).toBe('invoiceLifecycle.available|invoice.preAuthorize|1');
    expect(preAuthorize!.alternatives).toEqual(['invoiceLifecycle.available|invoice.preAuthorize|0']);
  });

  it('keeps a row no transition explains, saying why', () => {
    const steps = mapTrail(
      [
        item('invoice.disburse', InvoiceStatus.AVAILABLE, InvoiceStatus.PAID),
        item('invoice.imported', null, InvoiceStatus.APPROVED),
        item('invoice.authorize', InvoiceStatus.PENDING, 99),
      ],
      lifecycle,
      stateOf,
    );
    expect(steps.map((step) => step.kind)).toEqual(['unmatched', 'unmatched', 'unmatched']);
    expect(steps.map((step) => step.elementId)).toEqual([undefined, undefined, undefined]);
    expect(steps[0]!.problem).toBe(
      'Ninguna transición lleva de «Por Autorizar» a «Pagada» con el evento invoice.disburse.',
    );
    expect(steps[1]!.problem).toContain('no es el estado inicial');
    expect(steps[2]!.problem).toBe('El estado 99 no existe en el diagrama.');
    expect(steps[0]!.label).toBe('invoice.disburse');
  });

  it('numbers an edge taken twice with both steps', () => {
    const steps = mapTrail(
      [
        item('invoice.reject', InvoiceStatus.PENDING, InvoiceStatus.REJECTED),
        item('invoice.reject', InvoiceStatus.PENDING, InvoiceStatus.REJECTED),
      ],
      lifecycle,
      stateOf,
    );
    expect([...stepsByElement(steps)]).toEqual([['t:invoiceLifecycle.pending|invoice.reject|0:0', [1, 2]]]);
  });
});
