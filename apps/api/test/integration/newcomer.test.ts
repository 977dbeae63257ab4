/**
 * The newcomer path, end to end through real processes and real HTTP: `src/server.ts` on a fresh
 * embedded data folder (demo seed, one-server lock, restart keeps data) and the create-owner CLI
 * followed by the first owner's sign-in and password change. Every child is bounded and killed.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { acquireDataDirLock, createDb, DEMO_PASSWORD, DEMO_STAFF, DEMO_USERS, users } from '@outlay/db';
import { freePort, killAll, runTs as runChild, withTimeout, type Proc } from '../child-process.ts';
import { withDatabase } from '../global-setup.ts';

const STARTUP_MS = 60_000;
const CHILD_HARD_LIMIT_MS = 180_000;

// ---------------------------------------------------------------------------------------------
// Child processes
// ---------------------------------------------------------------------------------------------

const tempDirs: string[] = [];

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** A child of this file, bounded by its hard limit. */
const runTs = (script: string, args: string[], env: Record<string, string>) =>
  runChild(script, args, env, { hardLimitMs: CHILD_HARD_LIMIT_MS });

// ---------------------------------------------------------------------------------------------
// Server and HTTP helpers
// ---------------------------------------------------------------------------------------------

interface Server {
  proc: Proc;
  port: number;
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const proc = runTs('src/server.ts', [], { ...env, PORT: String(port), HOST: '127.0.0.1' });
  await proc.waitFor(new RegExp(`Outlay is running at http://localhost:${port}\\b`));
  await waitForHealth(port);
  return { proc, port };
}

