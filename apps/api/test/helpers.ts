import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { createDb, DEMO_PASSWORD, openPglite, type Db, type DbHandle, type PoolSettings } from '@outlay/db';
import { buildApp } from '../src/app.ts';
import type { AppDeps } from '../src/lib/context.ts';
import { createDeps } from '../src/lib/deps.ts';
import { createEventBus } from '../src/lib/events.ts';
import { withDatabase } from './global-setup.ts';

export interface TestContext {
  app: FastifyInstance;
  db: Db;
  handle: DbHandle;
  clock: TestClock;
  deps: AppDeps;
  close(): Promise<void>;
}

/** A clock tests can move: lockouts, token expiry and TOTP steps depend on it. */
export class TestClock {
  private offsetMs = 0;
  now = () => new Date(Date.now() + this.offsetMs);
  advance(ms: number) {
    this.offsetMs += ms;
  }
}

/**
 * A fresh copy of the migrated, seeded demo database for one test file. `pool` replaces the
 * PostgreSQL pool settings below (a test of the production limits passes DEFAULT_POOL_SETTINGS).
 */
export async function freshDatabase(options: { pool?: Partial<PoolSettings> } = {}): Promise<DbHandle> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `${inject('pgTemplate')}_f_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
    } finally {
      await admin.end();
    }
    // The concurrency tests queue twenty transactions on one row on a loaded two-core machine;
    // the production lock wait (5 s) is for a stuck lock, which the resilience tests cover.
    const handle = await createDb({
      url: withDatabase(url, name),
      pool: options.pool ?? { size: 20, lockTimeoutMs: 30_000, connectionTimeoutMs: 30_000 },
    });
    return {
      ...handle,
      close: async () => {
        await handle.close();
        const drop = new pg.Client({ connectionString: url });
        await drop.connect();
        await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
        await drop.end();
      },
    };
  }
  const blob = new Blob([readFileSync(inject('pgliteTemplate'))]);
  const pglite = openPglite({ loadDataDir: blob });
  return createDb({ pglite });
}

/** `publicUrl` is the PUBLIC_URL links are built from (by default http://localhost:3000). */
export async function createTestApp(
  options: { pool?: Partial<PoolSettings>; publicUrl?: string } = {},
): Promise<TestContext> {
  const handle = await freshDatabase(options);
  const clock = new TestClock();
  // A working live-event bus, listening before the first test runs.
  const events = createEventBus(handle);
  await events.ready;
  const deps = await createDeps(handle, { clock: clock.now, events, publicUrl: options.publicUrl });
  const app = await buildApp({ deps });
  await app.ready();
  return {
    app,
    db: handle.db,
    handle,
    clock,
    deps,
    close: async () => {
      await app.close();
      await events.close();
      await handle.close();
    },
  };
}

export interface Session {
  accessToken: string;
  refreshToken: string;
  deviceId: string;
  headers: Record<string, string>;
}

let ipCounter = 1;
/** Each call gets its own client address, so one test's failures never throttle another's. */
export function nextIp(): string {
  ipCounter++;
  return `10.9.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`;
}

/** Signs in; with `deviceId` (one the server gave before) as the same device, else as a new one. */
export async function login(
  app: FastifyInstance,
  username: string,
  password = DEMO_PASSWORD,
  deviceId?: string,
): Promise<Session> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password },
    headers: deviceId ? { 'x-device-id': deviceId } : {},
    remoteAddress: nextIp(),
  });
  if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  if (!body.tokens) throw new Error(`login ${username} gave no tokens: ${res.body}`);
  return {
    accessToken: body.tokens.accessToken,
    refreshToken: body.tokens.refreshToken,
    deviceId: body.deviceId,
    headers: { authorization: `Bearer ${body.tokens.accessToken}`, 'x-device-id': body.deviceId },
  };
}

/** Fails the test when any response carries a password hash, a TOTP secret or the like. */
export function assertNoSecrets(res: LightMyRequestResponse) {
  const body = res.body;
  for (const marker of [
    '$argon2',
    'passwordHash',
    'password_hash',
    'totpSecret',
    'totp_secret',
    'codeHash',
    'tokenHash',
  ]) {
    if (body.includes(marker)) throw new Error(`response leaks ${marker}: ${body.slice(0, 200)}`);
  }
}
