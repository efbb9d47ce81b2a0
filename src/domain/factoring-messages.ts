// The Spanish texts of factoring (spec §8 and docs/decisions/0036), written once for the server that sends
// them and the client that shows them.

/** Spec §8, provider screen: what the server answers the first enable request (message_type 'info'). */
export const FACTORING_NOT_ENABLED =
  'Por el momento, tu cuenta no está habilitada para este beneficio. Nos pondremos en contacto contigo...';

/** A second click while the first enable request is still pending (one per account at a time). */
export const FACTORING_REQUEST_PENDING =
  'Ya recibimos tu solicitud de factoraje y la estamos revisando. Nos pondremos en contacto contigo...';

/** The enable request of an account that already has its line. */
export const FACTORING_ALREADY_ENABLED = 'Tu cuenta ya tiene una línea de factoraje activa.';

/** Spec §8: the enable request failed (error variant). */
export const FACTORING_ENABLE_FAILED = 'Error al enviar solicitud';

/** Spec §8, corporate-facing enrolment. */
export function factoringContactMessage(email: string): string {
  return `Nos pondremos en contacto contigo para darte de alta, o si lo prefieres, escríbenos a ${email} para más información.`;
}

// Client-only texts (the browser's factoring panel, issue 15).

/** The quote could not be read (server error, no answer): the panel offers 'Reintentar'. */
export const FACTORING_QUOTE_FAILED =
  'No pudimos obtener la cotización de factoraje. Por favor, intenta de nuevo.';
