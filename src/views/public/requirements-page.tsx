import { Download } from '@blueprintjs/icons';
import { CONTACT_EMAIL, mailtoLink } from '../common/site-config';
import { Static } from '../common/static-html';
import { PageHero, Section } from './page-parts';
import {
  REQUIREMENT_GROUPS,
  REQUIREMENTS_NOTES,
  REQUIREMENTS_PDF_PATH,
  REQUIREMENTS_TITLE,
} from './requirements-checklist';

/** Spec §2: the requirements page embeds the corporate checklist PDF; it is also offered for download. */
export function RequirementsPage() {
  return (
    <>
      <PageHero
        id="requisitos-titulo"
        eyebrow="Compradores"
        title={REQUIREMENTS_TITLE}
        lead="Reúne estos documentos y datos para dar de alta a tu empresa como comprador aliado. La alianza no tiene costo y tus proveedores podrán adelantar las facturas que autorices."
        actions={
          <a
            href={REQUIREMENTS_PDF_PATH}
            download="requisitos-alianza-corporativa.pdf"
            className="site-button site-button--primary"
          >
            <Download size={16} />
            Descargar la lista en PDF
          </a>
        }
      />
      <Section id="requisitos-lista" title="Lista de requisitos" tone="surface">
        <Static className="site-two-columns">
          {REQUIREMENT_GROUPS.map((group) => (
            <div key={group.title}>
              <h3>{group.title}</h3>
              <ul className="site-checklist">
                {group.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            </div>
          ))}
        </Static>
        <Static as="ul" className="site-note">
          {REQUIREMENTS_NOTES.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </Static>
      </Section>
      <Section
        id="requisitos-pdf"
        title="Documento para imprimir"
        intro="La misma lista en PDF, lista para imprimir o compartir con tu equipo."
      >
        <iframe className="site-pdf" src={REQUIREMENTS_PDF_PATH} title={`${REQUIREMENTS_TITLE} (PDF)`} />
        <p className="site-note">
          ¿No ves el documento? <a href={REQUIREMENTS_PDF_PATH}>Ábrelo en una pestaña nueva</a> o escríbenos a{' '}
          <a href={mailtoLink(REQUIREMENTS_TITLE)}>{CONTACT_EMAIL}</a>.
        </p>
      </Section>
    </>
  );
}
