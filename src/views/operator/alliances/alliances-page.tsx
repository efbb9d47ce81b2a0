import {
  Button,
  Callout,
  Classes,
  H1,
  HTMLSelect,
  HTMLTable,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { Add, History } from '@blueprintjs/icons';
import { useState } from 'react';
import { ALLIANCE_STATE_LABELS, ALLIANCE_STATES, type AllianceState } from '../../../domain/alliance-terms';
import { divideDecimal, formatCurrency, parseMoney } from '../../../domain/money';
import type {
  AllianceInput,
  OperatorAlliance,
  OperatorAllianceDetail,
  OperatorAlliancePage,
} from '../../../domain/schemas/operator-alliances';
import { formatDisplayDateTime } from '../../invoices/invoice-format';
import { SidePanel } from '../../invoices/side-panel';
import { AllianceFormDialog, type CorporateChoice, type SaveOutcome } from './alliance-form-dialog';
import './operator-lists.css';
import { efosStandingText, isBlockingSituation } from '../../../domain/efos';

export const ALLIANCES_TITLE = 'Alianzas';
export const ALLIANCES_EMPTY = 'Aún no hay alianzas con estos filtros.';
export const ALLIANCES_FAILED = 'No pudimos cargar las alianzas.';
export const HISTORY_TITLE = 'Historial de precios';
const PAGE_SIZE = 25;

type LoadState = 'loading' | 'error' | 'ready';

export interface AllianceFilters {
  status: AllianceState | undefined;
  corporate: number | undefined;
  page: number;
}

export interface AlliancesPageProps {
  list: { state: LoadState; page: OperatorAlliancePage | undefined; onRetry: () => void };
  filters: AllianceFilters;
  onFiltersChange: (filters: AllianceFilters) => void;
  corporates: { state: LoadState; options: readonly CorporateChoice[] };
  onSave: (input: AllianceInput) => Promise<SaveOutcome>;
  history: {
    openId: number | null;
    state: LoadState;
    detail: OperatorAllianceDetail | undefined;
    onOpen: (id: number) => void;
    onClose: () => void;
    onRetry: () => void;
  };
}

const STATE_INTENT: Record<AllianceState, 'success' | 'warning' | 'none'> = {
  activa: 'success',
  pendiente: 'warning',
  inactiva: 'none',
};

const percent = (value: string | null) => (value === null ? '—' : `${divideDecimal(value, 1, 2)} %`);
const money = (value: string | null) =>
  value === null ? 'Sin tope' : formatCurrency(parseMoney(value), 'MXN');

/** /operacion/alianzas/: every alliance with its current price, a form to set one and each one's history. */
export function AlliancesPage({
  list,
  filters,
  onFiltersChange,
  corporates,
  onSave,
  history,
}: AlliancesPageProps) {
  const [form, setForm] = useState<{ open: boolean; initial: Partial<AllianceInput> | null }>({
    open: false,
    initial: null,
  });
  const page = list.page;
  const lastPage = page ? Math.max(1, Math.ceil(page.count / PAGE_SIZE)) : 1;

  return (
    <section className="flujo-operator-page" aria-labelledby="alianzas-titulo">
      <header className="flujo-operator-page__header">
        <H1 id="alianzas-titulo">{ALLIANCES_TITLE}</H1>
        <Button
          intent="primary"
          icon={<Add />}
          text="Nueva alianza"
          onClick={() => setForm({ open: true, initial: null })}
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
          {corporates.options.map((corporate) => (
            <option key={corporate.id} value={corporate.id}>
              {corporate.name}
            </option>
          ))}
        </HTMLSelect>
      </div>

      {list.state === 'loading' && <Spinner aria-label="Cargando alianzas…" />}
      {list.state === 'error' && (
        <Callout intent="danger" role="alert">
          <p>{ALLIANCES_FAILED}</p>
          <Button intent="primary" text="Reintentar" onClick={list.onRetry} />
        </Callout>
      )}
      {list.state === 'ready' && page && page.results.length === 0 && (
        <NonIdealState title={ALLIANCES_EMPTY} />
      )}
      {list.state === 'ready' && page && page.results.length > 0 && (
        <>
          <HTMLTable striped className="flujo-operator-table" aria-labelledby="alianzas-titulo">
            <thead>
              <tr>
                <th scope="col">Corporativo</th>
                <th scope="col">Proveedor</th>
                <th scope="col">RFC</th>
                <th scope="col">Tasa anual</th>
                <th scope="col">Tasa + IVA</th>
                <th scope="col">Máx. días</th>
                <th scope="col">Monto máximo</th>
                <th scope="col">Estado</th>
                <th scope="col">
                  <span className={Classes.TEXT_MUTED}>Acciones</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.results.map((alliance) => (
                <AllianceRow
                  key={alliance.id}
                  alliance={alliance}
                  onHistory={() => history.onOpen(alliance.id)}
                  onReprice={() =>
                    setForm({
                      open: true,
                      initial: {
                        corporate_id: alliance.corporate_id,
                        provider_rfc: alliance.provider_rfc,
                        ...(alliance.annual_rate === null ? {} : { annual_rate: alliance.annual_rate }),
                        ...(alliance.max_days === null ? {} : { max_days: alliance.max_days }),
                        ...(alliance.max_amount === null ? {} : { max_amount: alliance.max_amount }),
                      },
                    })
                  }
                />
              ))}
            </tbody>
          </HTMLTable>
          <nav className="flujo-operator-page__pager" aria-label="Páginas de alianzas">
            <Button
              text="Anterior"
              disabled={filters.page <= 1}
              onClick={() => onFiltersChange({ ...filters, page: filters.page - 1 })}
            />
            <span>
              Página {filters.page} de {lastPage} · {page.count} alianzas
            </span>
            <Button
              text="Siguiente"
              disabled={filters.page >= lastPage}
              onClick={() => onFiltersChange({ ...filters, page: filters.page + 1 })}
            />
          </nav>
        </>
      )}

      <AllianceFormDialog
        isOpen={form.open}
        initial={form.initial}
        corporates={corporates}
        onSave={onSave}
        onClose={() => setForm({ open: false, initial: null })}
      />
      <PriceHistoryPanel {...history} />
    </section>
  );
}

