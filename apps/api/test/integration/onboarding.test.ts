import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { onboardingProgress, users } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { createDraft, setUpWorld, submit, type World } from './approvals-fixtures.ts';

let t: TestContext;
let w: World;
let newcomer: Session;
let newcomerId: string;

interface Step {
  key: string;
  track: string;
  done: boolean;
  doneAt: string | null;
}

beforeAll(async () => {
  t = await createTestApp();
  w = await setUpWorld(t);
  // Someone who has done nothing yet: rita's organization, department and manager.
  const [rita] = await t.db.select().from(users).where(eq(users.username, 'rita'));
  const [row] = await t.db
    .insert(users)
    .values({
      username: 'newcomer',
      email: 'newcomer@meridianlogistics.com',
      firstName: 'Nora',
      lastName: 'Newcomer',
      role: 'requester',
      status: 'active',
      organizationId: rita!.organizationId,
      departmentId: rita!.departmentId,
      managerId: rita!.managerId,
      passwordHash: rita!.passwordHash,
      hasChangedPassword: true,
    })
    .returning();
  newcomerId = row!.id;
  newcomer = await login(t.app, 'newcomer');
});
afterAll(async () => t.close());

const checklist = async (s: Session) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/onboarding', headers: s.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    tracks: string[];
    steps: Step[];
    completed: number;
    total: number;
    showOnDashboard: boolean;
    dismissedAt: string | null;
    completedAt: string | null;
  };
};
const step = (list: { steps: Step[] }, key: string) => list.steps.find((s) => s.key === key);

describe('GET /api/onboarding', () => {
  it('starts a newcomer with every step open and shows it on the dashboard', async () => {
    const list = await checklist(newcomer);
    expect(list.tracks).toEqual(['requester']);
    expect(list.steps.map((s) => s.key)).toEqual([
      'complete_profile',
      'enable_two_factor',
      'notification_settings',
      'read_tutorial',
      'submit_request',
    ]);
    expect(list.completed).toBe(0);
    expect(list.showOnDashboard).toBe(true);
  });

  it('completes "Submit your first request" when a request is really submitted, not when a draft is saved', async () => {
    const id = await createDraft(t, newcomer, w);
    expect(step(await checklist(newcomer), 'submit_request')!.done).toBe(false);
    const res = await submit(t, newcomer, id);
    expect(res.statusCode, res.body).toBe(200);
    const list = await checklist(newcomer);
    expect(step(list, 'submit_request')).toMatchObject({ done: true });
    expect(step(list, 'submit_request')!.doneAt).not.toBeNull();
    expect(list.completed).toBe(1);
  });

  it('completes the notification step when the settings are saved, and the reading step when an article is opened', async () => {
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/notification-preferences',
      headers: newcomer.headers,
      payload: { digest: 'daily' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/tutorials/two-factor-authentication',
      headers: newcomer.headers,
    });
    expect(read.statusCode).toBe(200);
    const list = await checklist(newcomer);
    expect(step(list, 'notification_settings')!.done).toBe(true);
    expect(step(list, 'read_tutorial')!.done).toBe(true);
    expect(list.completed).toBe(3);
  });

  it('gives approvers, finance and administrators their own steps, from their permissions', async () => {
    const tracksOf = async (username: string) => (await checklist(await login(t.app, username))).tracks;
    expect(await tracksOf('rita')).toEqual(['requester']);
    expect(await tracksOf('max')).toEqual(['requester', 'approver']);
    expect(await tracksOf('carla')).toEqual(['requester', 'approver', 'finance']);
    expect(await tracksOf('adam')).toEqual(['requester', 'approver', 'finance', 'admin']);
    // max has decided requests in the demo history: his approval step is already done.
    expect(step(await checklist(await login(t.app, 'max')), 'decide_approval')!.done).toBe(true);
  });

  it('records the first moment every step was done', async () => {
    await t.db.update(users).set({ phoneNumber: '+1 555 0100', totpEnabled: true }).where(eq(users.id, newcomerId));
    const list = await checklist(newcomer);
    expect(list.completed).toBe(list.total);
    expect(list.completedAt).not.toBeNull();
    expect(list.showOnDashboard).toBe(false);
    const [row] = await t.db.select().from(onboardingProgress).where(eq(onboardingProgress.userId, newcomerId));
    expect(row!.completedAt!.toISOString()).toBe(list.completedAt);
  });
});

describe('PUT /api/onboarding/dismissed', () => {
  it('hides the checklist from the dashboard and shows it again, while the steps keep their state', async () => {
    const max = await login(t.app, 'max');
    const hidden = await t.app.inject({
      method: 'PUT',
      url: '/api/onboarding/dismissed',
      headers: max.headers,
      payload: { dismissed: true },
    });
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json()).toMatchObject({ showOnDashboard: false });
    expect(hidden.json().dismissedAt).not.toBeNull();
    const shown = await t.app.inject({
      method: 'PUT',
      url: '/api/onboarding/dismissed',
      headers: max.headers,
      payload: { dismissed: false },
    });
    expect(shown.json()).toMatchObject({ dismissedAt: null, showOnDashboard: true });
  });

  it('refuses a body without the flag (400) and a caller without a session (401)', async () => {
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/onboarding/dismissed',
      headers: newcomer.headers,
      payload: { dismissed: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/onboarding' })).statusCode).toBe(401);
  });
});
