import { SERVER_MESSAGES } from '../../domain/schemas/session';
import { CONTACT_EMAIL, mailtoLink, NEWSLETTER_URL } from './site-config';
import { useHydrated } from './use-hydrated';

/** Where the server sends the visitor back after a subscription (`?boletin=…`, decision 0006). */
export type NewsletterOutcome = 'suscrito' | 'error' | 'limite';

function outcomeFromUrl(): NewsletterOutcome | null {
  const value = new URLSearchParams(window.location.search).get('boletin');
  return value === 'suscrito' || value === 'error' || value === 'limite' ? value : null;
}

/**
 * The footer's newsletter box: a plain HTML form the server answers with a redirect back to the page
 * (docs/decisions/0006-newsletter.md), so it works before the page's script runs and needs no workflow
 * of its own. After hydration it reports the outcome carried in the URL.
 *
 * `returnPath` is the page the server sends the visitor back to. A prerendered page passes its own path,
 * so the form is right before hydration; without it the address bar's path is used once hydrated.
 */
export function NewsletterBox({ returnPath }: { returnPath?: string }) {
  const hydrated = useHydrated();
  const outcome = hydrated ? outcomeFromUrl() : null;
  const origin = returnPath ?? (hydrated ? window.location.pathname : '');
  return (
    <form
      id="boletin"
      className="site-newsletter"
      method="post"
      action={NEWSLETTER_URL}
      aria-labelledby="boletin-titulo"
    >
      <h2 id="boletin-titulo" className="site-footer__title">
        Boletín
      </h2>
      <p>Una vez al mes: nuevas alianzas, guías de flujo de efectivo y mejoras de la plataforma.</p>
      <input type="hidden" name="origen" value={origin} />
      <label htmlFor="boletin-correo">Correo para el boletín</label>
      <div className="site-newsletter__row">
        <input
          id="boletin-correo"
          className="site-input"
          type="email"
          name="email"
          required
          autoComplete="email"
          placeholder="tu@empresa.mx"
        />
        <button type="submit" className="site-button site-button--primary">
          Suscribirme
        </button>
      </div>
      <p className="site-newsletter__note">
        Para darte de baja, escríbenos a <a href={mailtoLink('Baja del boletín')}>{CONTACT_EMAIL}</a>.
        Consulta el <a href="/politicas-de-privacidad/">aviso de privacidad</a>.
      </p>
      {outcome === 'suscrito' && (
        <p role="status" className="site-newsletter__done">
          ¡Listo! Te enviaremos el próximo boletín a tu correo.
        </p>
      )}
      {outcome === 'error' && (
        <p role="alert" className="site-newsletter__error">
          No pudimos registrar ese correo. Revisa que esté bien escrito e intenta de nuevo.
        </p>
      )}
      {/* Too many subscriptions from this address (the server's 429, as a redirect for the plain form). */}
      {outcome === 'limite' && (
        <p role="alert" className="site-newsletter__error">
          {SERVER_MESSAGES.tooManyRequests}
        </p>
      )}
    </form>
  );
}
