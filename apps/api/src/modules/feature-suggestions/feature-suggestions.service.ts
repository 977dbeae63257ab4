import {
  FEATURE_SUGGESTION_STATUS_LABELS,
  MAX_EXPORT_ROWS,
  type CreateFeatureSuggestionInput,
  type FeatureSuggestion,
  type FeatureSuggestionCommentInput,
  type FeatureSuggestionDetail,
  type FeatureSuggestionExportQuery,
  type FeatureSuggestionList,
  type FeatureSuggestionListQuery,
  type FeatureSuggestionStatusInput,
  type FeatureSuggestionVote,
} from '@outlay/contracts';
import { AppError } from '../../lib/app-error.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { page } from '../../lib/lists.ts';
import { notify } from '../../lib/notify.ts';
import { reserveAttempt, secondsUntil } from '../auth/index.ts';
import * as repo from './feature-suggestions.repository.ts';
import type { SuggestionRow } from './feature-suggestions.repository.ts';
import type { ExportColumn } from '../../lib/export.ts';

const NOT_FOUND = 'Suggestion not found';

/**
 * What one person may post in an hour: enough for a busy week of ideas, too few to flood the
 * board or everyone's notifications. Counted in the shared throttle table, so every instance
 * sees the same count, and atomically, so parallel posts cannot slip past together.
 */
export const SUGGESTION_LIMITS = {
  suggestions: { maxFailures: 10, windowMinutes: 60, lockMinutes: 60 },
  comments: { maxFailures: 30, windowMinutes: 60, lockMinutes: 60 },
} as const;

async function countPost(ctx: Ctx, kind: keyof typeof SUGGESTION_LIMITS, userId: string) {
  const gate = await reserveAttempt(ctx.db, `feature-${kind}:${userId}`, SUGGESTION_LIMITS[kind], ctx.now);
  if (!gate.lockedUntil) return;
  const seconds = secondsUntil(gate.lockedUntil, ctx.now);
  const what =
    kind === 'suggestions'
      ? `${SUGGESTION_LIMITS.suggestions.maxFailures} suggestions`
      : `${SUGGESTION_LIMITS.comments.maxFailures} comments`;
  throw new AppError('TOO_MANY_ATTEMPTS', {
    message: `You have posted ${what} in the last hour. Please try again in ${Math.ceil(seconds / 60)} minutes.`,
    headers: { 'retry-after': String(seconds) },
  });
}

function toSuggestion(row: SuggestionRow): FeatureSuggestion {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    status: row.status,
    statusNote: row.statusNote,
    statusChangedAt: row.statusChangedAt ? new Date(row.statusChangedAt).toISOString() : null,
    authorId: row.authorId,
    authorName: `${row.authorFirstName} ${row.authorLastName}`,
    votes: Number(row.votes),
    comments: Number(row.comments),
    voted: Boolean(row.voted),
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

export async function listSuggestions(ctx: Ctx, query: FeatureSuggestionListQuery): Promise<FeatureSuggestionList> {
  const auth = requireAuth(ctx);
  const { rows, total } = await repo.listSuggestions(ctx.db, { viewerId: auth.userId, query });
  return page(rows.map(toSuggestion), total, query);
}

export async function exportSuggestions(ctx: Ctx, query: FeatureSuggestionExportQuery): Promise<FeatureSuggestion[]> {
  const auth = requireAuth(ctx);
  const { rows } = await repo.listSuggestions(ctx.db, {
    viewerId: auth.userId,
    query: { ...query, page: 1, pageSize: MAX_EXPORT_ROWS },
  });
  return rows.map(toSuggestion);
}

export const EXPORT_COLUMNS: ExportColumn<FeatureSuggestion>[] = [
  { header: 'Title', value: (s: FeatureSuggestion) => s.title },
  { header: 'Status', value: (s: FeatureSuggestion) => FEATURE_SUGGESTION_STATUS_LABELS[s.status] },
  { header: 'Votes', value: (s: FeatureSuggestion) => s.votes, type: 'number' },
  { header: 'Comments', value: (s: FeatureSuggestion) => s.comments, type: 'number' },
  { header: 'Author', value: (s: FeatureSuggestion) => s.authorName },
  { header: 'Submitted', value: (s: FeatureSuggestion) => s.createdAt, type: 'datetime' },
  { header: 'Description', value: (s: FeatureSuggestion) => s.description },
  { header: 'Status note', value: (s: FeatureSuggestion) => s.statusNote },
];

export async function getSuggestion(ctx: Ctx, id: string): Promise<FeatureSuggestionDetail> {
  const auth = requireAuth(ctx);
  const row = await repo.findSuggestion(ctx.db, { id, viewerId: auth.userId });
  if (!row) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
  const comments = await repo.commentsOf(ctx.db, id);
  return {
    ...toSuggestion(row),
    commentList: comments.map((c) => ({
      id: c.id,
      authorId: c.authorId,
      authorName: `${c.authorFirstName} ${c.authorLastName}`,
      body: c.body,
      createdAt: c.createdAt.toISOString(),
    })),
  };
}

/** A new idea, with its author's vote already on it (people vote for what they suggest). */
export async function createSuggestion(
  ctx: Ctx,
  input: CreateFeatureSuggestionInput,
): Promise<FeatureSuggestionDetail> {
  const auth = requireAuth(ctx);
  await countPost(ctx, 'suggestions', auth.userId);
  const id = await ctx.db.transaction(async (tx) => {
    const newId = await repo.insertSuggestion(tx, {
      authorId: auth.userId,
      title: input.title,
      description: input.description,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });
    await repo.addVote(tx, { suggestionId: newId, userId: auth.userId, now: ctx.now });
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'feature_suggestion.created',
        entityType: 'feature_suggestion',
        entityId: newId,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        after: { title: input.title },
      },
      ctx.now,
    );
    return newId;
  });
  return getSuggestion(ctx, id);
}

