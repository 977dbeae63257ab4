import {
  AUTHORIZED_DOMAINS_KEY,
  ROLES,
  ROLE_LABELS,
  SECURITY_POLICY_KEY,
  type LockedItem,
  type Role,
  type Scope,
  type SecurityPolicy,
  type SecuritySettings,
  type SignInExportQuery,
  type SignInItem,
  type SignInQuery,
  type TwoFactorAdoption,
  type UnlockInput,
  type securitySettingsInput,
} from '@outlay/contracts';
import type { z } from 'zod';
import { loginAttempts, users } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireAuth, type AuthInfo, type Ctx } from '../../lib/context.ts';
import type { ExportAbout, ExportColumn } from '../../lib/export.ts';
import { page, pageWindow } from '../../lib/lists.ts';
import { readScopeCondition, readScopeOf, scopeOf } from '../../lib/scope.ts';
import { forgetSecurityPolicy, normalizePolicy } from './security.policy.ts';
import {
  clearThrottle,
  findThrottle,
  listSignIns,
  lockedNow,
  readSettingRows,
  twoFactorByRole,
  usersByUsername,
  writeSetting,
} from './security.repository.ts';

type SettingsInput = z.output<typeof securitySettingsInput>;

async function readSettings(ctx: Ctx): Promise<SecuritySettings> {
  const rows = await readSettingRows(ctx.db, [SECURITY_POLICY_KEY, AUTHORIZED_DOMAINS_KEY]);
  const policyRow = rows.find((r) => r.key === SECURITY_POLICY_KEY);
  const domainsRow = rows.find((r) => r.key === AUTHORIZED_DOMAINS_KEY);
  const policy = normalizePolicy(policyRow?.value as Partial<SecurityPolicy> | undefined);
  const domains = Array.isArray(domainsRow?.value)
    ? (domainsRow.value as unknown[]).filter((d): d is string => typeof d === 'string')
    : [];
  const stamps = [policyRow?.updatedAt, domainsRow?.updatedAt].filter((d): d is Date => d instanceof Date);
  const updatedAt = stamps.length ? new Date(Math.max(...stamps.map((d) => d.getTime()))).toISOString() : null;
  return { ...policy, authorizedDomains: domains, updatedAt };
}

export async function getSettings(ctx: Ctx): Promise<SecuritySettings> {
  return readSettings(ctx);
}

/** Saves the policy and the authorized domains in one transaction, audited with before and after. */
export async function updateSettings(ctx: Ctx, input: SettingsInput): Promise<SecuritySettings> {
  const auth = requireAuth(ctx);
  const before = await readSettings(ctx);
  const policy: SecurityPolicy = {
    passwordMinLength: input.passwordMinLength,
    lockoutThreshold: input.lockoutThreshold,
    lockoutMinutes: input.lockoutMinutes,
    sessionLifetimeDays: input.sessionLifetimeDays,
    idleTimeoutMinutes: input.idleTimeoutMinutes,
    twoFactorRequiredRoles: input.twoFactorRequiredRoles,
  };
  await ctx.db.transaction(async (tx) => {
    await writeSetting(tx, SECURITY_POLICY_KEY, policy, ctx.now);
    await writeSetting(tx, AUTHORIZED_DOMAINS_KEY, input.authorizedDomains, ctx.now);
    const beforeValues: Partial<SecuritySettings> = { ...before };
    delete beforeValues.updatedAt;
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'security.settings_updated',
        entityType: 'settings',
        entityId: 'security',
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: beforeValues,
        after: { ...policy, authorizedDomains: input.authorizedDomains },
      },
      ctx.now,
    );
  });
  forgetSecurityPolicy(ctx.db);
  return readSettings(ctx);
}

// Reads on the security screens: also a settings reader's, who changes nothing.
function signInScope(auth: AuthInfo) {
  return readScopeCondition(auth, 'security.manage', {
    organizationId: users.organizationId,
    departmentId: users.departmentId,
    ownerId: loginAttempts.userId,
  });
}

export async function listSignInActivity(ctx: Ctx, query: SignInQuery) {
  const { items, total } = await listSignIns(ctx.db, query, signInScope(requireAuth(ctx)), pageWindow(query));
  return page(items, total, query);
}

export async function exportSignInActivity(ctx: Ctx, query: SignInExportQuery): Promise<SignInItem[]> {
  return (await listSignIns(ctx.db, query, signInScope(requireAuth(ctx)), null)).items;
}

/** What an export covers: the days (or instants) its attempts are filtered to, all of them when none. */
export function signInExportAbout(query: SignInExportQuery): ExportAbout {
  return { title: 'Sign-in activity', period: { from: query.from ?? null, to: query.to ?? null } };
}

export const SIGN_IN_EXPORT_COLUMNS: ExportColumn<SignInItem>[] = [
  { header: 'Time', value: (r) => r.createdAt, type: 'datetime' },
  { header: 'Username', value: (r) => r.username },
  { header: 'User', value: (r) => r.userName },
  { header: 'Result', value: (r) => (r.success ? 'success' : 'failure') },
  { header: 'Reason', value: (r) => r.reason },
  { header: 'IP address', value: (r) => r.ip },
  { header: 'Device', value: (r) => r.userAgent },
];

