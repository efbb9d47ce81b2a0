import { isNoResponse } from './pronto-pago-messages';

/**
 * The idempotent call, written once (issue 32). A money call goes out with an Idempotency-Key minted once per
 * intent (`newIdempotencyKey`, on the gesture that starts it) and read from the machine's context by the call's
 * input. While it travels the state is `busy`; the server's answer leads to the success target, its refusal to
 * the refused one (with the list read again); when no answer arrived at all (`answerLost`, network loss) the
 * machine may wait in an answer-lost state whose retry sends the SAME key, so the server acts at most once, and
 * whose close reads the lists again (the call may have happened).
 *
 * `idempotentCallStates(machineSetup, call)` returns those states for one machine, typed by its `setup(...)`:
 * the caller writes what differs (names, labels, tags, the call's input and success, what a refusal and a lost
 * answer keep), the factory the shape. Its state ids and event types are the caller's, so diagrams and model
 * transition keys stay those of the machine.
 */

/** The guard a machine with an answer-lost state registers as `answerLost`: no answer arrived (status 0). */
export function answerLost(_: unknown, params: { error: unknown }): boolean {
  return isNoResponse(params.error);
}

/** One Idempotency-Key for one intent; kept in the context for its retry. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

// biome-ignore lint/suspicious/noExplicitAny: why: matches any setup(...)'s createStateConfig, whose parameter is the machine's StateNodeConfig.
type AnyMachineSetup = { createStateConfig: (config: any) => unknown };

/** A state's config for the machine `setup(...)` returned (its actors, actions, guards, events and tags). */
export type StateConfigOf<S extends AnyMachineSetup> = Parameters<S['createStateConfig']>[0];

type Single<T> = Exclude<T, string | readonly unknown[] | undefined>;

/** One invocation of the machine's actors: src, input and onDone typed by the actor named. */
export type InvokeOf<S extends AnyMachineSetup> = Single<StateConfigOf<S>['invoke']>;

/** A transition taken on the call's error event. */
export type ErrorTransitionOf<S extends AnyMachineSetup> = Single<InvokeOf<S>['onError']>;

type On<S extends AnyMachineSetup> = NonNullable<StateConfigOf<S>['on']>;

/** An event of the machine, by its type. */
export type EventTypeOf<S extends AnyMachineSetup> = Extract<keyof On<S>, string>;

export interface AnswerLostState<S extends AnyMachineSetup, TLost extends string> {
  /** The state's id ('answerLost' in every machine so far). */
  state: TLost;
  label: string;
  tags?: StateConfigOf<S>['tags'];
  /** What the machine keeps of the lost call (its message), on the way in. */
  actions?: ErrorTransitionOf<S>['actions'];
  /** The gesture that retries with the same key. */
  retry: EventTypeOf<S>;
  /** The gesture that gives up, the state it goes to and what it does (the lists are read again, first). */
  close: { event: EventTypeOf<S>; target: string; actions: ErrorTransitionOf<S>['actions'] };
}

export interface IdempotentCall<S extends AnyMachineSetup, TState extends string, TLost extends string> {
  /** The calling state's id. */
  state: TState;
  label: string;
  tags: StateConfigOf<S>['tags'];
  /**
   * The call: `src` is also the invocation's id (the diagrams' 'xstate.done.actor.<src>'); its input carries the
   * key from the context; onDone is the success.
   */
  invoke: InvokeOf<S>;
  /**
   * The server refused (any failure, or any but a lost answer when `answerLost` is given); several guarded
   * transitions when a refusal has kinds (the back office's 400 at a form's fields goes back to the form).
   */
  refused: ErrorTransitionOf<S> | readonly ErrorTransitionOf<S>[];
  /** A state for a lost answer, retried with the same key; without it a lost answer is a refusal. */
  answerLost?: AnswerLostState<S, TLost>;
}

/** An atomic state's config (no `states`, so the machine's state values name it as a leaf). */
type LeafStateConfigOf<S extends AnyMachineSetup> = Omit<StateConfigOf<S>, 'states' | 'initial'>;

/** The calling state and, when asked, its answer-lost state, for `states: { ...idempotentCallStates(…) }`. */
export function idempotentCallStates<
  S extends AnyMachineSetup,
  TState extends string,
  TLost extends string = never,
>(_machineSetup: S, call: IdempotentCall<S, TState, TLost>): Record<TState | TLost, LeafStateConfigOf<S>> {
  const { invoke, refused, answerLost: lost } = call;
  const src = (invoke as { src: string }).src;
  const refusals = Array.isArray(refused) ? refused : [refused];
  const onError = lost
    ? [
        {
          guard: {
            type: 'answerLost',
            params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }),
          },
          target: lost.state,
          ...(lost.actions === undefined ? {} : { actions: lost.actions }),
        },
        ...refusals,
      ]
    : refused;
  const states: Record<string, unknown> = {
    [call.state]: {
      meta: { label: call.label },
      tags: call.tags,
      invoke: { ...invoke, id: src, onError },
    },
  };
  if (lost) {
    states[lost.state] = {
      meta: { label: lost.label },
      ...(lost.tags === undefined ? {} : { tags: lost.tags }),
      on: {
        // Same Idempotency-Key: if the first request did reach the server, it answers with that result.
        [lost.retry]: call.state,
        // The call may have happened: the caller's close actions read the lists again.
        [lost.close.event]: { target: lost.close.target, actions: lost.close.actions },
      },
    };
  }
  // why: the shape above is the factory's; the caller's parts were typed against the machine's own config.
  return states as Record<TState | TLost, LeafStateConfigOf<S>>;
}
