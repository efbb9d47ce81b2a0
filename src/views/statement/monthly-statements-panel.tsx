import { Button, Callout, Card, Classes, H2, HTMLTable, ProgressBar, Spinner } from '@blueprintjs/core';
import { DownloadIcon } from '@blueprintjs/icons';
import { useMachine } from '@xstate/react';
import { useRef, useState } from 'react';
import { formatMxn, parseMoney } from '../../domain/money';
import {
  MONTHLY_STATEMENT_DEADLINE_DAY,
  MONTHLY_STATEMENTS_TITLE,
  type MonthlyStatementFile,
  type MonthlyStatementFormat,
  monthlyStatementFileName,
} from '../../domain/monthly-statements';
import type { MonthlyStatementItem } from '../../domain/schemas/monthly-statements';
import type { invoiceDownloadMachine } from '../../machines/invoice-download.machine';
import type { Role } from '../../stores/user.store';
import './monthly-statements-panel.css';

export const MONTHLY_STATEMENTS_EMPTY_TEXT =
  'Aún no tienes estados de cuenta mensuales: el primero se genera el mes siguiente a tu primer movimiento.';
export const MONTHLY_STATEMENTS_ERROR_TEXT =
  'No pudimos cargar tus estados de cuenta mensuales. Por favor, intenta de nuevo más tarde.';
export const MONTHLY_PREPARING_TEXT = 'Descargando el estado de cuenta…';
const FORMAT_LABELS: Record<MonthlyStatementFormat, string> = { pdf: 'PDF', xlsx: 'XLSX' };

export interface MonthlyStatementsState {
  months: readonly MonthlyStatementItem[] | undefined;
  isPending: boolean;
  isError: boolean;
}

export interface MonthlyStatementsPanelProps {
  role: Role;
  state: MonthlyStatementsState;
  /** The download machine wired to the month's file (src/routes/-statement-machines.ts), reading `file()`. */
  machineFor: (file: () => MonthlyStatementFile) => typeof invoiceDownloadMachine;
}

/**
 * 'Estados de cuenta mensuales' (issue 34, decision 0071): the months Flujo produced for the company (by day 10
 * of the next month, LIVA art. 1-C), each with its closing balance and its PDF and XLSX downloads; the download
 * machine's progress, error and done notices below.
 */
export function MonthlyStatementsPanel({ role, state, machineFor }: MonthlyStatementsPanelProps) {
  const target = useRef<MonthlyStatementFile>({ month: '', format: 'pdf' });
  const [machine] = useState(() => machineFor(() => target.current));
  const [download, send] = useMachine(machine);
  const busy = download.hasTag('busy');
  const start = (file: MonthlyStatementFile) => {
    target.current = file;
    send({ type: 'download.start', invoiceIds: [] });
  };
  const months = state.months ?? [];

  return (
    <section aria-labelledby="edo-mensual-titulo" className="flujo-monthly-statements">
      <Card>
        <H2 id="edo-mensual-titulo" className="flujo-monthly-statements-title">
          {MONTHLY_STATEMENTS_TITLE}
        </H2>
        <p className="flujo-monthly-statements-help">
          Cada mes, a más tardar el día {MONTHLY_STATEMENT_DEADLINE_DAY}, Flujo genera el estado de cuenta del
          mes anterior {role === 'provider' ? 'de tus facturas cedidas' : 'de tus facturas adelantadas'}:
          movimientos, saldo inicial y final en pesos y el CFDI de las comisiones de Flujo. Te avisamos por
          correo.
        </p>
        {state.isPending ? (
          <Spinner size={20} aria-label="Cargando estados de cuenta mensuales" />
        ) : state.isError ? (
          <Callout intent="danger" compact role="alert">
            {MONTHLY_STATEMENTS_ERROR_TEXT}
          </Callout>
        ) : months.length === 0 ? (
          <p className={Classes.TEXT_MUTED}>{MONTHLY_STATEMENTS_EMPTY_TEXT}</p>
        ) : (
          <HTMLTable compact striped className="flujo-monthly-statements-table">
            <caption className="flujo-visually-hidden">{MONTHLY_STATEMENTS_TITLE}</caption>
            <thead>
              <tr>
                <th scope="col">Mes</th>
                <th scope="col" className="flujo-cell-amount">
                  Saldo final
                </th>
                <th scope="col" className="flujo-monthly-statements-count">
                  Movimientos
                </th>
                <th scope="col">Descargar</th>
              </tr>
            </thead>
            <tbody>
              {months.map((item) => (
                <tr key={item.month}>
                  <td className="flujo-monthly-statements-month">{item.label}</td>
                  <td className="flujo-cell-amount">{formatMxn(parseMoney(item.closing))}</td>
                  <td className="flujo-monthly-statements-count">{item.movements}</td>
                  <td>
                    <div className="flujo-monthly-statements-buttons">
                      {item.formats.map((format) => (
                        <Button
                          key={format}
                          size="small"
                          variant="outlined"
                          icon={<DownloadIcon />}
                          text={FORMAT_LABELS[format]}
                          aria-label={`Descargar ${monthlyStatementFileName(item.month, format)}`}
                          disabled={busy}
                          loading={
                            busy && target.current.month === item.month && target.current.format === format
                          }
                          onClick={() => start({ month: item.month, format })}
                        />
                      ))}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
        <div aria-live="polite">
          {busy && (
            <div className="flujo-monthly-statements-progress">
              <span>{MONTHLY_PREPARING_TEXT}</span>
              <ProgressBar
                value={download.context.progress ?? undefined}
                intent="primary"
                aria-label={MONTHLY_PREPARING_TEXT}
              />
            </div>
          )}
          {download.matches({ ready: 'done' }) && (
            <Callout intent="success" compact>
              Se descargó {monthlyStatementFileName(target.current.month, target.current.format)}.
            </Callout>
          )}
          {download.matches({ ready: 'failed' }) && (
            <Callout intent="danger" compact role="alert">
              {download.context.error}{' '}
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
