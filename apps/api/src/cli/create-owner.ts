import { parseArgs } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import {
  DEFAULT_SECURITY_POLICY,
  PRODUCTION_TWO_FACTOR_ROLES,
  SECURITY_POLICY_KEY,
  TEMP_PASSWORD_TTL_HOURS,
} from '@outlay/contracts';
import { createDb, migrate, organizations, settings, users } from '@outlay/db';
import { writeAudit } from '../lib/audit.ts';
import { issueTemporaryPassword } from '../lib/passwords.ts';
import { loadConfig } from '../config.ts';
import path from 'node:path';
import { acquireDataDirLock } from '@outlay/db';

const USAGE =
  'Usage: npm run create-owner -- --username NAME --email EMAIL --first-name FIRST --last-name LAST [--organization "Group name"] [--currency USD]';

/** Creates the first owner of a production database and prints a one-time temporary password. */
async function main() {
  const { values } = parseArgs({
    options: {
      username: { type: 'string' },
      email: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      organization: { type: 'string' },
      currency: { type: 'string' },
    },
  });
  const username = values.username?.trim().toLowerCase();
  const email = values.email?.trim().toLowerCase();
  const firstName = values['first-name']?.trim();
  const lastName = values['last-name']?.trim();
  if (!username || !email || !firstName || !lastName || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = loadConfig();
  const release = config.databaseUrl ? undefined : acquireDataDirLock(config.dataDir);
  const handle = await createDb(
    config.databaseUrl ? { url: config.databaseUrl } : { dataDir: path.join(config.dataDir, 'pglite') },
  );
  try {
    await migrate(handle);
    const now = new Date();
    const temp = await issueTemporaryPassword(now);
    await handle.db.transaction(async (tx) => {
      const clash = await tx
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.username}) = ${username} OR lower(${users.email}) = ${email}`);
      if (clash.length > 0) throw new Error(`A user with username ${username} or e-mail ${email} already exists`);
      let [group] = await tx.select().from(organizations).where(eq(organizations.kind, 'group')).limit(1);
      if (!group) {
        [group] = await tx
          .insert(organizations)
          .values({
            name: values.organization ?? 'Group',
            code: 'GROUP',
            kind: 'group',
            currency: (values.currency ?? 'USD').toUpperCase(),
          })
          .returning();
      }
      const [user] = await tx
        .insert(users)
        .values({
          username,
          email,
          firstName,
          lastName,
          role: 'owner',
          status: 'active',
          organizationId: group!.id,
          ...temp.fields,
        })
        .returning({ id: users.id });
      // Production default (docs/product.md §2.11): owner, admin and cfo must use two-factor; the demo starts without.
      await tx
        .insert(settings)
        .values({
          key: SECURITY_POLICY_KEY,
          value: { ...DEFAULT_SECURITY_POLICY, twoFactorRequiredRoles: PRODUCTION_TWO_FACTOR_ROLES },
        })
        .onConflictDoNothing();
      await writeAudit(
        tx,
        {
          actorId: null,
          action: 'user.created',
          entityType: 'user',
          entityId: user!.id,
          after: { username, email, role: 'owner' },
          metadata: { via: 'create-owner' },
        },
        now,
      );
    });
    console.log(`Owner ${username} created.`);
    console.log(`Temporary password (shown once, valid ${TEMP_PASSWORD_TTL_HOURS} hours): ${temp.password}`);
    console.log('Sign in with it to set a permanent password.');
  } finally {
    await handle.close();
    release?.();
  }
}

main().catch((error: Error) => {
  console.error(`create-owner failed: ${error.message}`);
  process.exit(1);
});
