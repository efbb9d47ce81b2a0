import { Button, Callout, Card, FormGroup, H2, InputGroup, ProgressBar } from '@blueprintjs/core';
import { DownloadIcon } from '@blueprintjs/icons';
import { useMachine } from '@xstate/react';
import dayjs from 'dayjs';
import { useRef, useState } from 'react';
import { auditTrailEmptyMessage, MAX_AUDIT_RANGE_DAYS } from '../../domain/audit-trail';
import { ISO_DATE_FORMAT, type IsoDate } from '../../domain/calendar-date';
import { AuditTrailQuery } from '../../domain/schemas/audit-trail';
import { fieldErrors } from '../../domain/schemas/validate';
import type { invoiceDownloadMachine } from '../../machines/invoice-download.machine';
import type { Role } from '../../stores/user.store';
import './audit-trail-export-panel.css';

export const AUDIT_PANEL_TITLE = 'Bitácora de auditoría';
export const AUDIT_DOWNLOAD_TEXT = 'Descargar XLSX';
export const AUDIT_PREPARING_TEXT = 'Preparando la bitácora…';
/** The range the panel opens with: the last 30 days, today included. */
const DEFAULT_DAYS = 30;

export interface AuditRangeInput {
  from: IsoDate;
  to: IsoDate;
}

export interface AuditTrailExportPanelProps {
  accountRole: Role;
  /** The download machine wired to the role's export (src/routes/-audit-trail-machines.ts), reading `range()`. */
  machineFor: (range: () => AuditRangeInput) => typeof invoiceDownloadMachine;
  /** Today's date ('YYYY-MM-DD'); tests pass a fixed one. */
  today?: IsoDate;
}

/**
 * 'Bitácora de auditoría': every status change of the company's invoices (issued for a provider, received for a
 * corporate) in a date range, as an XLSX with each row's hash of the audit chain (decision 0044). Native date
 * inputs (keyboard and screen-reader friendly), the server's own range rules shown under each field, the
 * download machine's progress, error and done notices; a range without events says so and downloads nothing.
 */
export function AuditTrailExportPanel({ accountRole, machineFor, today }: AuditTrailExportPanelProps) {
  const end = today ?? dayjs().format(ISO_DATE_FORMAT);
  const [range, setRange] = useState<AuditRangeInput>(() => ({
    from: dayjs(end)
      .subtract(DEFAULT_DAYS - 1, 'day')
      .format(ISO_DATE_FORMAT),
    to: end,
  }));
  const current = useRef(range);
  current.current = range;
  const [machine] = useState(() => machineFor(() => current.current));
  const [state, send] = useMachine(machine);
  const errors = fieldErrors(AuditTrailQuery, range);
  const busy = state.hasTag('busy');
  const progress = state.context.progress;
  const empty = state.context.error === auditTrailEmptyMessage(range.from, range.to);
  const field = (name: 'from' | 'to', label: string) => (
    <FormGroup
      label={label}
      labelFor={`bitacora-${name}`}
      intent={errors[name] ? 'danger' : 'none'}
      helperText={errors[name]?.[0]}
    >
      <InputGroup
        id={`bitacora-${name}`}
        type="date"
        value={range[name]}
        max={end}
        intent={errors[name] ? 'danger' : 'none'}
        aria-invalid={errors[name] ? true : undefined}
        onChange={(event) => {
          const value = event.target.value;
          setRange((previous) => ({ ...previous, [name]: value }));
        }}
      />
    </FormGroup>
  );

  return (
    <section aria-labelledby="bitacora-titulo" className="flujo-audit-export">
      <Card>
        <H2 id="bitacora-titulo" className="flujo-audit-export-title">
          {AUDIT_PANEL_TITLE}
        </H2>
        <p className="flujo-audit-export-help">
          Descarga cada cambio de estado de las facturas que{' '}
          {accountRole === 'provider' ? 'emitiste' : 'recibiste'}: quién lo hizo, cuándo, el motivo y el hash
          que lo encadena a la bitácora. Hasta {MAX_AUDIT_RANGE_DAYS} días por archivo.
        </p>
        <div className="flujo-audit-export-fields">
          {field('from', 'Desde')}
          {field('to', 'Hasta')}
          <Button
            intent="primary"
            icon={<DownloadIcon />}
            text={AUDIT_DOWNLOAD_TEXT}
            loading={busy}
            disabled={busy || Object.keys(errors).length > 0}
            onClick={() => send({ type: 'download.start', invoiceIds: [] })}
          />
        </div>
        <div aria-live="polite">
          {busy && (
            <div className="flujo-audit-export-progress">
              <span>{AUDIT_PREPARING_TEXT}</span>
              <ProgressBar value={progress ?? undefined} intent="primary" aria-label={AUDIT_PREPARING_TEXT} />
            </div>
          )}
          {state.matches({ ready: 'done' }) && (
            <Callout intent="success" compact>
              Se descargó la bitácora del {range.from} al {range.to}.
            </Callout>
          )}
          {state.matches({ ready: 'failed' }) && (
            <Callout intent={empty ? 'primary' : 'danger'} compact role={empty ? undefined : 'alert'}>
              {state.context.error}{' '}
              <Button
                variant="minimal"
                size="small"
                text="Cerrar"
                onClick={() => send({ type: 'notice.dismiss' })}
              />
            </Callout>
          )}
        </div>
      </Card>
    </section>
  );
}
