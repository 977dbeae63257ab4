// When a scheduled report is due next: 06:00 in its owner's time zone, every day (daily), every
// Monday (weekly) or on the 1st (monthly), always strictly after `after` (REPORT_SCHEDULE_CRON).
import { REPORT_SCHEDULE_CRON, type ReportSchedule } from '@outlay/contracts';
import { nextSlot } from '../../lib/schedules.ts';

export function nextRunAt(schedule: ReportSchedule, after: Date, timeZone: string): Date | null {
  if (schedule === 'none') return null;
  return nextSlot(REPORT_SCHEDULE_CRON[schedule], timeZone, after);
}
