/**
 * drizzle-orm as patched by patches/drizzle-orm+*.patch (applied by `npm ci`'s postinstall): `is()`
 * remembers what a prototype is of, and a result's column decoders are found once per statement.
 * Both must answer exactly as drizzle's own code did; the whole suite runs on the patched package,
 * and these cases pin the corners (subclasses, plain objects, non-entities, left joins that
 * found nothing, nested selections, custom decoders).
 */
import { PGlite } from '@electric-sql/pglite';
import { Column, SQL, Subquery, eq, is, sql } from 'drizzle-orm';
import { integer, numeric, pgTable, PgColumn, text, timestamp } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const people = pgTable('people', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  bornAt: timestamp('born_at', { withTimezone: true }),
});
const pets = pgTable('pets', {
  id: integer('id').primaryKey(),
  ownerId: integer('owner_id'),
  weight: numeric('weight'),
});

let lite: PGlite;
let db: ReturnType<typeof drizzle>;

beforeAll(async () => {
  lite = new PGlite();
  db = drizzle(lite);
  await lite.exec(`
    CREATE TABLE people (id int PRIMARY KEY, name text NOT NULL, born_at timestamptz);
    CREATE TABLE pets (id int PRIMARY KEY, owner_id int, weight numeric);
    INSERT INTO people VALUES (1, 'Ada', '1990-05-01T10:00:00Z'), (2, 'Bo', NULL);
    INSERT INTO pets VALUES (10, 1, 4.25);`);
});

afterAll(async () => {
  await lite?.close();
});

describe('is()', () => {
  it('is applied to both builds of the installed package (the server loads the ES modules)', async () => {
    const { readFile } = await import('node:fs/promises');
    const { createRequire } = await import('node:module');
    const resolve = createRequire(import.meta.url).resolve;
    for (const module of ['drizzle-orm/entity', 'drizzle-orm/utils']) {
      const cjs = resolve(module);
      for (const file of [cjs, cjs.replace(/\.cjs$/, '.js')])
        expect(await readFile(file, 'utf8'), file).toContain("Outlay's patch");
    }
  });

  it('answers for subclasses, other kinds and plain objects, the same every time it is asked', () => {
    for (let round = 0; round < 3; round++) {
      expect(is(people.name, Column)).toBe(true);
      expect(is(people.name, PgColumn)).toBe(true);
      expect(is(people.name, SQL)).toBe(false);
      expect(is(sql`1`, SQL)).toBe(true);
      expect(is(sql`1`, Column)).toBe(false);
      expect(is(sql`1`.as('one'), SQL.Aliased)).toBe(true);
      expect(is(db.select().from(people).as('p'), Subquery)).toBe(true);
      expect(is({}, Column)).toBe(false);
      expect(is(null, Column)).toBe(false);
      expect(is('text', SQL)).toBe(false);
    }
  });

  it('still refuses a class that is not a drizzle entity', () => {
    class NotAnEntity {}
    expect(() => is(sql`1`, NotAnEntity as never)).toThrow(/doesn't look like a Drizzle entity/);
  });
});

describe('rows mapped from results', () => {
  it('decodes columns and expressions, nests selections, and turns a left join that found nothing into null', async () => {
    const rows = await db
      .select({
        person: { id: people.id, name: people.name, bornAt: people.bornAt },
        pet: pets,
        label: sql<string>`upper(${people.name})`,
        petCount: sql`(SELECT count(*) FROM pets WHERE owner_id = ${people.id})`.mapWith(Number),
      })
      .from(people)
      .leftJoin(pets, eq(pets.ownerId, people.id))
      .orderBy(people.id);
    expect(rows).toEqual([
      {
        person: { id: 1, name: 'Ada', bornAt: new Date('1990-05-01T10:00:00Z') },
        pet: { id: 10, ownerId: 1, weight: '4.25' },
        label: 'ADA',
        petCount: 1,
      },
      { person: { id: 2, name: 'Bo', bornAt: null }, pet: null, label: 'BO', petCount: 0 },
    ]);
  });

  it('maps a prepared statement the same on every run', async () => {
    const named = db
      .select({ name: people.name, weight: pets.weight })
      .from(people)
      .leftJoin(pets, eq(pets.ownerId, people.id))
      .orderBy(people.id)
      .prepare('named');
    for (let run = 0; run < 3; run++) {
      expect(await named.execute()).toEqual([
        { name: 'Ada', weight: '4.25' },
        { name: 'Bo', weight: null },
      ]);
    }
  });
});
