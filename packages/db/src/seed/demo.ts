import { DEMO_AUTHORIZED_DOMAINS, TEMP_PASSWORD_TTL_HOURS, type Role } from '@outlay/contracts';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { departments, organizations, settings, users } from '../schema/index.ts';
import { seedDemoOrganizations, type SeedTools } from './demo-org.ts';
import { seedDemoBudgets } from './demo-budgets.ts';
import { seedDemoRequests } from './demo-requests.ts';
import { seedDemoPolicies } from './demo-policies.ts';
import { seedDemoPayroll } from './demo-payroll.ts';
import { seedDemoPayables } from './demo-payables.ts';
import { seedDemoFeatureSuggestions } from './demo-feature-suggestions.ts';
import { seedDemoCommunications } from './demo-communications.ts';

export type { SeedTools };

export const DEMO_PASSWORD = 'Meridian!2026';
export const DEMO_TEMP_PASSWORD = 'Welcome!2026';

const ORGS = [
  { code: 'MG', name: 'Meridian Group', kind: 'group', currency: 'USD', domain: 'meridiangroup.com' },
  { code: 'ML', name: 'Meridian Logistics', kind: 'subsidiary', currency: 'USD', domain: 'meridianlogistics.com' },
  { code: 'ME', name: 'Meridian Energy', kind: 'subsidiary', currency: 'EUR', domain: 'meridianenergy.com' },
  { code: 'MF', name: 'Meridian Foods', kind: 'subsidiary', currency: 'GBP', domain: 'meridianfoods.com' },
  { code: 'MT', name: 'Meridian Tech', kind: 'subsidiary', currency: 'AED', domain: 'meridiantech.com' },
] as const;

const DEPARTMENTS = [
  ['Finance', 'FIN'],
  ['Operations', 'OPS'],
  ['IT', 'IT'],
  ['Sales', 'SAL'],
  ['HR', 'HR'],
  ['Procurement', 'PRC'],
] as const;

interface DemoUser {
  username: string;
  firstName: string;
  lastName: string;
  role: Role;
  org: (typeof ORGS)[number]['code'];
  department?: (typeof DEPARTMENTS)[number][1];
  phoneNumber?: string;
  temporary?: boolean;
  /** Heads their department (departments.headUserId). */
  head?: boolean;
  /** Username of their line manager (users.managerId). */
  manager?: string;
}

/** The demo accounts: what the server prints on first start and the README's table lists. */
export const DEMO_USERS: readonly DemoUser[] = [
  {
    username: 'olivia',
    firstName: 'Olivia',
    lastName: 'Bennett',
    role: 'owner',
    org: 'MG',
    phoneNumber: '+1 212 555 0101',
  },
  { username: 'adam', firstName: 'Adam', lastName: 'Clarke', role: 'admin', org: 'MG', department: 'IT', head: true },
  { username: 'carla', firstName: 'Carla', lastName: 'Mendes', role: 'cfo', org: 'MG', department: 'FIN', head: true },
  { username: 'grace', firstName: 'Grace', lastName: 'Okafor', role: 'group_cfo', org: 'MG', department: 'FIN' },
  { username: 'henry', firstName: 'Henry', lastName: 'Walsh', role: 'group_ceo', org: 'MG' },
  {
    username: 'max',
    firstName: 'Max',
    lastName: 'Fischer',
    role: 'manager',
    org: 'ML',
    department: 'OPS',
    manager: 'dana',
  },
  {
    username: 'rita',
    firstName: 'Rita',
    lastName: 'Alvarez',
    role: 'requester',
    org: 'ML',
    department: 'OPS',
    manager: 'max',
  },
  {
    username: 'dana',
    firstName: 'Dana',
    lastName: 'Kim',
    role: 'department_head',
    org: 'ML',
    department: 'OPS',
    head: true,
  },
  {
    username: 'felix',
    firstName: 'Felix',
    lastName: 'Wagner',
    role: 'subsidiary_finance_manager',
    org: 'ML',
    department: 'FIN',
    head: true,
  },
  {
    username: 'nina',
    firstName: 'Nina',
    lastName: 'Petrova',
    role: 'requester',
    org: 'ME',
    department: 'SAL',
    temporary: true,
    manager: 'marie',
  },
];

/**
 * The people who raise and approve requests in the other subsidiaries, so every company has
 * history and queues. Same password as the demo accounts; not printed on start.
 */
