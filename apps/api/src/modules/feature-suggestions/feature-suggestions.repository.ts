import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FeatureSuggestionListQuery, FeatureSuggestionStatus } from '@outlay/contracts';
import { featureSuggestionComments, featureSuggestionVotes, featureSuggestions, users, type Db } from '@outlay/db';
import { likePattern, listPage, windowOf } from '../../lib/lists.ts';

const voteCount = sql<number>`(SELECT count(*)::int FROM ${featureSuggestionVotes} WHERE ${featureSuggestionVotes.suggestionId} = ${featureSuggestions.id})`;
const commentCount = sql<number>`(SELECT count(*)::int FROM ${featureSuggestionComments} WHERE ${featureSuggestionComments.suggestionId} = ${featureSuggestions.id})`;

function columns(viewerId: string) {
  return {
    id: featureSuggestions.id,
    title: featureSuggestions.title,
    description: featureSuggestions.description,
    status: featureSuggestions.status,
    statusNote: featureSuggestions.statusNote,
    statusChangedAt: featureSuggestions.statusChangedAt,
    authorId: featureSuggestions.authorId,
    authorFirstName: users.firstName,
    authorLastName: users.lastName,
    votes: voteCount,
    comments: commentCount,
    voted: sql<boolean>`EXISTS (SELECT 1 FROM ${featureSuggestionVotes} WHERE ${featureSuggestionVotes.suggestionId} = ${featureSuggestions.id} AND ${featureSuggestionVotes.userId} = ${viewerId})`,
    createdAt: featureSuggestions.createdAt,
  };
}
export type SuggestionRow = {
  id: string;
  title: string;
  description: string;
  status: FeatureSuggestionStatus;
  statusNote: string | null;
  statusChangedAt: Date | null;
  authorId: string;
  authorFirstName: string;
  authorLastName: string;
  votes: number;
  comments: number;
  voted: boolean;
  createdAt: Date;
};

type Filter = Pick<FeatureSuggestionListQuery, 'q' | 'status' | 'mine'>;

function where(viewerId: string, filter: Filter): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (filter.q) {
    const p = likePattern(filter.q);
    parts.push(or(ilike(featureSuggestions.title, p), ilike(featureSuggestions.description, p)));
  }
  if (filter.status) parts.push(eq(featureSuggestions.status, filter.status));
  if (filter.mine === 'true') parts.push(eq(featureSuggestions.authorId, viewerId));
  return and(...parts);
}

function ordering(query: Pick<FeatureSuggestionListQuery, 'sort' | 'order'>): SQL[] {
  const dir = query.order === 'asc' ? asc : desc;
  const by: Record<FeatureSuggestionListQuery['sort'], SQL | PgColumn> = {
    votes: voteCount,
    comments: commentCount,
    createdAt: featureSuggestions.createdAt,
    title: sql`lower(${featureSuggestions.title})`,
    status: featureSuggestions.status,
  };
  return [dir(by[query.sort]), desc(featureSuggestions.createdAt), asc(featureSuggestions.id)];
}

export async function listSuggestions(
  db: Db,
  params: {
    viewerId: string;
    query: Filter & Pick<FeatureSuggestionListQuery, 'sort' | 'order'> & { page?: number; pageSize?: number };
  },
): Promise<{ rows: SuggestionRow[]; total: number }> {
  const condition = where(params.viewerId, params.query);
  return listPage(db, {
    rows: db
      .select(columns(params.viewerId))
      .from(featureSuggestions)
      .innerJoin(users, eq(users.id, featureSuggestions.authorId))
      .where(condition),
    order: ordering(params.query),
    window: windowOf(params.query),
    count: featureSuggestions,
    where: condition,
  });
}

export async function findSuggestion(db: Db, params: { id: string; viewerId: string }): Promise<SuggestionRow | null> {
  const [row] = await db
    .select(columns(params.viewerId))
    .from(featureSuggestions)
    .innerJoin(users, eq(users.id, featureSuggestions.authorId))
    .where(eq(featureSuggestions.id, params.id));
  return row ?? null;
}

/** The row itself, locked for a status change. */
export async function lockSuggestion(db: Db, id: string) {
  const [row] = await db.select().from(featureSuggestions).where(eq(featureSuggestions.id, id)).for('update');
  return row ?? null;
}

export async function insertSuggestion(db: Db, values: typeof featureSuggestions.$inferInsert): Promise<string> {
  const [row] = await db.insert(featureSuggestions).values(values).returning({ id: featureSuggestions.id });
  return row!.id;
}

export async function updateStatus(
  db: Db,
  params: { id: string; status: FeatureSuggestionStatus; note: string | null; by: string; now: Date },
) {
  await db
    .update(featureSuggestions)
    .set({
      status: params.status,
      statusNote: params.note,
      statusChangedAt: params.now,
      statusChangedBy: params.by,
      updatedAt: params.now,
    })
    .where(eq(featureSuggestions.id, params.id));
}

/** True when this call added the vote; the primary key keeps a second one out whatever the race. */
export async function addVote(db: Db, params: { suggestionId: string; userId: string; now: Date }): Promise<boolean> {
  const rows = await db
    .insert(featureSuggestionVotes)
    .values({ suggestionId: params.suggestionId, userId: params.userId, createdAt: params.now })
    .onConflictDoNothing()
    .returning({ userId: featureSuggestionVotes.userId });
  return rows.length > 0;
}

export async function removeVote(db: Db, params: { suggestionId: string; userId: string }): Promise<boolean> {
  const rows = await db
    .delete(featureSuggestionVotes)
    .where(
      and(
        eq(featureSuggestionVotes.suggestionId, params.suggestionId),
        eq(featureSuggestionVotes.userId, params.userId),
      ),
    )
    .returning({ userId: featureSuggestionVotes.userId });
  return rows.length > 0;
}

export async function votesOf(db: Db, suggestionId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(featureSuggestionVotes)
    .where(eq(featureSuggestionVotes.suggestionId, suggestionId));
  return row?.n ?? 0;
}

export async function commentsOf(db: Db, suggestionId: string) {
  return db
    .select({
      id: featureSuggestionComments.id,
      authorId: featureSuggestionComments.authorId,
      authorFirstName: users.firstName,
      authorLastName: users.lastName,
      body: featureSuggestionComments.body,
      createdAt: featureSuggestionComments.createdAt,
    })
    .from(featureSuggestionComments)
    .innerJoin(users, eq(users.id, featureSuggestionComments.authorId))
    .where(eq(featureSuggestionComments.suggestionId, suggestionId))
    .orderBy(asc(featureSuggestionComments.createdAt), asc(featureSuggestionComments.id));
}

export async function insertComment(db: Db, values: typeof featureSuggestionComments.$inferInsert): Promise<string> {
  const [row] = await db
    .insert(featureSuggestionComments)
    .values(values)
    .returning({ id: featureSuggestionComments.id });
  return row!.id;
}
