import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { auditEvents, DEMO_PASSWORD, emailOutbox, organizations, users, vendors } from '@outlay/db';
import { assertNoSecrets, createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { setEmailOutboxEnabled } from '../../src/lib/notify.ts';

/*
 * A change of a vendor's bank account on file waits for a second vendor manager's confirmation
 * (with a recent password), is audited, and the vendor's contact address is told when it is asked
 * for and when it takes effect. carla (CFO) asks, adam (admin) confirms or discards.
 */

let t: TestContext;
let adam: Session;
let carla: Session;
let felix: Session; // an accounts user of Meridian Logistics: vendors.manage for that organization only
const ids: Record<string, string> = {};
const orgs: Record<string, string> = {};

const NEW_ACCOUNT = 'GB94 BARC 1020 1530 0934 59';
const NEW_PLAIN = 'GB94BARC10201530093459';
const OTHER_ACCOUNT = 'DE44 5001 0517 5407 3249 31';
const OWN_MESSAGE = 'You asked for this bank account change; someone else who manages vendors must confirm it';

beforeAll(async () => {
  t = await createTestApp();
  // As the server does when SMTP_URL is set: notices go to the outbox.
  setEmailOutboxEnabled(true);
  for (const o of await t.db.select().from(organizations)) orgs[o.code] = o.id;
  await t.db.execute(sql`UPDATE users SET role = 'accounts' WHERE username = 'felix'`);
  for (const u of await t.db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(inArray(users.username, ['adam', 'carla', 'felix'])))
    ids[u.username] = u.id;
  [adam, carla, felix] = await Promise.all([login(t.app, 'adam'), login(t.app, 'carla'), login(t.app, 'felix')]);
});
afterAll(async () => {
  setEmailOutboxEnabled(false);
  await t.close();
});

const send = (s: Session, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: s.headers, ...(payload === undefined ? {} : { payload }) });

function assertNoBankLeak(res: LightMyRequestResponse, full = NEW_PLAIN) {
  assertNoSecrets(res);
  expect(res.body).not.toContain(full);
  expect(res.body).not.toContain('v1:');
  expect(res.body).not.toMatch(/bankAccountEnc|bank_account_enc|pendingBankAccountEnc/);
}

/** A seeded vendor of Meridian Foods with an account on file and a contact address. */
async function seededVendor(skip: string[] = []) {
  const rows = await t.db
    .select()
    .from(vendors)
    .where(and(eq(vendors.organizationId, orgs.MF!), isNotNull(vendors.bankAccountEnc), isNotNull(vendors.email)));
  return rows.find((r) => !skip.includes(r.id))!;
}

const outboxTo = (address: string) => t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, address));

