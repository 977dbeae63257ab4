// When a person's digest is due next: 07:00 in their time zone, every day (daily) or every
// Monday (weekly), always strictly after `after` (DIGEST_CRON).
import { DIGEST_CRON, type DigestFrequency } from '@outlay/contracts';
import { nextSlot } from '../../lib/schedules.ts';

export function nextDigestAt(frequency: DigestFrequency, after: Date, timeZone: string): Date | null {
  if (frequency === 'off') return null;
  return nextSlot(DIGEST_CRON[frequency], timeZone, after);
}
