import { z } from 'zod';
import { currencyCode, moneyAmount } from './lists.ts';
import { isDecimal, isPositive } from './money.ts';
import { text } from './primitives.ts';

const positiveAmount = moneyAmount.refine((v) => !isDecimal(v) || isPositive(v), 'The amount must be more than zero');

/** What the calendar feed holds, each kind from the records it stands for. */
export const CALENDAR_EVENT_KIND_VALUES = ['approval', 'payroll', 'budget', 'request'] as const;
export type CalendarEventKind = (typeof CALENDAR_EVENT_KIND_VALUES)[number];
export const CALENDAR_EVENT_KIND_LABELS: Record<CalendarEventKind, string> = {
  approval: 'Approval due',
  payroll: 'Payroll pay date',
  budget: 'Budget period end',
  request: 'Needed by',
};

/** Feed events from this many days back to this many ahead; older and later dates add only noise. */
export const CALENDAR_FEED_PAST_DAYS = 30;
export const CALENDAR_FEED_FUTURE_DAYS = 366;
/** The screen's preview of what is coming. */
export const CALENDAR_UPCOMING_DAYS = 30;

/** An .ics upload's text: calendar exports of a few events are a few kilobytes. */
export const CALENDAR_IMPORT_MAX_BYTES = 512 * 1024;
export const CALENDAR_IMPORT_MAX_EVENTS = 200;
export const CALENDAR_IMPORT_ACCEPT = '.ics,text/calendar';

export const CALENDAR_MESSAGES = {
  notCalendar: 'This file is not an iCalendar (.ics) file',
  noEvents: 'This calendar file holds no events',
  tooManyEvents: `This calendar file holds more than ${CALENDAR_IMPORT_MAX_EVENTS} events; export a shorter date range`,
  tooLarge: `The file is larger than ${CALENDAR_IMPORT_MAX_BYTES / 1024} KB`,
  unknownEvent: 'An event you chose is no longer in the file; preview it again',
  feedNotFound: 'Calendar feed not found',
} as const;

/** The subscription link's state; the token itself is known only when it is made. */
export const calendarFeedStatus = z.object({
  active: z.boolean(),
  createdAt: z.string().nullable(),
  lastFetchedAt: z.string().nullable(),
});
export type CalendarFeedStatus = z.infer<typeof calendarFeedStatus>;

/** A new link: the path (`/api/calendar/<token>.ics`) is shown this once and never again. */
export const calendarFeedCreated = z.object({
  path: z.string(),
  createdAt: z.string(),
});
export type CalendarFeedCreated = z.infer<typeof calendarFeedCreated>;

export const calendarEvent = z.object({
  uid: z.string(),
  kind: z.enum(CALENDAR_EVENT_KIND_VALUES),
  /** What it is about; the feed's SUMMARY puts the kind's label in front. */
  title: z.string(),
  description: z.string(),
  /** `YYYY-MM-DD` when allDay, else an ISO instant. */
  start: z.string(),
  allDay: z.boolean(),
  /** The screen that shows it, as an app path. */
  path: z.string(),
});
export type CalendarEvent = z.infer<typeof calendarEvent>;

export const calendarUpcoming = z.object({ events: z.array(calendarEvent) });
export type CalendarUpcoming = z.infer<typeof calendarUpcoming>;

const icsContent = text.min(1, 'Choose an .ics file').max(CALENDAR_IMPORT_MAX_BYTES, CALENDAR_MESSAGES.tooLarge);

export const calendarImportPreviewInput = z.object({ content: icsContent });
export type CalendarImportPreviewInput = z.infer<typeof calendarImportPreviewInput>;

export const calendarImportEvent = z.object({
  /** Its place among the file's events: what the confirmation names. */
  key: z.string(),
  uid: z.string().nullable(),
  title: z.string(),
  /** `YYYY-MM-DD` when allDay, else an ISO instant. */
  start: z.string(),
  end: z.string().nullable(),
  allDay: z.boolean(),
  location: z.string().nullable(),
  /** A repeating event: only its first occurrence becomes a request. */
  recurring: z.boolean(),
  /** The date the draft will carry as needed-by. */
  neededBy: z.string(),
});
export type CalendarImportEvent = z.infer<typeof calendarImportEvent>;

export const calendarImportPreview = z.object({ events: z.array(calendarImportEvent) });
export type CalendarImportPreview = z.infer<typeof calendarImportPreview>;

export const calendarImportInput = z.object({
  content: icsContent,
  categoryId: z.uuid('Choose a category'),
  currency: currencyCode,
  /** The chosen events, each with the amount its draft starts with (drafts need one). */
  items: z
    .array(z.object({ key: z.string().regex(/^\d{1,4}$/, 'Not an event of this file'), amount: positiveAmount }))
    .min(1, 'Choose at least one event')
    .max(CALENDAR_IMPORT_MAX_EVENTS)
    .refine((items) => new Set(items.map((i) => i.key)).size === items.length, 'Each event can be chosen once'),
});
export type CalendarImportInput = z.infer<typeof calendarImportInput>;
export type CalendarImportForm = z.input<typeof calendarImportInput>;

export const calendarImportResult = z.object({
  created: z.array(z.object({ id: z.uuid(), reference: z.string(), title: z.string() })),
});
export type CalendarImportResult = z.infer<typeof calendarImportResult>;
