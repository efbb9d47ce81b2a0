// Operator commands (`npm run ops -- <command>`): the one table server/cli.ts runs directly and the running
// server runs for it over DATA_DIR/ops.sock (ops-socket.ts). Each one calls the same service function the
// tests exercise; this file only parses and prints.

import { createWriteStream, existsSync, readdirSync, readFileSync, type Stats, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { auditTrailFileName, MAX_AUDIT_RANGE_DAYS } from '../../src/domain/audit-trail';
import { displayDate, type IsoDate, isIsoDate } from '../../src/domain/calendar-date';
import { checkClabe } from '../../src/domain/clabe';
import { DELINQUENCY_MESSAGES } from '../../src/domain/delinquency';
import { MAX_FACTORING_INSTALMENTS, MIN_FACTORING_INSTALMENTS } from '../../src/domain/factoring-terms';
import { AGING_BUCKET_LABELS } from '../../src/domain/maturities';
import { formatMoneyAmount } from '../../src/domain/money';
import { OPERATOR_ROLE_LABELS, OPERATOR_ROLES, type OperatorRole } from '../../src/domain/operator-roles';
import { RFC_PATTERN } from '../../src/domain/rfc';
import { AuditTrailQuery } from '../../src/domain/schemas/audit-trail';
import { validateForm } from '../../src/domain/schemas/validate';
import { cfdiProofLabel } from '../../src/machines/cfdi-proof.machine';
import { type DemoAuthority, loadDemoAuthority } from '../cfdi/demo-authority';
import { EFOS_LIMITS, EFOS_REASONS } from '../cfdi/efos-list';
import { SAT_SEAL_NOT_VERIFIED, sealRefusals } from '../cfdi/verify-cfdi';
import { type Config, loadConfig } from '../config';
import { BackupError, backupPglite, backupPostgres, restorePglite, restorePostgres } from '../db/backup';
import { type DatabaseHandle, openDatabase } from '../db/database';
import type { ProofState } from '../db/schema';
import { businessDate } from '../http/business-date';
import { createMailer, type Mailer } from '../mail/mailer';
import { listOutbox } from '../mail/outbox.repository';
import { findCompanyName, setDisbursementClabe } from '../modules/accounts/company.repository';
import { listDemoRequests } from '../modules/accounts/demo-request.repository';
import {
  createOperator,
  OperatorCreationError,
  type OperatorEnrolment,
  resetOperatorMfa,
  setOperatorRoles,
} from '../modules/accounts/operator-enrolment.service';
import { findUserByUsername } from '../modules/accounts/user.repository';
import { systemClock } from '../modules/auth/clock';
import { otpauthUri } from '../modules/auth/totp';
import { agingLines, runCollectionsDay } from '../modules/collections/collections-day';
import { DeskError, rejectDeskItem } from '../modules/control-desk/control-desk.service';
import {
  automationUsername,
  DisbursementError,
  disburseInvoice,
  OPERATOR_LABEL,
  OPS_ACCOUNT_PATTERN,
} from '../modules/control-desk/disbursement.service';
import {
  enableFactoringLine,
  FactoringOperationError,
  listEnableRequests,
  settleInstalment,
} from '../modules/factoring/factoring-line.service';
import { pruneIdempotencyKeys } from '../modules/idempotency/idempotency.service';
import { AUDIT_CHECKS, verifyAuditChain } from '../modules/invoices/audit-chain.repository';
import { writeAuditTrail } from '../modules/invoices/audit-trail.service';
import { IllegalTransitionError } from '../modules/invoices/lifecycle.service';
import { listAllianceRequests, listReferrals } from '../modules/providers/provider-requests.repository';
import { type CfdiAuthenticity, createCfdiAuthenticity } from '../modules/sat/cfdi-authenticity';
import { importCfdiFiles } from '../modules/sat/cfdi-import.service';
import { recheckAtSat } from '../modules/sat/cfdi-proof.service';
import { invoicesDueForSat } from '../modules/sat/cfdi-sat-check.job';
import { type CfdiVerifyReport, verifyCfdiFiles } from '../modules/sat/cfdi-verify.service';
import { alliancesText, efosListDate, importEfosList } from '../modules/sat/efos-import.service';
import { generateSandboxCfdi, MAX_GENERATED_CFDI } from '../modules/sat/sandbox-cfdi';
import { cancelInvoiceAtSat } from '../modules/sat/sat-cancellation.service';
import { createSandboxConnector, sandboxFolder } from '../modules/sat/sat-connector';
import {
  approveSatLink,
  rejectSatLink,
  type SatLinkDeps,
  SatOperationError,
  type SyncResult,
  syncIssuedCfdi,
} from '../modules/sat/sat-link.service';
import { PRIVATE_FILE_MODE } from '../private-files';
import { DEMO_OPERATORS, seedDemoOperators } from '../seed/demo-operators';
import { seedDemoPaymentComplements } from '../seed/demo-payment-complements';
import { DEMO_CORPORATE, DEMO_PASSWORD, seedDemoWorld } from '../seed/demo-world';
import {
  DEFAULT_SCALE_CORPORATES,
  DEFAULT_SCALE_PROVIDERS,
  MAX_SCALE_CORPORATES,
  MAX_SCALE_INVOICES,
  MAX_SCALE_PROVIDERS,
  seedScaleWorld,
} from '../seed/scale-world';
import { satPaymentComplementImporter, wireModules } from '../services/module-wiring';
import { integerOption, onePositional, type ParsedArgs, parseArgs, UsageError } from './ops-args';

export interface OpsContext {
  config: Config;
  /** Null for commands that do not touch the database (they work while a PGlite server runs). */
  database: DatabaseHandle | null;
  now: () => Date;
  /** A line of the command's answer (stdout of the CLI). */
  print(line: string): void;
  /** The operator's working directory (default: this process's): relative file arguments resolve against it. */
  cwd?: string;
  /** The automation account running the command (default: opsAccount() of this process). */
  account?: string;
}

/**
 * Who runs an ops command, as the records name the automation (decision 0059): FLUJO_OPS_ACCOUNT when set (a
 * person's or a job's name on a shared service user), else the OS user. The CLI sends it over the ops socket.
 */
export function opsAccount(env: NodeJS.ProcessEnv = process.env): string {
  const named = env.FLUJO_OPS_ACCOUNT?.trim();
  return named ? named : userInfo().username;
}

/** Where a command's lines go: stdout and stderr of the CLI, or the ops socket's answer. */
export interface OpsOutput {
  out(line: string): void;
  err(line: string): void;
}

export const CONSOLE_OUTPUT: OpsOutput = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
};

export interface OpsCommand {
  usage: string;
  summary: string;
  needsDatabase(args: readonly string[]): boolean;
  /** False: the database is opened as it is, without running migrations first (backup). Default true. */
  migrates?: boolean;
  run(context: OpsContext, args: readonly string[]): Promise<number>;
}

