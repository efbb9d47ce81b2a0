import { SERVER_MESSAGES } from '../../../src/domain/schemas/session';
import { TooManyAttemptsError } from './http-errors';
import type { Throttle, ThrottleRule } from './throttle';

/** The writes anyone can make without an account (and the provider's referral, which mails operations). */
export type PublicWrite = 'demoRequest' | 'newsletter' | 'referral' | 'signUp' | 'resetRequest';

/** What a public write is counted by: always the client's address; some also by company or e-mail. */
export interface PublicWriteKeys {
  address: string;
  company?: number;
  email?: string;
}

type Key = keyof PublicWriteKeys;

const HOUR = 60;
const DAY = 24 * HOUR;

/**
 * Every public write's limits, in one place (README "Throttling", GET /api/openapi.json's 429s). Each is far
 * above what one person filling a form ever sends and far below what a script would: a script gets a few
 * requests per window, a person never sees the 429. Each rule is multiplied by PUBLIC_WRITE_LIMIT_FACTOR.
 */
export const PUBLIC_WRITE_LIMITS = {
  // A burst limit a person never reaches, and a daily one that keeps a slow script to a handful a day.
  demoRequest: [
    { key: 'address', rule: { limit: 5, windowMinutes: 10 } },
    { key: 'address', rule: { limit: 20, windowMinutes: DAY } },
  ],
  newsletter: [
    { key: 'address', rule: { limit: 5, windowMinutes: 10 } },
    { key: 'address', rule: { limit: 20, windowMinutes: DAY } },
  ],
  // A provider may refer several customers in a sitting, but not a whole address book a day.
  referral: [
    { key: 'address', rule: { limit: 10, windowMinutes: 10 } },
    { key: 'company', rule: { limit: 50, windowMinutes: DAY } },
  ],
  // Refused forms count too (the limit runs before validation), so a script cannot probe usernames.
  signUp: [
    { key: 'address', rule: { limit: 5, windowMinutes: 10 } },
    { key: 'address', rule: { limit: 20, windowMinutes: DAY } },
  ],
  // Per e-mail, so nobody's inbox is flooded with reset links sent from many addresses.
  resetRequest: [
    { key: 'email', rule: { limit: 5, windowMinutes: HOUR } },
    { key: 'address', rule: { limit: 20, windowMinutes: HOUR } },
  ],
} as const satisfies Record<PublicWrite, ReadonlyArray<{ key: Key; rule: ThrottleRule }>>;

/** Counts public writes against PUBLIC_WRITE_LIMITS. */
export interface PublicWriteLimiter {
  /** Counts one write, or throws a 429 with SERVER_MESSAGES.tooManyRequests (nothing counted then). */
  take(write: PublicWrite, keys: PublicWriteKeys): Promise<void>;
  /** The limits in force (after the factor): what the OpenAPI document and the tests read. */
  readonly limits: Record<PublicWrite, ReadonlyArray<{ key: Key; rule: ThrottleRule }>>;
}

export function createPublicWriteLimiter(throttle: Throttle, factor: number): PublicWriteLimiter {
  const scaled = (write: PublicWrite) =>
    PUBLIC_WRITE_LIMITS[write].map(({ key, rule }) => ({
      key,
      rule: { ...rule, limit: rule.limit * factor },
    }));
  const limits: PublicWriteLimiter['limits'] = {
    demoRequest: scaled('demoRequest'),
    newsletter: scaled('newsletter'),
    referral: scaled('referral'),
    signUp: scaled('signUp'),
    resetRequest: scaled('resetRequest'),
  };
  return {
    limits,
    async take(write, keys) {
      const buckets = limits[write].flatMap(({ key, rule }) => {
        const value = keys[key];
        if (value === undefined) return [];
        // The window is part of the bucket: two rules on one key count separately.
        return [[`${write}:${key}:${rule.windowMinutes}:${String(value).toLowerCase()}`, rule] as const];
      });
      try {
        await throttle.take(buckets);
      } catch (error) {
        if (error instanceof TooManyAttemptsError) {
          throw new TooManyAttemptsError(error.retryAfterSeconds, SERVER_MESSAGES.tooManyRequests);
        }
        throw error;
      }
    },
  };
}

/** The 429 line of a public write in GET /api/openapi.json: the limits in words. */
export function publicWriteLimitDoc(write: PublicWrite): string {
  const per: Record<Key, string> = { address: 'dirección', company: 'empresa', email: 'correo' };
  const window = (minutes: number) =>
    minutes % DAY === 0
      ? `${minutes / DAY} día(s)`
      : minutes % HOUR === 0
        ? `${minutes / HOUR} h`
        : `${minutes} min`;
  const rules = PUBLIC_WRITE_LIMITS[write]
    .map(({ key, rule }) => `${rule.limit} por ${per[key]} cada ${window(rule.windowMinutes)}`)
    .join('; ');
  return `Demasiadas solicitudes (${rules}; PUBLIC_WRITE_LIMIT_FACTOR las multiplica). Cabecera Retry-After con los segundos de espera.`;
}
