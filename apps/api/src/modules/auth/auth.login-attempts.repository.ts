import { loginAttempts, type Db } from '@outlay/db';

export async function recordLoginAttempt(
  db: Db,
  attempt: {
    username: string;
    userId: string | null;
    ip: string | null;
    userAgent: string | null;
    success: boolean;
    reason: string;
    now: Date;
  },
): Promise<void> {
  await db.insert(loginAttempts).values({
    username: attempt.username.slice(0, 200),
    userId: attempt.userId,
    ip: attempt.ip,
    userAgent: attempt.userAgent,
    success: attempt.success,
    reason: attempt.reason,
    createdAt: attempt.now,
  });
}