describe('a change of the bank account on file', () => {
  let vendorId = '';

  it('stays pending until someone else confirms it with a recent password; the vendor is told twice', async () => {
    const seeded = await seededVendor();
    vendorId = seeded.id;
    const url = `/api/vendors/${seeded.id}`;
    const was = (await send(carla, 'GET', url)).json();
    expect(was.pendingBankChange).toBeNull();
    expect(was.bankAccountMasked).toBe(`•••• ${seeded.bankAccountLast4}`);

    const asked = await send(carla, 'PATCH', url, { bankAccount: NEW_ACCOUNT, paymentTermsDays: 21 });
    expect(asked.statusCode, asked.body).toBe(200);
    assertNoBankLeak(asked);
    // Other fields apply; payments still go to the account on file.
    expect(asked.json()).toMatchObject({
      paymentTermsDays: 21,
      bankAccountMasked: was.bankAccountMasked,
      pendingBankChange: {
        bankAccountMasked: '•••• 3459',
        requestedById: ids.carla,
        requestedByName: expect.stringMatching(/^Carla /),
      },
    });
    const shown = await send(carla, 'GET', url);
    expect(shown.json()).toMatchObject({
      bankAccountMasked: was.bankAccountMasked,
      pendingBankChange: { bankAccountMasked: '•••• 3459' },
    });
    const listed = await send(adam, 'GET', `/api/vendors?q=${encodeURIComponent(seeded.taxId)}`);
    expect(listed.json().items[0]).toMatchObject({
      id: seeded.id,
      pendingBankChange: { bankAccountMasked: '•••• 3459', requestedById: ids.carla },
    });
    assertNoBankLeak(listed);
    const [row] = await t.db.select().from(vendors).where(eq(vendors.id, seeded.id));
    expect(row).toMatchObject({
      bankAccountEnc: seeded.bankAccountEnc,
      bankAccountLast4: seeded.bankAccountLast4,
      pendingBankAccountLast4: '3459',
      pendingBankById: ids.carla,
    });
    expect(row!.pendingBankAccountEnc).toMatch(/^v1:/);
    expect(row!.pendingBankAccountEnc).not.toContain(NEW_PLAIN);

    const [requestedMail] = await outboxTo(seeded.email!);
    expect(requestedMail).toMatchObject({ status: 'queued', userId: null });
    expect(requestedMail!.subject).toBe('Meridian Foods: a change of your bank account was requested');
    expect(requestedMail!.body).toContain('the account ending 3459');
    expect(requestedMail!.body).toContain(`the account ending ${seeded.bankAccountLast4}`);
    expect(requestedMail!.body).toContain(
      'If you did not ask for this change, contact the finance team of Meridian Foods',
    );
    expect(requestedMail!.body).not.toContain(NEW_PLAIN);

    // The one who asked cannot confirm it.
    const own = await send(carla, 'POST', `${url}/bank-change/confirm`);
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe(OWN_MESSAGE);

    // Someone else must have confirmed their password in the last ten minutes.
    t.clock.advance(11 * 60_000);
    const stale = await send(adam, 'POST', `${url}/bank-change/confirm`);
    expect(stale.statusCode, stale.body).toBe(403);
    expect(stale.json()).toMatchObject({ code: 'reauth_required' });
    expect((await t.db.select().from(vendors).where(eq(vendors.id, seeded.id)))[0]!.bankAccountEnc).toBe(
      seeded.bankAccountEnc,
    );
    expect((await send(adam, 'POST', '/api/auth/reauth', { password: DEMO_PASSWORD })).statusCode).toBe(200);
    const confirmed = await send(adam, 'POST', `${url}/bank-change/confirm`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    assertNoBankLeak(confirmed);
    expect(confirmed.json()).toMatchObject({
      bankAccountMasked: '•••• 3459',
      pendingBankChange: null,
      paymentTermsDays: 21,
    });
    const [after] = await t.db.select().from(vendors).where(eq(vendors.id, seeded.id));
    expect(after).toMatchObject({
      bankAccountEnc: row!.pendingBankAccountEnc,
      bankAccountLast4: '3459',
      pendingBankAccountEnc: null,
      pendingBankById: null,
      pendingBankAt: null,
    });

    const again = await send(adam, 'POST', `${url}/bank-change/confirm`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('There is no bank account change to confirm');

    const audits = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityType, 'vendor'), eq(auditEvents.entityId, seeded.id)));
    const requested = audits.find((a) => a.action === 'vendor.bank_change_requested');
    const done = audits.find((a) => a.action === 'vendor.bank_change_confirmed');
    expect(requested).toMatchObject({
      actorId: ids.carla,
      before: { bankAccountLast4: seeded.bankAccountLast4 },
      after: { bankAccountLast4: '3459' },
    });
    expect(done).toMatchObject({
      actorId: ids.adam,
      before: { bankAccountLast4: seeded.bankAccountLast4 },
      after: { bankAccountLast4: '3459' },
    });
    expect(done!.metadata).toEqual({ requestedById: ids.carla, requestedAt: row!.pendingBankAt!.toISOString() });
    // The edit's other field is audited as an update that left the account on file alone.
    const updated = audits.find((a) => a.action === 'vendor.updated');
    expect(updated).toMatchObject({
      before: { bankAccountLast4: seeded.bankAccountLast4 },
      after: { paymentTermsDays: 21, bankAccountLast4: seeded.bankAccountLast4 },
    });
    expect(updated!.metadata).toBeNull();
    const trail = JSON.stringify(audits);
    expect(trail).not.toContain(NEW_PLAIN);
    expect(trail).not.toContain('v1:');

    const mails = await outboxTo(seeded.email!);
    expect(mails.map((m) => m.subject).sort()).toEqual([
      'Meridian Foods: a change of your bank account was requested',
      'Meridian Foods: your bank account on file was changed',
    ]);
    const changedMail = mails.find((m) => m.subject.endsWith('was changed'))!;
    expect(changedMail.body).toContain('now pays');
    expect(changedMail.body).toContain('the account ending 3459');
    expect(changedMail.body).toContain('If you did not ask for this change');
  });

  it('can be discarded by anyone who manages the vendor; the account on file stays', async () => {
    const url = `/api/vendors/${vendorId}`;
    const asked = await send(adam, 'PATCH', url, { bankAccount: OTHER_ACCOUNT });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toMatchObject({
      bankAccountMasked: '•••• 3459',
      pendingBankChange: { bankAccountMasked: '•••• 4931', requestedById: ids.adam },
    });
    // An edit of other fields leaves the pending change in place.
    expect((await send(carla, 'PATCH', url, { phone: '+44 20 7946 0000' })).json().pendingBankChange).toMatchObject({
      bankAccountMasked: '•••• 4931',
    });
    // So does typing the account on file again.
    expect((await send(carla, 'PATCH', url, { bankAccount: NEW_ACCOUNT })).json().pendingBankChange).toMatchObject({
      bankAccountMasked: '•••• 4931',
    });

    const discarded = await send(adam, 'DELETE', `${url}/bank-change`);
    expect(discarded.statusCode, discarded.body).toBe(200);
    expect(discarded.json()).toMatchObject({ bankAccountMasked: '•••• 3459', pendingBankChange: null });
    const [row] = await t.db.select().from(vendors).where(eq(vendors.id, vendorId));
    expect(row).toMatchObject({ bankAccountLast4: '3459', pendingBankAccountEnc: null, pendingBankAccountLast4: null });
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, vendorId), eq(auditEvents.action, 'vendor.bank_change_discarded')));
    expect(event).toMatchObject({
      actorId: ids.adam,
      before: { pendingBankAccountLast4: '4931' },
      metadata: { requestedById: ids.adam },
    });

    const nothing = await send(adam, 'DELETE', `${url}/bank-change`);
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().message).toBe('There is no bank account change to discard');
    expect((await send(carla, 'POST', `${url}/bank-change/confirm`)).statusCode).toBe(409);
  });

  it('tells the address on file too when the same edit changes the contact address', async () => {
    const seeded = await seededVendor([vendorId]);
    const res = await send(carla, 'PATCH', `/api/vendors/${seeded.id}`, {
      bankAccount: OTHER_ACCOUNT,
      email: 'new-ap@elsewhere.example',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      email: 'new-ap@elsewhere.example',
      pendingBankChange: { bankAccountMasked: '•••• 4931' },
    });
    for (const address of [seeded.email!, 'new-ap@elsewhere.example']) {
      const mails = await outboxTo(address);
      expect(mails, address).toHaveLength(1);
      expect(mails[0]!.body).toContain('the account ending 4931');
    }
  });

  it('is refused with a clear message for a malformed, unknown or out-of-scope vendor, and to people without vendors.manage', async () => {
    const seeded = await seededVendor();
    const bad = await send(adam, 'POST', '/api/vendors/not-a-uuid/bank-change/confirm');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBeTruthy();
    const unknown = await send(adam, 'DELETE', '/api/vendors/00000000-0000-4000-8000-000000000000/bank-change');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Vendor not found');
    // felix manages Meridian Logistics' vendors only.
    for (const [method, path] of [
      ['POST', '/bank-change/confirm'],
      ['DELETE', '/bank-change'],
    ] as const) {
      const res = await send(felix, method, `/api/vendors/${seeded.id}${path}`);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().message).toBe('Vendor not found');
    }
    const rita = await login(t.app, 'rita');
    expect((await send(rita, 'POST', `/api/vendors/${seeded.id}/bank-change/confirm`)).statusCode).toBe(403);
    expect((await send(rita, 'DELETE', `/api/vendors/${seeded.id}/bank-change`)).statusCode).toBe(403);
  });
});

