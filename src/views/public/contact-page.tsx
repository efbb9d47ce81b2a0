import { Chat, Envelope, Presentation } from '@blueprintjs/icons';
import { CONTACT_EMAIL, mailtoLink, whatsappLink } from '../common/site-config';
import { Static } from '../common/static-html';
import { PageHero, Section } from './page-parts';

export function ContactPage() {
  return (
    <>
      <PageHero
        id="contacto-titulo"
        eyebrow="Estamos para ayudarte"
        title="Contacto"
        lead="¿Quieres adelantar tus facturas, crear una alianza para tus proveedores o tienes una duda sobre tu cuenta? Escríbenos por el medio que prefieras."
      />
      <Section id="contacto-medios" title="Cómo comunicarte con nosotros" tone="surface">
        <Static as="ul" className="site-features">
          <li className="site-card">
            <span className="site-card__icon">
              <Envelope size={20} />
            </span>
            <h3>Correo electrónico</h3>
            <p>Para dudas sobre la plataforma, tu cuenta, una alianza o tus datos personales.</p>
            <p>
              <a href={mailtoLink('Información sobre Flujo')}>{CONTACT_EMAIL}</a>
            </p>
          </li>
          <li className="site-card">
            <span className="site-card__icon">
              <Chat size={20} />
            </span>
            <h3>WhatsApp</h3>
            <p>Envíanos un mensaje y te respondemos en horario de atención.</p>
            <p>
              <a href={whatsappLink()} target="_blank" rel="noopener noreferrer">
                Enviar mensaje por WhatsApp
              </a>
            </p>
          </li>
          <li className="site-card">
            <span className="site-card__icon">
              <Presentation size={20} />
            </span>
            <h3>Demostración</h3>
            <p>Agenda una llamada con un especialista para ver Flujo con casos como el tuyo.</p>
            <p>
              <a href="/solicitar-demo/">Solicitar una demostración</a>
            </p>
          </li>
        </Static>
      </Section>
      <Section id="contacto-horario" title="Horario de atención">
        <Static>
          <p>
            Lunes a viernes de 9:00 a 18:00 h, hora del centro de México. Los mensajes que recibimos fuera de
            horario los respondemos el siguiente día hábil.
          </p>
          <p>
            Para ejercer tus derechos de acceso, rectificación, cancelación u oposición (ARCO), sigue el
            procedimiento del <a href="/politicas-de-privacidad/">aviso de privacidad</a>.
          </p>
        </Static>
      </Section>
    </>
  );
}
