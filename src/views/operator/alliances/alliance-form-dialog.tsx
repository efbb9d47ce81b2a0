import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { annualRateProblem, maxRateFor } from '../../../domain/alliance-terms';
import { divideDecimal } from '../../../domain/money';
import { AllianceInput } from '../../../domain/schemas/operator-alliances';
import type { BackOfficeFailure } from '../../../machines/back-office-action';
import { structResolver } from '../../common/struct-resolver';
import { TextField } from '../../common/text-field';
import type { RemoteData } from '../list/back-office-list';

export const ALLIANCE_FORM_TITLE = 'Nueva alianza';
export const ALLIANCE_FORM_HELP =
  'Fija la tasa anual antes de IVA (base 360 días) que paga el proveedor por las facturas de este corporativo. ' +
  'Si ya hay una alianza con ese RFC, cambia su precio desde ahora; las cotizaciones ya guardadas conservan el suyo.';

export interface CorporateChoice {
  id: number;
  rfc: string;
  name: string;
}

export interface AllianceFormDialogProps {
  /** The `alliance-actions` machine is in its form (`editing`), sending it (`acting`) or lost its answer. */
  isOpen: boolean;
  corporates: RemoteData<readonly CorporateChoice[]>;
  /** Prefills the form to change an alliance's price (read when the dialog opens). */
  initial: Partial<AllianceInput> | null;
  /** The machine's `failure`: the server's messages per field (a 400) and its general text. */
  failure: BackOfficeFailure | null;
  /** The save is on its way (the machine's `busy` tag). */
  busy: boolean;
  /** The answer was lost: 'Reintentar' sends the same save again, with the same key. */
  answerLost: boolean;
  onSubmit(input: AllianceInput): void;
  onRetry(): void;
  onClose(): void;
}

/** The 'Nueva alianza' dialog: the same struct validates here and on the server. */
export function AllianceFormDialog({ isOpen, onClose, busy, ...form }: AllianceFormDialogProps) {
  return (
    <Dialog
      isOpen={isOpen}
      onClose={onClose}
      title={ALLIANCE_FORM_TITLE}
      style={{ width: 560 }}
      isCloseButtonShown={!busy}
      canEscapeKeyClose={!busy}
      canOutsideClickClose={!busy}
    >
      {/* Mounted with the dialog's content: each opening starts from `initial`. */}
      <AllianceForm {...form} busy={busy} onClose={onClose} />
    </Dialog>
  );
}

function AllianceForm({
  corporates,
  initial,
  failure,
  busy,
  answerLost,
  onSubmit,
  onRetry,
  onClose,
}: Omit<AllianceFormDialogProps, 'isOpen'>) {
  const formId = useId();
  const {
    register,
    handleSubmit,
    reset,
    watch,
    formState: { errors },
  } = useForm<AllianceInput>({
    resolver: structResolver(AllianceInput),
    mode: 'onSubmit',
  });
  // Each opening starts from the terms it opened with (the select takes its value once its options are there).
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once, when the dialog's content mounts
  useEffect(() => reset({ max_days: 90, ...initial } as AllianceInput), [reset]);

  const rate = watch('annual_rate');
  const preview =
    rate !== undefined && annualRateProblem(rate) === null ? divideDecimal(maxRateFor(rate), 1, 2) : null;
  // The form's own check first, else what the server said of the field.
  const errorOf = (field: keyof AllianceInput): string | undefined =>
    errors[field]?.message ?? failure?.fields[field]?.[0];

  const corporateError = errorOf('corporate_id');
  const ready = corporates.status === 'success';
  return (
    <form id={formId} noValidate onSubmit={handleSubmit(onSubmit)}>
      <DialogBody>
        <p>{ALLIANCE_FORM_HELP}</p>
        {failure?.message && (
          <Callout intent="danger" role="alert">
            {failure.message}
            {answerLost && (
              <>
                {' '}
                <Button intent="primary" text="Reintentar" onClick={onRetry} />
              </>
            )}
          </Callout>
        )}
        <FormGroup
          label="Corporativo"
          labelFor={`${formId}-corporativo`}
          intent={corporateError ? 'danger' : 'none'}
          helperText={
            corporateError ? <span id={`${formId}-corporativo-mensaje`}>{corporateError}</span> : undefined
          }
        >
          <HTMLSelect
            id={`${formId}-corporativo`}
            fill
            disabled={!ready}
            aria-invalid={corporateError ? true : undefined}
            aria-describedby={corporateError ? `${formId}-corporativo-mensaje` : undefined}
            {...register('corporate_id', { valueAsNumber: true })}
          >
            <option value="">
              {corporates.status === 'pending'
                ? 'Cargando corporativos…'
                : corporates.status === 'error'
                  ? 'No pudimos cargar los corporativos'
                  : 'Elige un corporativo'}
            </option>
            {(corporates.data ?? []).map((corporate) => (
              <option key={corporate.id} value={corporate.id}>
                {corporate.name} ({corporate.rfc})
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <TextField
          id={`${formId}-rfc`}
          label="RFC del proveedor"
          required
          error={errorOf('provider_rfc')}
          registration={register('provider_rfc')}
        />
        <TextField
          id={`${formId}-tasa`}
          label="Tasa anual antes de IVA (%)"
          required
          error={errorOf('annual_rate')}
          registration={register('annual_rate')}
        />
        <p aria-live="polite" className="flujo-alliance-form__preview">
          {preview === null ? 'Tasa + IVA: —' : `Tasa + IVA: ${preview} %`}
        </p>
        <TextField
          id={`${formId}-dias`}
          label="Días máximos hasta la fecha de pago"
          type="number"
          required
          error={errorOf('max_days')}
          registration={register('max_days', { valueAsNumber: true })}
        />
        <TextField
          id={`${formId}-monto`}
          label="Monto máximo por factura (MXN, opcional)"
          error={errorOf('max_amount')}
          registration={register('max_amount', {
            setValueAs: (value: string) => (value === '' ? undefined : value),
          })}
        />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" onClick={onClose} disabled={busy} />
            <Button
              type="submit"
              intent="primary"
              text="Guardar alianza"
              loading={busy}
              disabled={answerLost}
            />
          </>
        }
      />
    </form>
  );
}
