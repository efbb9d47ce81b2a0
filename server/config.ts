import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_UPLOAD_MAX_MB } from '../src/domain/bulk-upload';
import { checkClabe } from '../src/domain/clabe';
import { SAT_KEY_BYTES } from './crypto/bound-cipher';
import { LIST_ANSWERS_KEPT } from './modules/invoices/list-answers';
import { SAT_STATUS_PRODUCTION_URL } from './modules/sat/sat-status-soap';
import { PRIVATE_FILE_MODE, privateDirectory } from './private-files';

/** A demonstration STP CLABE (check digit valid) where buyers pay their maturities until COLLECTION_CLABE is set. */
export const DEMO_COLLECTION_CLABE = '646180000000000012';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** Secret for signing JWTs; generated into DATA_DIR on first development start. */
  jwtSecret: string;
  seedDemo: boolean;
  /** Trust X-Forwarded-For (TRUST_PROXY=true only when Flujo is reachable solely through a proxy). */
  trustProxy: boolean;
  contactEmail: string;
  /** Flujo's operations desk: referrals and alliance requests are e-mailed here (OPERATOR_EMAIL). */
  operatorEmail: string;
  /** Flujo's collection account: buyers pay their maturities to this CLABE (COLLECTION_CLABE, decision 0066). */
  collectionClabe: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  production: boolean;
  /** Lifetime of an access token (JWT `exp`), minutes. */
  accessTokenMinutes: number;
  /** Absolute lifetime of a refresh-token family from login, hours. */
  refreshTokenHours: number;
  /** Public origin of the app, no trailing slash: links in e-mails point here. */
  appBaseUrl: string;
  /** smtp:// or smtps:// URL; null keeps mail in the outbox table (and the log). */
  smtpUrl: string | null;
  mailFrom: string;
  /** How often each process looks for queued mail to deliver (MAIL_POLL_MS), milliseconds. */
  mailPollMs: number;
  /** After SIGTERM, how long requests under way may run before their connections are closed. */
  shutdownGraceSeconds: number;
  /** Google reCAPTCHA v3 keys; null means the self-hosted ALTCHA proof of work. */
  recaptcha: { secretKey: string; siteKey: string } | null;
  /** HMAC key that signs ALTCHA challenges; derived from jwtSecret when not configured. */
  altchaHmacKey: string;
  /** AES-256-GCM key (32 bytes) for stored CIEC; generated into DATA_DIR on first development start. */
  satEncryptionKey: Buffer;
  /** Development only: SAT links are approved after this many seconds and new sandbox CFDI imported; null = off. */
  satAutoApproveSeconds: number | null;
  /** The sandbox SAT connector's source: one folder of CFDI XML per RFC. */
  satSandboxDir: string;
  /** Largest file the bulk uploads accept (UPLOAD_MAX_MB), bytes. */
  uploadMaxBytes: number;
  /** Multiplies every public write's throttle limit (PUBLIC_WRITE_LIMIT_FACTOR); 1 in production. */
  publicWriteLimitFactor: number;
  /**
   * The test-support API's token (decision 0048): set only when TEST_SUPPORT_ROUTES=true and TEST_SUPPORT_TOKEN
   * (32+ characters) are both given; null, the default, means its routes do not exist.
   */
  testSupportToken: string | null;
  /** SAT's CA and stamping certificates (SAT_TRUST_DIR, PEM or DER); required in production. */
  satTrustDir: string | null;
  /** The demo certificate authority (DEMO_AUTHORITY_DIR, default DATA_DIR/demo-authority); null in production. */
  demoAuthorityDir: string | null;
  /** SAT's ConsultaCFDIService (SAT_STATUS_URL); null = the sandbox SAT, outside production only. */
  satStatusUrl: string | null;
  /** How long one status question may take (SAT_STATUS_TIMEOUT_MS). */
  satStatusTimeoutMs: number;
  /** How many invoice lists' answers each process keeps (LIST_ANSWERS_KEPT, decision 0077); 0 keeps none. */
  listAnswersKept: number;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// 'Flujo <no-responder@flujo.mx>' or a bare address.
