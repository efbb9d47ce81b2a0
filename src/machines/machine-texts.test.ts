import { describe, expect, it } from 'vitest';
import { and, fromPromise, not, or, setup } from 'xstate';
import { catalogueMachines } from './catalogue.gen';
import {
  ALWAYS_EVENT_KEY,
  eventKey,
  eventLabel,
  guardNames,
  guardSentence,
  missingTexts,
  stateLabel,
  usedEventsAndGuards,
} from './machine-texts';

describe('every catalogued machine speaks Spanish to auditors', () => {
  it.each(catalogueMachines.map(([id, machine]) => [id, machine] as const))(
    '%s labels every state, event and guard',
    (id, machine) => {
      // The list itself is the failure message: it names each missing text and where it goes.
      expect(missingTexts(machine), `${id}.machine.ts lacks texts`).toEqual([]);
    },
  );
});

describe('eventKey', () => {
  it('keeps an event type as it is', () => {
    expect(eventKey('invoice.authorize')).toBe('invoice.authorize');
    expect(eventKey('xstate.done.actor.loadQuote')).toBe('xstate.done.actor.loadQuote');
    expect(eventKey('xstate.error.actor.loadQuote')).toBe('xstate.error.actor.loadQuote');
  });

  it('keys a delayed event by its delay, whatever state it leaves', () => {
    expect(eventKey('xstate.after.TOAST_MS.demoRequest.sent')).toBe('xstate.after.TOAST_MS');
    expect(eventKey('xstate.after.TOAST_MS.demoRequest.failed')).toBe('xstate.after.TOAST_MS');
  });

  it('keys an eventless transition as always', () => {
    expect(eventKey('')).toBe(ALWAYS_EVENT_KEY);
  });
});

describe('guardNames', () => {
  it('names a plain guard, a guard with params and the guards inside and/or/not', () => {
    expect(guardNames(undefined)).toEqual([]);
    expect(guardNames('isSat')).toEqual(['isSat']);
    expect(guardNames({ type: 'isZip', params: {} })).toEqual(['isZip']);
    expect(guardNames(and(['a', or(['b', not('c')])]))).toEqual(['a', 'b', 'c']);
  });

  it('gives no name to an inline guard function', () => {
    expect(guardNames(() => true)).toEqual([]);
  });
});

const tiny = setup({
  types: { events: {} as { type: 'go' } | { type: 'stop' } },
  actors: { work: fromPromise(async () => 1) },
  guards: { ready: () => true, allowed: () => true },
  delays: { WAIT_MS: 1000 },
}).createMachine({
  id: 'tiny',
  meta: {
    title: 'Pequeña',
    events: { go: 'Ir', [eventKey('xstate.after.WAIT_MS.tiny.b')]: 'Pasa 1 segundo' },
    guards: { ready: 'Todo está listo.' },
  },
  initial: 'a',
  states: {
    a: {
      meta: { label: 'Inicio' },
      on: { go: { target: 'b', guard: and(['ready', 'allowed']) } },
      always: { guard: 'ready', target: 'c' },
    },
    b: { meta: { label: '' }, after: { WAIT_MS: 'a' }, on: { stop: 'c' } },
    c: {
      invoke: { id: 'job', src: 'work', onDone: 'a', onError: 'a' },
    },
  },
});

describe('texts of a small machine', () => {
  it('lists the events and guards its transitions use, once each', () => {
    expect(usedEventsAndGuards(tiny)).toEqual({
      events: [
        'go',
        'always',
        'stop',
        'xstate.after.WAIT_MS',
        'xstate.done.actor.job',
        'xstate.error.actor.job',
      ],
      guards: ['ready', 'allowed'],
    });
  });

  it('reads labels and sentences, an empty label counting as none', () => {
    expect(stateLabel(tiny.root.states.a!)).toBe('Inicio');
    expect(stateLabel(tiny.root.states.b!)).toBeUndefined();
    expect(eventLabel(tiny, 'xstate.after.WAIT_MS.tiny.b')).toBe('Pasa 1 segundo');
    expect(guardSentence(tiny, 'ready')).toBe('Todo está listo.');
    expect(guardSentence(tiny, 'allowed')).toBeUndefined();
  });

  it('names every missing text and where it goes', () => {
    expect(missingTexts(tiny)).toEqual([
      'state tiny.b: meta.label',
      'state tiny.c: meta.label',
      "event always: root meta.events['always']",
      "event stop: root meta.events['stop']",
      "event xstate.done.actor.job: root meta.events['xstate.done.actor.job']",
      "event xstate.error.actor.job: root meta.events['xstate.error.actor.job']",
      "guard allowed: root meta.guards['allowed']",
    ]);
  });
});
