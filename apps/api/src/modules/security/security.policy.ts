import {
  DEFAULT_SECURITY_POLICY,
  LOGIN_LOCKOUT,
  ROLES,
  SECURITY_POLICY_KEY,
  type Role,
  type SecurityPolicy,
} from '@outlay/contracts';
import type { Db } from '@outlay/db';
import { getSetting } from '../settings/index.ts';

/**
 * The live security policy (docs/product.md §3.10 /security). The route guard reads it on every call, so
 * it is cached per database handle for a few seconds: a change made through this process is
 * seen at once (the cache is dropped on save), another instance's change within seconds.
 */
const CACHE_MS = 5_000;
const cache = new WeakMap<Db, { policy: SecurityPolicy; loadedAt: number }>();

function clampInt(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : fallback;
}

/** Reads the stored policy; any missing or damaged field falls back to its default. */
export function normalizePolicy(stored: Partial<SecurityPolicy> | undefined | null): SecurityPolicy {
  const s = stored ?? {};
  const d = DEFAULT_SECURITY_POLICY;
  return {
    passwordMinLength: clampInt(s.passwordMinLength, d.passwordMinLength, 8, 128),
    lockoutThreshold: clampInt(s.lockoutThreshold, d.lockoutThreshold, 3, 20),
    lockoutMinutes: clampInt(s.lockoutMinutes, d.lockoutMinutes, 1, 1440),
    sessionLifetimeDays: clampInt(s.sessionLifetimeDays, d.sessionLifetimeDays, 1, 90),
    idleTimeoutMinutes: clampInt(s.idleTimeoutMinutes, d.idleTimeoutMinutes, 5, 43_200),
    twoFactorRequiredRoles: Array.isArray(s.twoFactorRequiredRoles)
      ? ROLES.filter((r) => (s.twoFactorRequiredRoles as string[]).includes(r))
      : [...d.twoFactorRequiredRoles],
  };
}

export async function securityPolicy(db: Db): Promise<SecurityPolicy> {
  const hit = cache.get(db);
  if (hit && Date.now() - hit.loadedAt < CACHE_MS) return hit.policy;
  const policy = normalizePolicy(await getSetting<Partial<SecurityPolicy>>(db, SECURITY_POLICY_KEY));
  cache.set(db, { policy, loadedAt: Date.now() });
  return policy;
}

export function forgetSecurityPolicy(db: Db): void {
  cache.delete(db);
}

export function requiresTwoFactor(policy: SecurityPolicy, role: Role): boolean {
  return policy.twoFactorRequiredRoles.includes(role);
}

/** The login throttle's limits under the policy; the per-address limit stays fixed (docs/product.md §2.5). */
export function throttleLimits(policy: SecurityPolicy) {
  return {
    user: {
      maxFailures: policy.lockoutThreshold,
      windowMinutes: LOGIN_LOCKOUT.windowMinutes,
      lockMinutes: policy.lockoutMinutes,
    },
    ip: {
      maxFailures: LOGIN_LOCKOUT.maxFailuresPerIp,
      windowMinutes: LOGIN_LOCKOUT.windowMinutes,
      lockMinutes: LOGIN_LOCKOUT.lockMinutes,
    },
  };
}
