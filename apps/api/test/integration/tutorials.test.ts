import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { tutorialReads, users } from '@outlay/db';
import { buildLibrary } from '../../src/modules/tutorials/tutorials.content.ts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let rita: Session;

beforeAll(async () => {
  t = await createTestApp();
  rita = await login(t.app, 'rita');
});
afterAll(async () => t.close());

const get = (url: string, s: Session = rita) => t.app.inject({ method: 'GET', url, headers: s.headers });

describe('the shipped articles', () => {
  it('are at least twelve, each with valid front matter and headings', () => {
    const lib = buildLibrary();
    expect(lib.articles.length).toBeGreaterThanOrEqual(12);
    for (const a of lib.articles) {
      expect(a.headings.length, a.slug).toBeGreaterThan(0);
      expect(a.plain.length, a.slug).toBeGreaterThan(400);
    }
  });
});

describe('GET /api/tutorials', () => {
  it('lists every article for a signed-in person, with the tags to filter by', async () => {
    const res = await get('/api/tutorials');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBeGreaterThanOrEqual(12);
    expect(body.items[0]).toMatchObject({ slug: 'signing-in-and-your-profile', readAt: null, excerpt: null });
    expect(body.tags).toContain('payroll');
  });

  it('finds an article by a word that appears only in its body, with the matching line as excerpt', async () => {
    // "pain.001" is only in the payroll article's body, not its title, summary or tags.
    const res = await get('/api/tutorials?q=pain.001');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.items.map((i: { slug: string }) => i.slug)).toEqual(['payroll-runs']);
    expect(body.items[0].excerpt).toContain('pain.001');
  });

  it('ranks a title match first, tolerates a typo, and needs every word', async () => {
    const delegation = (await get('/api/tutorials?q=delegating')).json();
    expect(delegation.items[0].slug).toBe('delegating-while-out-of-office');
    const typo = (await get('/api/tutorials?q=recovry%20codes')).json();
    expect(typo.items.map((i: { slug: string }) => i.slug)).toContain('two-factor-authentication');
    const none = (await get('/api/tutorials?q=payroll%20zebra')).json();
    expect(none.total).toBe(0);
  });

  it('filters by audience and tag', async () => {
    const finance = (await get('/api/tutorials?role=finance&pageSize=100')).json();
    expect(finance.items.length).toBeGreaterThan(0);
    for (const i of finance.items) expect(i.roles).toContain('finance');
    const vendors = (await get('/api/tutorials?tag=vendors')).json();
    expect(vendors.items.map((i: { slug: string }) => i.slug).sort()).toEqual([
      'managing-vendors',
      'payables-and-vendor-aging',
    ]);
  });

  it('refuses a bad filter with 400 and a caller without a session with 401', async () => {
    expect((await get('/api/tutorials?role=emperor')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/tutorials' })).statusCode).toBe(401);
  });
});

describe('GET /api/tutorials/:slug', () => {
  it('answers the Markdown with its headings and marks the article read, once', async () => {
    const res = await get('/api/tutorials/approving-requests');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.title).toBe('Approving requests');
    expect(body.body).toContain('## Decide');
    expect(body.headings).toContainEqual({ depth: 2, text: 'Decide', id: 'decide' });
    expect(body.related.length).toBeGreaterThan(0);
    const first = body.readAt;
    expect(first).not.toBeNull();

    t.clock.advance(60_000);
    const again = (await get('/api/tutorials/approving-requests')).json();
    expect(again.readAt).toBe(first);
    const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'rita'));
    const rows = await t.db
      .select()
      .from(tutorialReads)
      .where(and(eq(tutorialReads.userId, user!.id), eq(tutorialReads.slug, 'approving-requests')));
    expect(rows).toHaveLength(1);
    const list = (await get('/api/tutorials?q=approve')).json();
    expect(list.items.find((i: { slug: string }) => i.slug === 'approving-requests').readAt).toBe(first);
  });

  it('answers 404 for an unknown article and 400 for a malformed name', async () => {
    expect((await get('/api/tutorials/no-such-article')).statusCode).toBe(404);
    expect((await get('/api/tutorials/..%2Fsecrets')).statusCode).toBe(400);
  });
});
