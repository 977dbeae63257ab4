import { eq, sql, type SQL } from 'drizzle-orm';
import type { OnboardingStepKey } from '@outlay/contracts';
import {
  approvalDecisions,
  auditEvents,
  notificationPreferences,
  notificationSettings,
  onboardingProgress,
  savedReports,
  spendingRequests,
  tutorialReads,
  users,
  type Db,
} from '@outlay/db';
import { rowsOf } from '../../lib/sql.ts';

export type StepEvidence = Partial<Record<OnboardingStepKey, Date | null>>;

const asDate = (v: unknown): Date | null => (v == null ? null : new Date(v as string));

/**
 * For each step, when the person did what it asks (null: not yet), read from the records the
 * step stands for, in one round trip. A step whose record has no time of its own (2FA on, a
 * phone number) takes the latest audited change of it, else the account's last update.
 */
export async function stepEvidence(db: Db, params: { userId: string }): Promise<StepEvidence> {
  const u = params.userId;
  const auditAt = (actions: SQL) =>
    sql`(SELECT min(${auditEvents.occurredAt}) FROM ${auditEvents} WHERE ${auditEvents.actorId} = ${u} AND ${actions})`;
  const [row] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      SELECT
        (SELECT CASE WHEN ${users.phoneNumber} IS NOT NULL AND btrim(${users.phoneNumber}) <> ''
                     THEN coalesce(${auditAt(sql`${auditEvents.action} = 'profile.updated'`)}, ${users.updatedAt}) END
           FROM ${users} WHERE ${users.id} = ${u}) AS complete_profile,
        (SELECT CASE WHEN ${users.totpEnabled}
                     THEN coalesce((SELECT max(${auditEvents.occurredAt}) FROM ${auditEvents} WHERE ${auditEvents.actorId} = ${u} AND ${auditEvents.action} = 'auth.2fa_enabled'), ${users.updatedAt}) END
           FROM ${users} WHERE ${users.id} = ${u}) AS enable_two_factor,
        greatest(
          (SELECT min(${notificationPreferences.updatedAt}) FROM ${notificationPreferences} WHERE ${notificationPreferences.userId} = ${u}),
          (SELECT ${notificationSettings.updatedAt} FROM ${notificationSettings} WHERE ${notificationSettings.userId} = ${u})
        ) AS notification_settings,
        (SELECT min(${tutorialReads.firstReadAt}) FROM ${tutorialReads} WHERE ${tutorialReads.userId} = ${u}) AS read_tutorial,
        (SELECT min(${spendingRequests.submittedAt}) FROM ${spendingRequests}
          WHERE ${spendingRequests.requesterId} = ${u} AND ${spendingRequests.submittedAt} IS NOT NULL) AS submit_request,
        (SELECT min(${approvalDecisions.createdAt}) FROM ${approvalDecisions} WHERE ${approvalDecisions.deciderId} = ${u}) AS decide_approval,
        (SELECT min(${savedReports.createdAt}) FROM ${savedReports} WHERE ${savedReports.ownerId} = ${u}) AS save_report,
        ${auditAt(sql`${auditEvents.action} LIKE 'budget_line.%'`)} AS manage_budget,
        ${auditAt(sql`${auditEvents.action} IN ('registration.approved', 'registration.rejected')`)} AS review_registration,
        ${auditAt(sql`${auditEvents.action} = 'security.settings_updated'`)} AS review_security
    `),
  );
  const out: StepEvidence = {};
  for (const [k, v] of Object.entries(row ?? {})) out[k as OnboardingStepKey] = asDate(v);
  return out;
}

export async function progressOf(db: Db, params: { userId: string }) {
  const [row] = await db.select().from(onboardingProgress).where(eq(onboardingProgress.userId, params.userId));
  return row ?? null;
}

/** Records the first moment every step was done; later calls keep that moment. */
export async function markCompleted(db: Db, params: { userId: string; now: Date }): Promise<void> {
  await db
    .insert(onboardingProgress)
    .values({ userId: params.userId, completedAt: params.now, updatedAt: params.now })
    .onConflictDoUpdate({
      target: onboardingProgress.userId,
      set: {
        completedAt: sql`coalesce(${onboardingProgress.completedAt}, excluded.completed_at)`,
        updatedAt: params.now,
      },
    });
}

export async function setDismissed(
  db: Db,
  params: { userId: string; dismissedAt: Date | null; now: Date },
): Promise<void> {
  await db
    .insert(onboardingProgress)
    .values({ userId: params.userId, dismissedAt: params.dismissedAt, updatedAt: params.now })
    .onConflictDoUpdate({
      target: onboardingProgress.userId,
      set: { dismissedAt: params.dismissedAt, updatedAt: params.now },
    });
}
