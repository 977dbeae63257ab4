import type { Db } from '@outlay/db';
import { writeAudit } from '../../lib/audit.ts';
import { recordLoginAttempt } from './auth.login-attempts.repository.ts';

export interface DeviceMismatch {
  sessionId: string;
  userId: string;
  username: string;
  /** What the caller sent as X-Device-ID (trimmed to fit), or null when it sent none. */
  presentedDeviceId: string | null;
  ip: string | null;
  userAgent: string | null;
  now: Date;
}

/**
 * A token used from another device is a stolen-token signal: it goes to sign-in activity and the
 * audit trail like the other refusals, in one transaction so neither record exists without the
 * other. Recording must never turn the 401 into a 500, so a failure here is the caller's to log.
 */
export async function recordDeviceMismatch(db: Db, event: DeviceMismatch): Promise<void> {
  await db.transaction(async (tx) => {
    await recordLoginAttempt(tx, {
      username: event.username,
      userId: event.userId,
      ip: event.ip,
      userAgent: event.userAgent,
      success: false,
      reason: 'device_mismatch',
      now: event.now,
    });
    await writeAudit(
      tx,
      {
        actorId: event.userId,
        action: 'auth.device_mismatch',
        entityType: 'session',
        entityId: event.sessionId,
        ip: event.ip,
        userAgent: event.userAgent,
        metadata: { presentedDeviceId: event.presentedDeviceId?.slice(0, 200) ?? null },
      },
      event.now,
    );
  });
}
