import {
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  HTMLTable,
  InputGroup,
  NonIdealState,
  ProgressBar,
  Spinner,
  Tag,
  TextArea,
  Tooltip,
} from '@blueprintjs/core';
import { useState } from 'react';
import './programmes.css';
import { displayDate } from '../../../domain/calendar-date';
import { formatMxn, parseMoney } from '../../../domain/money';
import { COLLECTION_ROLES, holdsAnyRole } from '../../../domain/operator-roles';
import type {
  CollectibleInvoice,
  ProgrammeDetail,
  ProgrammeLedgerEntry,
  ProgrammeStateName,
  ProgrammeSummary,
  ProposeProgrammeBody,
  RecordCollectionBody,
} from '../../../domain/schemas/credit-programmes';
import { ProposeProgrammeBody as ProposeStruct } from '../../../domain/schemas/credit-programmes';
import { fieldErrors } from '../../../domain/schemas/validate';
import {
  type CreditProgrammeEvent,
  type ProgrammeActor,
  programmeAccepts,
  type StoredProgramme,
} from '../../../machines/credit-programme.machine';
import { CollectionDialog } from './collection-dialog';

// /operacion/programas/: every corporate's credit programme (limit, reserved, used, available and a utilisation
// bar), the limits waiting for a second aprobador, the proposal dialog and a programme's ledger. Which buttons a
// row offers is the credit-programme machine's answer for this operator (decision 0052); the calls are the
// route's.

export const PROGRAMME_STATE_LABELS: Record<ProgrammeStateName, string> = {
  borrador: 'Borrador',
  pendiente: 'Pendiente de aprobación',
  activo: 'Activo',
  congelado: 'Congelado',
  vencido: 'Vencido',
};

const STATE_INTENTS: Record<ProgrammeStateName, 'none' | 'primary' | 'success' | 'warning' | 'danger'> = {
  borrador: 'none',
  pendiente: 'primary',
  activo: 'success',
  congelado: 'warning',
  vencido: 'danger',
};

const LEDGER_LABELS: Record<ProgrammeLedgerEntry['kind'], string> = {
  reserve: 'Reserva (adelanto solicitado)',
  use: 'Uso (adelanto dispersado)',
  cancel: 'Reserva liberada (adelanto no dispersado)',
  release: 'Liberación (pago del corporativo)',
};

export const PROGRAMME_TEXTS = {
  title: 'Programas de crédito',
  intro:
    'Límite de cada corporativo: los adelantos reservan, la dispersión usa y el pago del corporativo libera. ' +
    'Un límite nuevo o un aumento entra en vigor cuando lo aprueba un Aprobador distinto de quien lo propuso.',
  loading: 'Cargando programas…',
  empty: 'Aún no hay programas de crédito. Propón el límite de un corporativo para empezar.',
  loadFailed: 'No pudimos cargar los programas.',
  retry: 'Reintentar',
  propose: 'Proponer límite',
  approve: 'Aprobar',
  freeze: 'Congelar',
  unfreeze: 'Descongelar',
  detail: 'Ver movimientos',
  ownProposal: 'Tú propusiste este límite: debe aprobarlo otro Aprobador.',
  notAprobador: 'Solo un operador Aprobador puede aprobar límites.',
  pendingTitle: 'Límites pendientes de aprobación',
  noPending: 'No hay límites pendientes de aprobación.',
  ledgerEmpty: 'Este programa aún no tiene movimientos.',
  collectibleTitle: 'Por cobrar al corporativo',
  collectibleEmpty: 'Ninguna factura adelantada espera el pago del corporativo.',
  collectibleNotTreasury: 'Registra los cobros un operador de Tesorería.',
  detailFailed: 'No pudimos cargar los movimientos del programa.',
} as const;

export type LoadState<T> =
  | { status: 'pending' }
  | { status: 'error'; message: string }
  | { status: 'success'; data: T };

export interface ProgrammeActions {
  propose(body: ProposeProgrammeBody): Promise<void>;
  approve(programmeId: number): Promise<void>;
  freeze(programmeId: number, reason: string): Promise<void>;
  unfreeze(programmeId: number, reason: string): Promise<void>;
  /** Resolves to the server's Spanish summary of what the payment released. */
  recordCollection(body: RecordCollectionBody): Promise<string>;
}

export interface CorporateOption {
  id: number;
  name: string;
}

