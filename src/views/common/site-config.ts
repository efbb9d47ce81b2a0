// Facts about Flujo that the public pages and legal texts show, fixed when the SPA is built.

/**
 * The contact address (spec §1 "{email}"): the server's CONTACT_EMAIL, passed to the build as
 * VITE_CONTACT_EMAIL by vite.config.ts so the pages and the server never disagree.
 */
export const CONTACT_EMAIL: string = import.meta.env.VITE_CONTACT_EMAIL || 'contacto@flujo.mx';

/** WhatsApp number for the chat link, digits only with the country code (wa.me format). */
export const CONTACT_WHATSAPP: string = import.meta.env.VITE_CONTACT_WHATSAPP || '525500000000';

export const WHATSAPP_GREETING = 'Hola, me interesa conocer Flujo para adelantar el pago de mis facturas.';

export function whatsappLink(message: string = WHATSAPP_GREETING): string {
  return `https://wa.me/${CONTACT_WHATSAPP}?text=${encodeURIComponent(message)}`;
}

export function mailtoLink(subject?: string): string {
  return subject
    ? `mailto:${CONTACT_EMAIL}?subject=${encodeURIComponent(subject)}`
    : `mailto:${CONTACT_EMAIL}`;
}

/**
 * NOTE: the operator's registered name goes here before going live (aviso de privacidad, LFPDPPP
 * art. 14: identity and address of the data controller). One constant, used by every legal page.
 */
export const LEGAL_ENTITY = 'Flujo Plataforma de Pagos, S.A.P.I. de C.V.';
export const LEGAL_CITY = 'Ciudad de México';
/** Date the current legal texts took effect; change it with any change to their content. */
export const LEGAL_UPDATED = '15 de enero de 2026';
export const COPYRIGHT_YEAR = 2026;

/** The newsletter box posts here as a plain HTML form (docs/decisions/0006-newsletter.md). */
export const NEWSLETTER_URL: string = `${import.meta.env.VITE_INVOICES_API_URL ?? '/api'}/newsletter/`;

export const SOCIAL_LINKS = [
  { network: 'linkedin', label: 'Flujo en LinkedIn', href: 'https://www.linkedin.com/company/flujo-mx/' },
  { network: 'facebook', label: 'Flujo en Facebook', href: 'https://www.facebook.com/flujo.mx' },
  { network: 'instagram', label: 'Flujo en Instagram', href: 'https://www.instagram.com/flujo.mx/' },
  { network: 'x', label: 'Flujo en X', href: 'https://x.com/flujo_mx' },
  { network: 'youtube', label: 'Flujo en YouTube', href: 'https://www.youtube.com/@flujo-mx' },
] as const;

export type SocialNetwork = (typeof SOCIAL_LINKS)[number]['network'];
