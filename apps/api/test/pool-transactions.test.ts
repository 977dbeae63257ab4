/**
 * A pooled transaction gives its connection back however it ends (packages/db/src/pool-transactions.ts):
 * drizzle's own transaction() keeps a client whose BEGIN failed, and a pool that loses one per
 * failure is empty after an outage or two. The pool here hands out clients whose statements fail
 * as a dead connection's do; the outage tests show the same on a real server.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { releaseClientsOfFailedTransactions } from '@outlay/db/pool-transactions';

class ScriptedPool extends pg.Pool {
  readonly statements: string[] = [];
  readonly releases: (Error | boolean | undefined)[] = [];
  constructor(private readonly failing: RegExp) {
    super({ max: 1 });
  }
  override connect(): Promise<pg.PoolClient> {
    const client = {
      query: async (config: string | { text: string }) => {
        const text = typeof config === 'string' ? config : config.text;
        this.statements.push(text);
        if (this.failing.test(text)) throw new Error('Connection terminated unexpectedly');
        return { rows: [], rowCount: 0, command: text.split(' ')[0]!.toUpperCase(), fields: [] };
      },
      release: (error?: Error | boolean) => void this.releases.push(error),
    };
    return Promise.resolve(client as unknown as pg.PoolClient);
  }
}

function guarded(failing: RegExp) {
  const pool = new ScriptedPool(failing);
  const db = drizzle(pool);
  releaseClientsOfFailedTransactions(db);
  return { pool, db };
}

describe('pooled transactions give their connection back', () => {
  it('a BEGIN that fails releases the client with the error, so the pool closes it', async () => {
    const { pool, db } = guarded(/^begin/);
    let ran = false;
    await expect(db.transaction(async () => void (ran = true))).rejects.toThrow(/begin/i);
    expect(ran).toBe(false);
    expect(pool.releases).toHaveLength(1);
    expect(pool.releases[0]).toBeInstanceOf(Error);
  });

  it('without the guard drizzle keeps that client (the defect it covers)', async () => {
    const pool = new ScriptedPool(/^begin/);
    const db = drizzle(pool);
    await expect(db.transaction(async () => {})).rejects.toThrow();
    expect(pool.releases).toEqual([]);
  });

  it('a transaction that commits releases once, with no error', async () => {
    const { pool, db } = guarded(/^$/);
    expect(await db.transaction(async (tx) => (await tx.execute(sql`select 1`), 'done'))).toBe('done');
    expect(pool.statements).toEqual(['begin', 'select 1', 'commit']);
    expect(pool.releases).toEqual([undefined]);
  });

  it('a transaction whose work fails rolls back and releases once', async () => {
    const { pool, db } = guarded(/^$/);
    await expect(
      db.transaction(async () => {
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect(pool.statements).toEqual(['begin', 'rollback']);
    expect(pool.releases).toEqual([undefined]);
  });

  it('a rollback that fails too still releases once (drizzle does, the guard does not again)', async () => {
    const { pool, db } = guarded(/^(select|rollback)/);
    await expect(db.transaction(async (tx) => void (await tx.execute(sql`select 1`)))).rejects.toThrow();
    expect(pool.releases).toHaveLength(1);
  });
});