describe('a first bank account or the removal of one', () => {
  it('applies at once, with no confirmation and no notice, and a removal drops a pending change', async () => {
    const created = await send(adam, 'POST', '/api/vendors', {
      organizationId: orgs.MF,
      name: 'Severn Packaging',
      taxId: 'GB-SVP-2201',
      email: 'ap@severnpack.example',
      paymentTermsDays: 30,
      currency: 'GBP',
      bankAccount: null,
    });
    expect(created.statusCode, created.body).toBe(201);
    const url = `/api/vendors/${created.json().id}`;
    const first = await send(carla, 'PATCH', url, { bankAccount: NEW_ACCOUNT });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ bankAccountMasked: '•••• 3459', pendingBankChange: null });
    expect(await outboxTo('ap@severnpack.example')).toHaveLength(0);
    const [event] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, created.json().id), eq(auditEvents.action, 'vendor.updated')));
    expect(event).toMatchObject({ after: { bankAccountLast4: '3459' }, metadata: { bankAccountChanged: true } });

    expect((await send(carla, 'PATCH', url, { bankAccount: OTHER_ACCOUNT })).json().pendingBankChange).toMatchObject({
      bankAccountMasked: '•••• 4931',
    });
    const removed = await send(adam, 'PATCH', url, { bankAccount: null });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ bankAccountMasked: null, pendingBankChange: null });
    const [row] = await t.db.select().from(vendors).where(eq(vendors.id, created.json().id));
    expect(row).toMatchObject({ bankAccountEnc: null, bankAccountLast4: null, pendingBankAccountEnc: null });
  });
});
