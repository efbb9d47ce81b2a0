import { assign, fromPromise, setup } from 'xstate';
import { ACTION_FAILED, callFailureOf, failureText, NO_RESPONSE_MESSAGE } from '../domain/call-failure';
import { answerLost, idempotentCallStates, newIdempotencyKey } from './idempotent-call';

/**
 * What an operator means to do: which action (the screen's own name, e.g. 'approve'), on which row, with which
 * input (a form's values). One intent, one Idempotency-Key.
 */
export interface BackOfficeIntent {
  action: string;
  /** The row the action is about (an invoice, a programme, a batch, a corporate); null for a new record. */
  id: number | null;
  /** What the screen names the row by in its dialogs ('A-1021', 'Grupo Bimbo'). */
  label: string;
  /** The form's values once submitted; null for a one-click action or before the form is sent. */
  input: unknown;
}

export interface BackOfficeActInput {
  intent: BackOfficeIntent;
  idempotencyKey: string;
}

/** What a refused call left to show: one Spanish text and the server's per-field messages (a 400). */
export interface BackOfficeFailure {
  message: string | null;
  fields: Record<string, string[]>;
  /** The server's detail alone, without its reasons (for a screen that lists the reasons apart). */
  detail?: string | null;
  /** The server's reasons (`errors`: the desk's failing checks, a file's bad lines), also at the end of message. */
  reasons?: readonly string[];
}

export interface BackOfficeActionContext {
  intent: BackOfficeIntent | null;
  /** Minted when an intent is sent; kept for the retry after a lost answer, so the server acts at most once. */
  idempotencyKey: string | null;
  failure: BackOfficeFailure | null;
  /** The server's word on success ('Lote creado…'), else null. */
  outcome: string | null;
}

export type BackOfficeActionEvent =
  | { type: 'action.open'; intent: BackOfficeIntent }
  | { type: 'action.run'; intent: BackOfficeIntent }
  | { type: 'action.submit'; input: unknown }
  | { type: 'action.retry' }
  | { type: 'action.cancel' }
  | { type: 'outcome.dismiss' };

/** Not a field: the desk's `{detail, errors}` lists its reasons (a file's bad lines) under `errors`. */
const REASONS_KEY = 'errors';

/** A 400's per-field messages (the body's string lists), as the form shows them at its fields. */
export function fieldMessagesOf(error: unknown): Record<string, string[]> {
  const { status, body } = callFailureOf(error);
  const fields: Record<string, string[]> = {};
  if (status !== 400 || !body) return fields;
  for (const [name, messages] of Object.entries(body)) {
    if (name === REASONS_KEY || !Array.isArray(messages)) continue;
    const texts = messages.filter((m): m is string => typeof m === 'string' && m.trim() !== '');
    if (texts.length > 0) fields[name] = texts;
  }
  return fields;
}

/**
 * A refused call as the screen shows it: the server's detail, followed by its reasons (`errors`, the desk's
 * failing checks) when it sent them; no answer and server errors in the back office's own words.
 */
export function backOfficeFailureOf(error: unknown): BackOfficeFailure {
  const fields = fieldMessagesOf(error);
  const { status, body } = callFailureOf(error);
  const listed = body?.[REASONS_KEY];
  const reasons = Array.isArray(listed)
    ? listed.filter((reason): reason is string => typeof reason === 'string')
    : [];
  const message = failureText(error, {
    read: (code) => (code !== null && code !== 0 && code < 500 ? ['detail', 'non_field_errors'] : []),
    otherwise: (code) =>
      code === 0
        ? NO_RESPONSE_MESSAGE
        : Object.keys(fields).length > 0 && status === 400
          ? ''
          : ACTION_FAILED,
  });
  const text = [message, ...reasons].filter((part) => part !== '').join(' ');
  return { message: text === '' ? null : text, fields, detail: message === '' ? null : message, reasons };
}

/** What a screen's machine says of itself to auditors (/diagramas/). */
export interface BackOfficeScreenTexts {
  /** The machine's id and file name: `<id>.machine.ts`. */
  id: string;
  title: string;
  /** What the screen's gestures are and who makes them, in Spanish. */
  description: string;
  /** The screen's gestures, for the diagram's event labels: «Aprobar», «Rechazar»… */
  gestures: string;
}

const actionSetup = setup({
  types: {
    context: {} as BackOfficeActionContext,
    events: {} as BackOfficeActionEvent,
  },
  actors: {
    // Provided by the route: the screen's call for each action, with the intent's Idempotency-Key.
    act: fromPromise<string | null, BackOfficeActInput>(async () => {
      throw new Error('act was not provided');
    }),
  },
  guards: {
    answerLost,
    refusedAtFields: (_, params: { error: unknown }) => Object.keys(fieldMessagesOf(params.error)).length > 0,
  },
  actions: {
    choose: assign({
      intent: (_, params: { intent: BackOfficeIntent }) => params.intent,
      idempotencyKey: null,
      failure: null,
      outcome: null,
    }),
    // A new intent gets its key; a form sent again after a refusal at its fields is a new intent too.
    send: assign({
      intent: ({ context }, params: { input: unknown }) =>
        context.intent ? { ...context.intent, input: params.input } : null,
      idempotencyKey: newIdempotencyKey,
      failure: null,
    }),
    mintKey: assign({ idempotencyKey: newIdempotencyKey, failure: null }),
    keepFailure: assign({
      failure: (_, params: { error: unknown }) => backOfficeFailureOf(params.error),
    }),
    keepOutcome: assign({ outcome: (_, params: { outcome: string | null }) => params.outcome }),
    clear: assign({ intent: null, idempotencyKey: null, failure: null, outcome: null }),
    // Provided by the route: the screen's lists are read again (the row changed, or may have).
    refresh: () => {},
  },
});

