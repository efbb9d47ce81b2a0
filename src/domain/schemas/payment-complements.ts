import { array, enums, type Infer, literal, nullable, number, string, type, union } from 'superstruct';
import { REP_STATES, type RepState } from '../payment-complements';

// Issue 34 (decision 0070): the payment complement (REP) of a collected invoice, and its upload's answer.

/** A collected invoice's REP: received (its folio fiscal and date) or still owed. */
export const RepStatus = type({
  state: enums(REP_STATES as RepState[]),
  /** 'REP recibido' or 'REP pendiente'. */
  label: string(),
  /** The REP's folio fiscal and Fecha (as written), when received. */
  uuid: nullable(string()),
  issued_at: nullable(string()),
  /** The line the screens print: 'REP recibido: <UUID> del 20/04/2025'. */
  text: string(),
});
export type RepStatus = Infer<typeof RepStatus>;

const LinkedInvoice = type({ invoice_id: number(), cfdi_uuid: string(), label: string() });

/** POST /api/providers/payment-complements/: imported now, or the very same file already held. */
export const PaymentComplementUploadResult = type({
  status: union([literal('imported'), literal('unchanged')]),
  uuid: string(),
  invoices: array(LinkedInvoice),
});
export type PaymentComplementUploadResult = Infer<typeof PaymentComplementUploadResult>;

/** The 400 of a refused REP: one reason per check or related document that failed. Nothing is written. */
export const PaymentComplementRefusal = type({ detail: string(), reasons: array(string()) });
export type PaymentComplementRefusal = Infer<typeof PaymentComplementRefusal>;
