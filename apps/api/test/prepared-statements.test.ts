/**
 * The PostgreSQL pool's prepared statements (packages/db/src/prepared-statements.ts), against a
 * real server: a statement is named from its second run, planner settings of a transaction keep
 * their own statements, and a connection's statements stay under the cap. PostgreSQL pass only.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PER_CONNECTION, PreparingClient } from '@outlay/db/prepared-statements';

const PG_URL = process.env.TEST_DATABASE_URL || undefined;

async function prepared(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name');
  return rows.map((r) => r.name);
}

describe.skipIf(!PG_URL)('prepared statements on PostgreSQL', () => {
  // Typed as pg's own client: the subclass only changes the statement's name.
  let client: pg.Client;

  beforeAll(async () => {
    client = new PreparingClient({ connectionString: PG_URL }) as unknown as pg.Client;
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
  });

  it('names a statement from its second run, by its text, and answers the same', async () => {
    const text = `SELECT $1::int + 1 AS n /* ${Math.random()} */`;
    const first = await client.query({ text, values: [1] });
    expect(await prepared(client)).toEqual([]);
    const second = await client.query({ text, values: [2] });
    const third = await client.query({ text, values: [3] });
    expect([first.rows[0].n, second.rows[0].n, third.rows[0].n]).toEqual([2, 3, 4]);
    const names = await prepared(client);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^o_[\w-]{27}$/);
  });

  it('keeps a plan made under changed planner settings apart from the plain one', async () => {
    await client.query('DEALLOCATE ALL');
    (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements =
      {};
    const text = `SELECT count(*)::int AS n FROM pg_class WHERE relname <> $1 /* ${Math.random()} */`;
    await client.query({ text, values: ['x'] });
    await client.query({ text, values: ['x'] });
    await client.query('BEGIN');
    await client.query({ text: "SELECT set_config('enable_seqscan', 'off', true)", values: [] });
    await client.query({ text, values: ['x'] });
    expect(await prepared(client)).toHaveLength(2);
    await client.query('COMMIT');
    // After the transaction the plain statement is the one used again.
    await client.query({ text, values: ['x'] });
    expect(await prepared(client)).toHaveLength(2);
  });

  it('names a SELECT that makes settings too, and the statements after it apart from the plain ones', async () => {
    await client.query('DEALLOCATE ALL');
    (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements =
      {};
    const settings = `SELECT set_config('enable_seqscan', 'off', true), $1::int AS n /* ${Math.random()} */`;
    const text = `SELECT count(*)::int AS n FROM pg_class WHERE relname <> $1 /* ${Math.random()} */`;
    for (let i = 0; i < 2; i++) {
      await client.query('BEGIN');
      await client.query({ text: settings, values: [i] });
      await client.query({ text, values: ['x'] });
      expect((await client.query('SHOW enable_seqscan')).rows[0].enable_seqscan).toBe('off');
      await client.query('COMMIT');
    }
    // The second time round both were named: the settings statement, and the one after it under those settings.
    expect(await prepared(client)).toHaveLength(2);
    await client.query({ text, values: ['x'] });
    await client.query({ text, values: ['x'] });
    // Run plainly, the statement gets a name of its own.
    expect(await prepared(client)).toHaveLength(3);
    expect((await client.query('SHOW enable_seqscan')).rows[0].enable_seqscan).toBe('on');
  });

  it('deallocates the least recently used statement past the cap', async () => {
    await client.query('DEALLOCATE ALL');
    (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements =
      {};
    const tag = Math.random();
    const texts = Array.from({ length: MAX_PER_CONNECTION + 5 }, (_, i) => `SELECT ${i} + $1::int AS n /* ${tag} */`);
    for (const text of texts) {
      await client.query({ text, values: [0] });
      const { rows } = await client.query({ text, values: [1] });
      expect(rows[0].n).toBe(texts.indexOf(text) + 1);
    }
    expect((await prepared(client)).length).toBe(MAX_PER_CONNECTION);
    // The first ones went; running one again prepares it anew without a clash.
    const { rows } = await client.query({ text: texts[0]!, values: [5] });
    expect(rows[0].n).toBe(5);
    expect((await prepared(client)).length).toBe(MAX_PER_CONNECTION);
  });
});
