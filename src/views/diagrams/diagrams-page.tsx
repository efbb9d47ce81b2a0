import { Callout, H1 } from '@blueprintjs/core';
import { Link } from '@tanstack/react-router';
import type { DiagramIndexEntry } from '../../machines/diagram-details';
import { diagramIndex } from './diagram-assets';
import { ALL_MACHINES } from './diagrams-search';
import { MachineDiagram } from './machine-diagram';

export const DEFAULT_MACHINE = 'invoice-lifecycle';

function selectedEntries(
  index: readonly DiagramIndexEntry[],
  maquina: string | undefined,
): readonly DiagramIndexEntry[] {
  if (maquina === ALL_MACHINES) return index;
  const chosen =
    index.find((entry) => entry.id === maquina) ??
    index.find((entry) => entry.id === DEFAULT_MACHINE) ??
    index[0];
  return chosen ? [chosen] : [];
}

/** /diagramas/: the workflow machines for auditors, one at a time (or all, to print), with a list of all. */
export function DiagramsPage({
  maquina,
  index = diagramIndex,
}: {
  maquina?: string;
  index?: readonly DiagramIndexEntry[];
}) {
  const shown = selectedEntries(index, maquina);
  const current = maquina === ALL_MACHINES ? ALL_MACHINES : shown[0]?.id;
  return (
    <div className="flujo-diagrams-page">
      <header className="flujo-diagrams-page__intro">
        <H1 id="diagramas-titulo">Diagramas de flujo de trabajo</H1>
        <p>
          Cada proceso de Flujo es una máquina de estados explícita. Estos diagramas se generan a partir del
          mismo código que ejecutan el navegador y el servidor: cada estado y cada evento llevan su nombre en
          español y, al lado, su nombre técnico; las condiciones se explican bajo cada diagrama. «Mostrar
          cobertura de pruebas» marca en verde las transiciones que recorren las pruebas generadas (que
          pasaron) y en rojo las que no.
        </p>
      </header>
      <div className="flujo-diagrams-page__body">
        <nav className="flujo-diagrams-nav" aria-label="Máquinas de estados">
          <ul>
            {index.map((entry) => (
              <li key={entry.id}>
                <Link
                  to="/diagramas/"
                  search={{ maquina: entry.id }}
                  aria-current={current === entry.id ? 'page' : undefined}
                >
                  {entry.title}
                </Link>
              </li>
            ))}
            <li className="flujo-diagrams-nav__all">
              <Link
                to="/diagramas/"
                search={{ maquina: ALL_MACHINES }}
                aria-current={current === ALL_MACHINES ? 'page' : undefined}
              >
                Todas las máquinas (para imprimir)
              </Link>
            </li>
          </ul>
        </nav>
        <div className="flujo-diagrams-page__machines">
          {shown.length === 0 && (
            <Callout intent="warning" title="Sin diagramas">
              No hay diagramas generados; ejecuta <code>npm run diagrams</code>.
            </Callout>
          )}
          {shown.map((entry) => (
            <MachineDiagram key={entry.id} entry={entry} />
          ))}
        </div>
      </div>
    </div>
  );
}
