import { API_KEY_MESSAGES, API_KEY_PREFIX, type Permission } from '@outlay/contracts';
import type { Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import type { AuthInfo } from '../../lib/context.ts';
import { safeEqual, sha256 } from '../../lib/crypto.ts';
import { authOfPerson } from '../../lib/person-access.ts';
import { lockOf, reserveAttempt, secondsUntil } from '../auth/index.ts';
import * as repo from './api-keys.repository.ts';

// olk_<row id, 32 hex>_<secret, 32 random bytes in base64url>
const KEY_PATTERN = /^olk_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;
/** last_used_at is written at most once a minute per key, keeping busy integrations read-only. */
const TOUCH_INTERVAL_MS = 60_000;
/** Wrong keys from one address: 20 in 15 minutes lock it out for 15 (doubling on repeat), as for calendar links. */
export const API_KEY_GUESS_LIMIT = { maxFailures: 20, windowMinutes: 15, lockMinutes: 15 };

export const isApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);

function tooMany(lockedUntil: Date, now: Date) {
  const seconds = secondsUntil(lockedUntil, now);
  return new AppError('TOO_MANY_ATTEMPTS', {
    message: API_KEY_MESSAGES.tooManyGuesses,
    headers: { 'retry-after': String(seconds) },
  });
}

const uuidOf = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/**
 * A call made with an API key acts as the key's creator as they are now (role, custom role,
 * place in the group), limited to the permissions the key was given: a creator who loses a
 * permission takes it from their keys at once, and a suspended creator's keys stop working.
 * The secret is a 256-bit random value, so one SHA-256 is as safe as a slow password hash and
 * costs nothing on every call.
 */
export async function authenticateApiKey(
  db: Db,
  token: string,
  params: { now: Date; ip: string | null },
): Promise<AuthInfo> {
  const gateKey = `api-key:${params.ip ?? 'unknown'}`;
  const locked = await lockOf(db, gateKey, params.now);
  if (locked) throw tooMany(locked, params.now);
  // Only failures are counted, so a busy integration's good calls write nothing here.
  const refuse = async () => {
    const gate = await reserveAttempt(db, gateKey, API_KEY_GUESS_LIMIT, params.now);
    return gate.lockedUntil
      ? tooMany(gate.lockedUntil, params.now)
      : new AppError('INVALID_TOKEN', { message: API_KEY_MESSAGES.invalid });
  };

  const match = KEY_PATTERN.exec(token);
  if (!match) throw await refuse();
  const row = await repo.keyWithCreator(db, uuidOf(match[1]!));
  if (!row || !safeEqual(row.secretHash, sha256(match[2]!))) throw await refuse();
  if (row.revokedAt || (row.expiresAt && row.expiresAt <= params.now) || row.status !== 'active') throw await refuse();

  if (!row.lastUsedAt || params.now.getTime() - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS)
    await repo.touchKey(db, row.id, params);
  // Never a recent password: an API key cannot confirm one, so step-up actions are refused.
  return authOfPerson(row, { limitTo: row.permissions as Permission[], apiKey: { id: row.id, name: row.name } });
}
