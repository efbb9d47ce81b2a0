import { assign, fromPromise, setup } from 'xstate';

/**
 * A small machine with every construct the model harness and the diagram converters must handle: a nested
 * state, a targetless self-loop, a guard-split transition, an invoke with done and error, an eventless
 * guard split, an `after` delay and final states. `review.escalate [hasNotes]` needs two notes, a count the
 * default abstraction (the state value) ignores, so plain shortest paths cannot reach it.
 */
export const reviewMachine = setup({
  types: {} as {
    context: { amount: number; notes: number; score: number };
    events:
      | { type: 'amount.set'; amount: number }
      | { type: 'note.add' }
      | { type: 'request.submit' }
      | { type: 'review.retry' }
      | { type: 'review.escalate' };
  },
  actors: {
    scoreRequest: fromPromise<{ score: number }, { amount: number }>(async () => ({ score: 0 })),
  },
  guards: {
    isLarge: ({ context }) => context.amount > 1000,
    hasNotes: ({ context }) => context.notes >= 2,
    scoreHigh: ({ context }) => context.score >= 50,
  },
  actions: {
    setAmount: assign({ amount: ({ event }) => (event.type === 'amount.set' ? event.amount : 0) }),
    addNote: assign({ notes: ({ context }) => context.notes + 1 }),
    storeScore: assign({ score: (_, params: { score: number }) => params.score }),
  },
}).createMachine({
  id: 'review',
  initial: 'editing',
  context: { amount: 0, notes: 0, score: 0 },
  states: {
    editing: {
      initial: 'empty',
      on: {
        'note.add': { actions: 'addNote' },
        'request.submit': [{ guard: 'isLarge', target: 'manualReview' }, { target: 'scoring' }],
      },
      states: {
        empty: { on: { 'amount.set': { target: 'filled', actions: 'setAmount' } } },
        filled: { on: { 'amount.set': { actions: 'setAmount' } } },
      },
    },
    scoring: {
      invoke: {
        id: 'scoreRequest',
        src: 'scoreRequest',
        input: ({ context }) => ({ amount: context.amount }),
        onDone: {
          target: 'deciding',
          actions: { type: 'storeScore', params: ({ event }) => ({ score: event.output.score }) },
        },
        onError: 'failed',
      },
    },
    deciding: {
      always: [{ guard: 'scoreHigh', target: 'approved' }, { target: 'manualReview' }],
    },
    failed: {
      after: { 3000: '#review.editing' },
      on: { 'review.retry': 'scoring' },
    },
    manualReview: {
      on: { 'review.escalate': [{ guard: 'hasNotes', target: 'approved' }, { target: 'rejected' }] },
    },
    approved: { type: 'final' },
    rejected: { type: 'final' },
  },
});

export const reviewEvents = [
  { type: 'amount.set', amount: 500 },
  { type: 'amount.set', amount: 5000 },
  { type: 'note.add' },
  { type: 'request.submit' },
  { type: 'review.retry' },
  { type: 'review.escalate' },
  { type: 'xstate.done.actor.scoreRequest', output: { score: 80 } },
  { type: 'xstate.done.actor.scoreRequest', output: { score: 20 } },
  { type: 'xstate.error.actor.scoreRequest', error: 'HTTP 503' },
] as const;
