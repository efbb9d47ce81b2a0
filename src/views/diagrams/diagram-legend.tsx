import { H3 } from '@blueprintjs/core';
import { useId } from 'react';

function Line({ className }: { className: string }) {
  return (
    <svg className="flujo-legend__swatch" width="40" height="14" viewBox="0 0 40 14" aria-hidden="true">
      <line className={className} x1="2" y1="7" x2="32" y2="7" />
      <path className={className} d="M32 3 L39 7 L32 11 Z" />
    </svg>
  );
}

/**
 * What each mark of a diagram means; the coverage and path entries only when they are drawn, the technical
 * names and guard marks only when the diagram shows them (not in a supplier's 'Ver en el diagrama').
 */
export function DiagramLegend({
  coverage = false,
  path = false,
  technical = true,
}: {
  coverage?: boolean;
  path?: boolean;
  technical?: boolean;
}) {
  const headingId = useId();
  return (
    <section className="flujo-legend" aria-labelledby={headingId}>
      <H3 id={headingId}>Leyenda</H3>
      <ul>
        <li>
          <svg className="flujo-legend__swatch" width="40" height="14" viewBox="0 0 40 14" aria-hidden="true">
            <circle cx="5" cy="7" r="4" className="flujo-legend__dot" />
            <line className="flujo-legend__plain" x1="9" y1="7" x2="32" y2="7" />
            <path className="flujo-legend__plain" d="M32 3 L39 7 L32 11 Z" />
          </svg>
          Estado inicial: la flecha que sale del punto entra en él.
        </li>
        <li>
          <span className="flujo-legend__final" aria-hidden="true" />
          Estado final: doble borde; el proceso termina ahí.
        </li>
        {technical && (
          <>
            <li>
              <span className="flujo-legend__state" aria-hidden="true">
                Etiqueta<small>id</small>
              </span>
              Cada estado: su nombre en español y, debajo, su nombre técnico.
            </li>
            <li>
              <span className="flujo-guard-mark">[G1]</span> Condición de la transición, explicada en
              «Condiciones».
            </li>
          </>
        )}
        {coverage && (
          <>
            <li>
              <Line className="flujo-legend__covered" />
              Con la cobertura activada: transición ejercida por una ruta de prueba generada que pasó.
            </li>
            <li>
              <Line className="flujo-legend__uncovered" />
              Con la cobertura activada: transición sin ejercer por las pruebas (y estado no visitado, con
              borde rojo).
            </li>
            <li>
              <Line className="flujo-legend__waived" />
              Con la cobertura activada: transición exenta (justificada en el modelo de pruebas).
            </li>
          </>
        )}
        {path && (
          <li>
            <svg
              className="flujo-legend__swatch"
              width="40"
              height="24"
              viewBox="0 0 40 24"
              aria-hidden="true"
            >
              <line className="flujo-legend__path" x1="2" y1="12" x2="38" y2="12" />
              <rect className="flujo-legend__step" x="10" y="2" width="20" height="20" rx="10" />
              <text x="20" y="17" textAnchor="middle" className="flujo-legend__step-text">
                1
              </text>
            </svg>
            Recorrido de la factura: cada paso numerado en su orden.
          </li>
        )}
      </ul>
    </section>
  );
}