interface ScopedUser {
  id: string;
  organizationId: string | null;
  departmentId: string | null;
}

/** Whether a user is inside a scope the caller holds (security.manage's, or a reader's for what is only shown). */
function userInScope(auth: AuthInfo, user: ScopedUser | undefined, scope: Scope | null): boolean {
  if (scope === 'group') return true;
  if (!user) return false;
  if (scope === 'organization') return user.organizationId !== null && user.organizationId === auth.organizationId;
  if (scope === 'department') return user.departmentId !== null && user.departmentId === auth.departmentId;
  return user.id === auth.userId;
}

export async function listLocked(ctx: Ctx): Promise<{ items: LockedItem[] }> {
  const auth = requireAuth(ctx);
  const reach = readScopeOf(auth, 'security.manage');
  const rows = await lockedNow(ctx.db, ctx.now);
  const names = rows.filter((r) => r.key.startsWith('user:')).map((r) => r.key.slice(5));
  const people = new Map((await usersByUsername(ctx.db, names)).map((u) => [u.username.toLowerCase(), u]));
  const items: LockedItem[] = [];
  for (const row of rows) {
    const kind = row.key.startsWith('user:') ? 'user' : 'ip';
    const subject = row.key.slice(kind.length + 1);
    const person = kind === 'user' ? people.get(subject) : undefined;
    // Address locks and unknown usernames concern no one user: only group scope sees them.
    if (!(kind === 'user' && person ? userInScope(auth, person, reach) : reach === 'group')) continue;
    items.push({
      key: row.key,
      kind,
      subject,
      userId: person?.id ?? null,
      userName: person ? `${person.firstName} ${person.lastName}` : null,
      failures: row.failures,
      lockCount: row.lockCount,
      lockedUntil: row.lockedUntil!.toISOString(),
      lastLockedAt: row.lastLockedAt?.toISOString() ?? null,
    });
  }
  return { items };
}

export async function unlock(ctx: Ctx, input: UnlockInput): Promise<{ message: string }> {
  const auth = requireAuth(ctx);
  const key = input.key.startsWith('user:') ? `user:${input.key.slice(5).toLowerCase()}` : input.key;
  const [person] = key.startsWith('user:') ? await usersByUsername(ctx.db, [key.slice(5)]) : [];
  const manage = scopeOf(auth, 'security.manage');
  const visible = key.startsWith('user:') && person ? userInScope(auth, person, manage) : manage === 'group';
  await ctx.db.transaction(async (tx) => {
    const row = await findThrottle(tx, key);
    if (!row || !visible || !row.lockedUntil || row.lockedUntil <= ctx.now) {
      throw new AppError('NOT_FOUND', { message: 'No current lock for this account or address' });
    }
    await clearThrottle(tx, key);
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'security.unlocked',
        entityType: key.startsWith('user:') ? 'user' : 'ip_address',
        entityId: person?.id ?? key.slice(key.indexOf(':') + 1),
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: { key, lockedUntil: row.lockedUntil.toISOString(), failures: row.failures, lockCount: row.lockCount },
        after: { key, lockedUntil: null, failures: 0, lockCount: 0 },
      },
      ctx.now,
    );
  });
  return { message: key.startsWith('user:') ? `Unlocked ${key.slice(5)}` : `Unlocked address ${key.slice(3)}` };
}

export async function twoFactorAdoption(ctx: Ctx): Promise<TwoFactorAdoption> {
  const auth = requireAuth(ctx);
  const scope = readScopeCondition(auth, 'security.manage', {
    organizationId: users.organizationId,
    departmentId: users.departmentId,
    ownerId: users.id,
  });
  const counts = new Map((await twoFactorByRole(ctx.db, scope)).map((r) => [r.role, r]));
  const policy = normalizePolicy(
    (await readSettingRows(ctx.db, [SECURITY_POLICY_KEY]))[0]?.value as Partial<SecurityPolicy> | undefined,
  );
  const percent = (enabled: number, of: number) => (of === 0 ? 0 : Math.round((enabled / of) * 1000) / 10);
  const roles = ROLES.filter((role) => counts.has(role) || policy.twoFactorRequiredRoles.includes(role)).map(
    (role: Role) => {
      const c = counts.get(role);
      const n = Number(c?.users ?? 0);
      const enabled = Number(c?.enabled ?? 0);
      return {
        role,
        label: ROLE_LABELS[role],
        users: n,
        enabled,
        percent: percent(enabled, n),
        required: policy.twoFactorRequiredRoles.includes(role),
      };
    },
  );
  const totalUsers = roles.reduce((s, r) => s + r.users, 0);
  const totalEnabled = roles.reduce((s, r) => s + r.enabled, 0);
  return { roles, total: { users: totalUsers, enabled: totalEnabled, percent: percent(totalEnabled, totalUsers) } };
}
