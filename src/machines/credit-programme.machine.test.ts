import { describe, expect, it } from 'vitest';
import {
  type CreditProgrammeEvent,
  DELINQUENT_LABEL,
  nextProgramme,
  nextProgrammeState,
  PROGRAMME_STATE_LABELS,
  type ProgrammeActor,
  programmeAccepts,
  programmeStateName,
  type StoredProgramme,
  storedState,
} from './credit-programme.machine';

// Evaluated the way the server does it: a stored row resolved into a snapshot, can(), then the pure transition.

const ANALISTA: ProgrammeActor = { userId: 1, roles: ['analista'] };
const APROBADOR: ProgrammeActor = { userId: 2, roles: ['aprobador'] };
const OTHER_APROBADOR: ProgrammeActor = { userId: 3, roles: ['aprobador'] };
const TESORERIA: ProgrammeActor = { userId: 4, roles: ['tesoreria'] };
const AUDITOR: ProgrammeActor = { userId: 5, roles: ['auditor'] };

const draft: StoredProgramme = { state: 'borrador', proposerId: null, endsOn: null };
const pendingBy = (proposerId: number): StoredProgramme => ({
  state: 'borrador',
  proposerId,
  endsOn: '2027-12-31',
});
const active: StoredProgramme = { state: 'activo', proposerId: null, endsOn: '2027-12-31' };
const frozen: StoredProgramme = { state: 'congelado', proposerId: null, endsOn: '2027-12-31' };
const expired: StoredProgramme = { state: 'vencido', proposerId: null, endsOn: '2026-01-31' };

const propose = (actor: ProgrammeActor): CreditProgrammeEvent => ({ type: 'programme.propose', actor });
const approve = (actor: ProgrammeActor): CreditProgrammeEvent => ({ type: 'programme.approve', actor });

describe('credit-programme machine', () => {
  it('reads a stored row with a pending proposal as pendiente', () => {
    expect(programmeStateName(draft)).toBe('borrador');
    expect(programmeStateName(pendingBy(1))).toBe('pendiente');
    expect(programmeStateName({ ...expired, proposerId: 1 })).toBe('pendiente');
    // An active programme's pending raise does not stop it lending.
    expect(programmeStateName({ ...active, proposerId: 1 })).toBe('activo');
  });

  it('lets an analista or an aprobador propose, nobody else', () => {
    expect(nextProgrammeState(draft, propose(ANALISTA))).toBe('pendiente');
    expect(nextProgrammeState(draft, propose(APROBADOR))).toBe('pendiente');
    expect(nextProgrammeState(draft, propose(TESORERIA))).toBeNull();
    expect(nextProgrammeState(draft, propose(AUDITOR))).toBeNull();
    expect(nextProgrammeState(active, propose(ANALISTA))).toBe('activo');
    expect(nextProgrammeState(expired, propose(ANALISTA))).toBe('pendiente');
    // One pending proposal at a time.
    expect(nextProgrammeState({ ...active, proposerId: 2 }, propose(ANALISTA))).toBeNull();
  });

  it('needs a different aprobador to approve (four eyes)', () => {
    expect(nextProgrammeState(pendingBy(APROBADOR.userId), approve(APROBADOR))).toBeNull();
    expect(nextProgrammeState(pendingBy(APROBADOR.userId), approve(OTHER_APROBADOR))).toBe('activo');
    expect(nextProgrammeState(pendingBy(ANALISTA.userId), approve(ANALISTA))).toBeNull();
    expect(nextProgrammeState({ ...active, proposerId: 1 }, approve(APROBADOR))).toBe('activo');
    // Nothing pending: nothing to approve.
    expect(programmeAccepts(active, approve(APROBADOR))).toBe(false);
    expect(programmeAccepts(draft, approve(APROBADOR))).toBe(false);
  });

  it('freezes and unfreezes with an aprobador and a reason', () => {
    const freeze = (actor: ProgrammeActor, reason: string): CreditProgrammeEvent => ({
      type: 'programme.freeze',
      actor,
      reason,
    });
    expect(nextProgrammeState(active, freeze(APROBADOR, 'Atraso en pagos'))).toBe('congelado');
    expect(nextProgrammeState(active, freeze(APROBADOR, '  '))).toBeNull();
    expect(nextProgrammeState(active, freeze(ANALISTA, 'Atraso'))).toBeNull();
    expect(nextProgrammeState(draft, freeze(APROBADOR, 'Atraso'))).toBeNull();
    expect(nextProgrammeState(frozen, { type: 'programme.unfreeze', actor: APROBADOR, reason: 'Pagó' })).toBe(
      'activo',
    );
    expect(programmeAccepts(active, { type: 'programme.unfreeze', actor: APROBADOR, reason: 'x' })).toBe(
      false,
    );
  });

  it('expires only after its end date', () => {
    expect(nextProgrammeState(active, { type: 'programme.expire', today: '2027-12-31' })).toBeNull();
    expect(nextProgrammeState(active, { type: 'programme.expire', today: '2028-01-01' })).toBe('vencido');
    expect(nextProgrammeState(frozen, { type: 'programme.expire', today: '2028-01-01' })).toBe('vencido');
    expect(nextProgrammeState(draft, { type: 'programme.expire', today: '2028-01-01' })).toBeNull();
    // A raise pending when it expires becomes its renewal.
    expect(
      nextProgrammeState({ ...active, proposerId: 1 }, { type: 'programme.expire', today: '2028-01-01' }),
    ).toBe('pendiente');
  });

  it('stores pendiente as the state it waits in', () => {
    expect(storedState('pendiente', 'borrador')).toBe('borrador');
    expect(storedState('pendiente', 'vencido')).toBe('vencido');
    expect(storedState('activo', 'borrador')).toBe('activo');
  });

  it("labels every stored state with its node's Spanish label", () => {
    expect(PROGRAMME_STATE_LABELS).toEqual({
      borrador: 'Borrador',
      pendiente: 'Pendiente de aprobación',
      activo: 'Activo',
      congelado: 'Congelado',
      vencido: 'Vencido',
    });
  });
});

