import { describe, expect, it } from 'vitest';
import { transition } from 'xstate';
import { CORPORATE_DOCUMENT_KINDS, type FileDocument, ONBOARDING_STATES } from '../domain/corporate-file';
import {
  CORPORATE_ACCESS_TAG,
  corporateAccess,
  corporateOnboardingMachine,
  ONBOARDING_STATE_BY_VALUE,
  onboardingRefusal,
  resolveOnboardingSnapshot,
} from './corporate-onboarding.machine';

const TODAY = '2026-03-10';
const ANALISTA = 7;
const ACTIVATE = { type: 'corporate.activate', actor: { userId: 8 } } as const;
const all = (status: FileDocument['status'], expires_on: string | null = null): FileDocument[] =>
  CORPORATE_DOCUMENT_KINDS.map((kind) => ({ kind, status, expires_on }));

describe('corporate-onboarding machine', () => {
  it('stays a draft until the eighth kind is uploaded, then the file goes under review', () => {
    const seven = all('pendiente').slice(0, 7);
    const draft = resolveOnboardingSnapshot({ state: 'borrador', documents: seven, today: TODAY });
    const again = transition(corporateOnboardingMachine, draft, {
      type: 'document.upload',
      kind: 'poderes',
    })[0];
    expect(again.value).toBe('draft');
    const last = transition(corporateOnboardingMachine, draft, {
      type: 'document.upload',
      kind: 'contrato_programa',
    })[0];
    expect(last.value).toBe('fileUnderReview');
    expect(last.context.documents).toHaveLength(8);
  });

  it('activates only when all eight are aprobado and none expired, and names what is missing otherwise', () => {
    const pending = { state: 'en_revision' as const, documents: all('pendiente'), today: TODAY };
    expect(resolveOnboardingSnapshot(pending).can(ACTIVATE)).toBe(false);
    expect(onboardingRefusal(pending, 'corporate.activate')).toContain('Acta constitutiva');

    const approved = {
      state: 'en_revision' as const,
      documents: all('aprobado', '2026-12-31'),
      today: TODAY,
    };
    expect(resolveOnboardingSnapshot(approved).can(ACTIVATE)).toBe(true);

    const expired = { ...approved, documents: all('aprobado', '2026-03-09') };
    expect(resolveOnboardingSnapshot(expired).can(ACTIVATE)).toBe(false);
    expect(onboardingRefusal(expired, 'corporate.activate')).toMatch(
      /^Faltan documentos aprobados y vigentes: /,
    );
  });

  it('an upload puts its kind back to pendiente; a decision needs a current document of the kind', () => {
    const approved = resolveOnboardingSnapshot({
      state: 'en_revision',
      documents: all('aprobado'),
      today: TODAY,
    });
    const reuploaded = transition(corporateOnboardingMachine, approved, {
      type: 'document.upload',
      kind: 'poderes',
    })[0];
    expect(reuploaded.context.documents.find((d) => d.kind === 'poderes')?.status).toBe('pendiente');
    expect(reuploaded.can(ACTIVATE)).toBe(false);

    const empty = resolveOnboardingSnapshot({ state: 'borrador', documents: [], today: TODAY });
    expect(empty.can({ type: 'document.decide', kind: 'poderes', status: 'aprobado', expiresOn: null })).toBe(
      false,
    );
  });

  it('rejection needs a reason and is final; an active corporate cannot be rejected', () => {
    const review = resolveOnboardingSnapshot({
      state: 'en_revision',
      documents: all('pendiente'),
      today: TODAY,
    });
    expect(review.can({ type: 'corporate.reject', reason: '  ' })).toBe(false);
    const rejected = transition(corporateOnboardingMachine, review, {
      type: 'corporate.reject',
      reason: 'Documentos falsos',
    })[0];
    expect(rejected.value).toBe('rejected');
    expect(rejected.can({ type: 'document.upload', kind: 'poderes' })).toBe(false);

    const active = resolveOnboardingSnapshot({ state: 'activo', documents: all('aprobado'), today: TODAY });
    expect(active.can({ type: 'corporate.reject', reason: 'x' })).toBe(false);
    expect(active.can({ type: 'document.upload', kind: 'poderes' })).toBe(true);
  });

  it('the analista who created the corporate cannot activate it; another aprobador can', () => {
    const ready = {
      state: 'en_revision' as const,
      documents: all('aprobado'),
      today: TODAY,
      creatorId: ANALISTA,
    };
    const snapshot = resolveOnboardingSnapshot(ready);
    expect(snapshot.can({ type: 'corporate.activate', actor: { userId: ANALISTA } })).toBe(false);
    expect(snapshot.can({ type: 'corporate.activate', actor: { userId: ANALISTA + 1 } })).toBe(true);
  });

  it('gives corporate access only in the active state, read from its tag', () => {
    const withAccess = ONBOARDING_STATES.filter((state) => corporateAccess(state).ok);
    expect(withAccess).toEqual(['activo']);
    for (const state of ONBOARDING_STATES) {
      const snapshot = resolveOnboardingSnapshot({ state, documents: [], today: TODAY });
      expect(snapshot.hasTag(CORPORATE_ACCESS_TAG), ONBOARDING_STATE_BY_VALUE[state]).toBe(
        corporateAccess(state).ok,
      );
    }
    expect(corporateAccess('en_revision')).toEqual({
      ok: false,
      reason: expect.stringMatching(/^Tu empresa aún no está activa como corporativo/),
    });
    expect(corporateAccess('rechazado')).toMatchObject({ reason: expect.stringMatching(/rechazada/) });
    expect(corporateAccess('suspendido')).toMatchObject({ reason: expect.stringMatching(/suspendida/) });
  });

  it('an active corporate is suspended with a reason and reactivated only with its file approved', () => {
    const active = resolveOnboardingSnapshot({ state: 'activo', documents: all('aprobado'), today: TODAY });
    expect(active.can({ type: 'corporate.suspend', reason: ' ' })).toBe(false);
    const [suspended] = transition(corporateOnboardingMachine, active, {
      type: 'corporate.suspend',
      reason: 'Documentos vencidos',
    });
    expect(suspended.value).toBe('suspended');
    expect(suspended.hasTag(CORPORATE_ACCESS_TAG)).toBe(false);
    expect(suspended.can(ACTIVATE)).toBe(false);
    expect(suspended.can({ type: 'corporate.reactivate' })).toBe(true);
    const expired = { state: 'suspendido' as const, documents: all('aprobado', '2026-03-09'), today: TODAY };
    expect(resolveOnboardingSnapshot(expired).can({ type: 'corporate.reactivate' })).toBe(false);
    expect(onboardingRefusal(expired, 'corporate.reactivate')).toMatch(/^Faltan documentos/);
    const [again] = transition(corporateOnboardingMachine, suspended, { type: 'corporate.reactivate' });
    expect(again.value).toBe('active');
  });
});
