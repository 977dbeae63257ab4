import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDb, migrate, seedDemo, type Db } from '@outlay/db';
import { linkAuditRows } from '../src/lib/audit.ts';
import { encrypt } from '../src/lib/crypto.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { keysFrom, loadSigningSecret } from '../src/lib/secrets.ts';

/**
 * Builds one migrated, seeded database per run; each test file then gets its own copy:
 * a PGlite data-dir dump loaded in memory, or on PostgreSQL a CREATE DATABASE … TEMPLATE.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `outlay_tpl_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const tplUrl = withDatabase(url, name);
    const handle = await createDb({ url: tplUrl, poolSize: 2 });
    await migrate(handle);
    await seedDemo(handle.db, await seedTools(handle.db));
    await handle.close();
    project.provide('pgTemplate', name);
    return async () => {
      const { rows } = await admin.query<{ datname: string }>(
        // Only this run's databases: another run may share the server (its names carry its own template).
        `SELECT datname FROM pg_database WHERE starts_with(datname, $1 || '_f_') OR datname = $1`,
        [name],
      );
      for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`).catch(() => {});
      await admin.end();
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'outlay-tpl-'));
  const handle = await createDb({});
  await migrate(handle);
  await seedDemo(handle.db, await seedTools(handle.db));
  const client = (handle.db as unknown as { $client: PGlite }).$client;
  const dump = await client.dumpDataDir('none');
  const file = path.join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('pgliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}

/** The template's signing secret is copied into every test database, so sealed values open there too. */
async function seedTools(db: Db) {
  const { bank } = keysFrom(await loadSigningSecret(db, undefined));
  return { hashPassword, seal: (plain: string) => encrypt(bank, plain), linkAudit: linkAuditRows };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: string;
  }
}
