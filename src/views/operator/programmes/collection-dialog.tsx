import {
  Button,
  Callout,
  Checkbox,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  InputGroup,
} from '@blueprintjs/core';
import { useState } from 'react';
import { businessDateAt } from '../../../domain/calendar-date';
import { formatMxn, parseMoney } from '../../../domain/money';
import {
  type CollectibleInvoice,
  RecordCollectionBody,
  type RecordCollectionBody as RecordCollectionValues,
} from '../../../domain/schemas/credit-programmes';
import { fieldErrors } from '../../../domain/schemas/validate';

// 'Registrar cobro' (decision 0052): tesorería records the corporate's payment of an advanced invoice as the bank
// reports it; the server releases that part of the programme's used and answers in Spanish what it released.
// The server also judges the date (disbursement to today) and the amount (what remains to collect, or an
// explicit sobrepago): its per-field messages show at the fields.

type Field = 'amount' | 'clave_rastreo' | 'fecha';

/** The server refused the payment field by field (400): each message goes under its field. */
export class CollectionFieldsRefusal extends Error {
  constructor(readonly fields: Record<string, string[]>) {
    super(Object.values(fields).flat()[0] ?? '');
  }
}

export function CollectionDialog({
  invoice,
  onClose,
  onRecord,
}: {
  invoice: CollectibleInvoice;
  onClose(): void;
  /** Resolves to the server's Spanish summary; rejects with its refusal (CollectionFieldsRefusal per field). */
  onRecord(body: RecordCollectionValues): Promise<string>;
}) {
  const [values, setValues] = useState({
    amount: invoice.used,
    clave_rastreo: '',
    // Today as the server counts it (Mexico City), so a late-evening payment is not dated tomorrow.
    fecha: businessDateAt(new Date()),
  });
  const [sobrepago, setSobrepago] = useState(false);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const body = { invoice_id: invoice.invoice_id, ...values, sobrepago };
    const found = fieldErrors(RecordCollectionBody, body);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setFailure(null);
    try {
      await onRecord(body as RecordCollectionValues);
      onClose();
    } catch (error) {
      if (error instanceof CollectionFieldsRefusal) setErrors(error.fields);
      else setFailure(error instanceof Error ? error.message : String(error));
      setBusy(false);
    }
  };
  const field = (name: Field, label: string, type: string, helper?: string) => (
    <FormGroup
      label={label}
      labelFor={`cobro-${name}`}
      intent={errors[name] ? 'danger' : 'none'}
      helperText={errors[name]?.[0] ?? helper}
    >
      <InputGroup
        id={`cobro-${name}`}
        type={type}
        value={values[name]}
        onValueChange={(value) => setValues((before) => ({ ...before, [name]: value }))}
        intent={errors[name] ? 'danger' : 'none'}
        aria-invalid={errors[name] ? true : undefined}
      />
    </FormGroup>
  );
  return (
    <Dialog isOpen title={`Registrar cobro de la factura ${invoice.invoice_label}`} onClose={onClose}>
      <DialogBody>
        <p>
          {invoice.provider_name}: el corporativo pagó esta factura adelantada. Registra el pago como lo
          reporta el banco: se libera del programa hasta {formatMxn(parseMoney(invoice.used))}, lo que la
          factura aún usa.
        </p>
        {failure ? (
          <Callout intent="danger" role="alert">
            {failure}
          </Callout>
        ) : null}
        {field('amount', 'Monto pagado (MXN)', 'text', 'Un pago parcial libera solo su parte.')}
        {field('clave_rastreo', 'Clave de rastreo del pago', 'text')}
        {field('fecha', 'Fecha del pago', 'date')}
        <FormGroup
          intent={errors.sobrepago ? 'danger' : 'none'}
          helperText={errors.sobrepago?.[0] ?? 'Solo si el monto pagado excede lo que falta por cobrar.'}
        >
          <Checkbox
            id="cobro-sobrepago"
            label="El corporativo pagó de más (sobrepago)"
            checked={sobrepago}
            onChange={(event) => setSobrepago(event.currentTarget.checked)}
            aria-invalid={errors.sobrepago ? true : undefined}
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" onClick={onClose} />
            <Button intent="primary" text="Registrar cobro" loading={busy} onClick={submit} />
          </>
        }
      />
    </Dialog>
  );
}
