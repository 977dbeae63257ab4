// Notifications: the in-app list, the unread count, preferences per event type and
// channel, the digest, and the live events of the server-sent-events stream.
import { z } from 'zod';
import { listQuery, paginated } from './lists.ts';

/**
 * Every notification type the product writes (the `type` values passed to notify), with the
 * label shown in the settings.
 */
export const NOTIFICATION_EVENT_TYPES = [
  {
    type: 'approval_needed',
    label: 'Approval needed',
    description: 'A request waits for your decision (also reminders and items moved to you)',
    group: 'Approvals',
  },
  {
    type: 'approval_escalated',
    label: 'Approval escalated',
    description: 'An overdue request was escalated to you',
    group: 'Approvals',
  },
  {
    type: 'request_step_approved',
    label: 'Step approved',
    description: 'One approval step of your request is done',
    group: 'My requests',
  },
  {
    type: 'request_approved',
    label: 'Request approved',
    description: 'Your request was approved',
    group: 'My requests',
  },
  {
    type: 'request_rejected',
    label: 'Request rejected',
    description: 'Your request was rejected',
    group: 'My requests',
  },
  {
    type: 'request_info_requested',
    label: 'Information requested',
    description: 'An approver asked you for more information',
    group: 'My requests',
  },
  { type: 'request_paid', label: 'Request paid', description: 'Your request was paid', group: 'My requests' },
  {
    type: 'request_cancelled',
    label: 'Request cancelled',
    description: 'A request you were involved in was cancelled',
    group: 'My requests',
  },
  {
    type: 'request_rerouted',
    label: 'Request re-routed',
    description: 'Your request was sent through a new approval route',
    group: 'My requests',
  },
  {
    type: 'request.commented',
    label: 'New comment',
    description: 'Someone commented on a request you are involved in',
    group: 'My requests',
  },
  {
    type: 'recurring_raised',
    label: 'Recurring request raised',
    description: 'A new occurrence of your recurring request was raised',
    group: 'My requests',
  },
  {
    type: 'delegation.created',
    label: 'Delegation created',
    description: 'Someone delegated their approvals to you',
    group: 'Delegations',
  },
  {
    type: 'delegation.revoked',
    label: 'Delegation revoked',
    description: 'A delegation to you was revoked',
    group: 'Delegations',
  },
  {
    type: 'budget_threshold',
    label: 'Budget threshold crossed',
    description: 'A budget line you own crossed an alert threshold',
    group: 'Budgets',
  },
  {
    type: 'budget_overrun',
    label: 'Budget overrun',
    description: 'A request would exceed a budget and needs an overrun decision',
    group: 'Budgets',
  },
  {
    type: 'payroll_to_approve',
    label: 'Payroll to approve',
    description: 'A payroll run was submitted and waits for your approval',
    group: 'Payroll',
  },
  {
    type: 'bank_details_changed',
    label: 'Bank account changed',
    description: 'The bank account your salary is paid to was changed',
    group: 'Payroll',
  },
  {
    type: 'webhook_disabled',
    label: 'Webhook switched off',
    description: 'A webhook of yours kept failing and was switched off',
    group: 'Administration',
  },
  {
    type: 'registration_received',
    label: 'Registration received',
    description: 'Someone asked for access and waits for a review',
    group: 'Administration',
  },
  {
    type: 'feature_suggestion_status',
    label: 'Suggestion status changed',
    description: 'A feature suggestion you submitted is under review, planned, done or declined',
    group: 'Feedback',
  },
  {
    type: 'message_mention',
    label: 'Mentioned in a conversation',
    description: 'Someone wrote @your-username in a conversation you are in',
    group: 'Communications',
  },
  {
    type: 'new_device_sign_in',
    label: 'New sign-in from a new device',
    description: 'Your account was signed in to from a device not seen before',
    group: 'Security',
  },
] as const;

export type NotificationEventType = (typeof NOTIFICATION_EVENT_TYPES)[number]['type'];
export const NOTIFICATION_TYPE_VALUES = NOTIFICATION_EVENT_TYPES.map((e) => e.type) as [
  NotificationEventType,
  ...NotificationEventType[],
];