export interface ProgrammesPageProps {
  list: LoadState<readonly ProgrammeSummary[]>;
  onRetry(): void;
  operator: ProgrammeActor;
  corporates: readonly CorporateOption[];
  selectedId: number | null;
  onSelect(programmeId: number | null): void;
  detail: LoadState<ProgrammeDetail> | null;
  actions: ProgrammeActions;
}

function money(amount: string): string {
  return formatMxn(parseMoney(amount));
}

/** The stored programme the machine reads, from the list's row. */
function storedOf(programme: ProgrammeSummary): StoredProgramme {
  const state = programme.state === 'pendiente' ? 'borrador' : programme.state;
  return {
    state,
    proposerId: programme.pending_proposal?.proposed_by ?? null,
    endsOn: programme.ends_on,
  };
}

function accepts(programme: ProgrammeSummary, event: CreditProgrammeEvent): boolean {
  return programmeAccepts(storedOf(programme), event);
}

/** Why Aprobar is disabled for this operator, or null when it may approve. */
export function approveBlockedReason(programme: ProgrammeSummary, operator: ProgrammeActor): string | null {
  if (accepts(programme, { type: 'programme.approve', actor: operator })) return null;
  if (programme.pending_proposal?.proposed_by === operator.userId) return PROGRAMME_TEXTS.ownProposal;
  return PROGRAMME_TEXTS.notAprobador;
}

function errorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Ocurrió un error inesperado.';
}

function UtilisationBar({ programme }: { programme: ProgrammeSummary }) {
  const fraction = Math.min(1, programme.utilisation_percentage / 100);
  return (
    <div className="programme-utilisation">
      <ProgressBar
        value={fraction}
        animate={false}
        stripes={false}
        intent={fraction >= 0.9 ? 'danger' : fraction >= 0.7 ? 'warning' : 'success'}
        aria-label={`Utilización ${programme.utilisation_percentage.toFixed(2)} %`}
      />
      <span>{programme.utilisation_percentage.toFixed(2)} %</span>
    </div>
  );
}

function ReasonDialog({
  title,
  onClose,
  onConfirm,
}: {
  title: string;
  onClose(): void;
  onConfirm(reason: string): Promise<void>;
}) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    if (reason.trim() === '') {
      setError('Escribe el motivo.');
      return;
    }
    setBusy(true);
    try {
      await onConfirm(reason.trim());
      onClose();
    } catch (failure) {
      setError(errorText(failure));
      setBusy(false);
    }
  };
  return (
    <Dialog isOpen title={title} onClose={onClose}>
      <DialogBody>
        <FormGroup
          label="Motivo"
          labelFor="programa-motivo"
          intent={error ? 'danger' : 'none'}
          helperText={error}
        >
          <TextArea
            id="programa-motivo"
            fill
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            aria-invalid={error ? true : undefined}
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" onClick={onClose} />
            <Button intent="primary" text={title} loading={busy} onClick={confirm} />
          </>
        }
      />
    </Dialog>
  );
}

function ProposeDialog({
  corporates,
  initialCorporateId,
  onClose,
  onPropose,
}: {
  corporates: readonly CorporateOption[];
  initialCorporateId: number | null;
  onClose(): void;
  onPropose(body: ProposeProgrammeBody): Promise<void>;
}) {
  const [values, setValues] = useState({
    corporate_id: initialCorporateId ?? corporates[0]?.id ?? 0,
    limit: '',
    starts_on: '',
    ends_on: '',
  });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (field: keyof typeof values) => (value: string) =>
    setValues((before) => ({ ...before, [field]: field === 'corporate_id' ? Number(value) : value }));
  const submit = async () => {
    const found = fieldErrors(ProposeStruct, values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setFailure(null);
    try {
      await onPropose(values as ProposeProgrammeBody);
      onClose();
    } catch (error) {
      setFailure(errorText(error));
      setBusy(false);
    }
  };
  const field = (
    name: 'limit' | 'starts_on' | 'ends_on',
    label: string,
    type: string,
    placeholder?: string,
  ) => (
    <FormGroup
      label={label}
      labelFor={`programa-${name}`}
      intent={errors[name] ? 'danger' : 'none'}
      helperText={errors[name]?.[0]}
    >
      <InputGroup
        id={`programa-${name}`}
        type={type}
        placeholder={placeholder}
        value={values[name]}
        onValueChange={set(name)}
        intent={errors[name] ? 'danger' : 'none'}
        aria-invalid={errors[name] ? true : undefined}
      />
    </FormGroup>
  );
  return (
    <Dialog isOpen title={PROGRAMME_TEXTS.propose} onClose={onClose}>
      <DialogBody>
        {failure ? (
          <Callout intent="danger" role="alert">
            {failure}
          </Callout>
        ) : null}
        <FormGroup label="Corporativo" labelFor="programa-corporativo">
          <HTMLSelect
            id="programa-corporativo"
            fill
            value={values.corporate_id}
            onChange={(event) => set('corporate_id')(event.target.value)}
            options={corporates.map((corporate) => ({ value: corporate.id, label: corporate.name }))}
          />
        </FormGroup>
        {field('limit', 'Límite (MXN)', 'text', '1000000.00')}
        {field('starts_on', 'Fecha de inicio', 'date')}
        {field('ends_on', 'Fecha de fin', 'date')}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" onClick={onClose} />
            <Button intent="primary" text="Enviar a aprobación" loading={busy} onClick={submit} />
          </>
        }
      />
    </Dialog>
  );
}