const RATE_TEXT = /^\d{1,3}(\.\d{1,4})?$/;
// An annual rate above 100 % is a typo, not a price.
const MAX_RATE_PERCENT = 100;
// How many rows the list commands (mail, demo requests) print unless --limit says otherwise.
const DEFAULT_LIST_LIMIT = 10;

/** The --limit N of a list command, its only option. */
function listLimit(args: readonly string[], command: string): number {
  const parsed = parseArgs(args, ['limit']);
  if (parsed.positional.length > 0) throw new UsageError(`${command} only takes --limit N.`);
  return integerOption(parsed, 'limit', DEFAULT_LIST_LIMIT, 1, 1000);
}

// The least a new operator can do: read (docs/decisions/0050-operators-identity.md).
const DEFAULT_OPERATOR_ROLE: OperatorRole = 'auditor';

/** --roles analista,aprobador: known role names, no repeats. */
function operatorRolesArgument(text: string): OperatorRole[] {
  const names = [
    ...new Set(
      text
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const unknown = names.filter((name) => !(OPERATOR_ROLES as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    throw new UsageError(`--roles toma una lista de: ${OPERATOR_ROLES.join(', ')} (separados por comas).`);
  }
  return names as OperatorRole[];
}

function rolesText(roles: readonly OperatorRole[]): string {
  return roles.map((role) => OPERATOR_ROLE_LABELS[role]).join(', ');
}

/** The <usuario> of operator:reset-mfa and operator:roles: an existing user who holds an operator role. */
async function operatorArgument(
  context: OpsContext,
  parsed: ParsedArgs,
): Promise<{ id: number; username: string }> {
  const name = onePositional(parsed, 'el nombre de usuario del operador');
  const user = await findUserByUsername(requireDatabase(context).db, name.trim());
  if (!user) throw new UsageError(`No hay ningún usuario ${name}.`);
  if (user.operator_roles.length === 0) {
    throw new UsageError(
      `${user.username} no es operador de Flujo; los operadores se crean con operator:create.`,
    );
  }
  return user;
}

/** The one-time enrolment, worded the same for a new operator and a re-enrolled one. */
function printEnrolment(context: OpsContext, enrolment: OperatorEnrolment): void {
  context.print(
    'Inscripción de la verificación en dos pasos (se muestra UNA sola vez; entrégala en persona):',
  );
  context.print(`  ${enrolment.otpauthUri}`);
  context.print(`  Secreto para escribirlo a mano: ${enrolment.secret}`);
  context.print('Códigos de recuperación (cada uno sirve una vez):');
  for (const code of enrolment.recoveryCodes) context.print(`  ${code}`);
}

function requireDatabase(context: OpsContext): DatabaseHandle {
  if (!context.database) throw new Error('this command needs the database');
  return context.database;
}

/** A file argument, resolved against the operator's working directory (the socket passes the CLI's). */
function fileArgument(context: OpsContext, args: readonly string[], what: string): string {
  return resolve(context.cwd ?? process.cwd(), onePositional(parseArgs(args, []), what));
}

const MEGABYTE = 1024 * 1024;

function rfcArgument(text: string): string {
  const rfc = text.trim().toUpperCase();
  if (!RFC_PATTERN.test(rfc)) throw new UsageError(`"${text}" no es un RFC válido.`);
  return rfc;
}

const quietLog = {
  info: () => {},
  warn: (...args: unknown[]) => console.warn(...args),
  error: (...args: unknown[]) => console.error(...args),
};

/** The mail of a command. With SMTP the message is queued: a running server's delivery job sends it. */
function opsMailer(context: OpsContext): Mailer {
  return createMailer(requireDatabase(context).db, { smtpUrl: context.config.smtpUrl, log: quietLog });
}

/** What proves CFDI for a command: the same trust store and SAT status service the server uses. */
function opsAuthenticity(context: OpsContext): CfdiAuthenticity {
  return createCfdiAuthenticity(context.config, requireDatabase(context).db, context.now);
}

/** The demo authority alone (no database needed): the sandbox's CFDI are sealed and stamped with it. */
function opsDemoAuthority(context: OpsContext): DemoAuthority {
  if (!context.config.demoAuthorityDir)
    throw new UsageError('La autoridad de demostración no existe en producción.');
  return loadDemoAuthority(context.config.demoAuthorityDir);
}

function satDeps(context: OpsContext): SatLinkDeps {
  const { db } = requireDatabase(context);
  return {
    db,
    authenticity: opsAuthenticity(context),
    encryptionKey: context.config.satEncryptionKey,
    connector: createSandboxConnector(context.config.satSandboxDir),
    paymentComplements: satPaymentComplementImporter,
    now: context.now,
    mailer: opsMailer(context),
    appBaseUrl: context.config.appBaseUrl,
  };
}

function printSync(context: OpsContext, sync: SyncResult): void {
  for (const item of sync.imported) context.print(`importada  ${item.name}  ${item.uuid}  id=${item.id}`);
  for (const item of sync.paymentComplements ?? [])
    context.print(
      `REP ${item.status === 'imported' ? 'importado' : 'ya importado'}  ${item.name}  ${item.uuid}`,
    );
  for (const item of sync.rejected) context.print(`rechazada  ${item.name}  ${item.reason}`);
  context.print(
    `${sync.imported.length} importadas, ${sync.rejected.length} rechazadas, ${sync.alreadyImported} ya importadas antes, ${sync.alliancesCreated} alianzas creadas`,
  );
}

/** A path's stat, or a usage error naming it when it does not exist. */
function existing(path: string): Stats {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) throw new UsageError(`No existe ${path}.`);
  return stat;
}

function xmlFiles(cwd: string, paths: readonly string[]): string[] {
  return paths.flatMap((given) => {
    const path = resolve(cwd, given);
    return existing(path).isDirectory()
      ? readdirSync(path)
          .filter((name) => name.toLowerCase().endsWith('.xml'))
          .sort()
          .map((name) => join(path, name))
      : [path];
  });
}

const utc = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

/** One file's block of `cfdi:verify`: every line in Spanish, the refusals' words from sealRefusals. */
function printCfdiReport(context: OpsContext, report: CfdiVerifyReport): void {
  context.print(report.name);
  if (!report.readable) {
    context.print(`  No es un CFDI 4.0 timbrado: ${report.reason}`);
    return;
  }
  context.print(report.seal.ok ? '  Sello: válido' : `  Sello: inválido (${report.seal.reason})`);
  const { certificate, stamp, sat, efos } = report;
  if (certificate) {
    context.print(
      `  Certificado: ${certificate.declaredNumber}` +
        (certificate.number === certificate.declaredNumber
          ? ''
          : ` (el certificado incluido es el ${certificate.number})`),
    );
    context.print(`  Titular: ${certificate.holderRfc} ${certificate.holderName}`);
    context.print(
      `  Emisor del certificado: ${certificate.issuer}, ${certificate.trusted ? 'emitido por una autoridad confiable' : 'NO emitido por una autoridad confiable'}`,
    );
    context.print(
      `  Vigencia: del ${utc(certificate.validFrom)} al ${utc(certificate.validUntil)}, ${certificate.validOnIssue ? 'vigente en la fecha del CFDI' : 'NO vigente en la fecha del CFDI'}`,
    );
  }
  const satSeal =
    stamp.satSeal === 'verified'
      ? 'sello del SAT verificado'
      : stamp.satSeal === 'unknown'
        ? SAT_SEAL_NOT_VERIFIED
        : sealRefusals.satSeal;
  context.print(
    `  Timbre: UUID ${stamp.uuid}, ${satSeal}${stamp.matchesSeal ? '' : ` (${sealRefusals.stamp})`}`,
  );
  const asked = `consultado el ${utc(sat.askedAt.toISOString())}`;
  context.print(
    sat.answered
      ? `  SAT: Estado ${sat.answer.estado}, EsCancelable ${sat.answer.esCancelable || '—'}, EstatusCancelacion ${sat.answer.estatusCancelacion || '—'}, ValidacionEFOS ${sat.answer.validacionEfos || '—'} (${asked})`
      : sat.failure === 'invalid'
        ? '  SAT: no se consultó (el UUID, los RFC, el total o el sello no pueden ser de un CFDI timbrado)'
        : `  SAT: pendiente (el SAT no respondió; ${asked})`,
  );
  if (efos.list_imported_at === null) context.print('  Lista 69-B: no se ha importado ninguna lista');
  else
    context.print(
      `  Lista 69-B: ${efos.situation === null ? `${report.issuerRfc} no aparece` : `${report.issuerRfc} aparece como ${efos.situation}`} (lista importada el ${utc(new Date(efos.list_imported_at).toISOString())})`,
    );
}

/**
 * The as-of date of a run: today when not given; a past date re-runs a missed day; a future date only outside
 * production (development and tests walk the calendar forward). Throws the Spanish refusal (a UsageError).
 */
function collectionsDayDate(given: string | null, today: IsoDate, production: boolean): IsoDate {
  if (given === null) return today;
  const text = given.trim();
  if (!isIsoDate(text)) throw new UsageError(DELINQUENCY_MESSAGES.dateInvalid);
  if (production && text > today) throw new UsageError(DELINQUENCY_MESSAGES.futureDate);
  return text;
}

export const OPS_COMMANDS: Record<string, OpsCommand> = {
  'demo:load': {
    usage: 'demo:load',
    summary: 'load the demo world (no-op when already loaded)',
    needsDatabase: () => true,
    async run(context, args) {
      parseArgs(args, []);
      const { db } = requireDatabase(context);
      const result = await seedDemoWorld(db, opsAuthenticity(context));
      const operators = await seedDemoOperators(db, context.config.satEncryptionKey);
      context.print(
        result.created
          ? `Demo data loaded: ${result.summary}`
          : 'Demo data already present; nothing changed.',
      );
      if (operators.created) context.print(`Operadores demo creados (contraseña ${DEMO_PASSWORD}):`);
      else context.print(`Operadores demo (contraseña ${DEMO_PASSWORD}):`);
      for (const operator of DEMO_OPERATORS) {
        context.print(
          `  ${operator.username}  roles ${operator.roles.join(',')}  secreto TOTP ${operator.secret}  ${otpauthUri(operator.secret, operator.username)}`,
        );
      }
      return 0;
    },
  },
  'demo:scale': {
    usage: 'demo:scale --invoices N [--providers 200] [--corporates 20]',
    summary:
      "add a world of realistic size on top of the demo: N invoices for proveedor.demo's company over 24 months, other suppliers and buyers with fewer (no-op when already there)",
    needsDatabase: () => true,
    async run(context, args) {
      const parsed = parseArgs(args, ['invoices', 'providers', 'corporates']);
      if (parsed.positional.length > 0 || !parsed.options.has('invoices'))
        throw new UsageError('demo:scale necesita --invoices N, por ejemplo --invoices 100000.');
      const result = await seedScaleWorld(requireDatabase(context).db, {
        invoices: integerOption(parsed, 'invoices', 0, 1, MAX_SCALE_INVOICES),
        providers: integerOption(parsed, 'providers', DEFAULT_SCALE_PROVIDERS, 0, MAX_SCALE_PROVIDERS),
        corporates: integerOption(parsed, 'corporates', DEFAULT_SCALE_CORPORATES, 0, MAX_SCALE_CORPORATES),
        authenticity: opsAuthenticity(context),
        progress: (line) => context.print(line),
      });
      context.print(
        result.invoices === 0
          ? `Scale world already present; nothing added (${result.skipped} invoices checked) in ${result.seconds.toFixed(1)} s.`
          : `Scale world: added ${result.invoices} invoices, ${result.events} audit rows, ${result.companies} companies and ${result.alliances} alliances (${result.skipped} invoices were already there) in ${result.seconds.toFixed(1)} s.`,
      );
      return 0;
    },
  },
  'operator:create': {
    usage:
      'operator:create <usuario> --email <correo> [--roles analista,aprobador,tesoreria,auditor] [--name "Nombre"] [--last-name "Apellidos"]',
    summary:
      'create a Flujo operator (roles default auditor): e-mails the invitation to set a password and prints the one-time TOTP enrolment and ten recovery codes',
    needsDatabase: () => true,
    async run(context, args) {
      const parsed = parseArgs(args, ['email', 'roles', 'name', 'last-name']);
      const username = onePositional(parsed, 'el nombre de usuario del operador');
      const email = parsed.options.get('email');
      if (!email) throw new UsageError('Indica el correo del operador con --email.');
      const roles = operatorRolesArgument(parsed.options.get('roles') ?? DEFAULT_OPERATOR_ROLE);
      const { db } = requireDatabase(context);
      const firstName = parsed.options.get('name');
      const lastName = parsed.options.get('last-name');
      const created = await createOperator(
        {
          db,
          secretKey: context.config.satEncryptionKey,
          mailer: opsMailer(context),
          appBaseUrl: context.config.appBaseUrl,
          now: context.now,
        },
        {
          username,
          email,
          roles,
          ...(firstName ? { firstName } : {}),
          ...(lastName ? { lastName } : {}),
        },
      );
      context.print(`Operador ${created.username} creado (id ${created.userId}, roles ${rolesText(roles)}).`);
      context.print(
        `Se envió a ${created.email} la invitación para elegir su contraseña (vence en 72 horas).`,
      );
      printEnrolment(context, created);
      return 0;
    },
  },
  'operator:reset-mfa': {
    usage: 'operator:reset-mfa <usuario>',
    summary:
      "re-enrol an operator who lost the authenticator or the recovery codes: a new TOTP secret and ten new recovery codes (the old ones stop working), the lock cleared and the operator's sessions ended",
    needsDatabase: () => true,
    async run(context, args) {
      const operator = await operatorArgument(context, parseArgs(args, []));
      const reset = await resetOperatorMfa(
        { db: requireDatabase(context).db, secretKey: context.config.satEncryptionKey, now: context.now },
        operator,
      );
      context.print(
        `Verificación en dos pasos de ${operator.username} reiniciada: el secreto y los códigos de recuperación anteriores ya no sirven; se cerraron sus sesiones (${reset.sessionsRevoked} tokens revocados).`,
      );
      printEnrolment(context, reset);
      return 0;
    },
  },
  'operator:roles': {
    usage: 'operator:roles <usuario> --roles analista,aprobador,tesoreria,auditor',
    summary: "set an operator's roles; open sessions answer to the new roles from their next request",
    needsDatabase: () => true,
    async run(context, args) {
      const parsed = parseArgs(args, ['roles']);
      const text = parsed.options.get('roles');
      if (text === undefined) {
        throw new UsageError(
          `Indica los roles con --roles (${OPERATOR_ROLES.join(', ')}, separados por comas).`,
        );
      }
      const roles = operatorRolesArgument(text);
      const operator = await operatorArgument(context, parsed);
      await setOperatorRoles(requireDatabase(context).db, operator.id, roles);
      context.print(
        `Roles de ${operator.username}: ${rolesText(roles)}. Sus sesiones abiertas siguen y responden con estos roles desde su siguiente petición.`,
      );
      return 0;
    },
  },
  'cfdi:import': {
    usage: 'cfdi:import <file|dir>...',
    summary: 'import CFDI 4.0 XML files as invoices (AVAILABLE)',
    needsDatabase: () => true,
    async run(context, args) {
      const { positional } = parseArgs(args, []);
      if (positional.length === 0)
        throw new UsageError('cfdi:import needs at least one XML file or directory.');
      const files = xmlFiles(context.cwd ?? process.cwd(), positional).map((path) => ({
        name: basename(path),
        content: readFileSync(path),
      }));
      const result = await importCfdiFiles(requireDatabase(context).db, files, {
        actorLabel: 'operador (cfdi:import)',
        authenticity: opsAuthenticity(context),
      });
      for (const item of result.imported)
        context.print(`importada  ${item.name}  ${item.uuid}  id=${item.id}`);
      for (const item of result.reverified ?? [])
        context.print(`verificada  ${item.name}  ${item.uuid}  id=${item.id} (estaba sin verificar)`);
      for (const item of result.rejected) context.print(`rechazada  ${item.name}  ${item.reason}`);
      context.print(`${result.imported.length} importadas, ${result.rejected.length} rechazadas`);
      return result.rejected.length > 0 ? 1 : 0;
    },
  },
  'cfdi:verify': {
    usage: 'cfdi:verify <file|dir>...',
    summary:
      "prove CFDI 4.0 XML files without importing them: seal, certificate (holder, authority, validity on Fecha), stamp, SAT's status and the issuer's 69-B situation; exit 0 only when every seal holds and SAT says Vigente",
    // The sandbox SAT reads its cancellations, and the 69-B list is read, from the database.
    needsDatabase: () => true,
    async run(context, args) {
      const { positional } = parseArgs(args, []);
      if (positional.length === 0)
        throw new UsageError('cfdi:verify necesita al menos un archivo XML o una carpeta.');
      const files = xmlFiles(context.cwd ?? process.cwd(), positional).map((path) => ({
        name: basename(path),
        content: readFileSync(path),
      }));
      const reports = await verifyCfdiFiles(requireDatabase(context).db, opsAuthenticity(context), files);
      for (const report of reports) printCfdiReport(context, report);
      const passed = reports.filter((report) => report.passed).length;
      context.print(`${passed} de ${reports.length} CFDI verificados: sello válido y vigentes ante el SAT.`);
      return passed === reports.length ? 0 : 1;
    },
  },
  'cfdi:sat-check': {
    usage: 'cfdi:sat-check',
    summary:
      "ask SAT now what the cfdi-sat-check job would ask next (bulk imports 'verificando en el SAT', unanswered questions past their backoff, desk answers older than 24 h), until nothing is due",
    needsDatabase: () => true,
    async run(context, args) {
      parseArgs(args, []);
      const { db } = requireDatabase(context);
      const authenticity = opsAuthenticity(context);
      const totals = new Map<string, number>();
      let asked = 0;
      // Each round asks one job batch; a question SAT leaves unanswered is not due again until its backoff.
      for (
        let due = await invoicesDueForSat(db, context.now());
        due.length > 0;
        due = await invoicesDueForSat(db, context.now())
      ) {
        const states = await recheckAtSat(db, authenticity, due);
        asked += due.length;
        for (const state of states.values()) totals.set(state, (totals.get(state) ?? 0) + 1);
        if ([...states.values()].every((state) => state === 'pending')) break;
      }
      const summary = [...totals]
        .map(([state, n]) => `${n} ${cfdiProofLabel(state as ProofState)}`)
        .join(', ');
      context.print(
        asked === 0 ? 'Nada que consultar al SAT.' : `${asked} CFDI consultados en el SAT: ${summary}.`,
      );
      return 0;
    },
  },
  'efos:import': {
    usage: 'efos:import <Listado_Completo_69-B.csv>',
    summary:
      "replace SAT's 69-B list (EFOS) in one transaction; the alliances of every allied provider it names Presunto or Definitivo are paused and the operators told (e-mail and the inbox's 69-B tab); a malformed file changes nothing (exit 1)",
    needsDatabase: () => true,
    async run(context, args) {
      const file = fileArgument(context, args, 'el archivo del listado 69-B');
      const stat = existing(file);
      if (!stat.isFile()) throw new UsageError(`${file} no es un archivo.`);
      // The size first: a file over the parser's limit is refused without reading it into memory.
      if (stat.size > EFOS_LIMITS.maxBytes) {
        context.print(`${basename(file)}: ${EFOS_REASONS.tooLarge} No se cambió nada.`);
        return 1;
      }
      const result = await importEfosList(
        {
          db: requireDatabase(context).db,
          mailer: opsMailer(context),
          operatorEmail: context.config.operatorEmail,
          appBaseUrl: context.config.appBaseUrl,
        },
        basename(file),
        readFileSync(file),
      );
      if (!result.ok) {
        context.print(`${basename(file)}: ${result.reason} No se cambió nada.`);
        return 1;
      }
      const count = (n: number) => n.toLocaleString('en-US');
      const date = efosListDate(result.preamble);
      context.print(`Lista 69-B importada de ${basename(file)}${date ? ` (${date})` : ''}.`);
      context.print(
        `${count(result.entries)} contribuyentes cargados de ${count(result.rowCount)} filas; ${count(result.withheldRowCount)} ${result.withheldRowCount === 1 ? 'fila' : 'filas'} con el RFC reservado por el SAT.`,
      );
      context.print(`${count(result.blocking)} en situación que bloquea sus CFDI (Presunto o Definitivo).`);
      const newly = result.providers.filter((provider) => provider.newlyListed);
      context.print(`Proveedores con alianza que entran a la lista: ${newly.length}.`);
      for (const provider of result.providers) {
        context.print(
          `  ${provider.rfc}  ${provider.name}  ${provider.situation}${provider.newlyListed ? ' (nuevo)' : ''}  ${alliancesText(provider.alliancesPaused)}`,
        );
      }
      context.print(`Alianzas en pausa: ${result.alliancesPaused}.`);
      if (result.notified)
        context.print(
          `Se avisó a ${context.config.operatorEmail}; los proveedores están en la bandeja (pestaña Lista 69-B del SAT).`,
        );
      return 0;
    },
  },
  'mail:list': {
    usage: 'mail:list [--limit N]',
    summary: 'the mail outbox, newest first (default 10)',
    needsDatabase: () => true,
    async run(context, args) {
      const limit = listLimit(args, 'mail:list');
      const rows = await listOutbox(requireDatabase(context).db, limit);
      if (rows.length === 0) context.print('The outbox is empty.');
      for (const row of rows) {
        const state = row.sent_at
          ? `sent ${row.sent_at}`
          : row.next_attempt_at
            ? `queued, attempt ${row.attempts + 1} at ${row.next_attempt_at}${row.error ? `; last error: ${row.error}` : ''}`
            : row.error
              ? `gave up after ${row.attempts} attempts: ${row.error}`
              : 'not sent (outbox)';
        context.print(`#${row.id}  ${row.created_at}  to ${row.recipient}  [${state}]`);
        context.print(`Subject: ${row.subject}`);
        context.print(row.body_text);
        context.print('-'.repeat(72));
      }
      return 0;
    },
  },
  'demo-requests:list': {
    usage: 'demo-requests:list [--limit N]',
    summary: 'demo requests from the public site, newest first (default 10)',
    needsDatabase: () => true,
    async run(context, args) {
      const limit = listLimit(args, 'demo-requests:list');
      const rows = await listDemoRequests(requireDatabase(context).db, limit);
      if (rows.length === 0) context.print('No demo requests yet.');
      for (const row of rows) {
        context.print(
          `#${row.id}  ${row.created_at}  ${row.first_name} ${row.last_name}  ${row.company}  ${row.email}  ${row.phone}  [${row.source}]`,
        );
      }
      return 0;
    },
  },
  'referrals:list': {
    usage: 'referrals:list [--limit N]',
    summary: 'customers referred by providers, newest first (default 10)',
    needsDatabase: () => true,
    async run(context, args) {
      const limit = listLimit(args, 'referrals:list');
      const rows = await listReferrals(requireDatabase(context).db, limit);
      if (rows.length === 0) context.print('No referrals yet.');
      for (const row of rows) {
        context.print(
          `#${row.id}  ${row.created_at}  ${row.name}  ${row.company}  ${row.email}  ${row.phone}  [por ${row.referrer}, ${row.referrer_company}]`,
        );
      }
      return 0;
    },
  },
  'alliances:requests': {
    usage: 'alliances:requests [--limit N]',
    summary: 'alliance requests from providers, newest first (default 10)',
    needsDatabase: () => true,
    async run(context, args) {
      const limit = listLimit(args, 'alliances:requests');
      const rows = await listAllianceRequests(requireDatabase(context).db, limit);
      if (rows.length === 0) context.print('No alliance requests yet.');
      for (const row of rows) {
        context.print(
          `#${row.id}  ${row.created_at}  ${row.provider_rfc} ${row.provider_name} → ${row.client_rfc} ${row.client_name}  ${row.contact_name}  ${row.email}  ${row.phone}  [${row.status}]`,
        );
      }
      return 0;
    },
  },
  'company:clabe': {
    usage: 'company:clabe <RFC> <CLABE>',
    summary:
      "record the CLABE Flujo deposits a company's advances to (check digit verified; the control desk checks it)",
    needsDatabase: () => true,
    async run(context, args) {
      const parsed = parseArgs(args, []);
      if (parsed.positional.length !== 2) throw new UsageError('company:clabe necesita el RFC y la CLABE.');
      const rfc = rfcArgument(parsed.positional[0] ?? '');
      const check = checkClabe(parsed.positional[1] ?? '');
      if (!check.ok) throw new UsageError(check.reason);
      if (!(await setDisbursementClabe(requireDatabase(context).db, rfc, check.clabe))) {
        throw new UsageError(`No hay ninguna empresa con el RFC ${rfc}.`);
      }
      context.print(`CLABE de depósito de ${rfc}: ${check.clabe} (${check.bankName ?? check.bankCode}).`);
      return 0;
    },
  },
  'sat:approve': {
    usage: 'sat:approve <RFC> [--rate 17.40]',
    summary:
      "approve the RFC's oldest pending SAT link (SENT → AUTHORIZED; other claims of it rejected) and import its sandbox CFDI",
    needsDatabase: () => true,
    async run(context, args) {
      const parsed = parseArgs(args, ['rate']);
      const rfc = rfcArgument(onePositional(parsed, 'el RFC'));
      const rate = parsed.options.get('rate');
      if (rate !== undefined && (!RATE_TEXT.test(rate) || Number(rate) > MAX_RATE_PERCENT)) {
        throw new UsageError('--rate es la tasa anual con IVA en porcentaje, de 0 a 100, por ejemplo 17.40.');
      }
      const result = await approveSatLink(satDeps(context), rfc, rate ? { allianceRate: rate } : {});
      context.print(
        result.changed
          ? `Vinculación SAT de ${rfc} aprobada.`
          : `La vinculación SAT de ${rfc} ya estaba autorizada; se sincronizaron sus CFDI.`,
      );
      if (result.rejectedClaims > 0) {
        context.print(`Solicitudes de otras cuentas por el mismo RFC, rechazadas: ${result.rejectedClaims}.`);
      }
      printSync(context, result.sync);
      return 0;
    },
  },
  'sat:reject': {
    usage: 'sat:reject <RFC>',
    summary: "reject the RFC's oldest pending SAT link (SENT → UNAUTHORIZED); the stored CIEC is erased",
    needsDatabase: () => true,
    async run(context, args) {
      const rfc = rfcArgument(onePositional(parseArgs(args, []), 'el RFC'));
      await rejectSatLink(satDeps(context), rfc);
      context.print(`Vinculación SAT de ${rfc} rechazada.`);
      return 0;
    },
  },
  'sat:sync': {
    usage: 'sat:sync <RFC>',
    summary: "import new CFDI from an authorized RFC's sandbox folder",
    needsDatabase: () => true,
    async run(context, args) {
      const rfc = rfcArgument(onePositional(parseArgs(args, []), 'el RFC'));
      printSync(context, await syncIssuedCfdi(satDeps(context), rfc));
      return 0;
    },
  },
  'sat:generate': {
    usage: 'sat:generate <RFC> [--count N] [--name "Razón social"] [--to <corporate RFC>]',
    summary: 'write CFDI 4.0 XML issued by the RFC (to the demo corporate) into its sandbox folder',
    // With --name (and no --to) nothing is read from the database, so it works beside a running PGlite server.
    needsDatabase: (args) =>
      !args.some((arg) => arg.startsWith('--name')) || args.some((a) => a.startsWith('--to')),
    async run(context, args) {
      const parsed = parseArgs(args, ['count', 'name', 'to']);
      const rfc = rfcArgument(onePositional(parsed, 'el RFC emisor'));
      const count = integerOption(parsed, 'count', 10, 1, MAX_GENERATED_CFDI);
      const lookup = async (companyRfc: string) => {
        const name = await findCompanyName(requireDatabase(context).db, companyRfc);
        if (name === undefined)
          throw new SatOperationError(`No hay ninguna empresa con el RFC ${companyRfc}.`);
        return name;
      };
      const name = parsed.options.get('name') ?? (await lookup(rfc));
      const toText = parsed.options.get('to');
      const receiver = toText
        ? { rfc: rfcArgument(toText), name: await lookup(rfcArgument(toText)) }
        : DEMO_CORPORATE;
      const paths = generateSandboxCfdi({
        authority: opsDemoAuthority(context),
        sandboxDir: context.config.satSandboxDir,
        issuer: { rfc, name },
        receiver: { rfc: receiver.rfc, name: receiver.name },
        count,
        today: businessDate(context.now()),
      });
      for (const path of paths) context.print(path);
      context.print(
        `${paths.length} CFDI escritos en ${sandboxFolder(context.config.satSandboxDir, rfc)}; se importan al aprobar la vinculación (sat:approve) o con sat:sync ${rfc}.`,
      );
      return 0;
    },
  },
  'sat:cancel': {
    usage: 'sat:cancel <UUID>',
    summary: 'an invoice was cancelled at SAT: → DISABLED through the lifecycle machine',
    needsDatabase: () => true,
    async run(context, args) {
      const uuid = onePositional(parseArgs(args, []), 'el folio fiscal (UUID)');
      const applied = await cancelInvoiceAtSat(requireDatabase(context).db, uuid, {
        sandbox: context.config.satStatusUrl === null,
      });
      context.print(`Factura ${applied.invoiceId} cancelada ante el SAT: ${applied.from} → ${applied.to}.`);
      return 0;
    },
  },
  disburse: {
    usage: 'disburse <invoice id|UUID> [--reference SPEI-KEY] [--force] [--as ACCOUNT]',
    summary:
      'the advance was paid, through the control desk (approval as automation, a SPEI batch of one, liquidada): ' +
      'PROCESS → PAID with its disbursement record; --force records failing desk checks instead of refusing; ' +
      'the batch records the automation account (--as, else FLUJO_OPS_ACCOUNT, else the OS user)',
    needsDatabase: () => true,
    async run(context, args) {
      // --force takes no value, which parseArgs does not know: it is taken out first.
      const force = args.includes('--force');
      const parsed = parseArgs(
        args.filter((arg) => arg !== '--force'),
        ['reference', 'as'],
      );
      const ref = onePositional(parsed, 'el id o el folio fiscal (UUID) de la factura');
      const account = parsed.options.get('as') ?? context.account ?? opsAccount();
      if (!OPS_ACCOUNT_PATTERN.test(account)) {
        throw new UsageError(
          'La cuenta de automatización (--as o FLUJO_OPS_ACCOUNT) tiene de 1 a 64 letras, dígitos, puntos, guiones o @.',
        );
      }
      const { db } = requireDatabase(context);
      const reference = parsed.options.get('reference');
      const result = await disburseInvoice(db, ref, {
        today: businessDate(context.now()),
        authenticity: opsAuthenticity(context),
        account,
        ...(reference ? { reference } : {}),
        mailer: satDeps(context).mailer,
        force,
      });
      context.print(
        `Factura ${result.label} (id ${result.invoiceId}) pagada: ${result.amount} MXN, referencia ${result.reference}.`,
      );
      return 0;
    },
  },
  'desk:reject': {
    usage: 'desk:reject <invoice id> --reason "motivo"',
    summary:
      'the control desk rejects an advance En trámite (as automation): back to Autorizada, reservation cancelled, ' +
      'the provider e-mailed the reason',
    needsDatabase: () => true,
    async run(context, args) {
      const parsed = parseArgs(args, ['reason']);
      const id = onePositional(parsed, 'el id de la factura');
      const reason = parsed.options.get('reason');
      if (reason === undefined || reason.trim() === '') {
        throw new UsageError('Indica el motivo con --reason "motivo".');
      }
      const invoiceId = /^\d{1,10}$/.test(id) ? Number(id) : 0;
      const item = await rejectDeskItem(
        requireDatabase(context).db,
        invoiceId,
        { id: null, username: OPERATOR_LABEL },
        { reason, today: businessDate(context.now()), mailer: satDeps(context).mailer },
      );
      context.print(
        `Adelanto de la factura ${item.label} (id ${item.invoice_id}) rechazado: ${reason.trim()}.`,
      );
      return 0;
    },
  },
  'demo:payment-complement': {
    usage: 'demo:payment-complement',
    summary:
      "the demo buyer pays two of the demo provider's advances and its REP for the first arrives (once; decision 0070)",
    needsDatabase: () => true,
    async run(context, args) {
      parseArgs(args, []);
      const result = await seedDemoPaymentComplements(
        requireDatabase(context).db,
        opsAuthenticity(context),
        businessDate(context.now()),
      );
      context.print(
        result.created ? `Complemento de pago demo: ${result.summary}` : `Sin cambios: ${result.summary}.`,
      );
      return 0;
    },
  },
  'factoring:enable': {
    usage: 'factoring:enable <RFC> --line 500000 [--rate 18.5]',
    summary:
      "grant a company its factoring line (MXN) and rate; its pending enable requests become 'enabled'",
    needsDatabase: () => true,
    async run(context, args) {
      const parsed = parseArgs(args, ['line', 'rate']);
      const rfc = rfcArgument(onePositional(parsed, 'el RFC'));
      const line = parsed.options.get('line');
      if (line === undefined)
        throw new UsageError('Indica la línea en pesos con --line, por ejemplo --line 500000.');
      const rate = parsed.options.get('rate');
      const granted = await enableFactoringLine(requireDatabase(context).db, rfc, {
        line,
        ...(rate === undefined ? {} : { rate }),
      });
      context.print(
        `Factoraje habilitado para ${granted.rfc} (${granted.name}): línea ${granted.creditLine} MXN, tasa anual ${granted.rate} %; ${granted.enrolmentsEnabled} solicitudes de alta atendidas.`,
      );
      return 0;
    },
  },
  'factoring:requests': {
    usage: 'factoring:requests [--limit N]',
    summary: 'factoring enable requests, newest first (default 10)',
    needsDatabase: () => true,
    async run(context, args) {
      const limit = listLimit(args, 'factoring:requests');
      const rows = await listEnableRequests(requireDatabase(context).db, limit);
      if (rows.length === 0) context.print('No factoring enable requests yet.');
      for (const row of rows) {
        context.print(
          `#${row.id}  ${row.createdAt}  ${row.rfc ?? '(sin RFC)'}  ${row.company}  ${row.username ?? '-'}  [${row.status}]`,
        );
      }
      return 0;
    },
  },
  'factoring:settle': {
    usage: 'factoring:settle <record id> [--instalment N]',
    summary:
      'record the next unpaid (or the given) instalment of a factoring record paid; frees its part of the line',
    needsDatabase: () => true,
    async run(context, args) {
      const parsed = parseArgs(args, ['instalment']);
      const idText = onePositional(parsed, 'el id de la solicitud de factoraje');
      if (!/^[1-9]\d{0,8}$/.test(idText))
        throw new UsageError(`"${idText}" no es un id de solicitud de factoraje.`);
      const number = parsed.options.has('instalment')
        ? integerOption(parsed, 'instalment', 1, MIN_FACTORING_INSTALMENTS, MAX_FACTORING_INSTALMENTS)
        : undefined;
      const paid = await settleInstalment(requireDatabase(context).db, Number(idText), {
        now: context.now(),
        ...(number === undefined ? {} : { number }),
      });
      context.print(
        `Pago ${paid.number} de la solicitud de factoraje ${paid.recordId} registrado: ${paid.amount} MXN; se liberaron ${paid.lineRelease} MXN de la línea.${paid.settled ? ' La solicitud quedó liquidada.' : ''}`,
      );
      return 0;
    },
  },
  'collections:run-day': {
    usage: 'collections:run-day [--date YYYY-MM-DD] [--corporativo RFC]',
    summary:
      "run the day's collections as of the date (today by default): the buyers' maturity notices, aging from the collections, and programmes frozen for morosidad past due + grace days, with the aprobadores e-mailed (the collections-day job runs the same); a past date re-runs a missed day, a future one only outside production; --corporativo freezes only that buyer's programme",
    needsDatabase: () => true,
    async run(context, args) {
      const parsed = parseArgs(args, ['date', 'corporativo']);
      if (parsed.positional.length > 0)
        throw new UsageError('collections:run-day solo toma --date AAAA-MM-DD y --corporativo RFC.');
      const today = businessDate(context.now());
      const asOf = collectionsDayDate(parsed.options.get('date') ?? null, today, context.config.production);
      const account = context.account ?? opsAccount();
      const { db } = requireDatabase(context);
      const buyerRfc = parsed.options.get('corporativo');
      let corporateId: number | undefined;
      if (buyerRfc !== undefined) {
        const rfc = rfcArgument(buyerRfc);
        const buyer = await db.selectFrom('companies').select('id').where('rfc', '=', rfc).executeTakeFirst();
        if (!buyer) throw new UsageError(`No hay ninguna empresa con el RFC ${rfc}.`);
        corporateId = buyer.id;
      }
      const result = await runCollectionsDay(
        db,
        asOf,
        {
          mailer: opsMailer(context),
          appBaseUrl: context.config.appBaseUrl,
          actor: { username: automationUsername(account), via: 'OPS' },
          collectionClabe: context.config.collectionClabe,
        },
        { corporateId },
      );
      context.print(`Cobranza del día ${displayDate(result.asOf)}:`);
      context.print(
        `  Avisos de vencimiento: ${result.notices.sent['5d']} a 5 días hábiles, ${result.notices.sent['1d']} a 1 día hábil (${result.notices.emails} correos)`,
      );
      for (const line of agingLines(result.aging, (bucket) => AGING_BUCKET_LABELS[bucket]))
        context.print(`  ${line} MXN`);
      context.print(
        `  Por cobrar: ${formatMoneyAmount(result.aging.outstanding)} MXN en ${result.aging.invoices} facturas`,
      );
      for (const frozen of result.frozen)
        context.print(
          `Congelado por morosidad: ${frozen.corporateName} (programa ${frozen.programmeId}), ${frozen.invoices} facturas vencidas, la más antigua el ${displayDate(frozen.oldestDueOn)}`,
        );
      context.print(
        `${result.frozen.length} programas congelados por morosidad, ${result.mailed} correos a aprobadores.`,
      );
      return 0;
    },
  },
  backup: {
    usage: 'backup <file>',
    summary:
      'write a consistent backup of the database to a new file, with the server running (PGlite: .tar.gz of its data; PostgreSQL: pg_dump -Fc)',
    needsDatabase: () => true,
    // A backup copies the database as it is; migrating it first would change what is being saved.
    migrates: false,
    async run(context, args) {
      const file = fileArgument(context, args, 'el archivo del respaldo');
      const database = requireDatabase(context);
      const result =
        database.kind === 'pglite'
          ? await backupPglite(database, file)
          : await backupPostgres(context.config.databaseUrl ?? '', file);
      const engine = result.kind === 'pglite' ? 'PGlite' : 'PostgreSQL (pg_dump, formato custom)';
      context.print(
        `Respaldo de ${engine} escrito en ${file} (${(result.bytes / MEGABYTE).toFixed(1)} MB). Se restaura con: npm run ops -- restore ${file}`,
      );
      return 0;
    },
  },
  restore: {
    usage: 'restore <file>',
    summary:
      'replace the database with a backup (server stopped; PGlite keeps the replaced data beside it, PostgreSQL restores in one transaction)',
    // PGlite: restore takes DATA_DIR's lock itself and never opens the data it replaces (it may be the broken
    // copy being recovered from); with a server holding DATA_DIR it refuses instead of going over the socket.
    needsDatabase: () => false,
    async run(context, args) {
      const file = fileArgument(context, args, 'el archivo del respaldo');
      const url = context.config.databaseUrl;
      if (url) {
        const restored = await restorePostgres(url, file);
        context.print(
          `Respaldo ${file} restaurado en PostgreSQL (${restored.tables} tablas, en una sola transacción). Ya puedes iniciar Flujo.`,
        );
        return 0;
      }
      const { keptAs } = await restorePglite(context.config.dataDir, file, context.now());
      context.print(`Respaldo ${file} restaurado en ${context.config.dataDir}. Ya puedes iniciar Flujo.`);
      if (keptAs)
        context.print(`Los datos que había quedaron en ${keptAs}; bórralos cuando ya no los necesites.`);
      return 0;
    },
  },
  'idempotency:prune': {
    usage: 'idempotency:prune [--hours N]',
    summary: 'delete Idempotency-Key records older than N hours (default 72)',
    needsDatabase: () => true,
    async run(context, args) {
      const hours = integerOption(parseArgs(args, ['hours']), 'hours', 72, 24, 24 * 365);
      const deleted = await pruneIdempotencyKeys(requireDatabase(context).db, context.now(), hours);
      context.print(`${deleted} claves de idempotencia eliminadas.`);
      return 0;
    },
  },
  'audit:verify': {
    usage: 'audit:verify',
    summary:
      'check the audit trail is intact: every invoice chain, the global chain and its head; names the first broken row and exits 1',
    needsDatabase: () => true,
    async run(context, args) {
      parseArgs(args, []);
      const started = performance.now();
      const result = await verifyAuditChain(requireDatabase(context).db);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const counts = `${result.events.toLocaleString('en-US')} eventos / events, ${result.invoices.toLocaleString('en-US')} facturas / invoices`;
      if (!result.broken) {
        context.print(`Bitácora íntegra / Audit trail intact: ${counts}, en / in ${seconds} s.`);
        context.print(
          `Cabeza de la cadena / Chain head: #${result.headSeq} sha256 ${result.headHash ?? '(vacía / empty)'}`,
        );
        return 0;
      }
      const { broken } = result;
      context.print(`Bitácora alterada / Audit trail BROKEN (${counts}, ${seconds} s).`);
      context.print(
        `Primera fila rota / First broken row: evento / event ${broken.eventId ?? '(ninguno / none)'}` +
          (broken.chainSeq ? ` (#${broken.chainSeq})` : '') +
          (broken.invoiceId === null
            ? ''
            : `, factura / invoice ${broken.invoiceFolio ?? '(sin folio)'} ${broken.invoiceUuid ?? ''} (id ${broken.invoiceId})`),
      );
      context.print(`Revisión fallida / Failed check: ${AUDIT_CHECKS[broken.check]}`);
      if (broken.check === 'head')
        context.print(
          `Cabeza registrada / Recorded head: #${result.headSeq} sha256 ${result.headHash ?? '-'}`,
        );
      return 1;
    },
  },
  'audit:export': {
    usage: 'audit:export --from YYYY-MM-DD --to YYYY-MM-DD [--out file.xlsx]',
    summary: `write the audit trail of every company's invoices in the date range (both days included, at most ${MAX_AUDIT_RANGE_DAYS}) as XLSX, with emisor and receptor columns`,
    needsDatabase: () => true,
    async run(context, args) {
      const parsed = parseArgs(args, ['from', 'to', 'out']);
      if (parsed.positional.length > 0)
        throw new UsageError('audit:export solo acepta --from, --to y --out.');
      const query = validateForm(AuditTrailQuery, {
        from: parsed.options.get('from'),
        to: parsed.options.get('to'),
      });
      if (!query.ok)
        throw new UsageError(
          Object.entries(query.errors)
            .map(([field, messages]) => `--${field}: ${messages.join(' ')}`)
            .join('\n'),
        );
      const { from, to } = query.value;
      const file = resolve(
        context.cwd ?? process.cwd(),
        parsed.options.get('out') ?? auditTrailFileName(from, to),
      );
      if (existsSync(file)) throw new UsageError(`${file} ya existe; no se sobrescribe.`);
      const out = createWriteStream(file, { flags: 'wx', mode: PRIVATE_FILE_MODE });
      const finished = new Promise<void>((done, fail) => {
        out.on('finish', done);
        out.on('error', fail);
      });
      const started = performance.now();
      const events = await writeAuditTrail(
        requireDatabase(context).db,
        { all: true },
        { from, to },
        out,
        context.now(),
      );
      await finished;
      context.print(
        `Bitácora de ${from} a ${to}: ${events.toLocaleString('en-US')} eventos escritos en ${file} (${((performance.now() - started) / 1000).toFixed(1)} s).`,
      );
      return 0;
    },
  },
};

/** The commands' lines for `npm run ops -- help`. */
export const OPS_HELP = Object.values(OPS_COMMANDS)
  .map((command) => `  npm run ops -- ${command.usage}\n      ${command.summary}`)
  .join('\n');

/** Explains a refusal instead of a stack trace; anything unexpected is rethrown. */
function refusalText(error: unknown): string | null {
  // A lifecycle refusal carries the refusal table's words (src/machines/invoice-actions.ts).
  if (
    error instanceof UsageError ||
    error instanceof OperatorCreationError ||
    error instanceof SatOperationError ||
    error instanceof DisbursementError ||
    error instanceof DeskError ||
    error instanceof FactoringOperationError ||
    error instanceof IllegalTransitionError ||
    error instanceof BackupError
  ) {
    return error.message;
  }
  return null;
}

export interface RunOptions {
  config?: Config;
  /**
   * An open database to use and leave open (the running server's, when it runs a command that came over
   * its ops socket). Without it the command opens its own when it needs one, and closes it.
   */
  database?: DatabaseHandle;
  output?: OpsOutput;
  now?: () => Date;
  cwd?: string;
  /** The automation account (the ops socket passes its caller's); default opsAccount() of this process. */
  account?: string;
}

/**
 * Runs one command with its database and explains refusals (stderr, exit 1; usage errors exit 2) instead of
 * a stack trace; anything unexpected is rethrown. The CLI and the ops socket both come through here, so a
 * command answers the same whether the CLI opened the database or the running server holds it.
 */
export async function runOpsCommand(
  command: OpsCommand,
  args: readonly string[],
  options: RunOptions = {},
): Promise<number> {
  wireModules();
  const config = options.config ?? loadConfig();
  const output = options.output ?? CONSOLE_OUTPUT;
  const shared = options.database ?? null;
  const database = !command.needsDatabase(args)
    ? null
    : (shared ??
      (await openDatabase({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        migrate: command.migrates ?? true,
      })));
  try {
    return await command.run(
      {
        config,
        database,
        now: options.now ?? systemClock,
        print: (line) => output.out(line),
        cwd: options.cwd ?? process.cwd(),
        account: options.account ?? opsAccount(),
      },
      args,
    );
  } catch (error) {
    const text = refusalText(error);
    if (text === null) throw error;
    output.err(text);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    if (database !== shared) await database?.close();
  }
}
