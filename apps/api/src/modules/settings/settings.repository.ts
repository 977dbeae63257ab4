import { eq } from 'drizzle-orm';
import { settings, type Db } from '@outlay/db';

export async function getSetting<T>(db: Db, key: string): Promise<T | undefined> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value as T | undefined;
}

export async function initSetting(db: Db, key: string, value: unknown): Promise<void> {
  await db.insert(settings).values({ key, value }).onConflictDoNothing();
}

export async function authorizedDomains(db: Db): Promise<string[]> {
  return (await getSetting<string[]>(db, 'authorized_domains')) ?? [];
}
