import { Button, Callout, HTMLSelect, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { DESK_STATES, type DeskState } from '../../../domain/control-desk';
import { formatCurrency, parseMoney } from '../../../domain/money';
import type { DeskPage as DeskPageBody } from '../../../domain/schemas/control-desk';
import { DESK_STATE_LABELS } from '../../../machines/desk-item.machine';

export interface DeskPageProps {
  state: DeskState | null;
  onStateChange: (state: DeskState | null) => void;
  page: DeskPageBody | undefined;
  status: 'pending' | 'error' | 'success';
  onRetry: () => void;
}

/**
 * /operacion/mesa/: every advance in process with its checks, each a pass/fail tag with its reason in words
 * (not only colour), filtered by desk state through the URL.
 */
export function DeskPage({ state, onStateChange, page, status, onRetry }: DeskPageProps) {
  return (
    <section aria-labelledby="mesa-titulo">
      <h1 id="mesa-titulo">Mesa de control</h1>
      <label htmlFor="mesa-estado">Estado</label>{' '}
      <HTMLSelect
        id="mesa-estado"
        value={state ?? ''}
        onChange={(event) => onStateChange((event.currentTarget.value || null) as DeskState | null)}
        options={[
          { value: '', label: 'Todos' },
          ...DESK_STATES.map((value) => ({ value, label: DESK_STATE_LABELS[value] })),
        ]}
      />
      {status === 'pending' && <Spinner aria-label="Cargando la mesa de control" size={32} />}
      {status === 'error' && (
        <Callout intent="danger" title="No pudimos cargar la mesa de control">
          <Button onClick={onRetry}>Reintentar</Button>
        </Callout>
      )}
      {status === 'success' && page && page.results.length === 0 && (
        <NonIdealState
          title="No hay adelantos en la mesa"
          description="Cuando un proveedor adelante una factura aparecerá aquí."
        />
      )}
      {status === 'success' && page && page.results.length > 0 && (
        <HTMLTable aria-label="Adelantos en la mesa de control" striped>
          <thead>
            <tr>
              <th scope="col">Factura</th>
              <th scope="col">Proveedor</th>
              <th scope="col">Comprador</th>
              <th scope="col">Monto</th>
              <th scope="col">Estado</th>
              <th scope="col">Verificaciones</th>
            </tr>
          </thead>
          <tbody>
            {page.results.map((item) => (
              <tr key={item.invoice_id}>
                <td>{item.label}</td>
                <td>{item.provider.name}</td>
                <td>{item.corporate.name}</td>
                <td>{formatCurrency(parseMoney(item.amount), 'MXN')} MXN</td>
                <td>
                  {item.state_label}
                  {item.reason && <div>{item.reason}</div>}
                </td>
                <td>
                  <ul aria-label={`Verificaciones de ${item.label}`} className="desk-checks">
                    {item.checks.map((check) => (
                      <li key={check.id}>
                        <Tag intent={check.ok ? 'success' : 'danger'} minimal>
                          {check.ok ? 'Pasa' : 'Falla'}: {check.label}
                        </Tag>{' '}
                        {!check.ok && <span>{check.reason}</span>}
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </section>
  );
}
