import { Button, Callout } from '@blueprintjs/core';
import type { SnapshotFrom } from 'xstate';
import { ACTION_FAILED } from '../../../domain/call-failure';
import type { BackOfficeActionEvent } from '../../../machines/back-office-action';
import {
  type CorporateAction,
  corporateActionOf,
  type corporateActionsMachine,
} from '../../../machines/corporate-actions.machine';
import { gestureOutcome, OutcomeCallout } from '../list/action-notices';

/** What the corporates' screens get from their route: the `corporate-actions` machine's snapshot and its send. */
export type CorporateActionsSnapshot = SnapshotFrom<typeof corporateActionsMachine>;
export type CorporateActionsSend = (event: BackOfficeActionEvent) => void;

/** The back office's own words when no answer came (kept as the screens and their model tests read them). */
export const NO_ANSWER = 'Sin respuesta del servidor. Revisa tu conexión e intenta de nuevo.';

const SUCCESS: Readonly<Record<CorporateAction['action'], string | null>> = {
  create: null,
  upload: 'Documento cargado; queda pendiente de revisión.',
  decide: 'Decisión registrada.',
  activate: 'El corporativo quedó activo.',
  reactivate: 'El corporativo quedó activo.',
  reject: 'El corporativo quedó rechazado.',
  suspend: 'El corporativo quedó suspendido.',
  group: 'Grupo económico guardado; su exposición se suma con la del grupo.',
};

/** The gesture whose dialog is open (or whose call is on its way): none between gestures. */
export function gestureInProgress(snapshot: CorporateActionsSnapshot): CorporateAction | null {
  return snapshot.matches('ready') ? null : corporateActionOf(snapshot.context.intent);
}

/**
 * A dialog's failure text: no answer in the back office's words, else the server's (per-field messages are the
 * fields' own, shown at them).
 */
export function dialogFailure(snapshot: CorporateActionsSnapshot): string | null {
  if (snapshot.matches('answerLost')) return NO_ANSWER;
  return snapshot.matches('editing') ? (snapshot.context.failure?.message ?? null) : null;
}

/** What came of the last gesture, above the page, until dismissed or the next gesture; a lost one-click answer. */
export function ActionNotice(props: { snapshot: CorporateActionsSnapshot; send: CorporateActionsSend }) {
  const { snapshot, send } = props;
  const gesture = corporateActionOf(snapshot.context.intent);
  const oneClick = gesture?.action === 'activate' || gesture?.action === 'reactivate';
  if (oneClick && snapshot.matches('editing')) {
    // A one-click gesture has no form: a refusal at fields is read out here, and closed.
    const fields = Object.values(snapshot.context.failure?.fields ?? {}).flat();
    return (
      <Callout intent="danger" role="alert">
        <p>{fields.length > 0 ? fields.join(' ') : (snapshot.context.failure?.message ?? ACTION_FAILED)}</p>
        <Button text="Cancelar" onClick={() => send({ type: 'action.cancel' })} />
      </Callout>
    );
  }
  if (oneClick && snapshot.matches('answerLost')) {
    return (
      <Callout intent="danger" role="alert">
        <p>{NO_ANSWER}</p>
        <Button text="Reintentar" onClick={() => send({ type: 'action.retry' })} />{' '}
        <Button text="Cancelar" onClick={() => send({ type: 'action.cancel' })} />
      </Callout>
    );
  }
  return (
    <OutcomeCallout
      outcome={gestureOutcome(snapshot, gesture ? SUCCESS[gesture.action] : null)}
      onDismiss={() => send({ type: 'outcome.dismiss' })}
    />
  );
}
