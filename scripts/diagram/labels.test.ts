import { describe, expect, it } from 'vitest';
import { and, not, or, setup } from 'xstate';
import { guardTree } from '../../src/machines/machine-texts';
import { describeMachine } from './describe';
import { guardMarks, guardSentenceOf } from './labels';
import { renderSvg } from './render-svg';
import { edgeLabelHtml, toDot } from './to-dot';

const sentences: Record<string, string> = {
  isOwner: 'Quien actúa es el dueño de la solicitud.',
  isOpen: 'La solicitud sigue abierta.',
  isLate: 'El plazo ya venció.',
};
const sentenceOf = (name: string) => sentences[name];

const machine = setup({
  guards: { isOwner: () => true, isOpen: () => true, isLate: () => false },
}).createMachine({
  id: 'request',
  meta: {
    title: 'Solicitud',
    events: { 'request.close': 'Cerrar la solicitud', 'request.reopen': 'Reabrir' },
    guards: sentences,
  },
  initial: 'open',
  states: {
    open: {
      meta: { label: 'Abierta' },
      on: {
        'request.close': { target: 'closed', guard: and(['isOwner', not('isLate')]) },
      },
    },
    closed: {
      meta: { label: 'Cerrada' },
      on: { 'request.reopen': { target: 'open', guard: or(['isOwner', 'isOpen']) } },
    },
  },
});

describe('guard sentences', () => {
  it('reads one named guard as its sentence, and says when the machine lacks it', () => {
    expect(guardSentenceOf(guardTree('isOwner'), sentenceOf)).toBe(
      'Quien actúa es el dueño de la solicitud.',
    );
    expect(guardSentenceOf(guardTree({ type: 'isMissing' }), sentenceOf)).toBe(
      'Se cumple la condición isMissing.',
    );
  });

  it('joins and/or and negates not, in one sentence', () => {
    expect(guardSentenceOf(guardTree(and(['isOwner', not('isLate')])), sentenceOf)).toBe(
      'Se cumplen todas: quien actúa es el dueño de la solicitud; y no se cumple que el plazo ya venció.',
    );
    expect(guardSentenceOf(guardTree(or(['isOwner', 'isOpen'])), sentenceOf)).toBe(
      'Se cumple al menos una: quien actúa es el dueño de la solicitud; o la solicitud sigue abierta.',
    );
  });

  it('numbers distinct expressions in order of first use', () => {
    expect([...guardMarks(['a', undefined, 'b', 'a', 'c'])]).toEqual([
      ['a', 'G1'],
      ['b', 'G2'],
      ['c', 'G3'],
    ]);
  });
});

describe('Spanish diagrams', () => {
  const diagram = describeMachine(machine);

  it('lists each guard with its mark, expression and sentence', () => {
    expect(diagram.guards).toEqual([
      {
        mark: 'G1',
        expression: '(isOwner && !isLate)',
        sentence:
          'Se cumplen todas: quien actúa es el dueño de la solicitud; y no se cumple que el plazo ya venció.',
      },
      {
        mark: 'G2',
        expression: '(isOwner || isOpen)',
        sentence:
          'Se cumple al menos una: quien actúa es el dueño de la solicitud; o la solicitud sigue abierta.',
      },
    ]);
  });

  it('labels an edge with the Spanish event, its technical name and the guard mark', () => {
    const close = diagram.edges.find((edge) => edge.event === 'request.close')!;
    const { html } = edgeLabelHtml(close);
    expect(html).toContain('Cerrar la solicitud');
    expect(html).toMatch(/request\.close<\/font><font [^>]*>&#160;<b>\[G1\]<\/b>/);
  });

  it('draws each state with its Spanish label and its technical key', async () => {
    const svg = await renderSvg(toDot(diagram, 'Solicitud'));
    expect(svg).toMatch(/<g id="state:request\.open"[\s\S]*?>Abierta<\/text>[\s\S]*?>open<\/text>/);
    expect(svg).toMatch(/>[\s\u00a0]*Cerrar la solicitud[\s\u00a0]*<\/text>/);
    // Nothing drawn under 11 pt (about 15 px at the page's natural size).
    const sizes = [...svg.matchAll(/font-size="([\d.]+)"/g)].map((match) => Number(match[1]));
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(11);
  });
});
