import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditEvents, conversationMembers, messageAttachments, messages, notifications, users } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { openStream } from './notifications-live.ts';

const DB = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';

let t: TestContext;
let base: string;
let rita: Session; // requester, Meridian Logistics / Operations
let max: Session; // manager, same department
let dana: Session; // department head of Logistics Operations: announces to her department
let henry: Session; // group CEO: announces to everyone
let felix: Session; // Logistics finance, another department
let lukas: Session; // department head in Meridian Energy
let paul: Session; // made a subsidiary CEO of Meridian Energy below
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  const rows = await t.db
    .select({
      id: users.id,
      username: users.username,
      organizationId: users.organizationId,
      departmentId: users.departmentId,
    })
    .from(users);
  for (const r of rows) ids[r.username] = r.id;
  const paulRow = rows.find((r) => r.username === 'paul')!;
  await t.db.update(users).set({ role: 'subsidiary_ceo' }).where(eq(users.id, paulRow.id));
  ids.energy = paulRow.organizationId!;
  ids.logistics = rows.find((r) => r.username === 'rita')!.organizationId!;
  ids.logisticsOps = rows.find((r) => r.username === 'rita')!.departmentId!;
  ids.energySales = rows.find((r) => r.username === 'lukas')!.departmentId!;
  [rita, max, dana, henry, felix, lukas, paul] = (await Promise.all(
    ['rita', 'max', 'dana', 'henry', 'felix', 'lukas', 'paul'].map((u) => login(t.app, u)),
  )) as Session[] as [Session, Session, Session, Session, Session, Session, Session];
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  t.app.server.closeAllConnections();
  await t.close();
});

const call = (s: Session, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: s.headers, ...(payload ? { payload } : {}) });

async function announce(s: Session, body: object) {
  return call(s, 'POST', '/api/communications/announcements', { title: 'Notice', body: 'Read me.', ...body });
}

async function titlesFor(s: Session): Promise<string[]> {
  const res = await call(s, 'GET', '/api/communications/announcements?limit=100');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().items as { title: string }[]).map((a) => a.title);
}

