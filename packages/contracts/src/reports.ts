// Saved reports of the report builder (PRODUCT §3 /advanced-reporting).

export const REPORT_SCHEDULE_VALUES = ['none', 'daily', 'weekly', 'monthly'] as const;
export type ReportSchedule = (typeof REPORT_SCHEDULE_VALUES)[number];
