import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { SatStatus, type SatStatusCode } from '../domain/sat-status';
import type { SatLinkStatus, TaxLink } from '../domain/schemas/session';
import { satLinkMachine } from './sat-link.machine';

const LINK: TaxLink = { rfc: 'MOVE800101ST2', ciec: 'Cl4veCIEC' };

/** A machine whose status calls answer `answers` in turn (the last one repeats); polls every 5 ms. */
function machineWith(
  answers: (SatStatusCode | 'fail')[],
  stored: SatStatusCode[] = [],
  navigations: string[] = [],
) {
  let call = 0;
  return satLinkMachine.provide({
    actors: {
      loadStatus: fromPromise<SatLinkStatus>(async () => {
        const answer = answers[Math.min(call++, answers.length - 1)];
        if (answer === 'fail' || answer === undefined) throw { status: 0, body: null };
        return { sat_credentials_status: answer, rfc: LINK.rfc };
      }),
      submitTaxLink: fromPromise<unknown, TaxLink>(async () => ({})),
    },
    actions: {
      storeStatus: (_, { status }) => stored.push(status),
      goToProntoPago: () => navigations.push('pronto-pago'),
    },
    delays: { POLL_MS: 5, TOAST_MS: 5 },
  });
}

describe('satLinkMachine', () => {
  it('falls back to the stored status when the server does not answer', async () => {
    const actor = createActor(machineWith(['fail']), {
      input: { satCredentials: SatStatus.UNAUTHORIZED },
    }).start();
    const snapshot = await waitFor(actor, (s) => s.matches('form'));
    expect(snapshot.context.status).toBe(SatStatus.UNAUTHORIZED);
  });

  it('submits, waits, keeps polling through a failure and a SENT answer, then goes to Pronto Pago', async () => {
    const stored: SatStatusCode[] = [];
    const navigations: string[] = [];
    const actor = createActor(
      machineWith([SatStatus.DONT_SENT, 'fail', SatStatus.SENT, SatStatus.AUTHORIZED], stored, navigations),
      { input: { satCredentials: SatStatus.DONT_SENT } },
    ).start();
    await waitFor(actor, (s) => s.matches({ form: 'editing' }));
    actor.send({ type: 'satLink.submit', values: LINK });
    await waitFor(actor, (s) => s.matches({ sent: 'confirmed' }));
    const done = await waitFor(actor, (s) => s.matches('authorized'));
    expect(done.status).toBe('done');
    expect(stored).toEqual([SatStatus.DONT_SENT, SatStatus.SENT, SatStatus.SENT, SatStatus.AUTHORIZED]);
    expect(navigations).toEqual(['pronto-pago']);
  });

  it('shows the form again when the operator rejects the link', async () => {
    const actor = createActor(machineWith([SatStatus.SENT, SatStatus.UNAUTHORIZED]), {
      input: { satCredentials: SatStatus.SENT },
    }).start();
    const snapshot = await waitFor(actor, (s) => s.matches({ form: 'editing' }));
    expect(snapshot.context.status).toBe(SatStatus.UNAUTHORIZED);
  });
});
