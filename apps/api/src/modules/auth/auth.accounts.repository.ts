import { eq, sql } from 'drizzle-orm';
import { users, type Db } from '@outlay/db';

export async function findUserByLogin(db: Db, login: string) {
  const name = login.trim().toLowerCase();
  const [row] = await db
    .select()
    .from(users)
    .where(name.includes('@') ? sql`lower(${users.email}) = ${name}` : sql`lower(${users.username}) = ${name}`)
    .limit(1);
  return row ?? null;
}

export async function findUserById(db: Db, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export type UserRow = NonNullable<Awaited<ReturnType<typeof findUserById>>>;