async function startGroup(s: Session, members: string[], title: string) {
  const res = await call(s, 'POST', '/api/communications/conversations', {
    memberIds: members.map((m) => ids[m]),
    title,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: string; kind: string; members: { username: string }[] };
}

async function send(s: Session, conversationId: string, body: string) {
  const res = await call(s, 'POST', `/api/communications/conversations/${conversationId}/messages`, { body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; body: string; authorName: string };
}

const unreadOf = async (s: Session) =>
  (await call(s, 'GET', '/api/communications/unread')).json() as { messages: number; announcements: number };

describe(`announcements (${DB})`, () => {
  it('refuses authoring without communications.announce', async () => {
    const res = await announce(rita, { audience: 'everyone' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBeTruthy();
    expect((await call(rita, 'GET', '/api/communications/announcements/audiences')).statusCode).toBe(403);
  });

  it('lets a group executive address everyone, audited, and everyone reads it', async () => {
    const res = await announce(henry, { title: 'Group town hall on Friday', audience: 'everyone' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      audience: 'everyone',
      organizationId: null,
      authorName: 'Henry Walsh',
      read: true,
    });
    const [audit] = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, res.json().id), eq(auditEvents.action, 'announcement.created')));
    expect(audit).toBeDefined();
    for (const s of [rita, lukas, felix]) expect(await titlesFor(s)).toContain('Group town hall on Friday');
  });

  it('scopes a subsidiary CEO to their organization and shows it only to its people', async () => {
    expect((await announce(paul, { audience: 'everyone' })).statusCode).toBe(403);
    expect((await announce(paul, { audience: 'organization', organizationId: ids.logistics })).statusCode).toBe(403);
    expect((await announce(paul, { audience: 'department', departmentId: ids.logisticsOps })).statusCode).toBe(403);
    const audiences = (await call(paul, 'GET', '/api/communications/announcements/audiences')).json();
    expect(audiences.everyone).toBe(false);
    expect(audiences.organizations.map((o: { id: string }) => o.id)).toEqual([ids.energy]);
    const ok = await announce(paul, {
      title: 'Energy: new office hours',
      audience: 'organization',
      organizationId: ids.energy,
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(await titlesFor(lukas)).toContain('Energy: new office hours');
    expect(await titlesFor(rita)).not.toContain('Energy: new office hours');
    expect(await titlesFor(henry)).not.toContain('Energy: new office hours');
  });

  it('scopes a department head to their department', async () => {
    expect((await announce(dana, { audience: 'organization', organizationId: ids.logistics })).statusCode).toBe(403);
    expect((await announce(dana, { audience: 'department', departmentId: ids.energySales })).statusCode).toBe(403);
    const ok = await announce(dana, {
      title: 'Ops: forklift training',
      audience: 'department',
      departmentId: ids.logisticsOps,
    });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ organizationId: ids.logistics, departmentId: ids.logisticsOps });
    expect(await titlesFor(rita)).toContain('Ops: forklift training');
    expect(await titlesFor(felix)).not.toContain('Ops: forklift training');
  });

  it('refuses a missing target and an unknown department with 400', async () => {
    const missing = await announce(henry, { audience: 'department' });
    expect(missing.statusCode).toBe(400);
    expect(JSON.stringify(missing.json().details)).toContain('departmentId');
    const unknown = await announce(henry, {
      audience: 'department',
      departmentId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('No such department');
  });

  it('counts unread announcements and marks them read, one and all', async () => {
    const before = (await unreadOf(max)).announcements;
    const a = await announce(henry, { title: 'Parking changes', audience: 'everyone' });
    expect((await unreadOf(max)).announcements).toBe(before + 1);
    const read = await call(max, 'POST', `/api/communications/announcements/${a.json().id}/read`);
    expect(read.statusCode).toBe(200);
    expect(read.json().read).toBe(true);
    expect((await unreadOf(max)).announcements).toBe(before);
    const all = await call(max, 'POST', '/api/communications/announcements/read-all');
    expect(all.json().announcements).toBe(0);
    // One not addressed to the reader is not found for them.
    const energy = await announce(paul, { title: 'Energy only', audience: 'organization', organizationId: ids.energy });
    expect((await call(max, 'POST', `/api/communications/announcements/${energy.json().id}/read`)).statusCode).toBe(
      404,
    );
  });

  it('pages by keyset without repeating or skipping', async () => {
    for (let i = 0; i < 5; i++)
      expect((await announce(henry, { title: `Paging ${i}`, audience: 'everyone' })).statusCode).toBe(201);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/api/communications/announcements?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = (await call(rita, 'GET', url)).json();
      seen.push(...page.items.map((a: { id: string }) => a.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(
      (await call(rita, 'GET', '/api/communications/announcements?limit=100')).json().items.length,
    );
    expect((await call(rita, 'GET', '/api/communications/announcements?cursor=nonsense')).statusCode).toBe(400);
  });
});

describe(`conversations (${DB})`, () => {
  it('starts one direct conversation per pair, whoever starts it', async () => {
    const a = await call(rita, 'POST', '/api/communications/conversations', { memberIds: [ids.felix] });
    const b = await call(felix, 'POST', '/api/communications/conversations', { memberIds: [ids.rita] });
    expect(a.statusCode, a.body).toBe(200);
    expect(b.json().id).toBe(a.json().id);
    expect(a.json().kind).toBe('direct');
    const self = await call(rita, 'POST', '/api/communications/conversations', { memberIds: [ids.rita] });
    expect(self.statusCode).toBe(400);
  });

  it('gives one direct conversation when both people start it at once', async () => {
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () =>
        call(max, 'POST', '/api/communications/conversations', { memberIds: [ids.lukas] }),
      ),
      ...Array.from({ length: 4 }, () =>
        call(lukas, 'POST', '/api/communications/conversations', { memberIds: [ids.max] }),
      ),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(new Set(results.map((r) => r.json().id)).size).toBe(1);
  });

  it('refuses an unknown or inactive person with 400', async () => {
    const unknown = await call(rita, 'POST', '/api/communications/conversations', {
      memberIds: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(unknown.statusCode).toBe(400);
    await t.db.update(users).set({ status: 'inactive' }).where(eq(users.username, 'chloe'));
    try {
      const inactive = await call(rita, 'POST', '/api/communications/conversations', { memberIds: [ids.chloe] });
      expect(inactive.statusCode).toBe(400);
      expect(inactive.json().message).toBe('Some of these people cannot be messaged (unknown or inactive)');
    } finally {
      await t.db.update(users).set({ status: 'active' }).where(eq(users.username, 'chloe'));
    }
  });

  it('keeps a conversation to its members: others get 404 on every call', async () => {
    const c = await startGroup(rita, ['max'], 'Depot plans');
    await send(rita, c.id, 'Only for us two');
    for (const [method, url, payload] of [
      ['GET', `/api/communications/conversations/${c.id}`],
      ['GET', `/api/communications/conversations/${c.id}/messages`],
      ['POST', `/api/communications/conversations/${c.id}/messages`, { body: 'let me in' }],
      ['POST', `/api/communications/conversations/${c.id}/read`],
    ] as const) {
      const res = await call(felix, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().message).toBe('Conversation not found');
    }
    const list = (await call(felix, 'GET', '/api/communications/conversations')).json();
    expect(list.items.map((i: { id: string }) => i.id)).not.toContain(c.id);
  });

  it('keeps text as text, never markup', async () => {
    const c = await startGroup(rita, ['max'], '<b>Title</b>');
    const sent = await send(rita, c.id, '<img src=x onerror=alert(1)> & <script>alert(1)</script>');
    const page = (await call(max, 'GET', `/api/communications/conversations/${c.id}/messages`)).json();
    expect(page.items[0].body).toBe('<img src=x onerror=alert(1)> & <script>alert(1)</script>');
    expect(page.items[0].id).toBe(sent.id);
    expect((await call(max, 'GET', `/api/communications/conversations/${c.id}`)).json().title).toBe('<b>Title</b>');
  });

  it('counts unread messages per conversation and in all, and marks them read', async () => {
    const c = await startGroup(rita, ['max', 'dana'], 'Unread check');
    const before = (await unreadOf(max)).messages;
    await send(rita, c.id, 'one');
    await send(rita, c.id, 'two');
    expect((await unreadOf(max)).messages).toBe(before + 2);
    expect((await unreadOf(rita)).messages).toBeLessThanOrEqual(before + 100); // the author's own never count
    const mine = (await call(rita, 'GET', `/api/communications/conversations/${c.id}`)).json();
    expect(mine.unread).toBe(0);
    const his = (await call(max, 'GET', `/api/communications/conversations/${c.id}`)).json();
    expect(his.unread).toBe(2);
    expect(his.lastMessage).toMatchObject({ body: 'two', authorName: 'Rita Alvarez' });
    const read = await call(max, 'POST', `/api/communications/conversations/${c.id}/read`);
    expect(read.json().unread).toBe(0);
    expect((await unreadOf(max)).messages).toBe(before);
    const [member] = await t.db
      .select()
      .from(conversationMembers)
      .where(and(eq(conversationMembers.conversationId, c.id), eq(conversationMembers.userId, ids.max!)));
    expect(member!.lastReadSeq).toBeGreaterThan(0);
  });

  it('pages the history newest first by keyset', async () => {
    const c = await startGroup(max, ['rita'], 'Long history');
    for (let i = 0; i < 7; i++) {
      t.clock.advance(1000);
      await send(i % 2 ? rita : max, c.id, `message ${i}`);
    }
    const bodies: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/api/communications/conversations/${c.id}/messages?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = (await call(rita, 'GET', url)).json();
      bodies.push(...page.items.map((m: { body: string }) => m.body));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(bodies).toEqual(Array.from({ length: 7 }, (_, i) => `message ${6 - i}`));
  });

  it('notifies a mentioned member, not the author nor a non-member', async () => {
    const c = await startGroup(rita, ['max'], 'Mentions');
    const m = await send(rita, c.id, 'Can you check this, @max? And @felix, and @rita.');
    const forMax = await t.db
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, ids.max!),
          eq(notifications.type, 'message_mention'),
          eq(notifications.entityId, c.id),
        ),
      );
    expect(forMax).toHaveLength(1);
    expect(forMax[0]).toMatchObject({
      title: 'Rita Alvarez mentioned you in Mentions',
      link: `/communications?conversation=${c.id}`,
    });
    expect(forMax[0]!.body).toContain(m.body);
    for (const other of ['felix', 'rita']) {
      const rows = await t.db
        .select()
        .from(notifications)
        .where(
          and(
            eq(notifications.userId, ids[other]!),
            eq(notifications.type, 'message_mention'),
            eq(notifications.entityId, c.id),
          ),
        );
      expect(rows, other).toHaveLength(0);
    }
  });

  it('delivers a message live to the members only', async () => {
    const c = await startGroup(rita, ['max'], 'Live');
    const maxStream = await openStream(base, max);
    const felixStream = await openStream(base, felix);
    try {
      await new Promise((r) => setTimeout(r, 100));
      const sent = await send(rita, c.id, 'Hello live');
      const e = await maxStream.waitFor(
        (ev) =>
          ev.kind === 'message' &&
          ev.type === 'message.created' &&
          (ev as { conversationId?: string }).conversationId === c.id,
      );
      expect(e.summary).toBe('Rita Alvarez: Hello live');
      expect(sent.body).toBe('Hello live');
      await new Promise((r) => setTimeout(r, 400));
      expect(
        felixStream.events.some(
          (ev) => ev.kind === 'message' && (ev as { conversationId?: string }).conversationId === c.id,
        ),
      ).toBe(false);
    } finally {
      maxStream.close();
      felixStream.close();
    }
  });

  it('delivers an announcement live to those it addresses', async () => {
    const ritaStream = await openStream(base, rita);
    const lukasStream = await openStream(base, lukas);
    try {
      await new Promise((r) => setTimeout(r, 100));
      expect(
        (await announce(dana, { title: 'Ops live notice', audience: 'department', departmentId: ids.logisticsOps }))
          .statusCode,
      ).toBe(201);
      await ritaStream.waitFor((ev) => ev.kind === 'announcement' && ev.summary === 'Ops live notice');
      await new Promise((r) => setTimeout(r, 400));
      expect(lukasStream.events.some((ev) => ev.kind === 'announcement' && ev.summary === 'Ops live notice')).toBe(
        false,
      );
    } finally {
      ritaStream.close();
      lukasStream.close();
    }
  });
});

/** A multipart/form-data body with a caption field and one file, built by hand. */
function multipart(fileName: string, contentType: string, data: Buffer, caption?: string) {
  const boundary = `----outlay-test-${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  if (caption !== undefined)
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\n${caption}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

describe(`attachments (${DB})`, () => {
  it('stores a file through the storage and lets members, only, download it', async () => {
    const c = await startGroup(rita, ['max'], 'Files');
    const body = multipart('quote.pdf', 'application/pdf', PDF, 'The quote');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/communications/conversations/${c.id}/files`,
      headers: { ...rita.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const m = res.json();
    expect(m.body).toBe('The quote');
    expect(m.attachments).toHaveLength(1);
    expect(m.attachments[0]).toMatchObject({ fileName: 'quote.pdf', contentType: 'application/pdf', size: PDF.length });
    const [row] = await t.db.select().from(messageAttachments).where(eq(messageAttachments.id, m.attachments[0].id));
    expect(row!.storageKey).toMatch(new RegExp(`^conversations/${c.id}/`));

    const got = await t.app.inject({ method: 'GET', url: m.attachments[0].url, headers: max.headers });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toContain('application/pdf');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.rawPayload.equals(PDF)).toBe(true);
    const refused = await t.app.inject({ method: 'GET', url: m.attachments[0].url, headers: felix.headers });
    expect(refused.statusCode).toBe(404);
    const history = (await call(max, 'GET', `/api/communications/conversations/${c.id}/messages`)).json();
    expect(history.items[0].attachments[0].id).toBe(m.attachments[0].id);
  });

  it('refuses a non-member upload with 404 and a file of the wrong type with 400, writing nothing', async () => {
    const c = await startGroup(rita, ['max'], 'Files refused');
    const body = multipart('quote.pdf', 'application/pdf', PDF);
    const outsider = await t.app.inject({
      method: 'POST',
      url: `/api/communications/conversations/${c.id}/files`,
      headers: { ...felix.headers, ...body.headers },
      payload: body.payload,
    });
    expect(outsider.statusCode).toBe(404);
    const html = multipart('page.html', 'text/html', Buffer.from('<html><script>alert(1)</script></html>'));
    const wrong = await t.app.inject({
      method: 'POST',
      url: `/api/communications/conversations/${c.id}/files`,
      headers: { ...rita.headers, ...html.headers },
      payload: html.payload,
    });
    expect(wrong.statusCode).toBe(400);
    const rows = await t.db.select().from(messages).where(eq(messages.conversationId, c.id));
    expect(rows).toHaveLength(0);
  });

  it('refuses a body that is not multipart, one without a file and a caption over 4,000 characters with 400 on the field, writing nothing', async () => {
    const c = await startGroup(rita, ['max'], 'Files invalid');
    const url = `/api/communications/conversations/${c.id}/files`;
    const json = await t.app.inject({ method: 'POST', url, headers: rita.headers, payload: { file: 'x' } });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Send the file as multipart/form-data',
      details: [{ path: 'file', message: 'Choose a file to send' }],
    });
    const boundary = '----outlay-test-nofile';
    const noFile = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...rita.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\nNo file\r\n--${boundary}--\r\n`,
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Choose a file to send',
      details: [{ path: 'file', message: 'Choose a file to send' }],
    });
    const long = multipart('quote.pdf', 'application/pdf', PDF, 'x'.repeat(4001));
    const tooLong = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...rita.headers, ...long.headers },
      payload: long.payload,
    });
    expect(tooLong.statusCode).toBe(400);
    const message = 'A message must be at most 4,000 characters';
    expect(tooLong.json()).toEqual({ code: 'VALIDATION_ERROR', message, details: [{ path: 'body', message }] });
    expect(await t.db.select().from(messages).where(eq(messages.conversationId, c.id))).toHaveLength(0);
  });
});

describe(`the demo world (${DB})`, () => {
  it('has announcements and conversations for the demo accounts, with something unread', async () => {
    const titles = await titlesFor(rita);
    expect(titles).toEqual(expect.arrayContaining(['Welcome to Outlay', 'Depot supplies: use the recurring request']));
    const list = (await call(felix, 'GET', '/api/communications/conversations')).json();
    expect(list.items.some((c: { title: string | null }) => c.title === 'Month-end close')).toBe(true);
    const people = (await call(rita, 'GET', '/api/communications/people?q=max')).json();
    expect(people.items.map((p: { username: string }) => p.username)).toContain('max');
  });
});
