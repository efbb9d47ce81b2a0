import { displayDateTime } from './calendar-date';

/**
 * One SAT answer in the words the invoice's history shows: 'Verificado en el SAT el 28/11/2026 10:42: Vigente'.
 * The time is Mexico City's unless the caller formats it (the history shows every time in the browser's zone).
 */
export function satAnswerSummary(
  answer: { asked_at: string; answered: boolean; estado: string | null },
  formatTime: (instant: string) => string = displayDateTime,
): string {
  const when = formatTime(answer.asked_at);
  return answer.answered
    ? `Verificado en el SAT el ${when}: ${answer.estado ?? 'sin estado'}`
    : `Consultado en el SAT el ${when}: pendiente (el SAT no respondió)`;
}
