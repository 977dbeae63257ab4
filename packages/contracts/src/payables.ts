// Vendor payables and their payments (PRODUCT §3 /vendor-aging-report).

/** The aging report's buckets, by days past due (or past the invoice date). */
export const AGING_BUCKET_VALUES = ['current', 'days_1_30', 'days_31_60', 'days_61_90', 'over_90'] as const;
export type AgingBucket = (typeof AGING_BUCKET_VALUES)[number];
