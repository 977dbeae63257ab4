// Draft spending requests from the events of an .ics file: read with Mozilla's ical.js, shown
// first, created only for the events the person confirms, each through the requests service.
import ICAL from 'ical.js';
import {
  CALENDAR_IMPORT_MAX_EVENTS,
  CALENDAR_MESSAGES,
  createRequestInput,
  serverFormat,
  type CalendarImportEvent,
  type CalendarImportInput,
  type CalendarImportPreview,
  type CalendarImportResult,
} from '@outlay/contracts';
import type { Db } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import type { Ctx } from '../../lib/context.ts';
import { createRequest } from '../requests/index.ts';

interface ParsedEvent extends CalendarImportEvent {
  description: string | null;
}

const TITLE_MAX = 200;
const DESCRIPTION_MAX = 5000;

function badFile(message: string): AppError {
  return new AppError('BAD_REQUEST', { message, details: [{ path: 'content', message }] });
}

// ical.js keeps the wall-clock time of an event in its own zone when the file defines it
// (VTIMEZONE); a floating time is read as UTC, the server's zone.
function instantOf(time: ICAL.Time): string {
  return time.toJSDate().toISOString();
}

function dayOf(time: ICAL.Time): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)}`;
}

const clean = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  // Calendar text may carry control characters that no request field accepts.
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const text = value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').trim();
  return text === '' ? null : text;
};

/**
 * The file's events in the order they appear. A repeating event is taken once, at its first
 * occurrence (its DTSTART): a weekly meeting is one trip to plan, not fifty-two drafts.
 * Overrides of single occurrences (RECURRENCE-ID) belong to their series and are left out.
 */
export function parseIcs(content: string): ParsedEvent[] {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(content) as unknown[]);
  } catch {
    throw badFile(CALENDAR_MESSAGES.notCalendar);
  }
  if (root.name !== 'vcalendar') throw badFile(CALENDAR_MESSAGES.notCalendar);
  const vevents = root.getAllSubcomponents('vevent').filter((c) => !c.hasProperty('recurrence-id'));
  if (vevents.length === 0) throw badFile(CALENDAR_MESSAGES.noEvents);
  if (vevents.length > CALENDAR_IMPORT_MAX_EVENTS) throw badFile(CALENDAR_MESSAGES.tooManyEvents);
  return vevents.map((component, index) => {
    let event: ICAL.Event;
    try {
      event = new ICAL.Event(component);
    } catch {
      throw badFile(`Event ${index + 1} of this file cannot be read`);
    }
    const start = event.startDate;
    if (!start) throw badFile(`Event ${index + 1} of this file has no start (DTSTART)`);
    const allDay = start.isDate;
    let end: ICAL.Time | null = null;
    try {
      end = event.endDate ?? null;
    } catch {
      end = null;
    }
    const title = clean(event.summary) ?? `Calendar event ${index + 1}`;
    return {
      key: String(index),
      uid: clean(event.uid),
      title,
      start: allDay ? dayOf(start) : instantOf(start),
      end: end ? (allDay ? dayOf(end) : instantOf(end)) : null,
      allDay,
      location: clean(event.location),
      recurring: event.isRecurring(),
      neededBy: allDay ? dayOf(start) : instantOf(start).slice(0, 10),
      description: clean(event.description),
    };
  });
}

export function previewImport(content: string): CalendarImportPreview {
  return { events: parseIcs(content).map(({ description: _description, ...event }) => event) };
}

function whenOf(e: ParsedEvent): string {
  const f = serverFormat;
  if (e.allDay) {
    // DTEND of an all-day event is the day after its last day.
    const last = e.end
      ? new Date(new Date(`${e.end}T00:00:00Z`).getTime() - 86_400_000).toISOString().slice(0, 10)
      : e.start;
    return last > e.start ? `${f.date(e.start)} – ${f.date(last)}` : (f.date(e.start) ?? e.start);
  }
  return e.end ? `${f.dateTime(e.start)} – ${f.dateTime(e.end)} (UTC)` : `${f.dateTime(e.start)} (UTC)`;
}

function titleOf(title: string): string {
  const padded = title.length < 3 ? `Event: ${title}` : title;
  return padded.length > TITLE_MAX ? `${padded.slice(0, TITLE_MAX - 1)}…` : padded;
}

function descriptionOf(e: ParsedEvent): string {
  const lines = [`From the calendar event "${e.title}".`, `When: ${whenOf(e)}`];
  if (e.location) lines.push(`Where: ${e.location}`);
  if (e.recurring) lines.push('A repeating event: this draft is for its first occurrence.');
  if (e.description) lines.push('', e.description);
  const text = lines.join('\n');
  return text.length > DESCRIPTION_MAX ? `${text.slice(0, DESCRIPTION_MAX - 1)}…` : text;
}

/** All the chosen events become drafts, or none does (one transaction). */
export async function confirmImport(ctx: Ctx, input: CalendarImportInput): Promise<CalendarImportResult> {
  const events = new Map(parseIcs(input.content).map((e) => [e.key, e]));
  const chosen = input.items.map((item, i) => {
    const event = events.get(item.key);
    if (!event)
      throw new AppError('VALIDATION_ERROR', {
        message: CALENDAR_MESSAGES.unknownEvent,
        details: [{ path: `items.${i}.key`, message: CALENDAR_MESSAGES.unknownEvent }],
      });
    return { event, amount: item.amount };
  });
  return ctx.db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    const inTx: Ctx = { ...ctx, db: tx };
    const created: CalendarImportResult['created'] = [];
    for (const [i, { event, amount }] of chosen.entries()) {
      // The same rules as a draft typed in by hand (the amount's decimals for its currency).
      const parsed = createRequestInput.safeParse({
        title: titleOf(event.title),
        description: descriptionOf(event),
        kind: 'purchase',
        amount,
        currency: input.currency,
        categoryId: input.categoryId,
        neededBy: event.neededBy,
      });
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const path = issue.path[0] === 'amount' ? `items.${i}.amount` : String(issue.path[0] ?? 'items');
        throw new AppError('VALIDATION_ERROR', { message: issue.message, details: [{ path, message: issue.message }] });
      }
      const outcome = await createRequest(inTx, parsed.data, undefined);
      created.push({ id: outcome.body.id, reference: outcome.body.reference, title: outcome.body.title });
    }
    return { created };
  });
}
