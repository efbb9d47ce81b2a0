import { Button, Callout, FormGroup, H1, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useForm } from 'react-hook-form';
import { displayDate } from '../../../domain/calendar-date';
import { formatConvertedMxn, formatMoney, formatMxn, parseMoney } from '../../../domain/money';
import type {
  MaturitiesReport,
  MaturityBuyer,
  MaturityFilters,
  MaturityInvoice,
} from '../../../domain/schemas/maturities';
import { type BackOfficeColumn, BackOfficeList, loadedList, type RemoteData } from '../list/back-office-list';
import './operator-maturities.css';

const mxn = (amount: string) => formatMxn(parseMoney(amount));

/** The invoice's own amount; a converted one says its currency and the rate its peso value was taken at. */
function InvoiceAmount({ invoice }: { invoice: MaturityInvoice }) {
  if (invoice.exchange_rate === null) return <>{mxn(invoice.amount_mxn)}</>;
  const own = invoice.currency === 'USD' ? formatMoney(parseMoney(invoice.amount), 'USD') : null;
  return (
    <>
      {own && (
        <div>
          {own}{' '}
          <Tag minimal intent="primary">
            {invoice.currency}
          </Tag>
        </div>
      )}
      <div className="operator-maturities__converted">
        {formatConvertedMxn(parseMoney(invoice.amount_mxn), invoice.exchange_rate)}
      </div>
    </>
  );
}

function Outstanding({ amount }: { amount: string }) {
  if (parseMoney(amount) === 0) return <span className="operator-maturities__settled">{mxn(amount)}</span>;
  return <strong className="operator-maturities__outstanding">{mxn(amount)}</strong>;
}

const INVOICE_COLUMNS: readonly BackOfficeColumn<MaturityInvoice>[] = [
  {
    id: 'invoice',
    header: 'Factura',
    rowHeader: true,
    cell: (invoice) => (
      <>
        <div>{invoice.serie_folio ?? 'Sin folio'}</div>
        <div className="operator-maturities__uuid">{invoice.cfdi_uuid}</div>
      </>
    ),
  },
  {
    id: 'supplier',
    header: 'Proveedor',
    cell: (invoice) => (
      <>
        <div>{invoice.supplier_name}</div>
        <div className="operator-maturities__uuid">{invoice.supplier_rfc}</div>
      </>
    ),
  },
  { id: 'amount', header: 'Monto de la factura', cell: (invoice) => <InvoiceAmount invoice={invoice} /> },
  { id: 'advanced', header: 'Adelantado', cell: (invoice) => mxn(invoice.advanced) },
  { id: 'collected', header: 'Cobrado', cell: (invoice) => mxn(invoice.collected) },
  { id: 'outstanding', header: 'Pendiente', cell: (invoice) => <Outstanding amount={invoice.outstanding} /> },
];

/** Advanced, collected and outstanding of a day or a buyer, as one line. */
function Sums({ sums }: { sums: { advanced: string; collected: string; outstanding: string } }) {
  return (
    <dl className="operator-maturities__sums">
      <div>
        <dt>Adelantado</dt>
        <dd>{mxn(sums.advanced)}</dd>
      </div>
      <div>
        <dt>Cobrado</dt>
        <dd>{mxn(sums.collected)}</dd>
      </div>
      <div>
        <dt>Pendiente</dt>
        <dd>
          <Outstanding amount={sums.outstanding} />
        </dd>
      </div>
    </dl>
  );
}

function BuyerBatch({ buyer, dueOn }: { buyer: MaturityBuyer; dueOn: string }) {
  const title = `${buyer.corporate_name}, vence el ${displayDate(dueOn)}`;
  return (
    <section className="operator-maturities__buyer" aria-label={title}>
      <h3>{buyer.corporate_name}</h3>
      <p className="operator-maturities__reference">
        {buyer.corporate_rfc && <>RFC {buyer.corporate_rfc} · </>}
        Referencia de pago <strong>{buyer.reference}</strong>
      </p>
      <Sums sums={buyer} />
      <BackOfficeList
        label={`Facturas de ${title}`}
        className="operator-maturities__table"
        cardsBelow={1100}
        remote={loadedList(buyer.invoices)}
        columns={INVOICE_COLUMNS}
        rowKey={(invoice) => invoice.invoice_id}
        loading="Cargando las facturas"
        failed="No pudimos cargar las facturas"
        empty={{ title: 'Sin facturas' }}
      />
    </section>
  );
}

