import { Button, Callout, Classes, H1, HTMLSelect, Spinner, Tag } from '@blueprintjs/core';
import { Add, History } from '@blueprintjs/icons';
import type { SnapshotFrom } from 'xstate';
import { ALLIANCE_STATE_LABELS, ALLIANCE_STATES, type AllianceState } from '../../../domain/alliance-terms';
import { displayDateTime } from '../../../domain/calendar-date';
import { efosStandingText, isBlockingSituation } from '../../../domain/efos';
import { divideDecimal, formatMxn, parseMoney } from '../../../domain/money';
import { PAGE_SIZE } from '../../../domain/schemas/invoices';
import type {
  AllianceInput,
  OperatorAlliance,
  OperatorAllianceDetail,
  OperatorAlliancePage,
} from '../../../domain/schemas/operator-alliances';
import { ALLIANCE_ACTIONS, type allianceActionsMachine } from '../../../machines/alliance-actions.machine';
import type { BackOfficeActionEvent } from '../../../machines/back-office-action';
import { SidePanel } from '../../invoices/side-panel';
import { gestureOutcome, OutcomeCallout } from '../list/action-notices';
import { type BackOfficeColumn, BackOfficeList, loadedList, type RemoteData } from '../list/back-office-list';
import { AllianceFormDialog, type CorporateChoice } from './alliance-form-dialog';
import './operator-lists.css';

export const ALLIANCES_TITLE = 'Alianzas';
export const ALLIANCES_EMPTY = 'Aún no hay alianzas con estos filtros.';
export const ALLIANCES_FAILED = 'No pudimos cargar las alianzas.';
export const HISTORY_TITLE = 'Historial de precios';
/** The notice after a save (the `alliance-actions` machine's outcome): which alliance now has the typed price. */
export const allianceSaved = (alliance: Pick<OperatorAlliance, 'provider_rfc' | 'corporate_name'>) =>
  `Alianza guardada: ${alliance.provider_rfc} con ${alliance.corporate_name}.`;

export interface AllianceFilters {
  status: AllianceState | undefined;
  corporate: number | undefined;
  page: number;
}

/** The route's `alliance-actions` machine: its snapshot, rendered, and its `send`. */
export interface AllianceActions {
  snapshot: SnapshotFrom<typeof allianceActionsMachine>;
  send(event: BackOfficeActionEvent): void;
}

export interface AlliancesPageProps {
  list: RemoteData<OperatorAlliancePage>;
  filters: AllianceFilters;
  onFiltersChange: (filters: AllianceFilters) => void;
  corporates: RemoteData<readonly CorporateChoice[]>;
  actions: AllianceActions;
  history: {
    openId: number | null;
    detail: RemoteData<OperatorAllianceDetail>;
    onOpen: (id: number) => void;
    onClose: () => void;
  };
}

const STATE_INTENT: Record<AllianceState, 'success' | 'warning' | 'none'> = {
  activa: 'success',
  pendiente: 'warning',
  inactiva: 'none',
};

const percent = (value: string | null) => (value === null ? '—' : `${divideDecimal(value, 1, 2)} %`);

type AlliancePriceRow = OperatorAllianceDetail['prices'][number];

/** An alliance's price history, newest first. */
const PRICE_COLUMNS: readonly BackOfficeColumn<AlliancePriceRow>[] = [
  {
    id: 'from',
    header: 'Desde',
    cell: (price) => <time dateTime={price.effective_from}>{displayDateTime(price.effective_from)}</time>,
  },
  {
    id: 'rate',
    header: 'Tasa anual',
    cell: (price) => percent(price.annual_rate === '' ? null : price.annual_rate),
  },
  { id: 'max-rate', header: 'Tasa + IVA', cell: (price) => percent(price.max_rate) },
  { id: 'max-days', header: 'Máx. días', cell: (price) => price.max_days ?? '—' },
  { id: 'set-by', header: 'Fijó', cell: (price) => price.set_by ?? '—' },
];
const money = (value: string | null) => (value === null ? 'Sin tope' : formatMxn(parseMoney(value)));
const allianceName = (alliance: OperatorAlliance) =>
  `${alliance.provider_rfc} con ${alliance.corporate_name}`;

