import { Button, Callout, Classes, Dialog, H3, Spinner } from '@blueprintjs/core';
import { useId, useMemo } from 'react';
import { isInvoiceStatusCode } from '../../domain/invoice-status';
import type { Invoice } from '../../domain/schemas/invoices';
import { STATE_BY_STATUS } from '../../machines/invoice-lifecycle.machine';
import { shownFolio } from '../invoices/invoice-columns';
import { formatDisplayDateTime } from '../invoices/invoice-format';
import { useDiagram } from './diagram-assets';
import { DiagramLegend } from './diagram-legend';
import { type DiagramMarks, DiagramViewer } from './diagram-viewer';
import { withoutTechnicalNames } from './svg-markup';
import { mapTrail, type PathStep, stepsByElement, type TrailItem } from './trail-path';

export const LIFECYCLE_DIAGRAM = 'invoice-lifecycle';
export const PATH_DIALOG_TITLE = 'Recorrido en el diagrama';

const lifecycleState = (status: number): string | undefined =>
  isInvoiceStatusCode(status) ? STATE_BY_STATUS[status] : undefined;

/** What must hold for a transition, in Spanish (its guard's sentence), or undefined when it has no guard. */
type ConditionOf = (transitionKey: string) => string | undefined;

function StepItem({ step, conditionOf }: { step: PathStep; conditionOf: ConditionOf }) {
  const unmatched = step.kind === 'unmatched';
  return (
    <li className={`flujo-path-step${unmatched ? ' flujo-path-step--unmatched' : ''}`}>
      <span className="flujo-path-step__n" aria-hidden="true">
        {step.n}
      </span>
      <div>
        <strong>
          <span className="flujo-visually-hidden">Paso {step.n}: </span>
          {step.label}
        </strong>
        <div>
          {step.from ? `De «${step.from.label}» a «${step.to?.label ?? step.item.to_status}»` : null}
          {!step.from && step.to ? `Entra en «${step.to.label}»` : null}
        </div>
        <div className="flujo-path-step__meta">
          {step.item.actor} · <time dateTime={step.item.at}>{formatDisplayDateTime(step.item.at)}</time>
        </div>
        {unmatched && (
          <Callout intent="warning" compact>
            Sin transición en el diagrama: {step.problem}
          </Callout>
        )}
        {step.alternatives.map((key) => (
          <div key={key} className="flujo-path-step__meta">
            El historial no distingue la variante en la que: {conditionOf(key) ?? step.label} Se dibuja el
            caso general.
          </div>
        ))}
      </div>
    </li>
  );
}

/** The body of 'Ver en el diagrama': the lifecycle diagram with the trail's numbered steps and their list. */
export function InvoicePath({ items }: { items: readonly TrailItem[] }) {
  const diagram = useDiagram(LIFECYCLE_DIAGRAM);
  const listId = useId();
  const details = diagram.data?.details;
  const steps = useMemo(() => (details ? mapTrail(items, details, lifecycleState) : []), [items, details]);
  const marks = useMemo<DiagramMarks>(() => {
    const pathStates = new Set<string>();
    for (const step of steps) {
      if (step.kind === 'unmatched') continue;
      if (step.from) pathStates.add(step.from.id);
      if (step.to) pathStates.add(step.to.id);
    }
    return { steps: stepsByElement(steps), pathStates };
  }, [steps]);
  const conditionOf: ConditionOf = (key) => {
    const mark = details?.transitions.find((transition) => transition.key === key)?.guard;
    return details?.guards.find((guard) => guard.mark === mark)?.sentence;
  };
  // A supplier or buyer reads the Spanish labels; the technical names and guard marks are for /diagramas/.
  const svg = useMemo(() => (diagram.data ? withoutTechnicalNames(diagram.data.svg) : null), [diagram.data]);

  if (diagram.isPending) {
    return (
      <div className="flujo-diagram-loading" role="status">
        <Spinner size={24} aria-hidden /> Cargando diagrama…
      </div>
    );
  }
  if (diagram.isError || !diagram.data || !svg) {
    return (
      <Callout intent="danger" role="alert" title="No pudimos cargar el diagrama">
        <Button text="Reintentar" onClick={() => void diagram.refetch()} />
      </Callout>
    );
  }
  return (
    <div className="flujo-path">
      <div>
        <DiagramViewer svg={svg} title={diagram.data.details.title} marks={marks} focusPath />
        <DiagramLegend path technical={false} />
      </div>
      <section aria-labelledby={listId}>
        <H3 id={listId}>Pasos</H3>
        <ol className="flujo-path-steps" aria-labelledby={listId}>
          {steps.map((step) => (
            <StepItem key={step.n} step={step} conditionOf={conditionOf} />
          ))}
        </ol>
      </section>
    </div>
  );
}

export interface InvoicePathDialogProps {
  /** The invoice (named by its serie-folio, its folio fiscal beneath), or null when closed. */
  invoice: Pick<Invoice, 'fiscal_folio' | 'serie_folio'> | null;
  items: readonly TrailItem[];
  onClose: () => void;
}

/** 'Ver en el diagrama': the path an invoice took, over the lifecycle machine's diagram. */
export function InvoicePathDialog({ invoice, items, onClose }: InvoicePathDialogProps) {
  return (
    <Dialog
      className="flujo-path-dialog"
      isOpen={invoice !== null}
      onClose={onClose}
      title={`${PATH_DIALOG_TITLE} · Factura ${invoice ? shownFolio(invoice) : ''}`}
      // Blueprint's header button is labelled in English; the footer's 'Cerrar' closes it instead.
      isCloseButtonShown={false}
    >
      <div className={Classes.DIALOG_BODY}>
        {invoice !== null && (
          <>
            <p className={`${Classes.TEXT_MUTED} flujo-path-dialog__uuid`}>
              Folio fiscal {invoice.fiscal_folio}
            </p>
            <InvoicePath items={items} />
          </>
        )}
      </div>
      <div className={Classes.DIALOG_FOOTER}>
        <div className={Classes.DIALOG_FOOTER_ACTIONS}>
          <Button text="Cerrar" onClick={onClose} />
        </div>
      </div>
    </Dialog>
  );
}
