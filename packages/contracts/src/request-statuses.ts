/**
 * A request's statuses and their labels, without a schema: status badges are on most screens, and
 * a zod schema beside them would put zod in each of those screens' first download.
 */
export const REQUEST_STATUS_VALUES = [
  'draft',
  'pending',
  'info_requested',
  'approved',
  'rejected',
  'cancelled',
  'paid',
] as const;
export type RequestStatus = (typeof REQUEST_STATUS_VALUES)[number];

export const REQUEST_STATUS_LABELS: Record<RequestStatus, string> = {
  draft: 'Draft',
  pending: 'Pending approval',
  info_requested: 'Information requested',
  approved: 'Approved',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
  paid: 'Paid',
};
