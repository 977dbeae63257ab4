import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import {
  categories,
  fxRates,
  loginAttempts,
  organizations,
  registrationRequests,
  users,
  vendors,
} from '../schema/index.ts';

/** Everything the organization, people and access screens need beyond the accounts. */
export interface SeedTools {
  hashPassword: (plain: string) => Promise<string>;
  /** Seals a bank account number at rest (the server's key). */
  seal: (plain: string) => string;
  /**
   * Hash-links audit rows onto the chain after `prevHash` (null: empty chain), with the server's
   * own chain rule, so seeded history verifies like live events. Without it no audit rows are seeded.
   */
  linkAudit?: (prevHash: string | null, rows: SeedAuditRow[]) => (SeedAuditRow & { prevHash: string; hash: string })[];
}

export interface SeedAuditRow {
  occurredAt: Date;
  actorId: string | null;
  action: string;
  entityType: string;
  entityId: string | null;
  ip: string | null;
  userAgent: string | null;
  before: unknown;
  after: unknown;
  metadata: unknown;
}

// Their per-request limits are policy rules (demo-policies.ts).
const CATEGORIES = [
  ['Travel', 'TRV', '6100'],
  ['Meals', 'MEA', '6110'],
  ['Software', 'SFT', '6200'],
  ['Hardware', 'HRD', '1510'],
  ['Office Supplies', 'OFS', '6300'],
  ['Training', 'TRN', '6400'],
  ['Marketing', 'MKT', '6500'],
  ['Logistics', 'LOG', '6600'],
  ['Utilities', 'UTL', '6700'],
  ['Professional Services', 'PRO', '6800'],
  ['Payroll', 'PAY', '7000'],
] as const;

const VENDOR_NAMES: Record<string, string[]> = {
  MG: [
    'Atlas Legal LLP',
    'Northwind Consulting',
    'Skyline Travel Group',
    'Blue Harbor Insurance',
    'Crescent Audit Partners',
    'Vertex Cloud Services',
    'Summit Office Interiors',
  ],
  ML: [
    'Transcontinental Freight',
    'Harbor Fuel Supply',
    'RoadStar Tyres',
    'Pallet Pro Ltd',
    'Swift Customs Brokers',
    'Metro Fleet Leasing',
    'Dockside Security',
  ],
  ME: [
    'Rhein Turbinen GmbH',
    'Solaris Panels AG',
    'Nordwind Wartung',
    'Energie Consult',
    'Alpen Kabel',
    'Grid Analytics BV',
  ],
  MF: [
    'Fresh Fields Produce',
    'Albion Packaging',
    'Thames Cold Chain',
    'Cotswold Dairy Co',
    'Kitchen Equip UK',
    'Harvest Labs',
  ],
  MT: [
    'Desert Data Centers',
    'Gulf Devices Trading',
    'Falcon Software FZ',
    'Emirates Net Solutions',
    'Oasis Workspace',
    'Dune Cyber Security',
  ],
};

// Monthly averages against USD with a gentle drift, so translated figures move like real ones.
const FX_BASE = { EUR: 1.085, GBP: 1.265, AED: 0.2723 } as const;

function periodsBack(now: Date, months: number): string[] {
  const out: string[] = [];
  for (let i = months - 1; i >= 0; i--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    out.push(`${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`);
  }
  return out;
}

