/**
 * The Spanish words of a diagram, composed from what the machine says about itself (src/machines/
 * machine-texts.ts), with the technical name as the fallback so a machine without labels still draws.
 */

import type { GuardTree } from '../../src/machines/machine-texts';

/** A sentence without its final period, to be joined into a longer one. */
function clause(sentence: string): string {
  return sentence.trim().replace(/[.。]+$/, '');
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLocaleLowerCase('es') + text.slice(1);
}

/**
 * One Spanish sentence for a guard. Named guards read the machine's sentence (`sentenceOf`), or say that the
 * condition has no description yet; `and`/`or` join their parts, `not` negates.
 */
export function guardSentenceOf(tree: GuardTree, sentenceOf: (name: string) => string | undefined): string {
  const inner = (node: GuardTree): string => {
    switch (node.kind) {
      case 'named':
        return clause(sentenceOf(node.name) ?? `Se cumple la condición ${node.name}`);
      case 'in':
        return `La máquina está en el estado ${node.state}`;
      case 'inline':
        return 'Se cumple una condición escrita en línea en la máquina';
      case 'not':
        return `No se cumple que ${lowerFirst(inner(node.part))}`;
      case 'and':
      case 'or': {
        const parts = node.parts.map((part) => lowerFirst(inner(part)));
        if (parts.length === 1) return parts[0]!;
        const word = node.kind === 'and' ? 'y' : 'o';
        const head = node.kind === 'and' ? 'Se cumplen todas' : 'Se cumple al menos una';
        return `${head}: ${parts.slice(0, -1).join('; ')}; ${word} ${parts.at(-1)}`;
      }
    }
  };
  const text = inner(tree);
  return `${text.charAt(0).toLocaleUpperCase('es')}${text.slice(1)}.`;
}

/** Marks `G1`, `G2`, … for distinct guard expressions, in order of first use. */
export function guardMarks(expressions: readonly (string | undefined)[]): Map<string, string> {
  const marks = new Map<string, string>();
  for (const expression of expressions) {
    if (expression !== undefined && !marks.has(expression)) marks.set(expression, `G${marks.size + 1}`);
  }
  return marks;
}
