import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { authChallenges, type Db } from '@outlay/db';

export type ChallengePurpose = 'password_change' | 'two_factor';

export async function insertChallenge(
  db: Db,
  values: { userId: string; purpose: ChallengePurpose; tokenHash: string; expiresAt: Date; now: Date },
) {
  await db.insert(authChallenges).values({ ...values, createdAt: values.now });
}

/** Counts one try against a live challenge and returns it, or null when it is spent, expired or over its tries. */
export async function attemptChallenge(
  db: Db,
  tokenHash: string,
  purpose: ChallengePurpose,
  maxAttempts: number,
  now: Date,
) {
  const [row] = await db
    .update(authChallenges)
    .set({ attempts: sql`${authChallenges.attempts} + 1` })
    .where(
      and(
        eq(authChallenges.tokenHash, tokenHash),
        eq(authChallenges.purpose, purpose),
        isNull(authChallenges.usedAt),
        sql`${authChallenges.expiresAt} > ${now}`,
        lt(authChallenges.attempts, maxAttempts),
      ),
    )
    .returning({ id: authChallenges.id, userId: authChallenges.userId });
  return row ?? null;
}

/** Spends a challenge; only one caller can. */
export async function consumeChallenge(db: Db, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(authChallenges)
    .set({ usedAt: now })
    .where(and(eq(authChallenges.id, id), isNull(authChallenges.usedAt)))
    .returning({ id: authChallenges.id });
  return rows.length > 0;
}