/** The label of a type; unknown types read as words. */
export function notificationTypeLabel(type: string): string {
  const known = NOTIFICATION_EVENT_TYPES.find((e) => e.type === type);
  if (known) return known.label;
  const words = type.replace(/[._]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const NOTIFICATION_CHANNELS = ['in_app', 'email'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export const DIGEST_FREQUENCY_VALUES = ['off', 'daily', 'weekly'] as const;
export type DigestFrequency = (typeof DIGEST_FREQUENCY_VALUES)[number];
/** When a digest is sent (cron), in the recipient's time zone: 07:00 every day, or every Monday. */
export const DIGEST_CRON: Record<Exclude<DigestFrequency, 'off'>, string> = { daily: '0 7 * * *', weekly: '0 7 * * 1' };

// --- list ------------------------------------------------------------------------------------

export const notificationItem = z.object({
  id: z.uuid(),
  type: z.string(),
  title: z.string(),
  body: z.string().nullable(),
  link: z.string().nullable(),
  entityType: z.string().nullable(),
  entityId: z.string().nullable(),
  read: z.boolean(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});
export type NotificationItem = z.infer<typeof notificationItem>;

export const NOTIFICATION_SORTS = ['createdAt', 'type'] as const;

export const notificationListQuery = listQuery.extend({
  sort: z.enum(NOTIFICATION_SORTS).default('createdAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
  unread: z.enum(['true', 'false']).optional(),
  type: z.string().trim().max(64).optional(),
});
export type NotificationListQuery = z.infer<typeof notificationListQuery>;

export const notificationPage = paginated(notificationItem);
export type NotificationPage = z.infer<typeof notificationPage>;

export const unreadCount = z.object({ count: z.number().int() });
export type UnreadCount = z.infer<typeof unreadCount>;

export const markAllReadResult = z.object({ updated: z.number().int() });
export type MarkAllReadResult = z.infer<typeof markAllReadResult>;

// --- preferences -------------------------------------------------------------------------------

export const notificationPreference = z.object({
  eventType: z.enum(NOTIFICATION_TYPE_VALUES),
  inApp: z.boolean(),
  email: z.boolean(),
});
export type NotificationPreference = z.infer<typeof notificationPreference>;

export const notificationPreferences = z.object({
  preferences: z.array(
    notificationPreference.extend({ label: z.string(), description: z.string(), group: z.string() }),
  ),
  digest: z.enum(DIGEST_FREQUENCY_VALUES),
  /** When the next digest is due (null when digests are off), and the recipient's time zone it is reckoned in. */
  nextDigestAt: z.string().nullable().optional(),
  digestTimeZone: z.string().optional(),
  /** False when the server sends no e-mail (SMTP not configured): the e-mail column is informative only. */
  emailEnabled: z.boolean(),
  /** The address e-mail goes to; null when the account has none. */
  emailAddress: z.string().nullable(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferences>;

export const updateNotificationPreferences = z
  .object({
    preferences: z
      .array(notificationPreference)
      .max(NOTIFICATION_EVENT_TYPES.length)
      .refine((list) => new Set(list.map((p) => p.eventType)).size === list.length, 'Each event type may appear once')
      .optional(),
    digest: z.enum(DIGEST_FREQUENCY_VALUES).optional(),
  })
  .refine((v) => v.preferences !== undefined || v.digest !== undefined, 'Send preferences or a digest frequency');
export type UpdateNotificationPreferences = z.infer<typeof updateNotificationPreferences>;

// --- live events (server-sent events) ---------------------------------------------------------

/** One `data:` payload of GET /api/events/stream (the API's LiveEvent). */
export const liveEvent = z.object({
  /** The event's number, also its SSE `id:`; send the last one seen as Last-Event-ID to resume. */
  id: z.string().optional(),
  kind: z.enum(['activity', 'notification', 'budget', 'message', 'announcement']),
  type: z.string(),
  organizationId: z.string().nullable().optional(),
  departmentId: z.string().nullable().optional(),
  userIds: z.array(z.string()).optional(),
  requestId: z.string().nullable().optional(),
  summary: z.string().nullable().optional(),
  conversationId: z.string().nullable().optional(),
  at: z.string(),
});
export type LiveEventPayload = z.infer<typeof liveEvent>;

export const LIVE_EVENTS_PATH = '/api/events/stream';