function AllianceRow({
  alliance,
  onHistory,
  onReprice,
}: {
  alliance: OperatorAlliance;
  onHistory: () => void;
  onReprice: () => void;
}) {
  return (
    <tr>
      <td>{alliance.corporate_name}</td>
      <td>{alliance.provider_name ?? <span className={Classes.TEXT_MUTED}>Aún no está en Flujo</span>}</td>
      <td>
        {alliance.provider_rfc}
        {isBlockingSituation(alliance.provider_efos.situation) && (
          <>
            {' '}
            <Tag intent="danger" minimal title={efosStandingText(alliance.provider_efos)}>
              69-B: {alliance.provider_efos.situation}
            </Tag>
          </>
        )}
      </td>
      <td>{percent(alliance.annual_rate)}</td>
      <td>{percent(alliance.max_rate)}</td>
      <td>{alliance.max_days ?? '—'}</td>
      <td>{money(alliance.max_amount)}</td>
      <td>
        <Tag intent={STATE_INTENT[alliance.state]} minimal>
          {ALLIANCE_STATE_LABELS[alliance.state]}
        </Tag>
      </td>
      <td>
        <Button
          variant="minimal"
          size="small"
          icon={<History />}
          text="Historial"
          aria-label={`Historial de precios de ${alliance.provider_rfc} con ${alliance.corporate_name}`}
          onClick={onHistory}
        />
        <Button
          variant="minimal"
          size="small"
          text="Cambiar precio"
          aria-label={`Cambiar precio de ${alliance.provider_rfc} con ${alliance.corporate_name}`}
          onClick={onReprice}
        />
      </td>
    </tr>
  );
}

/** The right-side panel with every price the alliance had, newest first. */
function PriceHistoryPanel({ openId, state, detail, onClose, onRetry }: AlliancesPageProps['history']) {
  return (
    <SidePanel
      title={HISTORY_TITLE}
      isOpen={openId !== null}
      busy={false}
      onClose={onClose}
      size="min(520px, 100vw)"
      footer={<Button text="Cerrar" onClick={onClose} />}
    >
      {state === 'loading' && <Spinner aria-label="Cargando historial…" />}
      {state === 'error' && (
        <Callout intent="danger" role="alert">
          <p>No pudimos cargar el historial.</p>
          <Button intent="primary" text="Reintentar" onClick={onRetry} />
        </Callout>
      )}
      {state === 'ready' && detail && (
        <>
          <p className={Classes.TEXT_MUTED}>
            {detail.corporate_name} · {detail.provider_name ?? detail.provider_rfc} ·{' '}
            {ALLIANCE_STATE_LABELS[detail.state]}
          </p>
          <p>Lista 69-B del SAT: {efosStandingText(detail.provider_efos)}</p>
          {detail.prices.length === 0 ? (
            <NonIdealState title="Esta alianza aún no tiene precios fijados por operaciones." />
          ) : (
            <HTMLTable compact aria-label="Precios">
              <thead>
                <tr>
                  <th scope="col">Desde</th>
                  <th scope="col">Tasa anual</th>
                  <th scope="col">Tasa + IVA</th>
                  <th scope="col">Máx. días</th>
                  <th scope="col">Fijó</th>
                </tr>
              </thead>
              <tbody>
                {detail.prices.map((price) => (
                  <tr key={`${price.effective_from}-${price.max_rate}`}>
                    <td>
                      <time dateTime={price.effective_from}>
                        {formatDisplayDateTime(price.effective_from)}
                      </time>
                    </td>
                    <td>{percent(price.annual_rate === '' ? null : price.annual_rate)}</td>
                    <td>{percent(price.max_rate)}</td>
                    <td>{price.max_days ?? '—'}</td>
                    <td>{price.set_by ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          )}
        </>
      )}
    </SidePanel>
  );
}
