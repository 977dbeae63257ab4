import { describe, expect, it } from 'vitest';
import { lastMonthSameDays } from './dashboard.service.ts';

describe('last month’s same days', () => {
  it('is the first day of last month on the first of this one', () => {
    const r = lastMonthSameDays(new Date('2026-12-01T09:00:00Z'));
    expect(r).toEqual({ from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-11-02T00:00:00Z'), days: 1 });
  });
  it('stops at the end of a shorter month', () => {
    const r = lastMonthSameDays(new Date('2026-03-31T23:59:00Z'));
    expect(r.from).toEqual(new Date('2026-02-01T00:00:00Z'));
    expect(r.to).toEqual(new Date('2026-03-01T00:00:00Z'));
    expect(r.days).toBe(31);
  });
  it('crosses the year in January', () => {
    const r = lastMonthSameDays(new Date('2027-01-15T12:00:00Z'));
    expect(r.from).toEqual(new Date('2026-12-01T00:00:00Z'));
    expect(r.to).toEqual(new Date('2026-12-16T00:00:00Z'));
  });
});