const MAIL_FROM = /^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@]+@[^\s@]+\.[^\s@]+)$/;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

function parseBoolean(
  name: string,
  value: string | undefined,
  fallback: boolean,
  problems: string[],
): boolean {
  if (value === undefined || value === '') return fallback;
  if (['1', 'true', 'yes'].includes(value.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(value.toLowerCase())) return false;
  problems.push(`${name} must be true or false (got "${value}")`);
  return fallback;
}

function parseInteger(
  name: string,
  value: string | undefined,
  fallback: number,
  range: { min: number; max: number },
  problems: string[],
): number {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < range.min || parsed > range.max) {
    problems.push(`${name} must be an integer ${range.min}-${range.max} (got "${value}")`);
    return fallback;
  }
  return parsed;
}

function parseBaseUrl(value: string | undefined, fallback: string, problems: string[]): string {
  const text = value?.trim() || fallback;
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
    if (url.search || url.hash) throw new Error('query');
  } catch {
    problems.push(`APP_BASE_URL must be an http(s) URL without query, like https://flujo.mx (got "${text}")`);
    return fallback;
  }
  return text.replace(/\/+$/, '');
}

/** Reads and validates the environment; collects every problem so one start shows them all. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const production = env.NODE_ENV === 'production';

  // An empty PORT= is unset, not port 0 (a random port nobody would find).
  const portText = env.PORT?.trim() || '8080';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push(`PORT must be an integer 0-65535 (got "${portText}")`);

  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  }

  // Like PORT, an empty LOG_LEVEL= means the default.
  const logLevel = (env.LOG_LEVEL?.trim() || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const contactEmail = env.CONTACT_EMAIL ?? 'contacto@flujo.mx';
  if (!EMAIL.test(contactEmail))
    problems.push(`CONTACT_EMAIL must be an e-mail address (got "${contactEmail}")`);

  const operatorEmail = env.OPERATOR_EMAIL?.trim() || 'operaciones@flujo.mx';
  if (!EMAIL.test(operatorEmail))
    problems.push(`OPERATOR_EMAIL must be an e-mail address (got "${operatorEmail}")`);

  const clabeCheck = checkClabe(env.COLLECTION_CLABE?.trim() || DEMO_COLLECTION_CLABE);
  if (!clabeCheck.ok) problems.push(`COLLECTION_CLABE must be an 18-digit CLABE with its check digit`);
  const collectionClabe = clabeCheck.ok ? clabeCheck.clabe : DEMO_COLLECTION_CLABE;

  const dataDir = resolve(env.DATA_DIR || 'data');
  let jwtSecret = env.JWT_SECRET ?? '';
  if (jwtSecret && jwtSecret.length < 32) problems.push('JWT_SECRET must be at least 32 characters');
  if (!jwtSecret && production) problems.push('JWT_SECRET is required when NODE_ENV=production');

  const seedDemo = parseBoolean('SEED_DEMO', env.SEED_DEMO, true, problems);
  const trustProxy = parseBoolean('TRUST_PROXY', env.TRUST_PROXY, false, problems);

  const accessTokenMinutes = parseInteger(
    'ACCESS_TOKEN_MINUTES',
    env.ACCESS_TOKEN_MINUTES,
    5,
    { min: 1, max: 60 },
    problems,
  );
  const refreshTokenHours = parseInteger(
    'REFRESH_TOKEN_HOURS',
    env.REFRESH_TOKEN_HOURS,
    24,
    { min: 1, max: 720 },
    problems,
  );
  const appBaseUrl = parseBaseUrl(env.APP_BASE_URL, `http://localhost:${portText}`, problems);

  const smtpUrl = env.SMTP_URL?.trim() || null;
  if (smtpUrl && !/^smtps?:\/\/[^/]+/.test(smtpUrl)) {
    problems.push('SMTP_URL must look like smtp://user:password@host:587 or smtps://…');
  }
  const mailFrom = env.MAIL_FROM?.trim() || 'Flujo <no-responder@flujo.mx>';
  if (!MAIL_FROM.test(mailFrom)) {
    problems.push(`MAIL_FROM must be an address or 'Name <address>' (got "${mailFrom}")`);
  }

  const mailPollMs = parseInteger(
    'MAIL_POLL_MS',
    env.MAIL_POLL_MS,
    2000,
    { min: 100, max: 600_000 },
    problems,
  );

  const listAnswersKept = parseInteger(
    'LIST_ANSWERS_KEPT',
    env.LIST_ANSWERS_KEPT,
    LIST_ANSWERS_KEPT,
    { min: 0, max: 100_000 },
    problems,
  );

  const shutdownGraceSeconds = parseInteger(
    'SHUTDOWN_GRACE_SECONDS',
    env.SHUTDOWN_GRACE_SECONDS,
    10,
    { min: 1, max: 600 },
    problems,
  );

  const recaptchaSecret = env.RECAPTCHA_SECRET_KEY?.trim() || '';
  const recaptchaSiteKey = env.RECAPTCHA_SITE_KEY?.trim() || '';
  if (Boolean(recaptchaSecret) !== Boolean(recaptchaSiteKey)) {
    problems.push('RECAPTCHA_SECRET_KEY and RECAPTCHA_SITE_KEY go together: set both or neither');
  }

  const configuredAltchaKey = env.ALTCHA_HMAC_KEY?.trim() || '';
  if (configuredAltchaKey && configuredAltchaKey.length < 32) {
    problems.push('ALTCHA_HMAC_KEY must be at least 32 characters');
  }

  const satKeyText = env.SAT_ENCRYPTION_KEY?.trim() || '';
  const configuredSatKey = satKeyText ? parseSatEncryptionKey(satKeyText) : null;
  if (satKeyText && !configuredSatKey) {
    problems.push(
      'SAT_ENCRYPTION_KEY must be 32 bytes as 64 hex digits or base64 (e.g. `openssl rand -base64 32`)',
    );
  }
  if (!satKeyText && production) problems.push('SAT_ENCRYPTION_KEY is required when NODE_ENV=production');
  const autoApproveText = env.SAT_AUTO_APPROVE_SECONDS?.trim() || '';
  const satAutoApproveSeconds = autoApproveText
    ? parseInteger('SAT_AUTO_APPROVE_SECONDS', autoApproveText, 0, { min: 1, max: 86_400 }, problems)
    : null;
  if (satAutoApproveSeconds !== null && production) {
    problems.push('SAT_AUTO_APPROVE_SECONDS is for development only; unset it when NODE_ENV=production');
  }

  const uploadMaxMb = parseInteger(
    'UPLOAD_MAX_MB',
    env.UPLOAD_MAX_MB,
    DEFAULT_UPLOAD_MAX_MB,
    { min: 1, max: 200 },
    problems,
  );

  // Tests and load runs that post the public forms many times from one address raise it; production keeps 1.
  const publicWriteLimitFactor = parseInteger(
    'PUBLIC_WRITE_LIMIT_FACTOR',
    env.PUBLIC_WRITE_LIMIT_FACTOR,
    1,
    { min: 1, max: 100_000 },
    problems,
  );

  // For a staging server that model tests drive over HTTP (npm run test:model:remote); never on production data.
  const testSupportRoutes = parseBoolean('TEST_SUPPORT_ROUTES', env.TEST_SUPPORT_ROUTES, false, problems);
  const testSupportToken = env.TEST_SUPPORT_TOKEN?.trim() || '';
  if (testSupportRoutes && testSupportToken.length < 32) {
    problems.push('TEST_SUPPORT_ROUTES=true needs TEST_SUPPORT_TOKEN of at least 32 characters');
  }

  const satTrustDir = env.SAT_TRUST_DIR?.trim() ? resolve(env.SAT_TRUST_DIR.trim()) : null;
  if (!satTrustDir && production) problems.push('SAT_TRUST_DIR is required when NODE_ENV=production');
  if (satTrustDir && !existsSync(satTrustDir)) problems.push(`SAT_TRUST_DIR ${satTrustDir} does not exist`);
  if (env.DEMO_AUTHORITY_DIR?.trim() && production) {
    problems.push('DEMO_AUTHORITY_DIR is for development only; production trusts SAT_TRUST_DIR alone');
  }
  const satStatusUrlText = env.SAT_STATUS_URL?.trim() || '';
  if (satStatusUrlText && !/^https?:\/\/[^\s]+$/.test(satStatusUrlText)) {
    problems.push('SAT_STATUS_URL must be an http(s) URL');
  }
  const satStatusTimeoutMs = parseInteger(
    'SAT_STATUS_TIMEOUT_MS',
    env.SAT_STATUS_TIMEOUT_MS?.trim() || '',
    DEFAULT_SAT_STATUS_TIMEOUT_MS,
    { min: 100, max: 120_000 },
    problems,
  );

  if (problems.length > 0) throw new ConfigError(problems);
  if (!jwtSecret) jwtSecret = developmentSecret(dataDir);
  // A separate key per purpose: a leaked CAPTCHA key must not sign sessions.
  const altchaHmacKey =
    configuredAltchaKey || createHmac('sha256', jwtSecret).update('flujo/altcha-hmac-key').digest('hex');

  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl,
    jwtSecret,
    seedDemo,
    trustProxy,
    contactEmail,
    operatorEmail,
    collectionClabe,
    logLevel,
    production,
    accessTokenMinutes,
    refreshTokenHours,
    appBaseUrl,
    smtpUrl,
    mailFrom,
    mailPollMs,
    listAnswersKept,
    shutdownGraceSeconds,
    recaptcha: recaptchaSecret ? { secretKey: recaptchaSecret, siteKey: recaptchaSiteKey } : null,
    altchaHmacKey,
    satEncryptionKey: configuredSatKey ?? developmentSatKey(dataDir),
    satAutoApproveSeconds,
    satSandboxDir: resolve(env.SAT_SANDBOX_DIR?.trim() || join(dataDir, 'sat-sandbox')),
    uploadMaxBytes: uploadMaxMb * 1024 * 1024,
    publicWriteLimitFactor,
    testSupportToken: testSupportRoutes ? testSupportToken : null,
    satTrustDir,
    demoAuthorityDir: production
      ? null
      : resolve(env.DEMO_AUTHORITY_DIR?.trim() || join(dataDir, 'demo-authority')),
    satStatusUrl: satStatusUrlText || (production ? SAT_STATUS_PRODUCTION_URL : null),
    satStatusTimeoutMs,
  };
}

/** SAT usually answers within a second; ten gives a slow day room and still frees the worker. */
const DEFAULT_SAT_STATUS_TIMEOUT_MS = 10_000;

/** Development convenience: a random secret kept beside the data so restarts keep sessions valid. */
function developmentSecret(dataDir: string): string {
  privateDirectory(dataDir);
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: PRIVATE_FILE_MODE });
  return secret;
}

/** 64 hex digits or base64/base64url of exactly 32 bytes; null for anything else. */
export function parseSatEncryptionKey(text: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) return null;
  const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key.length === SAT_KEY_BYTES ? key : null;
}

/** Like the JWT secret: a random key beside the data, so stored CIEC stay readable across restarts. */
function developmentSatKey(dataDir: string): Buffer {
  privateDirectory(dataDir);
  const file = join(dataDir, 'sat-encryption-key');
  if (existsSync(file)) {
    const key = parseSatEncryptionKey(readFileSync(file, 'utf8').trim());
    if (key) return key;
    throw new ConfigError([`${file} does not hold a 32-byte key; restore it or set SAT_ENCRYPTION_KEY`]);
  }
  const key = randomBytes(SAT_KEY_BYTES);
  writeFileSync(file, key.toString('base64'), { mode: PRIVATE_FILE_MODE });
  return key;
}
