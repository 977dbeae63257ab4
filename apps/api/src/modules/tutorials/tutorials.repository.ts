import { and, eq } from 'drizzle-orm';
import { tutorialReads, type Db } from '@outlay/db';

export async function readsOf(db: Db, params: { userId: string }): Promise<Map<string, Date>> {
  const rows = await db
    .select({ slug: tutorialReads.slug, at: tutorialReads.firstReadAt })
    .from(tutorialReads)
    .where(eq(tutorialReads.userId, params.userId));
  return new Map(rows.map((r) => [r.slug, r.at]));
}

/** Keeps the first time only; opening an article again changes nothing. */
export async function recordRead(db: Db, params: { userId: string; slug: string; now: Date }): Promise<Date> {
  await db
    .insert(tutorialReads)
    .values({ userId: params.userId, slug: params.slug, firstReadAt: params.now })
    .onConflictDoNothing();
  const [row] = await db
    .select({ at: tutorialReads.firstReadAt })
    .from(tutorialReads)
    .where(and(eq(tutorialReads.userId, params.userId), eq(tutorialReads.slug, params.slug)));
  return row?.at ?? params.now;
}
