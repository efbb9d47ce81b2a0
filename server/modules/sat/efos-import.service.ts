import { paths } from '../../../src/domain/paths';
import { isBlockingSituation, parseEfosList } from '../../cfdi/efos-list';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import type { Mailer } from '../../mail/mailer';
import { type ListedProvider, listedAlliedProviders, replaceEfosList } from '../efos/efos.repository';
import { deactivateProviderAlliances } from '../operator-alliances/operator-alliances.repository';

// `ops efos:import`: SAT's 69-B list replaces the last one, and every allied provider the list now names as
// Presunto or Definitivo has its alliances paused and is brought to the operators' attention (decision 0057).

export interface EfosImportDeps {
  db: Db;
  mailer: Mailer;
  /** Flujo's operations desk (OPERATOR_EMAIL). */
  operatorEmail: string;
  /** Public origin for the link in the e-mail, no trailing slash. */
  appBaseUrl: string;
}

/** An allied provider in a blocking situation after the import. */
export interface BlockedProvider extends ListedProvider {
  /** It was not in a blocking situation on the previous list (or there was none). */
  newlyListed: boolean;
  /** Its alliances this import paused (those already inactive are not counted). */
  alliancesPaused: number;
}

export type EfosImportResult =
  | { ok: false; line: number; reason: string }
  | {
      ok: true;
      listId: number;
      /** SAT's legend and title above the header ("Información actualizada al …"). */
      preamble: string[];
      entries: number;
      rowCount: number;
      withheldRowCount: number;
      /** Entries in a blocking situation (Presunto, Definitivo). */
      blocking: number;
      providers: BlockedProvider[];
      alliancesPaused: number;
      /** Whether the operators were e-mailed (only when some provider is newly listed or had alliances paused). */
      notified: boolean;
    };

/**
 * Reads the file (parseEfosList: nothing is written when it is refused) and, in one transaction, replaces the
 * list and pauses the active alliances of every allied provider it names as Presunto or Definitivo. The
 * operators are e-mailed after the commit; the inbox's 69-B tab reads the list itself.
 */
export async function importEfosList(
  deps: EfosImportDeps,
  fileName: string,
  bytes: Uint8Array,
): Promise<EfosImportResult> {
  const parsed = parseEfosList(bytes);
  if (!parsed.ok) return parsed;
  const outcome = await inTransaction(deps.db, async (trx) => {
    const blockedBefore = new Set(
      (await listedAlliedProviders(trx))
        .filter((provider) => isBlockingSituation(provider.situation))
        .map((provider) => provider.companyId),
    );
    const listId = await replaceEfosList(trx, fileName, parsed.entries);
    const blocked = (await listedAlliedProviders(trx)).filter((provider) =>
      isBlockingSituation(provider.situation),
    );
    const paused = await deactivateProviderAlliances(
      trx,
      blocked.map((provider) => provider.companyId),
    );
    const providers = blocked.map((provider) => ({
      ...provider,
      newlyListed: !blockedBefore.has(provider.companyId),
      alliancesPaused: paused.filter((row) => row.provider_id === provider.companyId).length,
    }));
    return { listId, providers, alliancesPaused: paused.length };
  });
  const news = outcome.providers.filter((provider) => provider.newlyListed || provider.alliancesPaused > 0);
  if (news.length > 0) {
    await deps.mailer.send({ to: deps.operatorEmail, ...efosMail(deps.appBaseUrl, news, parsed.preamble) });
  }
  return {
    ok: true,
    listId: outcome.listId,
    preamble: parsed.preamble,
    entries: parsed.entries.length,
    rowCount: parsed.rowCount,
    withheldRowCount: parsed.withheldRowCount,
    blocking: parsed.entries.filter((entry) => isBlockingSituation(entry.situation)).length,
    providers: outcome.providers,
    alliancesPaused: outcome.alliancesPaused,
    notified: news.length > 0,
  };
}

/** SAT's date line of the list ("Información actualizada al 31 de octubre de 2026"), when its legend has one. */
export function efosListDate(preamble: readonly string[]): string | null {
  const legend = preamble.find((line) => /^informaci[oó]n actualizada/i.test(line));
  return legend ? (legend.split(/[;,.]/)[0] ?? legend).trim() : null;
}

export const alliancesText = (count: number) =>
  count === 1 ? '1 alianza en pausa' : `${count} alianzas en pausa`;

/** The operators' e-mail: which allied providers the list now blocks and what was paused. */
export function efosMail(
  appBaseUrl: string,
  providers: readonly BlockedProvider[],
  preamble: readonly string[],
): { subject: string; text: string } {
  const paused = providers.reduce((sum, provider) => sum + provider.alliancesPaused, 0);
  const date = efosListDate(preamble);
  return {
    subject: `Lista 69-B del SAT: ${providers.length === 1 ? '1 proveedor con alianza' : `${providers.length} proveedores con alianza`} como Presunto o Definitivo`,
    text: [
      `Se importó el listado 69-B del SAT${date ? ` (${date})` : ''}. Estos proveedores con alianza aparecen como Presunto o Definitivo:`,
      providers
        .map(
          (provider) =>
            `- ${provider.rfc} ${provider.name}: ${provider.situation}${provider.newlyListed ? ' (nuevo en la lista)' : ''}; ${alliancesText(provider.alliancesPaused)}.`,
        )
        .join('\n'),
      paused > 0
        ? 'Sus alianzas quedaron inactivas: sus facturas no se pueden cotizar ni adelantar mientras sigan así. Una alianza se reanuda fijando de nuevo su precio en Alianzas.'
        : '',
      `Revísalos en la bandeja: ${appBaseUrl}${paths.operatorInbox}?tipo=efos`,
    ]
      .filter(Boolean)
      .join('\n\n'),
  };
}