function LedgerTable({ detail }: { detail: ProgrammeDetail }) {
  if (detail.ledger.length === 0) return <p>{PROGRAMME_TEXTS.ledgerEmpty}</p>;
  return (
    <HTMLTable compact striped aria-label="Movimientos del programa">
      <thead>
        <tr>
          <th scope="col">Fecha</th>
          <th scope="col">Factura</th>
          <th scope="col">Movimiento</th>
          <th scope="col">Monto</th>
          <th scope="col">Referencia</th>
        </tr>
      </thead>
      <tbody>
        {detail.ledger.map((entry) => (
          <tr key={entry.id}>
            <td>{displayDate(entry.at.slice(0, 10))}</td>
            <td>{entry.invoice_label}</td>
            <td>{LEDGER_LABELS[entry.kind]}</td>
            <td>{money(entry.amount)}</td>
            <td>{entry.reference ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

/** The advanced invoices whose corporate payment is still to be recorded, each with 'Registrar cobro'. */
function CollectibleTable({
  detail,
  canCollect,
  onCollect,
}: {
  detail: ProgrammeDetail;
  canCollect: boolean;
  onCollect(invoice: CollectibleInvoice): void;
}) {
  return (
    <>
      <h3>{PROGRAMME_TEXTS.collectibleTitle}</h3>
      {detail.collectible.length === 0 ? <p>{PROGRAMME_TEXTS.collectibleEmpty}</p> : null}
      {detail.collectible.length > 0 && !canCollect ? <p>{PROGRAMME_TEXTS.collectibleNotTreasury}</p> : null}
      {detail.collectible.length > 0 ? (
        <HTMLTable compact striped aria-label={PROGRAMME_TEXTS.collectibleTitle}>
          <thead>
            <tr>
              <th scope="col">Factura</th>
              <th scope="col">Proveedor</th>
              <th scope="col">Usado</th>
              {canCollect ? <th scope="col">Acción</th> : null}
            </tr>
          </thead>
          <tbody>
            {detail.collectible.map((invoice) => (
              <tr key={invoice.invoice_id}>
                <td>{invoice.invoice_label}</td>
                <td>{invoice.provider_name}</td>
                <td>{money(invoice.used)}</td>
                {canCollect ? (
                  <td>
                    <Button
                      small
                      intent="primary"
                      aria-label={`Registrar cobro de la factura ${invoice.invoice_label}`}
                      text="Registrar cobro"
                      onClick={() => onCollect(invoice)}
                    />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      ) : null}
    </>
  );
}

function DetailPanel({
  detail,
  canCollect,
  onCollect,
  onClose,
}: {
  detail: LoadState<ProgrammeDetail>;
  canCollect: boolean;
  onCollect(invoice: CollectibleInvoice): void;
  onClose(): void;
}) {
  return (
    <section className="programme-detail" aria-labelledby="programa-detalle-titulo">
      <div className="programme-detail-header">
        <h2 id="programa-detalle-titulo">
          {detail.status === 'success' ? detail.data.programme.corporate_name : 'Movimientos'}
        </h2>
        <Button text="Cerrar" onClick={onClose} />
      </div>
      {detail.status === 'pending' ? <Spinner aria-label="Cargando movimientos" size={24} /> : null}
      {detail.status === 'error' ? (
        <Callout intent="danger" role="alert">
          {PROGRAMME_TEXTS.detailFailed} {detail.message}
        </Callout>
      ) : null}
      {detail.status === 'success' ? (
        <>
          <CollectibleTable detail={detail.data} canCollect={canCollect} onCollect={onCollect} />
          <h3>Movimientos</h3>
          <LedgerTable detail={detail.data} />
          {detail.data.state_changes.length > 0 ? (
            <>
              <h3>Cambios de estado</h3>
              <ul>
                {detail.data.state_changes.map((change) => (
                  <li key={`${change.at}-${change.to_state}`}>
                    {displayDate(change.at.slice(0, 10))}: {change.from_state} → {change.to_state}
                    {change.reason ? ` (${change.reason})` : ''}
                    {change.actor_username ? `, ${change.actor_username}` : ''}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

export function ProgrammesPage(props: ProgrammesPageProps) {
  const { list, operator, actions } = props;
  const [proposing, setProposing] = useState<{ corporateId: number | null } | null>(null);
  const [reasonFor, setReasonFor] = useState<{ id: number; type: 'freeze' | 'unfreeze' } | null>(null);
  const [notice, setNotice] = useState<{ intent: 'success' | 'danger'; text: string } | null>(null);
  const [approving, setApproving] = useState<number | null>(null);
  const [collecting, setCollecting] = useState<CollectibleInvoice | null>(null);
  const canPropose = operator.roles.includes('analista') || operator.roles.includes('aprobador');

  const approve = async (programme: ProgrammeSummary) => {
    setApproving(programme.id);
    try {
      await actions.approve(programme.id);
      setNotice({ intent: 'success', text: `Límite de ${programme.corporate_name} aprobado.` });
    } catch (error) {
      setNotice({ intent: 'danger', text: errorText(error) });
    } finally {
      setApproving(null);
    }
  };

  const programmes = list.status === 'success' ? list.data : [];
  const pending = programmes.filter((programme) => programme.pending_proposal !== null);

  return (
    // The operator shell holds the page's <main>.
    <div className="programmes-page">
      <div className="programmes-header">
        <h1 id="programas-titulo">{PROGRAMME_TEXTS.title}</h1>
        {canPropose ? (
          <Button
            intent="primary"
            text={PROGRAMME_TEXTS.propose}
            disabled={props.corporates.length === 0}
            onClick={() => setProposing({ corporateId: null })}
          />
        ) : null}
      </div>
      <p>{PROGRAMME_TEXTS.intro}</p>
      <div aria-live="polite">
        {notice ? (
          <Callout intent={notice.intent} role={notice.intent === 'danger' ? 'alert' : 'status'}>
            {notice.text}
          </Callout>
        ) : null}
      </div>

      {list.status === 'pending' ? <Spinner aria-label={PROGRAMME_TEXTS.loading} /> : null}
      {list.status === 'error' ? (
        <NonIdealState
          title={PROGRAMME_TEXTS.loadFailed}
          description={list.message}
          action={<Button text={PROGRAMME_TEXTS.retry} onClick={props.onRetry} />}
        />
      ) : null}
      {list.status === 'success' && programmes.length === 0 ? (
        <NonIdealState title={PROGRAMME_TEXTS.empty} />
      ) : null}

      {list.status === 'success' && programmes.length > 0 ? (
        <>
          <section aria-labelledby="programas-pendientes">
            <h2 id="programas-pendientes">{PROGRAMME_TEXTS.pendingTitle}</h2>
            {pending.length === 0 ? <p>{PROGRAMME_TEXTS.noPending}</p> : null}
            {pending.length > 0 ? (
              <HTMLTable compact aria-label={PROGRAMME_TEXTS.pendingTitle}>
                <thead>
                  <tr>
                    <th scope="col">Corporativo</th>
                    <th scope="col">Límite propuesto</th>
                    <th scope="col">Vigencia</th>
                    <th scope="col">Propuso</th>
                    <th scope="col">Acción</th>
                  </tr>
                </thead>
                <tbody>
                  {pending.map((programme) => {
                    const proposal = programme.pending_proposal;
                    if (!proposal) return null;
                    const blocked = approveBlockedReason(programme, operator);
                    const button = (
                      <Button
                        intent="success"
                        text={PROGRAMME_TEXTS.approve}
                        disabled={blocked !== null}
                        aria-describedby={blocked ? `aprobar-motivo-${programme.id}` : undefined}
                        loading={approving === programme.id}
                        onClick={() => approve(programme)}
                      />
                    );
                    return (
                      <tr key={programme.id}>
                        <td>{programme.corporate_name}</td>
                        <td>{money(proposal.limit)}</td>
                        <td>
                          {displayDate(proposal.starts_on)} a {displayDate(proposal.ends_on)}
                        </td>
                        <td>{proposal.proposed_by_username}</td>
                        <td>
                          {blocked ? (
                            <>
                              <Tooltip content={blocked}>{button}</Tooltip>
                              <span id={`aprobar-motivo-${programme.id}`} className="programme-blocked">
                                {blocked}
                              </span>
                            </>
                          ) : (
                            button
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </HTMLTable>
            ) : null}
          </section>

          <section aria-labelledby="programas-lista">
            <h2 id="programas-lista">Programas</h2>
            <HTMLTable compact striped interactive aria-label="Programas de crédito">
              <thead>
                <tr>
                  <th scope="col">Corporativo</th>
                  <th scope="col">Estado</th>
                  <th scope="col">Límite</th>
                  <th scope="col">Reservado</th>
                  <th scope="col">Usado</th>
                  <th scope="col">Disponible</th>
                  <th scope="col">Utilización</th>
                  <th scope="col">Vigencia</th>
                  <th scope="col">Acciones</th>
                </tr>
              </thead>
              <tbody>
                {programmes.map((programme) => (
                  <tr key={programme.id} aria-selected={props.selectedId === programme.id}>
                    <td>{programme.corporate_name}</td>
                    <td>
                      <Tag intent={STATE_INTENTS[programme.state]} minimal>
                        {PROGRAMME_STATE_LABELS[programme.state]}
                      </Tag>
                    </td>
                    <td>{money(programme.limit)}</td>
                    <td>{money(programme.reserved)}</td>
                    <td>{money(programme.used)}</td>
                    <td>{money(programme.available)}</td>
                    <td>
                      <UtilisationBar programme={programme} />
                    </td>
                    <td>
                      {programme.starts_on && programme.ends_on
                        ? `${displayDate(programme.starts_on)} a ${displayDate(programme.ends_on)}`
                        : '—'}
                    </td>
                    <td className="programme-actions">
                      <Button
                        small
                        text={PROGRAMME_TEXTS.detail}
                        onClick={() => props.onSelect(programme.id)}
                      />
                      {canPropose && programme.pending_proposal === null ? (
                        <Button
                          small
                          text="Proponer aumento"
                          onClick={() => setProposing({ corporateId: programme.corporate_id })}
                        />
                      ) : null}
                      {accepts(programme, { type: 'programme.freeze', actor: operator, reason: '·' }) ? (
                        <Button
                          small
                          intent="warning"
                          text={PROGRAMME_TEXTS.freeze}
                          onClick={() => setReasonFor({ id: programme.id, type: 'freeze' })}
                        />
                      ) : null}
                      {accepts(programme, { type: 'programme.unfreeze', actor: operator, reason: '·' }) ? (
                        <Button
                          small
                          text={PROGRAMME_TEXTS.unfreeze}
                          onClick={() => setReasonFor({ id: programme.id, type: 'unfreeze' })}
                        />
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </section>
        </>
      ) : null}

      {props.detail && props.selectedId !== null ? (
        <DetailPanel
          detail={props.detail}
          canCollect={holdsAnyRole(operator.roles, COLLECTION_ROLES)}
          onCollect={setCollecting}
          onClose={() => props.onSelect(null)}
        />
      ) : null}

      {proposing ? (
        <ProposeDialog
          corporates={props.corporates}
          initialCorporateId={proposing.corporateId}
          onClose={() => setProposing(null)}
          onPropose={async (body) => {
            await actions.propose(body);
            setNotice({ intent: 'success', text: 'Límite enviado a aprobación.' });
          }}
        />
      ) : null}
      {collecting ? (
        <CollectionDialog
          invoice={collecting}
          onClose={() => setCollecting(null)}
          onRecord={async (body) => {
            const message = await actions.recordCollection(body);
            setNotice({ intent: 'success', text: message });
            return message;
          }}
        />
      ) : null}
      {reasonFor ? (
        <ReasonDialog
          title={reasonFor.type === 'freeze' ? PROGRAMME_TEXTS.freeze : PROGRAMME_TEXTS.unfreeze}
          onClose={() => setReasonFor(null)}
          onConfirm={async (reason) => {
            if (reasonFor.type === 'freeze') await actions.freeze(reasonFor.id, reason);
            else await actions.unfreeze(reasonFor.id, reason);
            setNotice({
              intent: 'success',
              text: reasonFor.type === 'freeze' ? 'Programa congelado.' : 'Programa descongelado.',
            });
          }}
        />
      ) : null}
    </div>
  );
}
