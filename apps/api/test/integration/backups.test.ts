import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { DEMO_PASSWORD, auditEvents, backupSchedules, backups, categories, spendingRequests, users } from '@outlay/db';
import { createTestApp, login, type Session, type TestContext } from '../helpers.ts';
import { runScheduledBackups } from '../../src/modules/backups/backups.service.ts';

let t: TestContext;
let adam: Session;
let rita: Session;

beforeAll(async () => {
  t = await createTestApp();
  [adam, rita] = [await login(t.app, 'adam'), await login(t.app, 'rita')];
});
afterAll(async () => t.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, s: Session, payload?: object) =>
  t.app.inject({ method, url, headers: s.headers, ...(payload === undefined ? {} : { payload }) });

async function counts(): Promise<Record<string, number>> {
  const tables = (await t.db.execute(
    sql`SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND relkind = 'r' AND relname NOT IN ('backups', 'backup_schedules', 'live_events') ORDER BY relname`,
  )) as unknown as { rows: { relname: string }[] };
  const out: Record<string, number> = {};
  for (const { relname } of tables.rows) {
    const res = (await t.db.execute(sql.raw(`SELECT count(*)::int AS n FROM "${relname}"`))) as unknown as {
      rows: { n: number }[];
    };
    out[relname] = res.rows[0]!.n;
  }
  return out;
}

/** Starts a backup and waits until it is written. */
async function takeBackup(): Promise<{
  id: string;
  name: string;
  sha256: string;
  sizeBytes: number;
  status: string;
  tables: { table: string; rows: number }[];
  schemaVersion: string;
}> {
  const started = await call('POST', '/api/backups', adam);
  expect(started.statusCode, started.body).toBe(202);
  expect(started.json()).toMatchObject({ status: 'running', trigger: 'manual', createdByName: expect.any(String) });
  const id = started.json().id as string;
  return vi.waitFor(
    async () => {
      const res = await call('GET', `/api/backups/${id}`, adam);
      expect(res.json().status).not.toBe('running');
      return res.json();
    },
    { timeout: 60_000, interval: 100 },
  );
}

