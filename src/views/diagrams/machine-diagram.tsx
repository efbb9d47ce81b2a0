import { Button, Callout, H2, H3, HTMLTable, Spinner, Switch, Tag } from '@blueprintjs/core';
import { useId, useMemo, useState } from 'react';
import type { DetailState, DiagramIndexEntry, MachineDetails } from '../../machines/diagram-details';
import { useDiagram } from './diagram-assets';
import { DiagramLegend } from './diagram-legend';
import { type DiagramMarks, DiagramViewer } from './diagram-viewer';

export const COVERAGE_SWITCH_LABEL = 'Mostrar cobertura de pruebas';

export interface MachineDiagramProps {
  entry: DiagramIndexEntry;
}

function stateName(states: ReadonlyMap<string, DetailState>, id: string): string {
  const state = states.get(id);
  return state ? `${state.label} (${state.key})` : id;
}

const STATE_TYPE: Record<DetailState['type'], string> = {
  atomic: 'Estado',
  compound: 'Estado compuesto',
  parallel: 'Estado paralelo',
  final: 'Estado final',
  history: 'Historia',
};

/** The guard list beside the diagram: each mark with its Spanish sentence and technical expression. */
export function GuardList({ details }: { details: MachineDetails }) {
  const headingId = useId();
  if (details.guards.length === 0) return null;
  return (
    <section className="flujo-diagram-guards" aria-labelledby={headingId}>
      <H3 id={headingId}>Condiciones</H3>
      <dl>
        {details.guards.map((guard) => (
          <div key={guard.mark} className="flujo-diagram-guard">
            <dt>
              <span className="flujo-guard-mark">[{guard.mark}]</span>
            </dt>
            <dd>
              {guard.sentence} <code>{guard.expression}</code>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The text alternative of a diagram: its states and transitions as tables. */
export function DiagramTables({
  details,
  coverage,
}: {
  details: MachineDetails;
  coverage: DiagramIndexEntry['coverage'] | undefined;
}) {
  const states = useMemo(() => new Map(details.states.map((state) => [state.id, state])), [details]);
  const guards = useMemo(() => new Map(details.guards.map((guard) => [guard.mark, guard])), [details]);
  const covered = new Set(coverage?.covered);
  const waived = new Set(coverage?.waivedKeys);
  return (
    <details className="flujo-diagram-text">
      <summary>Estados y transiciones en texto</summary>
      <HTMLTable compact striped className="flujo-diagram-table">
        <caption>Estados de «{details.title}»</caption>
        <thead>
          <tr>
            <th scope="col">Estado</th>
            <th scope="col">Nombre técnico</th>
            <th scope="col">Tipo</th>
          </tr>
        </thead>
        <tbody>
          {details.states.map((state) => (
            <tr key={state.id}>
              <td>
                {state.label}
                {state.initial && !state.parent && ' (inicial)'}
              </td>
              <td>
                <code>{state.id}</code>
              </td>
              <td>{STATE_TYPE[state.type]}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <HTMLTable compact striped className="flujo-diagram-table">
        <caption>Transiciones de «{details.title}»</caption>
        <thead>
          <tr>
            <th scope="col">Desde</th>
            <th scope="col">Evento</th>
            <th scope="col">Hacia</th>
            <th scope="col">Condición</th>
            {coverage && <th scope="col">Pruebas</th>}
          </tr>
        </thead>
        <tbody>
          {details.transitions.map((transition) => {
            const guard = transition.guard ? guards.get(transition.guard) : undefined;
            return (
              <tr key={transition.key}>
                <td>{stateName(states, transition.source)}</td>
                <td>
                  {transition.label} <code>{transition.technical}</code>
                </td>
                <td>
                  {transition.targets.length === 0
                    ? 'Se queda en el mismo estado'
                    : transition.targets.map((target) => stateName(states, target)).join(', ')}
                </td>
                <td>{guard ? `[${guard.mark}] ${guard.sentence}` : 'Sin condición'}</td>
                {coverage && (
                  <td>
                    {covered.has(transition.key)
                      ? 'Ejercida'
                      : waived.has(transition.key)
                        ? 'Exenta'
                        : 'Sin ejercer'}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
    </details>
  );
}

/** The coverage figures of a machine, or that it has no generated tests. */
export function CoverageFigures({ coverage }: { coverage: DiagramIndexEntry['coverage'] }) {
  if (!coverage) return <p className="flujo-diagram-figures">Sin pruebas generadas para esta máquina.</p>;
  return (
    <p className="flujo-diagram-figures">
      <Tag minimal>Estados {coverage.states}</Tag> <Tag minimal>Transiciones {coverage.transitions}</Tag>{' '}
      {coverage.waived > 0 && <Tag minimal>Exentas {coverage.waived}</Tag>}{' '}
      <Tag minimal>Rutas generadas {coverage.paths}</Tag>
    </p>
  );
}

/** One machine on /diagramas/: its title, description, diagram with zoom, legend, guards and text tables. */
export function MachineDiagram({ entry }: MachineDiagramProps) {
  const headingId = useId();
  const diagram = useDiagram(entry.id);
  const [showCoverage, setShowCoverage] = useState(false);
  const marks = useMemo<DiagramMarks>(
    () => ({
      coverage:
        showCoverage && entry.coverage
          ? {
              covered: new Set(entry.coverage.covered),
              waived: new Set(entry.coverage.waivedKeys),
              visitedStates: new Set(entry.coverage.visitedStates),
            }
          : showCoverage
            ? { covered: new Set(), waived: new Set(), visitedStates: new Set() }
            : null,
    }),
    [showCoverage, entry.coverage],
  );

  return (
    <section className="flujo-machine" aria-labelledby={headingId}>
      <header className="flujo-machine__header">
        <H2 id={headingId}>{entry.title}</H2>
        <p className="flujo-machine__id">
          Máquina <code>{entry.id}</code>
        </p>
        <p className="flujo-machine__description">{entry.description}</p>
      </header>
      <div className="flujo-machine__coverage">
        <Switch
          role="switch"
          checked={showCoverage}
          label={COVERAGE_SWITCH_LABEL}
          onChange={(event) => setShowCoverage(event.currentTarget.checked)}
        />
        <CoverageFigures coverage={entry.coverage} />
      </div>
      {diagram.isPending && (
        <div className="flujo-diagram-loading" role="status">
          <Spinner size={24} aria-hidden /> Cargando diagrama…
        </div>
      )}
      {diagram.isError && (
        <Callout intent="danger" role="alert" title="No pudimos cargar el diagrama">
          <p>{diagram.error.message}</p>
          <Button text="Reintentar" onClick={() => void diagram.refetch()} />
        </Callout>
      )}
      {diagram.data && (
        <>
          <DiagramViewer svg={diagram.data.svg} title={entry.title} marks={marks} />
          <div className="flujo-machine__aside">
            <GuardList details={diagram.data.details} />
            <DiagramLegend coverage />
          </div>
          <DiagramTables
            details={diagram.data.details}
            coverage={showCoverage ? entry.coverage : undefined}
          />
        </>
      )}
    </section>
  );
}
