import ical from 'ical-generator';
import {
  CALENDAR_EVENT_KIND_LABELS,
  CALENDAR_FEED_FUTURE_DAYS,
  CALENDAR_FEED_PAST_DAYS,
  CALENDAR_MESSAGES,
  CALENDAR_UPCOMING_DAYS,
  type CalendarFeedCreated,
  type CalendarFeedStatus,
  type CalendarUpcoming,
} from '@outlay/contracts';
import { AppError } from '../../lib/app-error.ts';
import { actorOf, auditChange } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { authOfPerson } from '../../lib/person-access.ts';
import { absoluteUrl } from '../../lib/public-url.ts';
import { releaseAttempt, reserveAttempt, secondsUntil } from '../auth/index.ts';
import { eventsFor, windowOf } from './calendar.events.ts';
import * as repo from './calendar.repository.ts';

/**
 * Lookups of unknown links per address: calendar apps poll known links every few hours, so only
 * misses count, and a prober is held off long before 128 random bits could matter.
 */
const FEED_LOOKUP_LIMIT = { maxFailures: 20, windowMinutes: 15, lockMinutes: 15 };
/** How often calendar apps are asked to fetch the feed again. */
const FEED_TTL_SECONDS = 3600;
// 32 random bytes, base64url: 43 characters, 256 bits.
const TOKEN_PATTERN = /^([A-Za-z0-9_-]{43})\.ics$/;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
export const feedPath = (token: string) => `/api/calendar/${token}.ics`;

export async function feedStatus(ctx: Ctx): Promise<CalendarFeedStatus> {
  const row = await repo.feedOf(ctx.db, requireAuth(ctx).userId);
  return {
    active: row !== null,
    createdAt: iso(row?.createdAt ?? null),
    lastFetchedAt: iso(row?.lastFetchedAt ?? null),
  };
}

/**
 * A new private link, replacing any earlier one. Only the token's hash is stored, so the link is
 * shown this once: someone who loses it makes a new one, and a copy of the database reveals none.
 */
export async function createFeed(ctx: Ctx): Promise<CalendarFeedCreated> {
  const auth = requireAuth(ctx);
  const token = randomToken(32);
  await ctx.db.transaction(async (tx) => {
    const replaced = (await repo.feedOf(tx, auth.userId)) !== null;
    await repo.replaceFeed(tx, { userId: auth.userId, tokenHash: sha256(token), now: ctx.now });
    await auditChange(tx, actorOf(ctx), {
      action: replaced ? 'calendar_feed.regenerated' : 'calendar_feed.created',
      entityType: 'calendar_feed',
      entityId: auth.userId,
    });
  });
  return { path: feedPath(token), createdAt: ctx.now.toISOString() };
}

export async function revokeFeed(ctx: Ctx): Promise<void> {
  const auth = requireAuth(ctx);
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.deleteFeed(tx, auth.userId)))
      throw new AppError('NOT_FOUND', { message: 'You have no calendar link to revoke' });
    await auditChange(tx, actorOf(ctx), {
      action: 'calendar_feed.revoked',
      entityType: 'calendar_feed',
      entityId: auth.userId,
    });
  });
}

export async function upcoming(ctx: Ctx): Promise<CalendarUpcoming> {
  return { events: await eventsFor(ctx.db, requireAuth(ctx), windowOf(ctx.now, 0, CALENDAR_UPCOMING_DAYS)) };
}

function feedNotFound(): AppError {
  return new AppError('NOT_FOUND', { message: CALENDAR_MESSAGES.feedNotFound });
}

/**
 * The iCalendar feed behind a private link. The link is the only credential; what it shows is
 * worked out from the owner's role, scope and status at this moment, so a change of role
 * narrows the feed at once and a deactivated owner's link stops answering.
 */
export async function feedIcs(ctx: Ctx, file: string): Promise<string> {
  const gateKey = `calendar-feed:${ctx.ip ?? 'unknown'}`;
  const gate = await reserveAttempt(ctx.db, gateKey, FEED_LOOKUP_LIMIT, ctx.now);
  if (gate.lockedUntil) {
    const seconds = secondsUntil(gate.lockedUntil, ctx.now);
    throw new AppError('TOO_MANY_ATTEMPTS', {
      message: 'Too many calendar links tried from this address. Please try again later.',
      headers: { 'retry-after': String(seconds) },
    });
  }
  const token = TOKEN_PATTERN.exec(file)?.[1];
  const owner = token ? await repo.ownerOfToken(ctx.db, sha256(token)) : null;
  if (!owner || owner.status !== 'active') throw feedNotFound();
  await releaseAttempt(ctx.db, gateKey, false);

  const auth = authOfPerson(owner);
  const events = await eventsFor(ctx.db, auth, windowOf(ctx.now, CALENDAR_FEED_PAST_DAYS, CALENDAR_FEED_FUTURE_DAYS));
  // A poll every few minutes from several apps need not rewrite the row each time.
  if (!owner.lastFetchedAt || ctx.now.getTime() - owner.lastFetchedAt.getTime() > 60_000)
    await repo.touchFeed(ctx.db, owner.userId, ctx.now);

  const calendar = ical({
    name: 'Outlay',
    description: 'Approval deadlines, payroll dates, budget period ends and your requests’ needed-by dates',
    prodId: { company: 'Outlay', product: 'Outlay', language: 'EN' },
    ttl: FEED_TTL_SECONDS,
  });
  for (const e of events) {
    const start = e.allDay ? new Date(`${e.start}T00:00:00Z`) : new Date(e.start);
    // A deadline is an instant; calendars show a zero-length event badly, so it takes 30 minutes.
    const end = new Date(start.getTime() + (e.allDay ? 86_400_000 : 30 * 60_000));
    calendar.createEvent({
      id: e.uid,
      stamp: ctx.now,
      start,
      end,
      allDay: e.allDay,
      summary: `${CALENDAR_EVENT_KIND_LABELS[e.kind]}: ${e.title}`,
      description: e.description,
      // PUBLIC_URL, never the Host header: a forged Host must not put its links in the feed.
      url: absoluteUrl(ctx.publicUrl, e.path),
    });
  }
  return calendar.toString();
}