// The call and its lost answer: the idempotent-call shape every money call of Flujo has (idempotent-call.ts).
const ACTING_STATES = idempotentCallStates(actionSetup, {
  state: 'acting',
  label: 'Enviando',
  tags: ['busy'],
  invoke: {
    src: 'act',
    input: ({ context }) => ({
      intent: context.intent as BackOfficeIntent,
      idempotencyKey: context.idempotencyKey as string,
    }),
    onDone: {
      target: 'ready.succeeded',
      actions: [{ type: 'keepOutcome', params: ({ event }) => ({ outcome: event.output }) }, 'refresh'],
    },
  },
  refused: [
    {
      guard: { type: 'refusedAtFields', params: ({ event }) => ({ error: event.error }) },
      target: 'editing',
      actions: { type: 'keepFailure', params: ({ event }) => ({ error: event.error }) },
    },
    {
      target: 'ready.refused',
      actions: [{ type: 'keepFailure', params: ({ event }) => ({ error: event.error }) }, 'refresh'],
    },
  ],
  answerLost: {
    state: 'answerLost',
    label: 'Sin respuesta del servidor',
    tags: ['dialog'],
    actions: { type: 'keepFailure', params: ({ event }) => ({ error: event.error }) },
    retry: 'action.retry',
    // It may have happened: the lists are read again.
    close: { event: 'action.cancel', target: 'ready', actions: ['refresh', 'clear'] },
  },
});

/**
 * One back-office screen's gestures (decision 0064): a row's action, with or without a form, sent once with one
 * Idempotency-Key per intent. The screen's list is react-query's; the machine holds what the operator is doing
 * to one row and what came of it. Which gestures a row offers stays the domain machine's answer (desk-item,
 * credit-programme, corporate-onboarding); the call is the route's `act` actor. Every screen's machine has this
 * one shape, each with its own texts, so auditors read each screen's diagram and QA runs each screen's model.
 */
export function createBackOfficeActionMachine(texts: BackOfficeScreenTexts) {
  return actionSetup.createMachine({
    id: texts.id,
    meta: {
      title: texts.title,
      events: {
        'action.open': `El operador abre el formulario o la confirmación (${texts.gestures})`,
        'action.run': `El operador elige una acción de un clic (${texts.gestures})`,
        'action.submit': 'El operador envía el formulario o confirma',
        'xstate.done.actor.act': 'El servidor acepta la acción',
        'xstate.error.actor.act': 'El servidor rechaza la acción o no responde',
        'action.retry': '«Reintentar» con la misma clave',
        'action.cancel': '«Cancelar» o cerrar el diálogo',
        'outcome.dismiss': 'El operador cierra el aviso',
      },
      guards: {
        answerLost:
          'No llegó respuesta: no se sabe si el servidor actuó, así que el reintento usa la misma clave.',
        refusedAtFields: 'El servidor rechazó campos del formulario (400 con mensajes por campo).',
      },
    },
    description:
      `${texts.description} La acción sale con una clave de idempotencia creada para esa intención; si se pierde ` +
      'la respuesta, «Reintentar» reenvía la misma clave y el servidor no puede actuar dos veces. Un rechazo por ' +
      'campos vuelve al formulario con los mensajes junto a cada campo; otro rechazo se muestra con el texto del ' +
      'servidor y la lista se vuelve a leer.',
    context: { intent: null, idempotencyKey: null, failure: null, outcome: null },
    initial: 'ready',
    states: {
      ready: {
        // Between gestures: the list, with the last outcome shown until dismissed or the next gesture.
        meta: { label: 'Sin acción en curso' },
        initial: 'idle',
        on: {
          'action.open': {
            target: 'editing',
            actions: {
              type: 'choose',
              params: ({ event }) => ({ intent: { ...event.intent, input: null } }),
            },
          },
          'action.run': {
            target: 'acting',
            actions: [{ type: 'choose', params: ({ event }) => ({ intent: event.intent }) }, 'mintKey'],
          },
        },
        states: {
          idle: { meta: { label: 'Lista' } },
          succeeded: {
            meta: { label: 'Acción hecha' },
            on: { 'outcome.dismiss': { target: 'idle', actions: 'clear' } },
          },
          refused: {
            meta: { label: 'Acción rechazada' },
            on: { 'outcome.dismiss': { target: 'idle', actions: 'clear' } },
          },
        },
      },
      editing: {
        meta: { label: 'Formulario o confirmación' },
        tags: ['dialog'],
        on: {
          'action.submit': {
            target: 'acting',
            actions: { type: 'send', params: ({ event }) => ({ input: event.input }) },
          },
          'action.cancel': { target: 'ready', actions: 'clear' },
        },
      },
      ...ACTING_STATES,
    },
  });
}

export type BackOfficeActionMachine = ReturnType<typeof createBackOfficeActionMachine>;