async function mustExist(ctx: Ctx, id: string) {
  const auth = requireAuth(ctx);
  const row = await repo.findSuggestion(ctx.db, { id, viewerId: auth.userId });
  if (!row) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
  return row;
}

/** Idempotent: voting twice (or twenty times at once) leaves one vote. */
export async function vote(ctx: Ctx, id: string): Promise<FeatureSuggestionVote> {
  const auth = requireAuth(ctx);
  await mustExist(ctx, id);
  await repo.addVote(ctx.db, { suggestionId: id, userId: auth.userId, now: ctx.now });
  return { id, voted: true, votes: await repo.votesOf(ctx.db, id) };
}

export async function unvote(ctx: Ctx, id: string): Promise<FeatureSuggestionVote> {
  const auth = requireAuth(ctx);
  await mustExist(ctx, id);
  await repo.removeVote(ctx.db, { suggestionId: id, userId: auth.userId });
  return { id, voted: false, votes: await repo.votesOf(ctx.db, id) };
}

export async function addComment(
  ctx: Ctx,
  id: string,
  input: FeatureSuggestionCommentInput,
): Promise<FeatureSuggestionDetail> {
  const auth = requireAuth(ctx);
  await mustExist(ctx, id);
  await countPost(ctx, 'comments', auth.userId);
  await repo.insertComment(ctx.db, { suggestionId: id, authorId: auth.userId, body: input.body, createdAt: ctx.now });
  return getSuggestion(ctx, id);
}

/**
 * Sets the status (feedback.manage) and tells the author, in the change's transaction. The row
 * is locked, so two people setting a status at once apply one after the other; setting the same
 * status and note again changes nothing and tells nobody.
 */
export async function setStatus(
  ctx: Ctx,
  id: string,
  input: FeatureSuggestionStatusInput,
): Promise<FeatureSuggestionDetail> {
  const auth = requireAuth(ctx);
  const note = input.note ? input.note : null;
  await ctx.db.transaction(async (tx) => {
    const before = await repo.lockSuggestion(tx, id);
    if (!before) throw new AppError('NOT_FOUND', { message: NOT_FOUND });
    if (before.status === input.status && (before.statusNote ?? null) === note) return;
    await repo.updateStatus(tx, { id, status: input.status, note, by: auth.userId, now: ctx.now });
    await writeAudit(
      tx,
      {
        actorId: auth.userId,
        action: 'feature_suggestion.status_changed',
        entityType: 'feature_suggestion',
        entityId: id,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        before: { status: before.status, note: before.statusNote },
        after: { status: input.status, note },
      },
      ctx.now,
    );
    if (before.status !== input.status && before.authorId !== auth.userId) {
      const label = FEATURE_SUGGESTION_STATUS_LABELS[input.status].toLowerCase();
      await notify(
        tx,
        [before.authorId],
        {
          type: 'feature_suggestion_status',
          title: `Your suggestion "${before.title}" is now ${label}`,
          body: note,
          link: `/feature-suggestions?suggestion=${id}`,
          entityType: 'feature_suggestion',
          entityId: id,
        },
        ctx.now,
      );
    }
  });
  return getSuggestion(ctx, id);
}