async function waitForHealth(port: number, ms = STARTUP_MS) {
  const deadline = Date.now() + ms;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
      last = `status ${res.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    // Poll interval while waiting for a condition (not a fixed sleep before an assertion).
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`GET /api/health on port ${port} never answered 200 (${last})`);
}

interface Res {
  status: number;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

async function http(
  port: number,
  method: string,
  url: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Res> {
  const res = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(text);
  } catch {
    // plain-text answer (login failures)
  }
  return { status: res.status, text, json };
}

const login = (port: number, username: string, password: string) =>
  http(port, 'POST', '/api/auth/login', { body: { username, password } });

function sessionHeaders(body: { tokens: { accessToken: string }; deviceId: string }): Record<string, string> {
  return { authorization: `Bearer ${body.tokens.accessToken}`, 'x-device-id': body.deviceId };
}

async function loginSession(port: number, username: string, password: string): Promise<Record<string, string>> {
  const res = await login(port, username, password);
  expect(res.status, res.text).toBe(200);
  expect(res.json.tokens, res.text).toBeDefined();
  return sessionHeaders(res.json);
}

// ---------------------------------------------------------------------------------------------

afterAll(async () => {
  await killAll();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

describe('embedded server on a fresh data folder', () => {
  let dataDir: string;
  let lockFile: string;
  let first: Server;

  beforeAll(() => {
    dataDir = tempDir('outlay-newcomer-');
    lockFile = path.join(dataDir, 'outlay.lock');
  });

  it('starts, seeds the demo world, lists the demo accounts and signs adam in', { timeout: 120_000 }, async () => {
    first = await startServer({ DATA_DIR: dataDir });
    const out = first.proc.stdout;
    expect(out).toContain(`embedded PGlite in ${dataDir} (demo world seeded)`);
    expect(out).toContain(`demo accounts (password ${DEMO_PASSWORD}):`);
    for (const u of DEMO_USERS) expect(out).toMatch(new RegExp(`^\\s+${u.username}\\s+${u.role}\\b`, 'm'));
    // The subsidiaries' staff share the password but are not part of the printed list.
    for (const u of DEMO_STAFF) expect(out).not.toMatch(new RegExp(`^\\s+${u.username}\\s`, 'm'));
    expect(out).toMatch(/nina\s+requester\s+\(temporary password \S+; must set a new one\)/);

    expect(readFileSync(lockFile, 'utf8')).toBe(String(first.proc.child.pid));

    const res = await login(first.port, 'adam', 'Meridian!2026');
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      message: expect.any(String),
      requirePasswordChange: false,
      tokens: { accessToken: expect.any(String), refreshToken: expect.any(String) },
      deviceId: expect.any(String),
    });

    const ready = await http(first.port, 'GET', '/api/ready');
    expect(ready.status, ready.text).toBe(200);
    expect(ready.json).toMatchObject({ status: 'ready', database: 'up' });
  });

  it('refuses a second server on the same data folder and the first keeps serving', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const second = runTs('src/server.ts', [], { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
    const exit = await withTimeout(
      second.exited,
      30_000,
      `second server did not exit within 30 s\n--- stdout ---\n${second.stdout}\n--- stderr ---\n${second.stderr}`,
    );
    expect(exit.code).toBe(1);
    expect(second.stderr).toContain(
      `Outlay cannot start: The data folder ${dataDir} is in use by another Outlay server (process ${first.proc.child.pid})`,
    );
    expect(second.stdout).not.toContain('Outlay is running');

    // The lock still belongs to the first server, which still answers.
    expect(readFileSync(lockFile, 'utf8')).toBe(String(first.proc.child.pid));
    expect(first.proc.exit).toBeNull();
    expect((await http(first.port, 'GET', '/api/health')).status).toBe(200);
    const headers = await loginSession(first.port, 'adam', DEMO_PASSWORD);
    expect((await http(first.port, 'GET', '/api/auth/user', { headers })).json).toMatchObject({
      username: 'adam',
      role: 'admin',
    });
  });

  it('create-owner refuses the data folder while the server holds it', { timeout: 60_000 }, async () => {
    const cli = runTs(
      'src/cli/create-owner.ts',
      ['--username', 'late', '--email', 'late@example.com', '--first-name', 'Late', '--last-name', 'Comer'],
      {
        DATA_DIR: dataDir,
      },
    );
    const exit = await withTimeout(cli.exited, 30_000, 'create-owner did not exit');
    expect(exit.code, cli.stdout + cli.stderr).toBe(1);
    expect(cli.stderr).toContain(`create-owner failed: The data folder ${dataDir} is in use by another Outlay server`);
    expect(cli.stdout).not.toContain('Temporary password');
    expect(readFileSync(lockFile, 'utf8')).toBe(String(first.proc.child.pid));
  });

  it(
    'releases the lock on SIGTERM and keeps the data across a restart without seeding again',
    { timeout: 150_000 },
    async () => {
      // A change made before the restart.
      const headers = await loginSession(first.port, 'adam', DEMO_PASSWORD);
      const before = await http(first.port, 'GET', '/api/profile', { headers });
      expect(before.status, before.text).toBe(200);
      expect(before.json).toMatchObject({ username: 'adam', lastName: 'Clarke' });
      const put = await http(first.port, 'PUT', '/api/profile', {
        headers,
        body: {
          firstName: before.json.firstName,
          lastName: 'Clarke-Newcomer',
          email: before.json.email,
          phoneNumber: '+44 20 7946 0000',
        },
      });
      expect(put.status, put.text).toBe(200);

      // A request in flight when SIGTERM arrives, on a keep-alive socket the client keeps open,
      // must not hold the shutdown (it used to wait out the 72 s keep-alive timeout). The body is
      // sent only after the signal, so the request is surely in flight.
      const body = JSON.stringify({ username: 'adam', password: 'not-the-password' });
      const socket = net.connect(first.port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('error', () => {});
      socket.write(
        `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: keep-alive\r\n\r\n`,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      const stoppedAt = Date.now();
      const stopping = first.proc.stop('SIGTERM', 20_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      socket.write(body);
      const exit = await stopping;
      socket.destroy();
      expect(Date.now() - stoppedAt).toBeLessThan(20_000);
      expect(answer).toMatch(/^HTTP\/1\.1 (401|503)/);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(existsSync(lockFile)).toBe(false);

      const again = await startServer({ DATA_DIR: dataDir });
      try {
        expect(again.proc.stdout).toContain(`embedded PGlite in ${dataDir}`);
        expect(again.proc.stdout).not.toContain('demo world seeded');
        expect(readFileSync(lockFile, 'utf8')).toBe(String(again.proc.child.pid));

        const h = await loginSession(again.port, 'adam', DEMO_PASSWORD);
        const after = await http(again.port, 'GET', '/api/profile', { headers: h });
        expect(after.status, after.text).toBe(200);
        expect(after.json).toMatchObject({
          username: 'adam',
          firstName: 'Adam',
          lastName: 'Clarke-Newcomer',
          phoneNumber: '+44 20 7946 0000',
        });
        expect((await http(again.port, 'GET', '/api/ready')).status).toBe(200);
      } finally {
        const stopped = await again.proc.stop('SIGTERM');
        expect(stopped).toEqual({ code: 0, signal: null });
      }
      expect(existsSync(lockFile)).toBe(false);

      // With no server running, look into the data folder itself: one adam, one demo world.
      const release = acquireDataDirLock(dataDir);
      const handle = await createDb({ dataDir: path.join(dataDir, 'pglite') });
      try {
        const adams = await handle.db
          .select({ lastName: users.lastName })
          .from(users)
          .where(eq(users.username, 'adam'));
        expect(adams).toEqual([{ lastName: 'Clarke-Newcomer' }]);
        const [total] = await handle.db.select({ n: count() }).from(users);
        expect(total?.n).toBe(DEMO_USERS.length + DEMO_STAFF.length);
      } finally {
        await handle.close();
        release();
      }
    },
  );
});

describe('create-owner CLI', () => {
  const pgUrl = process.env.TEST_DATABASE_URL;
  let dbName: string | undefined;
  let target: Record<string, string>;

  beforeAll(async () => {
    if (pgUrl) {
      dbName = `${inject('pgTemplate')}_f_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${dbName}`);
      } finally {
        await admin.end();
      }
      // DATA_DIR is set too: a PostgreSQL deployment must not touch it.
      target = { DATABASE_URL: withDatabase(pgUrl, dbName), DATA_DIR: tempDir('outlay-newcomer-pg-') };
    } else {
      target = { DATA_DIR: tempDir('outlay-newcomer-owner-'), SEED_DEMO: 'false' };
    }
  });

  afterAll(async () => {
    await killAll();
    if (pgUrl && dbName) {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    }
  });

  it('prints the usage line and exits 2 when arguments are missing or invalid', { timeout: 60_000 }, async () => {
    const dataDir = tempDir('outlay-newcomer-usage-');
    const cases = [
      ['--username', 'owner'],
      ['--username', 'owner', '--email', 'not-an-email', '--first-name', 'Olga', '--last-name', 'Owner'],
    ];
    const runs = cases.map((args) => runTs('src/cli/create-owner.ts', args, { DATA_DIR: dataDir }));
    for (const cli of runs) {
      const exit = await withTimeout(cli.exited, 30_000, 'create-owner did not exit');
      expect(exit.code, cli.stdout + cli.stderr).toBe(2);
      expect(cli.stdout + cli.stderr).toContain(
        'Usage: npm run create-owner -- --username NAME --email EMAIL --first-name FIRST --last-name LAST',
      );
      expect(cli.stdout).not.toContain('Temporary password');
    }
    // It gave up before touching the data folder.
    expect(existsSync(path.join(dataDir, 'outlay.lock'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);
  });

  it(
    `creates the first owner who signs in with the temporary password and sets a new one (${pgUrl ? 'PostgreSQL' : 'embedded'})`,
    { timeout: 180_000 },
    async () => {
      const args = [
        '--username',
        'Olga',
        '--email',
        'Olga.Owner@Example.com',
        '--first-name',
        'Olga',
        '--last-name',
        'Owner',
        '--organization',
        'Newcomer Group',
      ];
      const cli = runTs('src/cli/create-owner.ts', args, target);
      const exit = await withTimeout(cli.exited, 90_000, 'create-owner did not exit');
      expect(exit.code, cli.stdout + cli.stderr).toBe(0);
      expect(cli.stdout).toContain('Owner olga created.');
      const match = cli.stdout.match(/^Temporary password \(shown once, valid 72 hours\): (\S+)$/m);
      expect(match, cli.stdout).not.toBeNull();
      const tempPassword = match![1]!;
      const dataDir = target.DATA_DIR!;
      expect(existsSync(path.join(dataDir, 'outlay.lock'))).toBe(false);
      if (pgUrl) expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);

      // A second run with the same username is refused and prints no password.
      const dup = runTs('src/cli/create-owner.ts', args, target);
      const dupExit = await withTimeout(dup.exited, 90_000, 'second create-owner did not exit');
      expect(dupExit.code, dup.stdout + dup.stderr).toBe(1);
      expect(dup.stderr).toContain(
        'create-owner failed: A user with username olga or e-mail olga.owner@example.com already exists',
      );
      expect(dup.stdout).not.toContain('Temporary password');

      const server = await startServer(target);
      expect(server.proc.stdout).not.toContain('demo accounts');
      expect(server.proc.stdout).not.toContain('demo world seeded');
      expect(server.proc.stdout).toContain(
        pgUrl ? 'database: PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${dataDir}`,
      );
      expect((await http(server.port, 'GET', '/api/ready')).status).toBe(200);

      // No demo world here.
      const adam = await login(server.port, 'adam', DEMO_PASSWORD);
      expect(adam.status).toBe(401);
      expect(adam.text).toBe('Invalid credentials');

      const first = await login(server.port, 'olga', tempPassword);
      expect(first.status, first.text).toBe(200);
      expect(first.json).toMatchObject({
        requirePasswordChange: true,
        userId: expect.any(String),
        passwordChangeToken: expect.any(String),
      });
      expect(first.json.tokens).toBeUndefined();

      const newPassword = `Olga-${randomBytes(4).toString('hex')}-Ledger9`;
      const changed = await http(server.port, 'POST', '/api/auth/change-password', {
        body: {
          newPassword,
          confirmPassword: newPassword,
          userId: first.json.userId,
          passwordChangeToken: first.json.passwordChangeToken,
        },
      });
      expect(changed.status, changed.text).toBe(200);
      expect(changed.json).toEqual({ message: expect.any(String) });

      // The temporary password is spent; the new one opens a session.
      const stale = await login(server.port, 'olga', tempPassword);
      expect(stale.status).toBe(401);
      const signedIn = await login(server.port, 'olga.owner@example.com', newPassword);
      expect(signedIn.status, signedIn.text).toBe(200);
      expect(signedIn.json).toMatchObject({
        requirePasswordChange: false,
        tokens: { accessToken: expect.any(String), refreshToken: expect.any(String) },
        deviceId: expect.any(String),
      });
      const me = await http(server.port, 'GET', '/api/auth/user', { headers: sessionHeaders(signedIn.json) });
      expect(me.status, me.text).toBe(200);
      expect(me.json).toMatchObject({
        id: first.json.userId,
        username: 'olga',
        email: 'olga.owner@example.com',
        firstName: 'Olga',
        lastName: 'Owner',
        role: 'owner',
        status: 'active',
        requirePasswordChange: false,
        hasChangedPassword: true,
      });
      expect(me.json.organizationId).toEqual(expect.any(String));

      const stopped = await server.proc.stop('SIGTERM');
      expect(stopped).toEqual({ code: 0, signal: null });
      expect(existsSync(path.join(dataDir, 'outlay.lock'))).toBe(false);
    },
  );
});
