import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { annualRateProblem, maxRateFor } from '../../../domain/alliance-terms';
import { divideDecimal } from '../../../domain/money';
import { AllianceInput } from '../../../domain/schemas/operator-alliances';
import { structResolver } from '../../common/struct-resolver';
import { TextField } from '../../common/text-field';

export const ALLIANCE_FORM_TITLE = 'Nueva alianza';
export const ALLIANCE_FORM_HELP =
  'Fija la tasa anual antes de IVA (base 360 días) que paga el proveedor por las facturas de este corporativo. ' +
  'Si ya hay una alianza con ese RFC, cambia su precio desde ahora; las cotizaciones ya guardadas conservan el suyo.';

export interface CorporateChoice {
  id: number;
  rfc: string;
  name: string;
}

/** What saving answered: done, or the server's Spanish messages per field (or a general one). */
export type SaveOutcome =
  | { ok: true }
  | { ok: false; fields: Record<string, string[]>; detail: string | null };

export interface AllianceFormDialogProps {
  isOpen: boolean;
  corporates: { state: 'loading' | 'error' | 'ready'; options: readonly CorporateChoice[] };
  /** Prefills the form to change an alliance's price. */
  initial?: Partial<AllianceInput> | null;
  onSave: (input: AllianceInput) => Promise<SaveOutcome>;
  onClose: () => void;
}

const FIELDS = ['corporate_id', 'provider_rfc', 'annual_rate', 'max_days', 'max_amount'] as const;

/** The 'Nueva alianza' dialog: the same struct validates here and on the server. */
export function AllianceFormDialog({
  isOpen,
  corporates,
  initial,
  onSave,
  onClose,
}: AllianceFormDialogProps) {
  const formId = useId();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<AllianceInput>({ resolver: structResolver(AllianceInput), mode: 'onSubmit' });

  useEffect(() => {
    if (isOpen) reset({ max_days: 90, ...initial } as AllianceInput);
  }, [isOpen, initial, reset]);

  const rate = watch('annual_rate');
  const preview =
    rate !== undefined && annualRateProblem(rate) === null ? divideDecimal(maxRateFor(rate), 1, 2) : null;

  const submit = handleSubmit(async (values) => {
    const outcome = await onSave(values);
    if (outcome.ok) {
      onClose();
      return;
    }
    for (const field of FIELDS) {
      const message = outcome.fields[field]?.[0];
      if (message) setError(field, { type: 'server', message });
    }
    if (outcome.detail) setError('root', { type: 'server', message: outcome.detail });
  });

  const corporateError = errors.corporate_id?.message;
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={ALLIANCE_FORM_TITLE} style={{ width: 560 }}>
      <form id={formId} noValidate onSubmit={submit}>
        <DialogBody>
          <p>{ALLIANCE_FORM_HELP}</p>
          {errors.root?.message && (
            <Callout intent="danger" role="alert">
              {errors.root.message}
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
              disabled={corporates.state !== 'ready'}
              aria-invalid={corporateError ? true : undefined}
              aria-describedby={corporateError ? `${formId}-corporativo-mensaje` : undefined}
              {...register('corporate_id', { valueAsNumber: true })}
            >
              <option value="">
                {corporates.state === 'loading'
                  ? 'Cargando corporativos…'
                  : corporates.state === 'error'
                    ? 'No pudimos cargar los corporativos'
                    : 'Elige un corporativo'}
              </option>
              {corporates.options.map((corporate) => (
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
            error={errors.provider_rfc?.message}
            registration={register('provider_rfc')}
          />
          <TextField
            id={`${formId}-tasa`}
            label="Tasa anual antes de IVA (%)"
            required
            error={errors.annual_rate?.message}
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
            error={errors.max_days?.message}
            registration={register('max_days', { valueAsNumber: true })}
          />
          <TextField
            id={`${formId}-monto`}
            label="Monto máximo por factura (MXN, opcional)"
            error={errors.max_amount?.message}
            registration={register('max_amount', {
              setValueAs: (value: string) => (value === '' ? undefined : value),
            })}
          />
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancelar" onClick={onClose} disabled={isSubmitting} />
              <Button type="submit" intent="primary" text="Guardar alianza" loading={isSubmitting} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
