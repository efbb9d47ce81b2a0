import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// NOTE: OWASP Password Storage Cheat Sheet, argon2id minimum: m=19 MiB, t=2, p=1.
// Algorithm 2 = Argon2id (a const enum in @node-rs/argon2's types, not importable under isolatedModules).
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}

let dummyHash: Promise<string> | null = null;

/** A real argon2id hash of a random secret: verifying against it costs what a real verification costs. */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(24).toString('base64url'));
  return dummyHash;
}
