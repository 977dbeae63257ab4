import { describe, expect, it } from 'vitest';
import { REPORT_SCHEDULE_CRON } from '@outlay/contracts';
import { nextRunAt } from '../modules/reports/reports.schedule.ts';
import { nextDigestAt } from '../modules/notifications/notifications.schedule.ts';
import { nextSlot } from './schedules.ts';

const HOUR = 3_600_000;

/** The wall clock in a zone: "2026-03-30 06:00 Mon". */
function wall(d: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
      hourCycle: 'h23',
    })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${parts.weekday}`;
}

/** The runs a schedule makes one after another, each next run found from the one before. */
function runs(next: (after: Date) => Date | null, from: Date, count: number): Date[] {
  const out: Date[] = [];
  let at = from;
  for (let i = 0; i < count; i++) {
    at = next(at)!;
    out.push(at);
  }
  return out;
}

describe('schedules in a time zone', () => {
  it('a daily report stays at 06:00 in Berlin across the spring change (29 March 2026), 23 hours apart that day', () => {
    const days = runs((after) => nextRunAt('daily', after, 'Europe/Berlin'), new Date('2026-03-27T12:00:00Z'), 4);
    expect(days.map((d) => wall(d, 'Europe/Berlin'))).toEqual([
      '2026-03-28 06:00 Sat',
      '2026-03-29 06:00 Sun',
      '2026-03-30 06:00 Mon',
      '2026-03-31 06:00 Tue',
    ]);
    // 06:00 CET is 05:00 UTC, 06:00 CEST is 04:00 UTC.
    expect(days.map((d) => d.toISOString())).toEqual([
      '2026-03-28T05:00:00.000Z',
      '2026-03-29T04:00:00.000Z',
      '2026-03-30T04:00:00.000Z',
      '2026-03-31T04:00:00.000Z',
    ]);
    expect(days[1]!.getTime() - days[0]!.getTime()).toBe(23 * HOUR);
  });

  it('and across the autumn change (25 October 2026), 25 hours apart that day', () => {
    const days = runs((after) => nextRunAt('daily', after, 'Europe/Berlin'), new Date('2026-10-23T12:00:00Z'), 3);
    expect(days.map((d) => wall(d, 'Europe/Berlin'))).toEqual([
      '2026-10-24 06:00 Sat',
      '2026-10-25 06:00 Sun',
      '2026-10-26 06:00 Mon',
    ]);
    expect(days[1]!.getTime() - days[0]!.getTime()).toBe(25 * HOUR);
  });

  it('a weekly report stays on Monday 06:00 in New York across its spring (8 March) and autumn (1 November 2026) changes', () => {
    const spring = runs((after) => nextRunAt('weekly', after, 'America/New_York'), new Date('2026-02-25T00:00:00Z'), 3);
    expect(spring.map((d) => wall(d, 'America/New_York'))).toEqual([
      '2026-03-02 06:00 Mon',
      '2026-03-09 06:00 Mon',
      '2026-03-16 06:00 Mon',
    ]);
    expect(spring.map((d) => d.toISOString())).toEqual([
      '2026-03-02T11:00:00.000Z',
      '2026-03-09T10:00:00.000Z',
      '2026-03-16T10:00:00.000Z',
    ]);
    const autumn = runs((after) => nextRunAt('weekly', after, 'America/New_York'), new Date('2026-10-27T00:00:00Z'), 2);
    expect(autumn.map((d) => d.toISOString())).toEqual(['2026-11-02T11:00:00.000Z', '2026-11-09T11:00:00.000Z']);
    expect(autumn.map((d) => wall(d, 'America/New_York'))).toEqual(['2026-11-02 06:00 Mon', '2026-11-09 06:00 Mon']);
  });

  it('a monthly report runs on the 1st at 06:00 in its zone, whatever the month length', () => {
    const months = runs(
      (after) => nextRunAt('monthly', after, 'America/New_York'),
      new Date('2026-01-15T00:00:00Z'),
      12,
    );
    for (const d of months) expect(wall(d, 'America/New_York')).toMatch(/^\d{4}-\d{2}-01 06:00/);
    expect(months.map((d) => wall(d, 'America/New_York').slice(0, 7))).toEqual([
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
      '2026-11',
      '2026-12',
      '2027-01',
    ]);
  });

  it('does not drift: a year of daily runs, each pass late by minutes, stays on 06:00 in both zones', () => {
    for (const zone of ['Europe/Berlin', 'America/New_York']) {
      let at = new Date('2026-01-01T00:00:00Z');
      for (let day = 0; day < 366; day++) {
        const due = nextRunAt('daily', at, zone)!;
        expect(wall(due, zone).slice(11, 16), `${zone} day ${day}`).toBe('06:00');
        // The job pass that sends it comes up to 59 minutes late; the next run is read from then.
        at = new Date(due.getTime() + ((day * 7919) % 59) * 60_000 + 30_000);
      }
    }
  });

  it('"last run + 1 day" would drift; the slot does not', () => {
    // A pass 40 minutes late on the change day: adding 24 h after it lands at 06:40 and keeps going.
    const late = new Date('2026-03-29T04:40:00Z');
    expect(wall(new Date(late.getTime() + 24 * HOUR), 'Europe/Berlin')).toBe('2026-03-30 06:40 Mon');
    expect(wall(nextRunAt('daily', late, 'Europe/Berlin')!, 'Europe/Berlin')).toBe('2026-03-30 06:00 Mon');
  });

  it('is strictly after the given moment, and one zone is not another', () => {
    const six = new Date('2026-06-01T04:00:00Z'); // 06:00 in Berlin (summer)
    expect(nextRunAt('daily', six, 'Europe/Berlin')!.toISOString()).toBe('2026-06-02T04:00:00.000Z');
    expect(nextRunAt('daily', new Date(six.getTime() - 1), 'Europe/Berlin')!.toISOString()).toBe(six.toISOString());
    expect(nextRunAt('daily', six, 'UTC')!.toISOString()).toBe('2026-06-01T06:00:00.000Z');
    expect(nextRunAt('none', six, 'Europe/Berlin')).toBeNull();
  });

  it('digests come at 07:00 in the recipient zone, daily or on Mondays', () => {
    const daily = runs(
      (after) => nextDigestAt('daily', after, 'America/New_York'),
      new Date('2026-03-07T00:00:00Z'),
      3,
    );
    expect(daily.map((d) => wall(d, 'America/New_York'))).toEqual([
      '2026-03-07 07:00 Sat',
      '2026-03-08 07:00 Sun',
      '2026-03-09 07:00 Mon',
    ]);
    const weekly = runs((after) => nextDigestAt('weekly', after, 'Europe/Berlin'), new Date('2026-03-20T00:00:00Z'), 2);
    expect(weekly.map((d) => wall(d, 'Europe/Berlin'))).toEqual(['2026-03-23 07:00 Mon', '2026-03-30 07:00 Mon']);
    expect(nextDigestAt('off', new Date(), 'UTC')).toBeNull();
  });

  it('reads a zone it does not know as UTC instead of stopping the schedule', () => {
    expect(
      nextSlot(REPORT_SCHEDULE_CRON.daily, 'Nowhere/Atlantis', new Date('2026-05-01T00:00:00Z')).toISOString(),
    ).toBe('2026-05-01T06:00:00.000Z');
  });
});
