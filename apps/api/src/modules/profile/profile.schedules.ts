// A person's schedules (the reports they own, their digest) run in their time zone. When that
// zone changes (their own choice, or their organization's that they follow), each next run
// still to come moves to the schedule's next slot in the new zone, in the change's transaction;
// a run already due stays due and goes at the next pass.
import { and, eq, gt, inArray, ne, type SQL } from 'drizzle-orm';
import { notificationSettings, savedReports, users, type Db } from '@outlay/db';
import { personTimeZoneColumn } from '../../lib/schedules.ts';
import { nextDigestAt } from '../notifications/index.ts';
import { nextRunAt } from '../reports/index.ts';

/** Re-times the schedules of the people `people` (a condition on `users`) selects. */
export async function retimeSchedules(db: Db, people: SQL, now: Date): Promise<void> {
  const zone = personTimeZoneColumn();
  const reports = await db
    .select({ id: savedReports.id, schedule: savedReports.schedule, zone })
    .from(savedReports)
    .innerJoin(users, eq(users.id, savedReports.ownerId))
    .where(and(people, ne(savedReports.schedule, 'none'), gt(savedReports.nextRunAt, now)));
  for (const r of reports) {
    await db
      .update(savedReports)
      .set({ nextRunAt: nextRunAt(r.schedule, now, r.zone) })
      .where(eq(savedReports.id, r.id));
  }
  const digests = await db
    .select({ userId: notificationSettings.userId, digest: notificationSettings.digest, zone })
    .from(notificationSettings)
    .innerJoin(users, eq(users.id, notificationSettings.userId))
    .where(
      and(
        people,
        inArray(notificationSettings.digest, ['daily', 'weekly']),
        gt(notificationSettings.nextDigestAt, now),
      ),
    );
  for (const d of digests) {
    await db
      .update(notificationSettings)
      .set({ nextDigestAt: nextDigestAt(d.digest, now, d.zone) })
      .where(eq(notificationSettings.userId, d.userId));
  }
}