/** The form prefilled with an alliance's current terms, to change its price. */
const termsOf = (alliance: OperatorAlliance): Partial<AllianceInput> => ({
  corporate_id: alliance.corporate_id,
  provider_rfc: alliance.provider_rfc,
  ...(alliance.annual_rate === null ? {} : { annual_rate: alliance.annual_rate }),
  ...(alliance.max_days === null ? {} : { max_days: alliance.max_days }),
  ...(alliance.max_amount === null ? {} : { max_amount: alliance.max_amount }),
});

const ALLIANCE_COLUMNS: readonly BackOfficeColumn<OperatorAlliance>[] = [
  { id: 'corporate', header: 'Corporativo', cell: (alliance) => alliance.corporate_name },
  {
    id: 'provider',
    header: 'Proveedor',
    cell: (alliance) =>
      alliance.provider_name ?? <span className={Classes.TEXT_MUTED}>Aún no está en Flujo</span>,
  },
  {
    id: 'rfc',
    header: 'RFC',
    cell: (alliance) => (
      <>
        {alliance.provider_rfc}
        {isBlockingSituation(alliance.provider_efos.situation) && (
          <>
            {' '}
            <Tag intent="danger" minimal title={efosStandingText(alliance.provider_efos)}>
              69-B: {alliance.provider_efos.situation}
            </Tag>
          </>
        )}
      </>
    ),
  },
  { id: 'rate', header: 'Tasa anual', cell: (alliance) => percent(alliance.annual_rate) },
  { id: 'max-rate', header: 'Tasa + IVA', cell: (alliance) => percent(alliance.max_rate) },
  { id: 'days', header: 'Máx. días', cell: (alliance) => alliance.max_days ?? '—' },
  { id: 'amount', header: 'Monto máximo', cell: (alliance) => money(alliance.max_amount) },
  {
    id: 'state',
    header: 'Estado',
    cell: (alliance) => (
      <Tag intent={STATE_INTENT[alliance.state]} minimal>
        {ALLIANCE_STATE_LABELS[alliance.state]}
      </Tag>
    ),
  },
];