export async function seedDemoOrganizations(tx: Db, tools: SeedTools, now: Date): Promise<void> {
  const orgs = await tx.select().from(organizations);
  const orgByCode = new Map(orgs.map((o) => [o.code, o]));
  const addresses: Record<string, [string, string, string]> = {
    MG: ['200 Park Avenue, New York, NY 10166, USA', 'US', 'US-84-2210001'],
    ML: ['1 Harbor Way, Long Beach, CA 90802, USA', 'US', 'US-84-2210002'],
    ME: ['Friedrichstraße 100, 10117 Berlin, Germany', 'DE', 'DE811234567'],
    MF: ['10 Bishopsgate, London EC2N 4AY, United Kingdom', 'GB', 'GB123456789'],
    MT: ['Dubai Internet City, Building 5, Dubai, UAE', 'AE', 'AE100234567800003'],
  };
  for (const [code, [address, country, taxId]] of Object.entries(addresses)) {
    await tx
      .update(organizations)
      .set({
        address,
        country,
        taxId,
        fiscalYearStartMonth: code === 'MF' ? 4 : 1,
        settings: { approvalThreshold: '5000.00' },
      })
      .where(sql`${organizations.code} = ${code}`);
  }

  // Cost centers (heads and line managers are set with the accounts, in demo.ts).
  await tx.execute(sql`UPDATE departments SET cost_center = 'CC-' || code`);
  const accounts = await tx.select({ id: users.id, username: users.username }).from(users);
  const byName = new Map(accounts.map((u) => [u.username, u.id]));

  await tx.insert(categories).values(CATEGORIES.map(([name, code, glAccount]) => ({ name, code, glAccount })));

  let n = 0;
  const vendorRows = [];
  for (const [code, names] of Object.entries(VENDOR_NAMES)) {
    const org = orgByCode.get(code)!;
    for (const name of names) {
      n++;
      const account = `${code}${String(40_000_000 + n * 7919).padStart(12, '0')}`;
      vendorRows.push({
        organizationId: org.id,
        name,
        taxId: `${code}-TX-${String(1000 + n)}`,
        contactName: `Accounts team, ${name}`,
        email: `billing@${name.toLowerCase().replace(/[^a-z]+/g, '')}.example`,
        phone: `+1 555 01${String(n).padStart(2, '0')}`,
        address: `${10 + n} Commerce Street`,
        paymentTermsDays: [15, 30, 45, 60][n % 4]!,
        currency: org.currency,
        bankAccountEnc: tools.seal(account),
        bankAccountLast4: account.slice(-4),
        status:
          n % 11 === 0 ? ('blocked' as const) : n % 7 === 0 ? ('pending_verification' as const) : ('active' as const),
      });
    }
  }
  // Group companies that bill each other: intercompany vendors.
  const energy = orgByCode.get('ME')!;
  vendorRows.push({
    organizationId: orgByCode.get('ML')!.id,
    name: 'Meridian Energy (intercompany)',
    taxId: 'ME-IC-0001',
    contactName: 'Group treasury',
    email: 'treasury@meridianenergy.com',
    phone: null as unknown as string,
    address: 'Friedrichstraße 100, Berlin',
    paymentTermsDays: 30,
    currency: energy.currency,
    bankAccountEnc: tools.seal('DE89370400440532013000'),
    bankAccountLast4: '3000',
    status: 'active' as const,
    intercompanyOrganizationId: energy.id,
  } as (typeof vendorRows)[number]);
  await tx.insert(vendors).values(vendorRows);

  const rates: (typeof fxRates.$inferInsert)[] = [];
  for (const [currency, base] of Object.entries(FX_BASE)) {
    periodsBack(now, 18).forEach((period, i) => {
      const drift = 1 + Math.sin(i / 3) * 0.02 + i * 0.0008;
      const average = (base * drift).toFixed(6);
      const closing = (base * drift * 1.002).toFixed(6);
      rates.push({ base: currency, quote: 'USD', period, averageRate: average, closingRate: closing });
    });
  }
  await tx.insert(fxRates).values(rates);

  const pendingHash = await tools.hashPassword('Pending!2026x');
  await tx.insert(registrationRequests).values([
    {
      firstName: 'Omar',
      lastName: 'Haddad',
      email: 'omar.haddad@meridiantech.com',
      requestedRole: 'subsidiary_technical',
      message: 'New IT lead for the Dubai office.',
      passwordHash: pendingHash,
      createdAt: new Date(now.getTime() - 2 * 86_400_000),
    },
    {
      firstName: 'Sophie',
      lastName: 'Laurent',
      email: 'sophie.laurent@meridianenergy.com',
      requestedRole: 'accounts',
      message: 'Joining accounts payable in Berlin.',
      passwordHash: pendingHash,
      createdAt: new Date(now.getTime() - 86_400_000),
    },
    {
      firstName: 'Tom',
      lastName: 'Hughes',
      email: 'tom.hughes@meridianfoods.com',
      requestedRole: 'manager',
      message: null,
      passwordHash: pendingHash,
      createdAt: new Date(now.getTime() - 3_600_000),
    },
  ]);

  // A fortnight of sign-in history for /auth-security.
  const history: (typeof loginAttempts.$inferInsert)[] = [];
  const people = ['olivia', 'adam', 'carla', 'max', 'rita', 'dana', 'felix', 'grace', 'henry'];
  for (let day = 14; day >= 1; day--) {
    people.forEach((username, i) => {
      const at = new Date(now.getTime() - day * 86_400_000 + i * 3_600_000);
      history.push({
        username,
        userId: byName.get(username) ?? null,
        ip: `203.0.113.${10 + i}`,
        userAgent: 'Mozilla/5.0 (demo)',
        success: true,
        reason: 'ok',
        createdAt: at,
      });
      if ((day + i) % 9 === 0) {
        history.push({
          username,
          userId: byName.get(username) ?? null,
          ip: `198.51.100.${20 + i}`,
          userAgent: 'Mozilla/5.0 (demo)',
          success: false,
          reason: 'wrong_password',
          createdAt: new Date(at.getTime() - 60_000),
        });
      }
    });
  }
  await tx.insert(loginAttempts).values(history);
}
