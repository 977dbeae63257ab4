import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { auditEvents, featureSuggestionVotes, notifications, users } from '@outlay/db';
import { rowsOf } from '../../src/lib/sql.ts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let rita: Session;
let max: Session;
let adam: Session;
let ritaId: string;

beforeAll(async () => {
  t = await createTestApp();
  [rita, max, adam] = await Promise.all([login(t.app, 'rita'), login(t.app, 'max'), login(t.app, 'adam')]);
  const [r] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'rita'));
  ritaId = r!.id;
});
afterAll(async () => t.close());

const call = (s: Session, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: s.headers, ...(payload ? { payload } : {}) });

async function suggest(s: Session, title: string, description = 'It would save everyone a lot of time.') {
  const res = await call(s, 'POST', '/api/feature-suggestions', { title, description });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; votes: number; voted: boolean; status: string; authorName: string };
}

describe('the demo world', () => {
  it('holds suggestions in every status, with votes and comments', async () => {
    const res = await call(rita, 'GET', '/api/feature-suggestions?pageSize=100');
    expect(res.statusCode).toBe(200);
    const items = res.json().items as { status: string; votes: number; comments: number }[];
    expect(new Set(items.map((i) => i.status))).toEqual(
      new Set(['open', 'under_review', 'planned', 'done', 'declined']),
    );
    expect(items[0]!.votes).toBeGreaterThan(1);
    expect(items.some((i) => i.comments > 0)).toBe(true);
  });
});

describe('POST /api/feature-suggestions', () => {
  it("creates a suggestion with its author's vote, audited", async () => {
    const s = await suggest(rita, 'Mobile receipt capture');
    expect(s).toMatchObject({ status: 'open', votes: 1, voted: true });
    expect(s.authorName).toMatch(/^Rita /);
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, s.id), eq(auditEvents.action, 'feature_suggestion.created')));
    expect(audit).toBeDefined();
  });

  it('refuses a short title or an empty description with 400 and the field', async () => {
    const res = await call(rita, 'POST', '/api/feature-suggestions', { title: 'Hi', description: '' });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json().details)).toContain('title');
  });

  it('keeps markup as text', async () => {
    const s = await suggest(rita, '<img src=x onerror=alert(1)> please', '<script>alert(1)</script> as text');
    const detail = (await call(max, 'GET', `/api/feature-suggestions/${s.id}`)).json();
    expect(detail.title).toBe('<img src=x onerror=alert(1)> please');
    expect(detail.description).toBe('<script>alert(1)</script> as text');
  });
});

describe('votes', () => {
  it('keeps one vote when one person votes twenty times at once', async () => {
    const s = await suggest(adam, 'Bulk vendor import');
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call(max, 'PUT', `/api/feature-suggestions/${s.id}/vote`)),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    for (const r of results) expect(r.json()).toMatchObject({ id: s.id, voted: true });
    const [row] = rowsOf<{ n: number }>(
      await t.db.execute(
        sql`SELECT count(*)::int AS n FROM ${featureSuggestionVotes} WHERE suggestion_id = ${s.id} AND user_id = (SELECT id FROM users WHERE username = 'max')`,
      ),
    );
    expect(row!.n).toBe(1);
    const detail = (await call(max, 'GET', `/api/feature-suggestions/${s.id}`)).json();
    expect(detail).toMatchObject({ votes: 2, voted: true });
  });

  it('takes a vote back, and taking it back again changes nothing', async () => {
    const s = await suggest(adam, 'Dark mode');
    expect((await call(rita, 'PUT', `/api/feature-suggestions/${s.id}/vote`)).json()).toMatchObject({
      voted: true,
      votes: 2,
    });
    expect((await call(rita, 'DELETE', `/api/feature-suggestions/${s.id}/vote`)).json()).toMatchObject({
      voted: false,
      votes: 1,
    });
    const again = await call(rita, 'DELETE', `/api/feature-suggestions/${s.id}/vote`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ voted: false, votes: 1 });
  });

  it('answers 404 for a suggestion that does not exist', async () => {
    const res = await call(rita, 'PUT', '/api/feature-suggestions/00000000-0000-4000-8000-000000000000/vote');
    expect(res.statusCode).toBe(404);
  });
});

describe('list', () => {
  it('sorts by votes or newest, filters by status and mine, and searches', async () => {
    const popular = await suggest(max, 'Popular: approval from e-mail');
    await Promise.all(
      ['rita', 'adam', 'carla', 'dana'].map(async (u) =>
        call(await login(t.app, u), 'PUT', `/api/feature-suggestions/${popular.id}/vote`),
      ),
    );
    const byVotes = (await call(rita, 'GET', '/api/feature-suggestions')).json();
    expect(byVotes.items[0].id).toBe(popular.id);
    expect(byVotes.items[0].votes).toBe(5);
    const newest = (await call(rita, 'GET', '/api/feature-suggestions?sort=createdAt&order=desc')).json();
    expect(newest.items[0].id).toBe(popular.id);
    const mine = (await call(max, 'GET', '/api/feature-suggestions?mine=true')).json();
    expect(mine.items.map((i: { id: string }) => i.id)).toEqual([popular.id]);
    const found = (await call(rita, 'GET', '/api/feature-suggestions?q=e-mail')).json();
    expect(found.items.map((i: { id: string }) => i.id)).toContain(popular.id);
    const planned = (await call(rita, 'GET', '/api/feature-suggestions?status=planned')).json();
    expect(planned.items.every((i: { status: string }) => i.status === 'planned')).toBe(true);
    const csv = await call(rita, 'GET', '/api/feature-suggestions/export?format=csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Popular: approval from e-mail');
  });
});

