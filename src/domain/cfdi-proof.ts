import { displayDateTime } from './calendar-date';

/** One SAT answer in the words the invoice's history shows: 'Verificado en el SAT el 28/11/2026 10:42: Vigente'. */
export function satAnswerSummary(answer: {
  asked_at: string;
  answered: boolean;
  estado: string | null;
}): string {
  const when = displayDateTime(answer.asked_at);
  return answer.answered
    ? `Verificado en el SAT el ${when}: ${answer.estado ?? 'sin estado'}`
    : `Consultado en el SAT el ${when}: pendiente (el SAT no respondió)`;
}
