import { Callout, Card, HTMLTable, Spinner } from '@blueprintjs/core';
import { displayDate } from '../../domain/calendar-date';
import { formatMxn, parseMoney } from '../../domain/money';
import type { CorporateMaturities } from '../../domain/schemas/maturities';

export const NEXT_MATURITIES_TITLE = 'Próximos vencimientos';

export interface NextMaturitiesState {
  data: CorporateMaturities | undefined;
  isPending: boolean;
  isError: boolean;
}

/**
 * The corporate's next due dates (decision 0066): what it pays Flujo on each, with the reference to write in SPEI
 * and Flujo's collection CLABE. Nothing is shown when nothing is due.
 */
export function NextMaturities({ state }: { state: NextMaturitiesState }) {
  if (state.isPending) {
    return (
      <Card className="flujo-next-maturities" aria-labelledby="proximos-vencimientos" aria-busy>
        <h2 id="proximos-vencimientos">{NEXT_MATURITIES_TITLE}</h2>
        <Spinner size={20} aria-label="Cargando los próximos vencimientos" />
      </Card>
    );
  }
  if (state.isError || !state.data) {
    return (
      <Callout intent="warning" className="flujo-next-maturities" title={NEXT_MATURITIES_TITLE}>
        No pudimos cargar tus próximos vencimientos.
      </Callout>
    );
  }
  const { results, collection_clabe } = state.data;
  if (results.length === 0) return null;
  return (
    <Card className="flujo-next-maturities" aria-labelledby="proximos-vencimientos">
      <h2 id="proximos-vencimientos">{NEXT_MATURITIES_TITLE}</h2>
      <p>
        Paga por SPEI a la CLABE de cobranza de Flujo <strong>{collection_clabe}</strong> con la referencia
        numérica de cada fecha.
      </p>
      <HTMLTable compact className="flujo-next-maturities__table" aria-label={NEXT_MATURITIES_TITLE}>
        <thead>
          <tr>
            <th scope="col">Vence el</th>
            <th scope="col">Pendiente</th>
            <th scope="col">Referencia</th>
          </tr>
        </thead>
        <tbody>
          {results.map((row) => (
            <tr key={row.due_on}>
              <th scope="row">
                {displayDate(row.due_on)}
                <div className="flujo-next-maturities__count">
                  {row.invoices === 1 ? '1 factura' : `${row.invoices} facturas`}
                </div>
              </th>
              <td>{formatMxn(parseMoney(row.outstanding))}</td>
              <td>
                <code>{row.reference}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </Card>
  );
}