describe('comments', () => {
  it('adds a comment in order, refuses an empty one', async () => {
    const s = await suggest(rita, 'Per-diem rates');
    const res = await call(max, 'POST', `/api/feature-suggestions/${s.id}/comments`, { body: 'Yes, for Energy too' });
    expect(res.statusCode).toBe(201);
    expect(res.json().commentList).toMatchObject([{ body: 'Yes, for Energy too' }]);
    expect(res.json().comments).toBe(1);
    expect((await call(max, 'POST', `/api/feature-suggestions/${s.id}/comments`, { body: '   ' })).statusCode).toBe(
      400,
    );
  });
});

describe('status', () => {
  it('lets an admin set the status and notifies the author, once per change', async () => {
    const s = await suggest(rita, 'Split a request across two cards');
    const res = await call(adam, 'POST', `/api/feature-suggestions/${s.id}/status`, {
      status: 'planned',
      note: 'In the next release',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'planned', statusNote: 'In the next release' });
    const mine = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, ritaId), eq(notifications.entityId, s.id)));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      type: 'feature_suggestion_status',
      title: 'Your suggestion "Split a request across two cards" is now planned',
      body: 'In the next release',
    });
    // The same status again is no change: nobody is told twice.
    await call(adam, 'POST', `/api/feature-suggestions/${s.id}/status`, {
      status: 'planned',
      note: 'In the next release',
    });
    expect(
      await t.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, ritaId), eq(notifications.entityId, s.id))),
    ).toHaveLength(1);
    const audits = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, s.id), eq(auditEvents.action, 'feature_suggestion.status_changed')));
    expect(audits).toHaveLength(1);
  });

  it('refuses people without feedback.manage (403) and an unknown status (400)', async () => {
    const s = await suggest(rita, 'Approve from the lock screen');
    for (const who of [rita, max, await login(t.app, 'carla')]) {
      const res = await call(who, 'POST', `/api/feature-suggestions/${s.id}/status`, { status: 'done' });
      expect(res.statusCode).toBe(403);
    }
    expect(
      (await call(adam, 'POST', `/api/feature-suggestions/${s.id}/status`, { status: 'shipped' })).statusCode,
    ).toBe(400);
    const detail = (await call(rita, 'GET', `/api/feature-suggestions/${s.id}`)).json();
    expect(detail.status).toBe('open');
  });

  it('refuses callers without a session (401)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/feature-suggestions' })).statusCode).toBe(401);
  });
});

describe('posting limits', () => {
  it('takes 10 suggestions an hour from one person, then answers 429 with Retry-After until the hour is over', async () => {
    const grace = await login(t.app, 'grace');
    const [g] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'grace'));
    const mine = async () =>
      rowsOf<{ n: number }>(
        await t.db.execute(sql`SELECT count(*)::int AS n FROM feature_suggestions WHERE author_id = ${g!.id}`),
      )[0]!.n;
    const before = await mine();
    for (let i = 1; i <= 10; i++) await suggest(grace, `Idea number ${i} from Grace`);
    const refused = await call(grace, 'POST', '/api/feature-suggestions', {
      title: 'Idea number 11 from Grace',
      description: 'One too many for an hour.',
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'TOO_MANY_ATTEMPTS',
      message: expect.stringMatching(/10 suggestions in the last hour/),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await mine()).toBe(before + 10);
    // Someone else still posts.
    await suggest(max, 'An idea from Max while Grace waits');
    t.clock.advance(61 * 60_000);
    await suggest(await login(t.app, 'grace'), 'Idea number 11 from Grace, an hour later');
  });

  it('takes 30 comments an hour from one person', async () => {
    const [dana, author] = [await login(t.app, 'dana'), await login(t.app, 'rita')];
    const target = await suggest(author, 'Something to talk about at length');
    for (let i = 1; i <= 30; i++) {
      const res = await call(dana, 'POST', `/api/feature-suggestions/${target.id}/comments`, { body: `Comment ${i}` });
      expect(res.statusCode, res.body).toBe(201);
    }
    const refused = await call(dana, 'POST', `/api/feature-suggestions/${target.id}/comments`, { body: 'Comment 31' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/30 comments in the last hour/);
    const detail = (await call(author, 'GET', `/api/feature-suggestions/${target.id}`)).json();
    expect(detail.commentList.filter((c: { body: string }) => c.body.startsWith('Comment '))).toHaveLength(30);
  });
});