/** /operacion/alianzas/: every alliance with its current price, a form to set one and each one's history. */
export function AlliancesPage({
  list,
  filters,
  onFiltersChange,
  corporates,
  actions: { snapshot, send },
  history,
}: AlliancesPageProps) {
  const { intent, failure } = snapshot.context;
  const repriced =
    intent?.action === ALLIANCE_ACTIONS.reprice
      ? list.data?.results.find((alliance) => alliance.id === intent.id)
      : undefined;

  return (
    <section className="flujo-operator-page" aria-labelledby="alianzas-titulo">
      <header className="flujo-operator-page__header">
        <H1 id="alianzas-titulo">{ALLIANCES_TITLE}</H1>
        <Button
          intent="primary"
          icon={<Add />}
          text="Nueva alianza"
          onClick={() =>
            send({
              type: 'action.open',
              intent: { action: ALLIANCE_ACTIONS.create, id: null, label: ALLIANCES_TITLE, input: null },
            })
          }
        />
      </header>
      <div className="flujo-operator-page__filters">
        <label htmlFor="alianzas-estado">Estado</label>{' '}
        <HTMLSelect
          id="alianzas-estado"
          value={filters.status ?? ''}
          onChange={(event) => {
            const value = ALLIANCE_STATES.find((state) => state === event.currentTarget.value);
            onFiltersChange({ ...filters, status: value, page: 1 });
          }}
        >
          <option value="">Todas</option>
          {ALLIANCE_STATES.map((state) => (
            <option key={state} value={state}>
              {ALLIANCE_STATE_LABELS[state]}
            </option>
          ))}
        </HTMLSelect>{' '}
        <label htmlFor="alianzas-corporativo">Corporativo</label>{' '}
        <HTMLSelect
          id="alianzas-corporativo"
          value={filters.corporate ?? ''}
          onChange={(event) => {
            const id = Number(event.currentTarget.value);
            onFiltersChange({ ...filters, corporate: id > 0 ? id : undefined, page: 1 });
          }}
        >
          <option value="">Todos</option>
          {(corporates.data ?? []).map((corporate) => (
            <option key={corporate.id} value={corporate.id}>
              {corporate.name}
            </option>
          ))}
        </HTMLSelect>
      </div>

      <OutcomeCallout
        outcome={gestureOutcome(snapshot)}
        onDismiss={() => send({ type: 'outcome.dismiss' })}
      />

      <BackOfficeList
        label={ALLIANCES_TITLE}
        // Nine columns and the row's actions: cards below 1100 px, as the desk and the programmes.
        cardsBelow={1100}
        remote={list}
        columns={ALLIANCE_COLUMNS}
        rowKey={(alliance) => alliance.id}
        rowActions={(alliance) => (
          <>
            <Button
              variant="minimal"
              size="small"
              icon={<History />}
              text="Historial"
              aria-label={`Historial de precios de ${allianceName(alliance)}`}
              onClick={() => history.onOpen(alliance.id)}
            />
            <Button
              variant="minimal"
              size="small"
              text="Cambiar precio"
              aria-label={`Cambiar precio de ${allianceName(alliance)}`}
              onClick={() =>
                send({
                  type: 'action.open',
                  intent: {
                    action: ALLIANCE_ACTIONS.reprice,
                    id: alliance.id,
                    label: allianceName(alliance),
                    input: null,
                  },
                })
              }
            />
          </>
        )}
        loading="Cargando alianzas…"
        failed={ALLIANCES_FAILED}
        empty={{ title: ALLIANCES_EMPTY }}
        paging={{
          label: 'Páginas de alianzas',
          page: filters.page,
          pageSize: PAGE_SIZE,
          noun: ['alianza', 'alianzas'],
          onPage: (page) => onFiltersChange({ ...filters, page }),
        }}
      />

      <AllianceFormDialog
        isOpen={snapshot.matches('editing') || snapshot.matches('acting') || snapshot.matches('answerLost')}
        initial={repriced ? termsOf(repriced) : null}
        corporates={corporates}
        failure={failure}
        busy={snapshot.hasTag('busy')}
        answerLost={snapshot.matches('answerLost')}
        onSubmit={(input) => send({ type: 'action.submit', input })}
        onRetry={() => send({ type: 'action.retry' })}
        onClose={() => send({ type: 'action.cancel' })}
      />
      <PriceHistoryPanel {...history} />
    </section>
  );
}

/** The right-side panel with every price the alliance had, newest first. */
function PriceHistoryPanel({ openId, detail: remote, onClose }: AlliancesPageProps['history']) {
  const detail = remote.data;
  return (
    <SidePanel
      title={HISTORY_TITLE}
      isOpen={openId !== null}
      busy={false}
      onClose={onClose}
      size="min(520px, 100vw)"
      footer={<Button text="Cerrar" onClick={onClose} />}
    >
      {remote.status === 'pending' && <Spinner aria-label="Cargando historial…" />}
      {remote.status === 'error' && (
        <Callout intent="danger" role="alert">
          <p>No pudimos cargar el historial.</p>
          <Button intent="primary" text="Reintentar" onClick={remote.retry} />
        </Callout>
      )}
      {remote.status === 'success' && detail && (
        <>
          <p className={Classes.TEXT_MUTED}>
            {detail.corporate_name} · {detail.provider_name ?? detail.provider_rfc} ·{' '}
            {ALLIANCE_STATE_LABELS[detail.state]}
          </p>
          <p>Lista 69-B del SAT: {efosStandingText(detail.provider_efos)}</p>
          <BackOfficeList
            label="Precios"
            remote={loadedList(detail.prices, remote.retry)}
            columns={PRICE_COLUMNS}
            rowKey={(price) => `${price.effective_from}-${price.max_rate}`}
            loading="Cargando historial…"
            failed="No pudimos cargar el historial."
            empty={{ title: 'Esta alianza aún no tiene precios fijados por operaciones.' }}
            className="bp6-compact"
          />
        </>
      )}
    </SidePanel>
  );
}
