import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { categories, organizations, requestSuggestionModels, spendingRequests, users, vendors } from '@outlay/db';
import { MODEL_VERSION } from '../../src/modules/request-suggestions/request-suggestions.model.ts';
import { retrainSuggestionModels } from '../../src/modules/request-suggestions/request-suggestions.training.ts';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';

let t: TestContext;
let rita: Session;
let newcomer: Session;
let ritaUser: typeof users.$inferSelect;
let otherOrgId: string;

interface Suggestion {
  id: string;
  name: string;
  code: string | null;
  probability: number;
}
interface Answer {
  organizationId: string;
  categories: Suggestion[];
  vendors: Suggestion[];
  departments: Suggestion[];
  personal: boolean;
  trainedOn: number;
  trainedAt: string | null;
}

const get = (s: Session | null, query: string) =>
  t.app.inject({ method: 'GET', url: `/api/request-suggestions?${query}`, headers: s?.headers ?? {} });
async function suggest(s: Session, text: string): Promise<Answer> {
  const res = await get(s, `text=${encodeURIComponent(text)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function addUser(username: string, extra: Partial<typeof users.$inferInsert> = {}) {
  await t.db.insert(users).values({
    username,
    email: `${username}@meridiangroup.com`,
    firstName: 'Test',
    lastName: username,
    role: 'requester',
    status: 'active',
    organizationId: ritaUser.organizationId,
    departmentId: ritaUser.departmentId,
    passwordHash: ritaUser.passwordHash,
    hasChangedPassword: true,
    ...extra,
  });
  return login(t.app, username);
}

beforeAll(async () => {
  t = await createTestApp();
  ritaUser = (await t.db.select().from(users).where(eq(users.username, 'rita')))[0]!;
  rita = await login(t.app, 'rita');
  newcomer = await addUser('suggest_newcomer');
  const orgs = await t.db.select({ id: organizations.id }).from(organizations);
  otherOrgId = orgs.find((o) => o.id !== ritaUser.organizationId)!.id;
});
afterAll(async () => t.close());

describe('GET /api/request-suggestions', () => {
  it("suggests the category, vendors and department from the organization's history, ranked, and stores the model it trained", async () => {
    const before = await t.db
      .select()
      .from(requestSuggestionModels)
      .where(eq(requestSuggestionModels.organizationId, ritaUser.organizationId!));
    expect(before).toEqual([]);
    const answer = await suggest(rita, 'Spot freight from Long Beach to Dallas');
    expect(answer.organizationId).toBe(ritaUser.organizationId);
    expect(answer.categories[0]).toMatchObject({ code: 'LOG', name: 'Logistics' });
    expect(answer.categories[0]!.probability).toBeGreaterThan(0.5);
    expect(answer.departments[0]!.id).toBe(ritaUser.departmentId);
    expect(answer.personal).toBe(true);
    expect(answer.trainedOn).toBeGreaterThan(50);
    for (const list of [answer.categories, answer.vendors, answer.departments]) {
      expect(list.length).toBeGreaterThan(0);
      expect(list.length).toBeLessThanOrEqual(3);
      const p = list.map((s) => s.probability);
      expect([...p].sort((a, b) => b - a)).toEqual(p);
    }
    const [stored] = await t.db
      .select()
      .from(requestSuggestionModels)
      .where(eq(requestSuggestionModels.organizationId, ritaUser.organizationId!));
    expect(stored!.trainedOn).toBe(answer.trainedOn);
    expect(stored!.trainedAt!.toISOString()).toBe(answer.trainedAt);
    expect(stored!.model).toMatchObject({
      version: MODEL_VERSION,
      textWeight: { category: expect.any(Number), vendor: expect.any(Number), department: expect.any(Number) },
    });
  });

  it("suggests only what the caller may use: active categories, the organization's active vendors and departments", async () => {
    const answer = await suggest(rita, 'Fleet telematics subscription and analytics seats');
    const vendorRows = await t.db
      .select()
      .from(vendors)
      .where(
        inArray(
          vendors.id,
          answer.vendors.map((v) => v.id),
        ),
      );
    expect(vendorRows.length).toBe(answer.vendors.length);
    for (const v of vendorRows) expect(v).toMatchObject({ organizationId: ritaUser.organizationId, status: 'active' });

    // Switched off or blocked since the model learned them: no longer suggested.
    const software = answer.categories[0]!;
    const vendor = answer.vendors[0]!;
    await t.db.update(categories).set({ active: false }).where(eq(categories.id, software.id));
    await t.db.update(vendors).set({ status: 'blocked' }).where(eq(vendors.id, vendor.id));
    try {
      const after = await suggest(rita, 'Fleet telematics subscription and analytics seats');
      expect(after.categories.map((c) => c.id)).not.toContain(software.id);
      expect(after.vendors.map((v) => v.id)).not.toContain(vendor.id);
      expect(after.categories.reduce((s, c) => s + c.probability, 0)).toBeLessThanOrEqual(1.0001);
    } finally {
      await t.db.update(categories).set({ active: true }).where(eq(categories.id, software.id));
      await t.db.update(vendors).set({ status: 'active' }).where(eq(vendors.id, vendor.id));
    }
  });

  it('never suggests a vendor a blocking policy rule names, whatever the words', async () => {
    const [blocked] = await t.db.select().from(vendors).where(eq(vendors.name, 'Metro Fleet Leasing'));
    expect(blocked).toMatchObject({ organizationId: ritaUser.organizationId, status: 'active' });
    for (const text of [
      'Spot freight from Long Beach to Dallas',
      'Fleet leasing for the trucks',
      'Extra trailer capacity for peak season',
    ]) {
      const answer = await suggest(rita, text);
      expect(answer.vendors.length).toBeGreaterThan(0);
      expect(
        answer.vendors.map((v) => v.id),
        text,
      ).not.toContain(blocked!.id);
    }
  });

  it('gives a requester without history the organization-wide suggestions', async () => {
    const answer = await suggest(newcomer, 'Spot freight from Long Beach to Dallas');
    expect(answer.personal).toBe(false);
    expect(answer.organizationId).toBe(ritaUser.organizationId);
    expect(answer.categories[0]!.code).toBe('LOG');
  });

  it("accepts the caller's own organization and refuses another one with 403", async () => {
    expect((await get(rita, `organizationId=${ritaUser.organizationId}&text=freight`)).statusCode).toBe(200);
    const res = await get(rita, `organizationId=${otherOrgId}&text=freight`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('your own organization') });
  });

  it('validates the text and the organization at the edge', async () => {
    for (const query of [
      '',
      'text=',
      'text=%20%20',
      `text=${'a'.repeat(4001)}`,
      'text=freight&organizationId=nope',
      'text=a%00b',
    ]) {
      const res = await get(rita, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message).toBeTruthy();
    }
  });

  it('needs a session', async () => {
    const res = await get(null, 'text=freight');
    expect(res.statusCode).toBe(401);
  });

  it('refuses an account without an organization with a clear 400', async () => {
    const loner = await addUser('suggest_loner', { organizationId: null, departmentId: null });
    const res = await get(loner, 'text=freight');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/does not belong to an organization/);
  });
});

describe('retraining by the job', () => {
  const word = 'Zeppelin banner flyover';

  async function raise(title: string, categoryCode: string) {
    const [cat] = await t.db.select().from(categories).where(eq(categories.code, categoryCode));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/requests',
      headers: rita.headers,
      payload: { title, amount: '900.00', currency: 'USD', categoryId: cat!.id },
    });
    expect(res.statusCode, res.body).toBe(201);
    await t.db.update(spendingRequests).set({ status: 'pending' }).where(eq(spendingRequests.id, res.json().id));
    return cat!;
  }

  it('retrains a model within the hour after new requests, nightly otherwise, and leaves fresh ones alone', async () => {
    await suggest(rita, 'freight');
    const marketing = await raise(word, 'MKT');
    await raise(`${word} for the trade fair`, 'MKT');
    const org = ritaUser.organizationId!;
    const now = t.clock.now();

    // Just trained: nothing to do, even with the new requests (they wait for the hour).
    expect(await retrainSuggestionModels({ db: t.db }, now)).toEqual({ retrained: expect.any(Number) });
    const [fresh] = await t.db
      .select()
      .from(requestSuggestionModels)
      .where(eq(requestSuggestionModels.organizationId, org));
    const freshAt = fresh!.trainedAt!.getTime();
    await t.db
      .update(requestSuggestionModels)
      .set({ trainedAt: new Date(now.getTime() - 30 * 60_000) })
      .where(eq(requestSuggestionModels.organizationId, org));
    const half = await retrainSuggestionModels({ db: t.db }, now);
    expect(half.retrained).toBe(0);
    expect((await suggest(rita, word)).categories[0]!.id).not.toBe(marketing.id);
    expect(freshAt).toBeLessThanOrEqual(now.getTime());

    // An hour later with requests raised since: retrained, and the new words are known.
    await t.db
      .update(requestSuggestionModels)
      .set({ trainedAt: new Date(now.getTime() - 61 * 60_000) })
      .where(eq(requestSuggestionModels.organizationId, org));
    expect((await retrainSuggestionModels({ db: t.db }, now)).retrained).toBe(1);
    const after = await suggest(rita, word);
    expect(after.categories[0]!.id).toBe(marketing.id);
    expect(after.trainedAt).toBe(now.toISOString());

    // Nothing new, but a day old: the nightly retraining.
    const all = await t.db.select({ id: requestSuggestionModels.organizationId }).from(requestSuggestionModels);
    await t.db.update(requestSuggestionModels).set({ trainedAt: new Date(now.getTime() - 25 * 3_600_000) });
    expect((await retrainSuggestionModels({ db: t.db }, now)).retrained).toBe(all.length);
    expect((await retrainSuggestionModels({ db: t.db }, now)).retrained).toBe(0);
  });

  it('trains each stale model once when several passes run at the same time', async () => {
    const now = t.clock.now();
    await t.db.update(requestSuggestionModels).set({ trainedAt: null, model: null });
    const orgs = await t.db.select({ id: organizations.id }).from(organizations);
    const passes = await Promise.all([1, 2, 3].map(() => retrainSuggestionModels({ db: t.db }, now)));
    expect(passes.reduce((s, p) => s + p.retrained, 0)).toBe(orgs.length);
    const rows = await t.db
      .select()
      .from(requestSuggestionModels)
      .where(and(eq(requestSuggestionModels.trainedAt, now)));
    expect(rows.length).toBe(orgs.length);
  });
});
