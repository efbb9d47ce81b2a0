import { Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup } from '@blueprintjs/core';
import { useForm } from 'react-hook-form';
import { businessDateAt } from '../../../domain/calendar-date';
import { formatMxn, parseMoney } from '../../../domain/money';
import {
  type CollectibleInvoice,
  RecordCollectionBody,
  type RecordCollectionBody as RecordCollectionValues,
} from '../../../domain/schemas/credit-programmes';
import type { BackOfficeFailure } from '../../../machines/back-office-action';
import { structResolver } from '../../common/struct-resolver';
import { TextField } from '../../common/text-field';

// 'Registrar cobro' (decision 0052): tesorería records the corporate's payment of an advanced invoice as the bank
// reports it; the server releases that part of the programme's used and answers in Spanish what it released.
// The server also judges the date (disbursement to today) and the amount (what remains to collect, or an
// explicit sobrepago): its per-field messages (the machine's failure) show at the fields.

type Field = 'amount' | 'clave_rastreo' | 'fecha';

export function CollectionDialog({
  invoice,
  busy,
  failure,
  onCancel,
  onRecord,
}: {
  invoice: CollectibleInvoice;
  /** The payment is on its way (the machine's `busy`). */
  busy: boolean;
  /** The server's refusal of the last submission: per field, or one text. */
  failure: BackOfficeFailure | null;
  onCancel(): void;
  onRecord(body: RecordCollectionValues): void;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<RecordCollectionValues>({
    resolver: structResolver(RecordCollectionBody),
    defaultValues: {
      invoice_id: invoice.invoice_id,
      amount: invoice.used,
      clave_rastreo: '',
      // Today as the server counts it (Mexico City), so a late-evening payment is not dated tomorrow.
      fecha: businessDateAt(new Date()),
      sobrepago: false,
    },
  });
  const messageOf = (name: Field | 'sobrepago'): string | undefined =>
    errors[name]?.message ?? failure?.fields[name]?.[0];
  const field = (name: Field, label: string, type: string, helper?: string) => (
    <TextField
      id={`cobro-${name}`}
      label={label}
      type={type}
      helper={helper}
      error={messageOf(name)}
      registration={register(name)}
    />
  );
  const sobrepagoError = messageOf('sobrepago');
  const sobrepago = register('sobrepago');
  return (
    <Dialog isOpen title={`Registrar cobro de la factura ${invoice.invoice_label}`} onClose={onCancel}>
      <DialogBody>
        <p>
          {invoice.provider_name}: el corporativo pagó esta factura adelantada. Registra el pago como lo
          reporta el banco: se libera del programa hasta {formatMxn(parseMoney(invoice.used))}, lo que la
          factura aún usa.
        </p>
        {failure?.message ? (
          <Callout intent="danger" role="alert">
            {failure.message}
          </Callout>
        ) : null}
        {field('amount', 'Monto pagado (MXN)', 'text', 'Un pago parcial libera solo su parte.')}
        {field('clave_rastreo', 'Clave de rastreo del pago', 'text')}
        {field('fecha', 'Fecha del pago', 'date')}
        <FormGroup
          intent={sobrepagoError ? 'danger' : 'none'}
          helperText={sobrepagoError ?? 'Solo si el monto pagado excede lo que falta por cobrar.'}
        >
          <Checkbox
            id="cobro-sobrepago"
            label="El corporativo pagó de más (sobrepago)"
            inputRef={sobrepago.ref}
            name={sobrepago.name}
            onChange={sobrepago.onChange}
            onBlur={sobrepago.onBlur}
            aria-invalid={sobrepagoError ? true : undefined}
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" disabled={busy} onClick={onCancel} />
            <Button
              intent="primary"
              text="Registrar cobro"
              loading={busy}
              onClick={handleSubmit((values) => onRecord(values))}
            />
          </>
        }
      />
    </Dialog>
  );
}