export const DEMO_STAFF: readonly DemoUser[] = [
  // Meridian Energy: nina → marie → lukas in Sales; klara runs finance.
  {
    username: 'lukas',
    firstName: 'Lukas',
    lastName: 'Becker',
    role: 'department_head',
    org: 'ME',
    department: 'SAL',
    head: true,
  },
  {
    username: 'marie',
    firstName: 'Marie',
    lastName: 'Schulz',
    role: 'manager',
    org: 'ME',
    department: 'SAL',
    manager: 'lukas',
  },
  {
    username: 'paul',
    firstName: 'Paul',
    lastName: 'Schneider',
    role: 'requester',
    org: 'ME',
    department: 'SAL',
    manager: 'marie',
  },
  {
    username: 'klara',
    firstName: 'Klara',
    lastName: 'Vogel',
    role: 'subsidiary_finance_manager',
    org: 'ME',
    department: 'FIN',
    head: true,
  },
  // Meridian Foods: leo and chloe → hannah → james in Operations; priya runs finance.
  {
    username: 'james',
    firstName: 'James',
    lastName: 'Whitfield',
    role: 'department_head',
    org: 'MF',
    department: 'OPS',
    head: true,
  },
  {
    username: 'hannah',
    firstName: 'Hannah',
    lastName: 'Price',
    role: 'manager',
    org: 'MF',
    department: 'OPS',
    manager: 'james',
  },
  {
    username: 'leo',
    firstName: 'Leo',
    lastName: 'Turner',
    role: 'requester',
    org: 'MF',
    department: 'OPS',
    manager: 'hannah',
  },
  {
    username: 'chloe',
    firstName: 'Chloe',
    lastName: 'Evans',
    role: 'requester',
    org: 'MF',
    department: 'OPS',
    manager: 'hannah',
  },
  {
    username: 'priya',
    firstName: 'Priya',
    lastName: 'Shah',
    role: 'subsidiary_finance_manager',
    org: 'MF',
    department: 'FIN',
    head: true,
  },
  // Meridian Tech: yusuf → layla → khalid in IT; ravi is the technical lead, aisha runs finance.
  {
    username: 'khalid',
    firstName: 'Khalid',
    lastName: 'Mansour',
    role: 'department_head',
    org: 'MT',
    department: 'IT',
    head: true,
  },
  {
    username: 'layla',
    firstName: 'Layla',
    lastName: 'Nasser',
    role: 'manager',
    org: 'MT',
    department: 'IT',
    manager: 'khalid',
  },
  {
    username: 'yusuf',
    firstName: 'Yusuf',
    lastName: 'Rahman',
    role: 'requester',
    org: 'MT',
    department: 'IT',
    manager: 'layla',
  },
  {
    username: 'ravi',
    firstName: 'Ravi',
    lastName: 'Menon',
    role: 'subsidiary_technical',
    org: 'MT',
    department: 'IT',
    manager: 'khalid',
  },
  {
    username: 'aisha',
    firstName: 'Aisha',
    lastName: 'Karim',
    role: 'subsidiary_finance_manager',
    org: 'MT',
    department: 'FIN',
    head: true,
  },
];

/** True when the database has no users yet: the demo world is seeded on first start only. */
export async function isEmpty(db: Db): Promise<boolean> {
  const rows = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return (rows[0]?.n ?? 0) === 0;
}

/**
 * Seeds Meridian Group (docs/product.md §1.2). Hashing and sealing come from the caller so the data
 * package does not depend on the server's crypto choices.
 */
export async function seedDemo(db: Db, tools: SeedTools, now = new Date()): Promise<void> {
  const [demoHash, tempHash] = await Promise.all([
    tools.hashPassword(DEMO_PASSWORD),
    tools.hashPassword(DEMO_TEMP_PASSWORD),
  ]);
  await db.transaction(async (tx) => {
    const group = ORGS[0];
    const [groupRow] = await tx
      .insert(organizations)
      .values({ code: group.code, name: group.name, kind: group.kind, currency: group.currency })
      .returning({ id: organizations.id });
    const orgIds = new Map<string, string>([[group.code, groupRow!.id]]);
    for (const org of ORGS.slice(1)) {
      const [row] = await tx
        .insert(organizations)
        .values({ code: org.code, name: org.name, kind: org.kind, currency: org.currency, parentId: groupRow!.id })
        .returning({ id: organizations.id });
      orgIds.set(org.code, row!.id);
    }
    const deptIds = new Map<string, string>();
    for (const [orgCode, orgId] of orgIds) {
      const rows = await tx
        .insert(departments)
        .values(DEPARTMENTS.map(([name, code]) => ({ organizationId: orgId, name, code: `${orgCode}-${code}` })))
        .returning({ id: departments.id, code: departments.code });
      for (const row of rows) deptIds.set(row.code, row.id);
    }
    const domainOf = new Map<string, string>(ORGS.map((o) => [o.code, o.domain]));
    const people = [...DEMO_USERS, ...DEMO_STAFF];
    const inserted = await tx
      .insert(users)
      .values(
        people.map((u) => ({
          username: u.username,
          email: `${u.username}@${domainOf.get(u.org)}`,
          firstName: u.firstName,
          lastName: u.lastName,
          phoneNumber: u.phoneNumber ?? null,
          role: u.role,
          status: 'active' as const,
          organizationId: orgIds.get(u.org)!,
          departmentId: u.department ? deptIds.get(`${u.org}-${u.department}`)! : null,
          passwordHash: u.temporary ? tempHash : demoHash,
          requirePasswordChange: Boolean(u.temporary),
          hasChangedPassword: !u.temporary,
          tempPasswordExpiresAt: u.temporary ? new Date(now.getTime() + TEMP_PASSWORD_TTL_HOURS * 3_600_000) : null,
          passwordChangedAt: u.temporary ? null : now,
        })),
      )
      .returning({ id: users.id, username: users.username });
    // Department heads and line managers (rita → max → dana; nina → marie → lukas; ...).
    const userIds = new Map(inserted.map((r) => [r.username, r.id]));
    for (const u of people) {
      if (u.head && u.department) {
        await tx
          .update(departments)
          .set({ headUserId: userIds.get(u.username)! })
          .where(eq(departments.id, deptIds.get(`${u.org}-${u.department}`)!));
      }
      if (u.manager)
        await tx
          .update(users)
          .set({ managerId: userIds.get(u.manager)! })
          .where(eq(users.id, userIds.get(u.username)!));
    }
    await tx
      .insert(settings)
      .values({ key: 'authorized_domains', value: [...DEMO_AUTHORIZED_DOMAINS] })
      .onConflictDoNothing();
    await seedDemoOrganizations(tx, tools, now);
    await seedDemoRequests(tx, now, tools);
    await seedDemoPayables(tx, now);
    await seedDemoBudgets(tx, now);
    await seedDemoPolicies(tx, now);
    await seedDemoPayroll(tx, tools, now);
    await seedDemoFeatureSuggestions(tx, now);
    await seedDemoCommunications(tx, now);
  });
}
