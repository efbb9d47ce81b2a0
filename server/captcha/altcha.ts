import { createHmac, randomInt } from 'node:crypto';
import { type Challenge, createChallenge, type Solution, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Db } from '../db/database';
import type { Clock } from '../modules/auth/clock';
import type { Captcha, CaptchaAction } from './captcha';
import { deleteExpiredSpentCaptchas, spendCaptcha } from './captcha-spent.repository';

// NOTE: ALTCHA v2 proof of work (altcha-lib 2.x, widget altcha 3.x): the browser derives PBKDF2 keys for
// counters 0, 1, 2… until one matches the signed prefix; the server checks one HMAC. The work is
// `cost` iterations × the secret counter (on average the middle of the range).
const ALGORITHM = 'PBKDF2/SHA-256';

export interface AltchaDifficulty {
  /** PBKDF2 iterations per attempt. */
  cost: number;
  /** The secret counter is drawn from [counterMin, counterMax). */
  counterMin: number;
  counterMax: number;
}

// About 0.5-1.5 s in Node on one core of this 2-core machine; the widget spreads it over workers.
export const DEFAULT_ALTCHA_DIFFICULTY: AltchaDifficulty = {
  cost: 1_000,
  counterMin: 1_000,
  counterMax: 3_000,
};
const CHALLENGE_TTL_MINUTES = 10;
const MAX_TOKEN_LENGTH = 8_192;

interface AltchaPayload {
  challenge: Challenge;
  solution: Solution;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The widget's token: base64 of {challenge: {parameters, signature}, solution: {counter, derivedKey}}. */
function decodePayload(token: string): AltchaPayload | null {
  if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  if (!isRecord(decoded) || !isRecord(decoded.challenge) || !isRecord(decoded.solution)) return null;
  const { challenge, solution } = decoded;
  if (!isRecord(challenge.parameters) || typeof challenge.signature !== 'string') return null;
  if (typeof solution.counter !== 'number' || typeof solution.derivedKey !== 'string') return null;
  return decoded as unknown as AltchaPayload;
}

/**
 * Self-hosted ALTCHA: challenges signed with the HMAC key (one purpose-derived key also signs the expected
 * derived key, so verifying costs one HMAC), the action embedded in the signed data, a 10-minute expiry,
 * and single use: a verified challenge is recorded in captcha_spent until it expires.
 */
export function createAltchaCaptcha(options: {
  db: Db;
  hmacKey: string;
  now: Clock;
  difficulty?: AltchaDifficulty;
}): Captcha {
  const difficulty = options.difficulty ?? DEFAULT_ALTCHA_DIFFICULTY;
  const keySignatureKey = createHmac('sha256', options.hmacKey).update('altcha-key-signature').digest('hex');

  return {
    config: { provider: 'altcha' },
    createChallenge(action: CaptchaAction) {
      return createChallenge({
        algorithm: ALGORITHM,
        cost: difficulty.cost,
        counter: randomInt(difficulty.counterMin, difficulty.counterMax),
        deriveKey,
        hmacSignatureSecret: options.hmacKey,
        hmacKeySignatureSecret: keySignatureKey,
        expiresAt: new Date(options.now().getTime() + CHALLENGE_TTL_MINUTES * 60_000),
        data: { action },
      });
    },
    async verify(token, action) {
      const payload = typeof token === 'string' ? decodePayload(token) : null;
      if (!payload) return false;
      const { parameters, signature } = payload.challenge;
      const expiresAt = Number(parameters.expiresAt) * 1000;
      if (parameters.data?.action !== action || !(expiresAt > options.now().getTime())) return false;
      try {
        const result = await verifySolution({
          challenge: { parameters, signature },
          solution: payload.solution,
          deriveKey,
          hmacSignatureSecret: options.hmacKey,
          hmacKeySignatureSecret: keySignatureKey,
        });
        if (!result.verified || !signature) return false;
      } catch {
        return false;
      }
      // Spend it: the first request to record the signature wins; a replay finds it there.
      const now = options.now().toISOString();
      await deleteExpiredSpentCaptchas(options.db, now);
      return spendCaptcha(options.db, signature, new Date(expiresAt).toISOString());
    },
  };
}
