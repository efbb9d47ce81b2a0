import {
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  HTMLTable,
  NonIdealState,
  Spinner,
  Tag,
  TextArea,
} from '@blueprintjs/core';
import { useState } from 'react';
import { DESK_STATES, type DeskState } from '../../../domain/control-desk';
import { formatMxn, parseMoney } from '../../../domain/money';
import type { DeskPage as DeskPageBody } from '../../../domain/schemas/control-desk';
import { DESK_STATE_LABELS, deskTransition } from '../../../machines/desk-item.machine';
import './desk-page.css';

export interface DeskPageProps {
  state: DeskState | null;
  onStateChange: (state: DeskState | null) => void;
  page: DeskPageBody | undefined;
  status: 'pending' | 'error' | 'success';
  onRetry: () => void;
  /** Approve or reject; resolves to the server's refusal in Spanish, or null when done. */
  onApprove: (invoiceId: number) => Promise<string | null>;
  onReject: (invoiceId: number, reason: string) => Promise<string | null>;
  /**
   * The signed-in operator may decide (holds the aprobador role); otherwise the rows show no gestures and a
   * note says who decides (the server refuses them anyway). Default true.
   */
  canDecide?: boolean;
}

type DeskRow = DeskPageBody['results'][number];

/**
 * /operacion/mesa/: every advance in process with its checks, each a pass/fail tag with its reason in words
 * (not only colour), filtered by desk state through the URL.
 */
export function DeskPage({
  state,
  onStateChange,
  page,
  status,
  onRetry,
  onApprove,
  onReject,
  canDecide = true,
}: DeskPageProps) {
  const [rejecting, setRejecting] = useState<DeskRow | null>(null);
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const act = async (work: () => Promise<string | null>) => {
    setBusy(true);
    const refusal = await work();
    setBusy(false);
    setMessage(refusal);
    return refusal;
  };
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
      {message && (
        <Callout intent="danger" role="alert">
          {message}
        </Callout>
      )}
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
              <th scope="col">Acciones</th>
            </tr>
          </thead>
          <tbody>
            {page.results.map((item) => (
              <tr key={item.invoice_id}>
                <td>{item.label}</td>
                <td>{item.provider.name}</td>
                <td>{item.corporate.name}</td>
                <td>{formatMxn(parseMoney(item.amount))}</td>
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
                <td className="desk-actions">
                  {!canDecide && <span className="desk-note">Decide un Aprobador</span>}
                  {/* The desk-item machine decides which gestures a row offers, as the server does. */}
                  {canDecide &&
                    deskTransition(item.state, {
                      type: 'desk.approve',
                      failingChecks: item.checks.filter((c) => !c.ok).length,
                    }).ok && (
                      <Button
                        intent="success"
                        disabled={busy}
                        onClick={() => void act(() => onApprove(item.invoice_id))}
                      >
                        Aprobar {item.label}
                      </Button>
                    )}
                  {canDecide && deskTransition(item.state, { type: 'desk.reject', reason: 'motivo' }).ok && (
                    <Button
                      intent="danger"
                      disabled={busy}
                      onClick={() => {
                        setReason('');
                        setRejecting(item);
                      }}
                    >
                      Rechazar {item.label}
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <Dialog
        isOpen={rejecting !== null}
        onClose={() => setRejecting(null)}
        title={`Rechazar el adelanto ${rejecting?.label ?? ''}`}
      >
        <DialogBody>
          <FormGroup label="Motivo (el proveedor lo recibe por correo)" labelFor="mesa-motivo">
            <TextArea
              id="mesa-motivo"
              fill
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={() => setRejecting(null)}>Cancelar</Button>
              <Button
                intent="danger"
                disabled={busy || reason.trim() === ''}
                onClick={() => {
                  const row = rejecting;
                  if (!row) return;
                  void act(() => onReject(row.invoice_id, reason.trim())).then((refusal) => {
                    if (refusal === null) setRejecting(null);
                  });
                }}
              >
                Rechazar
              </Button>
            </>
          }
        />
      </Dialog>
    </section>
  );
}