describe('credit-programme machine: congelado por morosidad (decision 0068)', () => {
  const delinquent: StoredProgramme = { ...frozen, frozenFor: 'morosidad' };
  const late = { type: 'programme.delinquent', reason: 'morosidad' } as const;
  const unfreeze = (actor: ProgrammeActor, overdueCollected: boolean): CreditProgrammeEvent => ({
    type: 'programme.unfreeze',
    actor,
    reason: 'Cobrado',
    overdueCollected,
  });

  it('freezes an active or manually frozen programme, never a draft, pending or expired one', () => {
    expect(nextProgramme(active, late)).toEqual({ state: 'congelado', delinquent: true });
    expect(nextProgramme(frozen, late)).toEqual({ state: 'congelado', delinquent: true });
    expect(nextProgramme(draft, late)).toBeNull();
    expect(nextProgramme(pendingBy(1), late)).toBeNull();
    expect(nextProgramme(expired, late)).toBeNull();
    expect(nextProgramme(delinquent, late)).toBeNull();
  });

  it('is unfrozen only by an aprobador once the overdue invoices are collected', () => {
    expect(nextProgramme(delinquent, unfreeze(APROBADOR, false))).toBeNull();
    expect(nextProgramme(delinquent, unfreeze(ANALISTA, true))).toBeNull();
    expect(nextProgramme(delinquent, unfreeze(APROBADOR, true))).toEqual({
      state: 'activo',
      delinquent: false,
    });
    // A manual freeze keeps its rule: an aprobador with a reason.
    expect(nextProgramme(frozen, unfreeze(APROBADOR, false))).toEqual({ state: 'activo', delinquent: false });
    expect(DELINQUENT_LABEL).toBe('Congelado por morosidad');
    expect(programmeStateName(delinquent)).toBe('congelado');
  });
});
