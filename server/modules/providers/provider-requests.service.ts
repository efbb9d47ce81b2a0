import { PROVIDER_REQUEST_MESSAGES } from '../../../src/domain/provider-requests';
import type { AllianceRequest, Referral } from '../../../src/domain/schemas/session';
import type { Db } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import type { InvoiceCaller } from '../invoices/invoice-access';
import { companyNameById, insertAllianceRequest, insertReferral } from './provider-requests.repository';

export interface ProviderRequestsDeps {
  db: Db;
  mailer: Mailer;
  /** Flujo's operations desk (OPERATOR_EMAIL): who follows these requests up. */
  operatorEmail: string;
}

async function referrerLabel(db: Db, caller: InvoiceCaller): Promise<string> {
  const company = await companyNameById(db, caller.companyId);
  return `${caller.username} (${company ?? `empresa ${caller.companyId}`})`;
}

/** POST providers/refer-customer/: stored for the operations desk and e-mailed to it. */
export async function referCustomer(
  deps: ProviderRequestsDeps,
  caller: InvoiceCaller,
  referral: Referral,
): Promise<{ message: string }> {
  const id = await insertReferral(deps.db, caller.userId, referral);
  await deps.mailer.send({
    to: deps.operatorEmail,
    subject: `Cliente referido #${id}: ${referral.company}`,
    text: [
      `${await referrerLabel(deps.db, caller)} recomendó Flujo a un cliente.`,
      `Nombre: ${referral.name}\nEmpresa: ${referral.company}\nCorreo: ${referral.email}\nTeléfono: ${referral.phone}`,
      'Contáctalo en los próximos días hábiles.',
    ].join('\n\n'),
  });
  return { message: PROVIDER_REQUEST_MESSAGES.referralSent };
}

/**
 * POST providers/alliances/: files the request and tells the operations desk; asking again while the request
 * is open answers politely and files nothing (one open request per provider and client RFC).
 */
export async function requestAlliance(
  deps: ProviderRequestsDeps,
  caller: InvoiceCaller,
  request: AllianceRequest,
): Promise<{ message: string; created: boolean }> {
  const id = await insertAllianceRequest(deps.db, caller.companyId, caller.userId, request);
  if (id === null) return { message: PROVIDER_REQUEST_MESSAGES.allianceAlreadyRequested, created: false };
  await deps.mailer.send({
    to: deps.operatorEmail,
    subject: `Solicitud de alianza #${id}: ${request.company} (${request.rfc})`,
    text: [
      `${await referrerLabel(deps.db, caller)} pide una alianza de pronto pago con su cliente.`,
      `Cliente: ${request.company}\nRFC: ${request.rfc}\nContacto: ${request.contact_name}\nCorreo: ${request.email}\nTeléfono: ${request.phone}`,
      'Revisa las solicitudes con `npm run ops -- alliances:requests`.',
    ].join('\n\n'),
  });
  return { message: PROVIDER_REQUEST_MESSAGES.allianceRequested, created: true };
}
