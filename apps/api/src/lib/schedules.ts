// Time-driven work that people set up (report e-mails, digests, backups) runs on cron
// expressions read in a person's or organization's time zone, never as "last run + a day": a
// pass that runs late, or a day of 23 or 25 hours at a daylight-saving change, would otherwise
// move every later run. Each next run is the schedule's next slot strictly after the one just
// made, found by croner in the zone, so a report due at 06:00 in Berlin stays at 06:00 there in
// summer and winter.
import { Cron } from 'croner';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { organizations, users, type Db } from '@outlay/db';

/** The zone of an organization, and so of its people, until someone chooses another. */
export const DEFAULT_TIME_ZONE = 'UTC';

const patterns = new Map<string, Cron>();

function cronIn(expression: string, timeZone: string): Cron {
  const key = `${timeZone} ${expression}`;
  let cron = patterns.get(key);
  if (!cron) {
    // paused: only evaluated, never started (time-driven work runs in the job pass).
    cron = new Cron(expression, { timezone: timeZone, paused: true });
    patterns.set(key, cron);
  }
  return cron;
}

/**
 * The first time strictly after `after` that `expression` (minute hour day month weekday) names
 * in `timeZone`. A zone this runtime does not know (stored before it was checked) reads as UTC.
 */
export function nextSlot(expression: string, timeZone: string, after: Date): Date {
  let next: Date | null;
  try {
    next = cronIn(expression, timeZone).nextRun(after);
  } catch {
    next = cronIn(expression, DEFAULT_TIME_ZONE).nextRun(after);
  }
  if (!next) throw new Error(`The schedule ${expression} has no next run`);
  return next;
}

/** The group's organization (the root, of kind 'group'), whose zone runs installation-wide schedules. */
const groupZone = sql<
  string | null
>`(SELECT ${organizations.timeZone} FROM ${organizations} WHERE ${organizations.kind} = 'group' AND ${organizations.parentId} IS NULL ORDER BY ${organizations.createdAt} LIMIT 1)`;

/**
 * A person's zone as a column of a query joined to `users`: their own, else their
 * organization's, else the group's, else UTC.
 */
export function personTimeZoneColumn(): SQL<string> {
  return sql<string>`coalesce(${users.timeZone}, (SELECT o.time_zone FROM ${organizations} o WHERE o.id = ${users.organizationId}), ${groupZone}, ${DEFAULT_TIME_ZONE})`;
}

/** The zone a person's schedules run in (UTC for someone not found). */
export async function personTimeZone(db: Db, userId: string): Promise<string> {
  const [row] = await db.select({ zone: personTimeZoneColumn() }).from(users).where(eq(users.id, userId));
  return row?.zone ?? DEFAULT_TIME_ZONE;
}

/** The group's zone, for what belongs to the whole installation (scheduled backups). */
export async function groupTimeZone(db: Db): Promise<string> {
  const [row] = await db
    .select({ zone: organizations.timeZone })
    .from(organizations)
    .where(and(eq(organizations.kind, 'group'), isNull(organizations.parentId)))
    .orderBy(organizations.createdAt)
    .limit(1);
  return row?.zone ?? DEFAULT_TIME_ZONE;
}
