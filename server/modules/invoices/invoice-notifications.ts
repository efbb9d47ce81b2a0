import { type DisplayCurrency, formatCurrency, parseMoney } from '../../../src/domain/money';
import type { Db } from '../../db/database';
import type { Mailer, MailMessage } from '../../mail/mailer';
import { activeUserEmails } from '../accounts/user.repository';

/** E-mail addresses of a company's active users: business notices go to everyone who works the account. */
export function companyRecipients(db: Db, companyId: number): Promise<string[]> {
  return activeUserEmails(db, companyId);
}

/** One message per recipient (no one sees another's address); the mailer never throws. */
export async function sendToAll(
  mailer: Mailer,
  recipients: readonly string[],
  message: Omit<MailMessage, 'to'>,
): Promise<void> {
  for (const to of recipients) await mailer.send({ ...message, to });
}

/** '$1,234.56 MXN' for a '1234.56' amount of the invoice's currency. */
export function moneyText(amount: string, currency: string): string {
  const display: DisplayCurrency = currency === 'USD' ? 'USD' : 'MXN';
  return `${formatCurrency(parseMoney(amount), display)} ${currency}`;
}

/** 'DD/MM/YYYY', how dates are shown (spec §9); the domain's, shared with the lifecycle's refusals. */
export { displayDate } from '../../../src/domain/calendar-date';
