import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** Secret for signing JWTs; generated into DATA_DIR on first development start. */
  jwtSecret: string;
  seedDemo: boolean;
  contactEmail: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  production: boolean;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

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

/** Reads and validates the environment; collects every problem so one start shows them all. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const production = env.NODE_ENV === 'production';

  const portText = env.PORT ?? '8080';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push(`PORT must be an integer 0-65535 (got "${portText}")`);

  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  }

  const logLevel = (env.LOG_LEVEL ?? 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const contactEmail = env.CONTACT_EMAIL ?? 'contacto@flujo.mx';
  if (!EMAIL.test(contactEmail))
    problems.push(`CONTACT_EMAIL must be an e-mail address (got "${contactEmail}")`);

  const dataDir = resolve(env.DATA_DIR || 'data');
  let jwtSecret = env.JWT_SECRET ?? '';
  if (jwtSecret && jwtSecret.length < 32) problems.push('JWT_SECRET must be at least 32 characters');
  if (!jwtSecret && production) problems.push('JWT_SECRET is required when NODE_ENV=production');

  const seedDemo = parseBoolean('SEED_DEMO', env.SEED_DEMO, true, problems);

  if (problems.length > 0) throw new ConfigError(problems);
  if (!jwtSecret) jwtSecret = developmentSecret(dataDir);

  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl,
    jwtSecret,
    seedDemo,
    contactEmail,
    logLevel,
    production,
  };
}

/** Development convenience: a random secret kept beside the data so restarts keep sessions valid. */
function developmentSecret(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
