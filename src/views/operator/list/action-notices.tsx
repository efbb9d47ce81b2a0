import { Button, Callout } from '@blueprintjs/core';
import type { BackOfficeActionContext } from '../../../machines/back-office-action';

// What every back-office screen shows of its machine's outcome (decision 0064), written once.

/** What came of the last gesture, shown until dismissed or the next gesture; null when there is nothing to say. */
export interface GestureOutcome {
  ok: boolean;
  text: string;
}

/** A screen machine's outcome: its success text (the server's, unless the screen words it) or its refusal. */
export function gestureOutcome(
  snapshot: { matches(value: { ready: 'succeeded' | 'refused' }): boolean; context: BackOfficeActionContext },
  successText: string | null = snapshot.context.outcome,
): GestureOutcome | null {
  if (snapshot.matches({ ready: 'succeeded' })) return successText ? { ok: true, text: successText } : null;
  if (snapshot.matches({ ready: 'refused' }))
    return snapshot.context.failure?.message ? { ok: false, text: snapshot.context.failure.message } : null;
  return null;
}

/** The outcome above the list, with «Cerrar aviso» (a status for a success, an alert for a refusal). */
export function OutcomeCallout({
  outcome,
  onDismiss,
}: {
  outcome: GestureOutcome | null;
  onDismiss?: () => void;
}) {
  if (outcome === null) return null;
  return (
    <div className="flujo-operator-notice">
      <Callout intent={outcome.ok ? 'success' : 'danger'} role={outcome.ok ? 'status' : 'alert'}>
        {outcome.text}
      </Callout>
      {onDismiss && <Button variant="minimal" size="small" text="Cerrar aviso" onClick={onDismiss} />}
    </div>
  );
}

/** No answer came: the call may have reached the server; «Reintentar» sends it again with the same key. */
export function AnswerLostCallout({
  message,
  onRetry,
  onCancel,
}: {
  message: string | null | undefined;
  onRetry: () => void;
  onCancel: () => void;
}) {
  return (
    <Callout intent="warning" role="alert">
      {message}{' '}
      <Button intent="primary" onClick={onRetry}>
        Reintentar
      </Button>{' '}
      <Button onClick={onCancel}>Cancelar</Button>
    </Callout>
  );
}