type RangeFields = { desde: string; hasta: string };

export interface OperatorMaturitiesPageProps {
  /** The range shown (the URL's days, or today to today + 30). */
  range: RangeFields;
  report: RemoteData<MaturitiesReport>;
  /** The server's messages per day when it refused the range (a 400): shown at the dates. */
  refusedFilters: Record<string, string[]>;
  onRange(next: MaturityFilters): void;
}

/**
 * /operacion/vencimientos/: the advanced invoices falling due in a range, per business day and per buyer (one
 * batch, paid with one reference), with what was advanced, collected and is still outstanding, in pesos.
 */
export function OperatorMaturitiesPage({
  range,
  report,
  refusedFilters,
  onRange,
}: OperatorMaturitiesPageProps) {
  const { register, handleSubmit } = useForm<RangeFields>({ values: range });
  const submit = handleSubmit((fields) => {
    const next: MaturityFilters = {};
    if (fields.desde.trim()) next.desde = fields.desde.trim();
    if (fields.hasta.trim()) next.hasta = fields.hasta.trim();
    onRange(next);
  });
  const field = (key: keyof RangeFields) => {
    const { ref, ...registration } = register(key);
    return { id: `vencimientos-${key}`, inputRef: ref, ...registration };
  };
  const refused = Object.keys(refusedFilters).length > 0;

  return (
    <section aria-labelledby="vencimientos-titulo" className="operator-maturities">
      <H1 id="vencimientos-titulo">Vencimientos</H1>
      <p>
        Lo que los corporativos deben pagar a Flujo por día hábil: cada lote con su referencia de pago, lo
        adelantado, lo cobrado y lo pendiente, en pesos.
      </p>
      <form
        className="operator-maturities__filters"
        aria-label="Rango de vencimientos"
        noValidate
        onSubmit={submit}
      >
        <FormGroup
          label="Desde"
          labelFor="vencimientos-desde"
          intent={refusedFilters.desde ? 'danger' : 'none'}
          helperText={refusedFilters.desde?.[0]}
        >
          <InputGroup {...field('desde')} type="date" />
        </FormGroup>
        <FormGroup
          label="Hasta"
          labelFor="vencimientos-hasta"
          intent={refusedFilters.hasta ? 'danger' : 'none'}
          helperText={refusedFilters.hasta?.[0]}
        >
          <InputGroup {...field('hasta')} type="date" />
        </FormGroup>
        <div className="operator-maturities__buttons">
          <Button type="submit" intent="primary" text="Ver" />
          <Button text="Próximos 30 días" onClick={() => onRange({})} />
        </div>
      </form>
      {!refused && <MaturitiesBody report={report} />}
    </section>
  );
}

function MaturitiesBody({ report }: { report: RemoteData<MaturitiesReport> }) {
  if (report.status === 'pending') return <Spinner aria-label="Cargando los vencimientos" size={32} />;
  if (report.status === 'error' || !report.data) {
    return (
      <Callout intent="danger" role="alert" title="No pudimos cargar los vencimientos">
        <p>Intenta de nuevo en unos momentos.</p>
        <Button intent="primary" text="Reintentar" onClick={report.retry} />
      </Callout>
    );
  }
  const data = report.data;
  if (data.days.length === 0) {
    return (
      <NonIdealState>
        <h2>Sin vencimientos</h2>
        <p>
          Ninguna factura adelantada vence entre el {displayDate(data.desde)} y el {displayDate(data.hasta)}.
        </p>
      </NonIdealState>
    );
  }
  return (
    <>
      <section className="operator-maturities__total" aria-label="Total del rango">
        <h2>
          Del {displayDate(data.desde)} al {displayDate(data.hasta)}
        </h2>
        <Sums sums={data} />
      </section>
      {data.days.map((day) => (
        <section
          key={day.due_on}
          className="operator-maturities__day"
          aria-labelledby={`vence-${day.due_on}`}
        >
          <h2 id={`vence-${day.due_on}`}>Vence el {displayDate(day.due_on)}</h2>
          <Sums sums={day} />
          {day.buyers.map((buyer) => (
            <BuyerBatch key={buyer.batch_id} buyer={buyer} dueOn={day.due_on} />
          ))}
        </section>
      ))}
    </>
  );
}
