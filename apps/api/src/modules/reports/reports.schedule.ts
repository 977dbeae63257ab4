// When a scheduled report is due next: at 06:00 UTC, the next day (daily), the next Monday
// (weekly) or the 1st of the next month (monthly), always strictly after `after`.
import type { ReportSchedule } from '@outlay/contracts';

export const SCHEDULE_HOUR_UTC = 6;

export function nextRunAt(schedule: ReportSchedule, after: Date): Date | null {
  if (schedule === 'none') return null;
  const y = after.getUTCFullYear();
  const m = after.getUTCMonth();
  const d = after.getUTCDate();
  let candidate: Date;
  if (schedule === 'daily') {
    candidate = new Date(Date.UTC(y, m, d, SCHEDULE_HOUR_UTC));
    if (candidate <= after) candidate = new Date(Date.UTC(y, m, d + 1, SCHEDULE_HOUR_UTC));
  } else if (schedule === 'weekly') {
    // getUTCDay: Sunday 0 … Saturday 6; Monday is 1.
    const toMonday = (8 - after.getUTCDay()) % 7;
    candidate = new Date(Date.UTC(y, m, d + toMonday, SCHEDULE_HOUR_UTC));
    if (candidate <= after) candidate = new Date(Date.UTC(y, m, d + toMonday + 7, SCHEDULE_HOUR_UTC));
  } else {
    candidate = new Date(Date.UTC(y, m, 1, SCHEDULE_HOUR_UTC));
    if (candidate <= after) candidate = new Date(Date.UTC(y, m + 1, 1, SCHEDULE_HOUR_UTC));
  }
  return candidate;
}