describe('backups', () => {
  it('are refused to everyone without backups.manage', async () => {
    for (const [method, url] of [
      ['GET', '/api/backups'],
      ['POST', '/api/backups'],
      ['POST', `/api/backups/${crypto.randomUUID()}/dry-run`],
      ['POST', `/api/backups/${crypto.randomUUID()}/restore`],
    ] as const) {
      const res = await call(
        method,
        url,
        rita,
        method === 'POST' && url.endsWith('restore') ? { confirm: 'x' } : undefined,
      );
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  let taken: Awaited<ReturnType<typeof takeBackup>>;
  let before: Record<string, number>;

  it('writes the whole database as one gzip file with its manifest, listed with size and checksum, and downloads it', async () => {
    before = await counts();
    taken = await takeBackup();
    // The backup's own "backup.created" event is written before its snapshot, so the file holds it.
    before = { ...before, audit_events: before.audit_events! + 1 };
    expect(taken).toMatchObject({
      status: 'ready',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      schemaVersion: expect.stringMatching(/^\d{4}_/),
    });
    expect(Object.fromEntries(taken.tables.map((x) => [x.table, x.rows]))).toEqual(before);

    const list = await call('GET', '/api/backups', adam);
    expect(list.statusCode).toBe(200);
    expect(list.json().items[0]).toMatchObject({ id: taken.id, sizeBytes: taken.sizeBytes, sha256: taken.sha256 });
    // The server's folder is not the API's to tell: no absolute path anywhere in the answer.
    expect(list.body).not.toContain(t.deps.backupDir);
    expect(list.json()).not.toHaveProperty('backupDir');

    const download = await call('GET', `/api/backups/${taken.id}/download`, adam);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/gzip');
    expect(download.headers['content-disposition']).toContain(`${taken.name}.jsonl.gz`);
    expect(download.rawPayload.length).toBe(taken.sizeBytes);
    const lines = gunzipSync(download.rawPayload).toString('utf8').trim().split('\n');
    const manifest = JSON.parse(lines[0]!);
    expect(manifest).toMatchObject({
      format: 'outlay-backup',
      name: taken.name,
      schemaVersion: taken.schemaVersion,
      attachments: { files: expect.any(Number) },
    });
    expect(manifest.sequences.some((s: { name: string }) => s.name.startsWith('audit_events'))).toBe(true);
    // Money keeps its digits: the file holds the database's own text for numeric values.
    const [request] = await t.db
      .select({ id: spendingRequests.id, amount: spendingRequests.amount })
      .from(spendingRequests)
      .limit(1);
    // The request's own row, not another table's row that names it (a payable's request_id).
    const line = lines.find((l) => l.includes(`"id":"${request!.id}"`) && l.includes('"amount"'));
    expect(line).toContain(`"amount":${request!.amount}`);

    const audit = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'backup.created'));
    expect(audit.some((a) => a.entityId === taken.id)).toBe(true);
  });

  it('a dry run reports what a restore would change and changes nothing', async () => {
    const [carla] = await t.db.select().from(users).where(eq(users.username, 'carla'));
    await t.db.update(users).set({ firstName: 'Changed' }).where(eq(users.id, carla!.id));
    const [category] = await t.db.select({ id: categories.id }).from(categories).limit(1);
    const created = await call('POST', '/api/requests', rita, {
      title: 'Train to the conference',
      amount: '123.45',
      currency: 'USD',
      categoryId: category!.id,
    });
    expect(created.statusCode, created.body).toBe(201);

    const now = await counts();
    const res = await call('POST', `/api/backups/${taken.id}/dry-run`, adam);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ checksumOk: true, schemaVersion: { matches: true }, name: taken.name });
    const requests = body.tables.find((x: { table: string }) => x.table === 'spending_requests');
    expect(requests).toEqual({
      table: 'spending_requests',
      current: now.spending_requests,
      backup: before.spending_requests,
    });
    expect(requests.current).toBe(requests.backup + 1);
    expect(body.sessionsToRevoke).toBeGreaterThanOrEqual(2);
    expect(await counts()).toEqual(now);
    expect((await call('GET', '/api/auth/user', rita)).statusCode).toBe(200);
  });

  it('a restore needs a recent password confirmation and the backup’s name typed out', async () => {
    t.clock.advance(11 * 60_000);
    const stale = await call('POST', `/api/backups/${taken.id}/restore`, adam, { confirm: taken.name });
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ code: 'reauth_required' });
    expect((await call('POST', '/api/auth/reauth', adam, { password: DEMO_PASSWORD })).statusCode).toBe(200);
    const wrong = await call('POST', `/api/backups/${taken.id}/restore`, adam, { confirm: 'outlay-something-else' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/name/);
  });

  it('refuses a backup whose file no longer matches its checksum, and one of another schema version', async () => {
    const other = await takeBackup();
    const dir = t.deps.backupDir;
    const target = path.join(dir, `${other.name}.jsonl.gz`);
    const text = gunzipSync(readFileSync(target)).toString('utf8');
    writeFileSync(target, gzipSync(text.replace('"Changed"', '"Tampered"')));
    for (const url of [`/api/backups/${other.id}/dry-run`, `/api/backups/${other.id}/restore`]) {
      const res = await call('POST', url, adam, url.endsWith('restore') ? { confirm: other.name } : undefined);
      expect(res.statusCode, url).toBe(409);
      expect(res.json().message).toMatch(/checksum/);
    }

    // A backup of another schema: its manifest names an older migration (checksum made to match).
    const lines = text.split('\n');
    const manifest = JSON.parse(lines[0]!);
    lines[0] = JSON.stringify({ ...manifest, schemaVersion: '0001_older' });
    const older = gzipSync(lines.join('\n'));
    writeFileSync(target, older);
    const { createHash } = await import('node:crypto');
    await t.db
      .update(backups)
      .set({ sha256: createHash('sha256').update(older).digest('hex') })
      .where(eq(backups.id, other.id));
    const res = await call('POST', `/api/backups/${other.id}/restore`, adam, { confirm: other.name });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/schema version 0001_older/);
    const dry = await call('POST', `/api/backups/${other.id}/dry-run`, adam);
    expect(dry.json().schemaVersion).toMatchObject({ backup: '0001_older', matches: false });

    expect((await call('DELETE', `/api/backups/${other.id}`, adam)).statusCode).toBe(204);
    expect((await call('GET', `/api/backups/${other.id}`, adam)).statusCode).toBe(404);
  });

  it('restores the backup in one transaction: data as it was, every session ended, the restore audited on a chain that verifies', async () => {
    const res = await call('POST', `/api/backups/${taken.id}/restore`, adam, { confirm: taken.name });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: taken.name, sessionsRevoked: expect.any(Number) });

    const after = await counts();
    // The restore's own audit event is the one row more than the backup held.
    expect(after).toEqual({ ...before, audit_events: before.audit_events! + 1, sessions: after.sessions });
    const [carla] = await t.db.select().from(users).where(eq(users.username, 'carla'));
    expect(carla!.firstName).not.toBe('Changed');
    const found = await t.db
      .select()
      .from(spendingRequests)
      .where(eq(spendingRequests.title, 'Train to the conference'));
    expect(found).toEqual([]);

    // Old tokens are refused, the restorer's too.
    expect((await call('GET', '/api/auth/user', rita)).statusCode).toBe(401);
    expect((await call('GET', '/api/auth/user', adam)).statusCode).toBe(401);

    const admin = await login(t.app, 'adam');
    const verify = await call('POST', '/api/audit/verify', admin);
    expect(verify.statusCode, verify.body).toBe(200);
    expect(verify.json()).toMatchObject({ ok: true });
    const [event] = await t.db.select().from(auditEvents).where(eq(auditEvents.action, 'backup.restored'));
    expect(event).toMatchObject({ entityId: taken.id, after: { name: taken.name, sha256: taken.sha256 } });

    const list = await call('GET', '/api/backups', admin);
    expect(list.json().items.map((b: { id: string }) => b.id)).toContain(taken.id);
    // Sequences are back: the next audit events follow the restored ones and the chain still verifies.
    const created = await call('POST', '/api/backups', admin);
    expect(created.statusCode).toBe(202);
    await vi.waitFor(
      async () => expect((await call('GET', `/api/backups/${created.json().id}`, admin)).json().status).toBe('ready'),
      { timeout: 60_000, interval: 100 },
    );
    expect((await call('POST', '/api/audit/verify', admin)).json()).toMatchObject({ ok: true });
    adam = admin;
  });

  it('schedules backups: one instance claims a due run, and scheduled backups beyond the retention go', async () => {
    const saved = await call('PUT', '/api/backups/schedule', adam, { frequency: 'daily', retention: 1 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await call('PUT', '/api/backups/schedule', adam, { frequency: 'hourly', retention: 1 })).statusCode).toBe(
      400,
    );
    const dir = t.deps.backupDir;
    const deps = { db: t.db, backupDir: dir, clock: t.clock.now };
    // A backup left `running` by a stopped server: a fresh one refuses a second, a stale one is marked failed.
    const [fresh] = await t.db
      .insert(backups)
      .values({
        name: 'cut-off',
        status: 'running',
        trigger: 'manual',
        fileName: 'cut-off.jsonl.gz',
        createdAt: t.clock.now(),
      })
      .returning();
    const second = await call('POST', '/api/backups', adam);
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toMatch(/already in progress/);
    await t.db
      .update(backups)
      .set({ createdAt: new Date(t.clock.now().getTime() - 7 * 3_600_000) })
      .where(eq(backups.id, fresh!.id));
    const manual = (await t.db.select({ id: backups.id }).from(backups)).map((b) => b.id);

    // Two instances' passes at once: one backup.
    const both = await Promise.all([
      runScheduledBackups(deps, t.clock.now(), t.app.log),
      runScheduledBackups(deps, t.clock.now(), t.app.log),
    ]);
    expect(both.map((r) => r.created).sort()).toEqual([0, 1]);
    expect((await runScheduledBackups(deps, t.clock.now(), t.app.log)).created).toBe(0);
    const [cutOff] = await t.db.select().from(backups).where(eq(backups.id, fresh!.id));
    expect(cutOff).toMatchObject({ status: 'failed', error: expect.stringMatching(/cut off/) });
    const first = await t.db.select().from(backups).where(eq(backups.trigger, 'scheduled'));
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ status: 'ready' });
    // The next one is 03:00 the next day in the group's time zone (UTC in the demo), not a day after this pass.
    const [claimed] = await t.db.select().from(backupSchedules);
    const listed = (await call('GET', '/api/backups', adam)).json();
    const last = claimed!.lastScheduledAt!;
    const threeNext = new Date(
      Date.UTC(last.getUTCFullYear(), last.getUTCMonth(), last.getUTCDate() + (last.getUTCHours() >= 3 ? 1 : 0), 3),
    );
    expect(listed.schedule).toMatchObject({ timeZone: 'UTC', nextRunAt: threeNext.toISOString() });

    t.clock.advance(86_400_000 + 1000);
    expect(await runScheduledBackups(deps, t.clock.now(), t.app.log)).toEqual({ created: 1, removed: 1 });
    const scheduled = await t.db.select().from(backups).where(eq(backups.trigger, 'scheduled'));
    expect(scheduled).toHaveLength(1);
    expect(scheduled[0]!.id).not.toBe(first[0]!.id);
    // Manual backups are kept whatever the retention.
    const ids = (await t.db.select({ id: backups.id }).from(backups)).map((b) => b.id);
    for (const id of manual) expect(ids).toContain(id);
    const [schedule] = await t.db.select().from(backupSchedules);
    expect(schedule).toMatchObject({ frequency: 'daily', retention: 1 });
  });
});
