// An organization's fiscal calendar: its year starts in `organizations.fiscal_year_start_month`
// (Meridian Foods: April) and its quarters are the year's four runs of three months from there.
// Budget periods, period labels, consolidation columns, report presets and the copilot's
// "this quarter" all read it here, so "Q3" means the same months on every screen.
// Schema-free: the web app imports it without zod.

/** 1 (January) to 12. */
export type FiscalStartMonth = number;

export type FiscalPeriodType = 'month' | 'quarter' | 'year';

const pad = (n: number) => String(n).padStart(2, '0');

function parts(monthOrDate: string): [number, number] {
  const [y, m] = monthOrDate.split('-').map(Number) as [number, number];
  return [y, m];
}

function monthAt(index: number): string {
  return `${Math.floor(index / 12)}-${pad((index % 12) + 1)}`;
}

/** The calendar year the fiscal year holding `month` (YYYY-MM or a date) starts in. */
export function fiscalYearOf(month: string, startMonth: FiscalStartMonth = 1): number {
  const [y, m] = parts(month);
  return m >= startMonth ? y : y - 1;
}

/** 1 to 4: the fiscal quarter holding `month`. */
export function fiscalQuarterOf(month: string, startMonth: FiscalStartMonth = 1): number {
  const [, m] = parts(month);
  return Math.floor(((m - startMonth + 12) % 12) / 3) + 1;
}

/** "FY 2026" for a calendar fiscal year, "FY 2026/27" for one that starts in April 2026. */
export function fiscalYearLabel(startYear: number, startMonth: FiscalStartMonth = 1): string {
  return startMonth === 1 ? `FY ${startYear}` : `FY ${startYear}/${pad((startYear + 1) % 100)}`;
}

/** "Q1 2026" in a calendar year; "Q3 FY 2026/27" in one that starts in April. */
export function fiscalQuarterLabel(month: string, startMonth: FiscalStartMonth = 1): string {
  const q = fiscalQuarterOf(month, startMonth);
  const year = fiscalYearOf(month, startMonth);
  return startMonth === 1 ? `Q${q} ${year}` : `Q${q} ${fiscalYearLabel(year, startMonth)}`;
}

/** "Q3 FY 2026/27" or "FY 2026/27": the fiscal quarter or year holding `month`. */
export function fiscalPeriodLabel(type: 'quarter' | 'year', month: string, startMonth: FiscalStartMonth = 1): string {
  return type === 'quarter'
    ? fiscalQuarterLabel(month, startMonth)
    : fiscalYearLabel(fiscalYearOf(month, startMonth), startMonth);
}

/** First month (YYYY-MM) of the fiscal period of a type holding `month`. */
export function fiscalPeriodStartMonth(
  type: FiscalPeriodType,
  month: string,
  startMonth: FiscalStartMonth = 1,
): string {
  const [y, m] = parts(month);
  const index = y * 12 + m - 1;
  if (type === 'month') return monthAt(index);
  const offset = (m - startMonth + 12) % 12;
  return monthAt(index - (type === 'year' ? offset : offset % 3));
}

const MONTHS_IN: Record<FiscalPeriodType, number> = { month: 1, quarter: 3, year: 12 };

/** The fiscal period of a type that holds `date` (YYYY-MM-DD): its first and last day, inclusive. */
export function fiscalPeriodContaining(
  type: FiscalPeriodType,
  date: string,
  startMonth: FiscalStartMonth = 1,
): { start: string; end: string } {
  const first = fiscalPeriodStartMonth(type, date, startMonth);
  const [y, m] = parts(first);
  const end = new Date(Date.UTC(y, m - 1 + MONTHS_IN[type], 0)).toISOString().slice(0, 10);
  return { start: `${first}-01`, end };
}

/** Whether a period of a type starting in `month` is one of the fiscal calendar's own periods. */
export function isFiscalPeriodStart(type: FiscalPeriodType, month: string, startMonth: FiscalStartMonth = 1): boolean {
  return fiscalPeriodStartMonth(type, month, startMonth) === month.slice(0, 7);
}

/**
 * The key of the period holding `month`, for grouping months into columns: `2026-03`; `2026-Q1`
 * and `2026` in a calendar year; `FY2026-Q3` and `FY2026` (the year it starts in) otherwise.
 */
export function fiscalPeriodKey(type: FiscalPeriodType, month: string, startMonth: FiscalStartMonth = 1): string {
  if (type === 'month') return month.slice(0, 7);
  const year = fiscalYearOf(month, startMonth);
  const prefix = startMonth === 1 ? `${year}` : `FY${year}`;
  return type === 'year' ? prefix : `${prefix}-Q${fiscalQuarterOf(month, startMonth)}`;
}

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** "April": the month a fiscal year starts in, for sentences such as "its fiscal year starts in April". */
export function fiscalStartMonthName(startMonth: FiscalStartMonth): string {
  return MONTH_NAMES[startMonth - 1] ?? 'January';
}

export const FISCAL_PRESET_VALUES = ['thisQuarter', 'lastQuarter', 'yearToDate', 'thisYear', 'lastYear'] as const;
export type FiscalPreset = (typeof FISCAL_PRESET_VALUES)[number];

function shiftMonth(month: string, n: number): string {
  const [y, m] = parts(month);
  return monthAt(y * 12 + m - 1 + n);
}

/** The months (YYYY-MM, inclusive) of a fiscal period relative to `today`: "last fiscal quarter" and the like. */
export function fiscalPresetRange(
  preset: FiscalPreset,
  today: string,
  startMonth: FiscalStartMonth = 1,
): { from: string; to: string } {
  const month = today.slice(0, 7);
  const quarter = fiscalPeriodStartMonth('quarter', month, startMonth);
  const year = fiscalPeriodStartMonth('year', month, startMonth);
  switch (preset) {
    case 'thisQuarter':
      return { from: quarter, to: shiftMonth(quarter, 2) };
    case 'lastQuarter':
      return { from: shiftMonth(quarter, -3), to: shiftMonth(quarter, -1) };
    case 'yearToDate':
      return { from: year, to: month };
    case 'thisYear':
      return { from: year, to: shiftMonth(year, 11) };
    case 'lastYear':
      return { from: shiftMonth(year, -12), to: shiftMonth(year, -1) };
  }
}

/** "Last fiscal quarter (Q2 FY 2026/27)": a preset with the period it stands for today. */
export function fiscalPresetLabel(preset: FiscalPreset, today: string, startMonth: FiscalStartMonth = 1): string {
  const { from } = fiscalPresetRange(preset, today, startMonth);
  const quarter = fiscalQuarterLabel(from, startMonth);
  const year = fiscalYearLabel(fiscalYearOf(from, startMonth), startMonth);
  switch (preset) {
    case 'thisQuarter':
      return `This fiscal quarter (${quarter})`;
    case 'lastQuarter':
      return `Last fiscal quarter (${quarter})`;
    case 'yearToDate':
      return `Fiscal year to date (${year})`;
    case 'thisYear':
      return `This fiscal year (${year})`;
    case 'lastYear':
      return `Last fiscal year (${year})`;
  }
}

/** "Meridian Foods'", "Meridian Energy's": whose fiscal year a sentence speaks of. */
export function possessive(name: string): string {
  return name.endsWith('s') ? `${name}'` : `${name}'s`;
}
