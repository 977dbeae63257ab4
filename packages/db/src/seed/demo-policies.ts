// Demo expense policies: the simple rules of /policy-management (among them every category's
// per-request limit, which Category Management shows from here), one enhanced rule with
// conditions, and a version history for the Meals limit (it was 200, it is now 150).
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { categories, organizations, policyRules, policyRuleVersions, users, vendors } from '../schema/index.ts';

type RuleInsert = typeof policyRules.$inferInsert;

/** Per-request limits of the other categories, in the request organization's currency (Meals has its own rule below). */
const CATEGORY_LIMITS: [code: string, name: string, limit: string][] = [
  ['TRV', 'Travel', '5000.00'],
  ['SFT', 'Software', '20000.00'],
  ['HRD', 'Hardware', '15000.00'],
  ['OFS', 'Office Supplies', '1000.00'],
  ['TRN', 'Training', '8000.00'],
  ['MKT', 'Marketing', '25000.00'],
  ['LOG', 'Logistics', '50000.00'],
  ['PRO', 'Professional Services', '40000.00'],
];

/** The vendor that policy (not its own status) blocks for Meridian Logistics. */
export const DEMO_POLICY_BLOCKED_VENDOR = 'Metro Fleet Leasing';

export async function seedDemoPolicies(tx: Db, now: Date): Promise<void> {
  const day = 86_400_000;
  const [adam] = await tx.select({ id: users.id }).from(users).where(eq(users.username, 'adam'));
  const [olivia] = await tx.select({ id: users.id }).from(users).where(eq(users.username, 'olivia'));
  const [logistics] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.code, 'ML'));
  const catRows = await tx
    .select({ id: categories.id, code: categories.code })
    .from(categories)
    .where(isNull(categories.organizationId));
  const cat = new Map(catRows.map((c) => [c.code, c.id]));
  const [blocked] = logistics
    ? await tx
        .select({ id: vendors.id })
        .from(vendors)
        .where(and(eq(vendors.organizationId, logistics.id), eq(vendors.name, DEMO_POLICY_BLOCKED_VENDOR)))
    : [];
  const author = adam?.id ?? null;
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * day);

  const rules: RuleInsert[] = [
    {
      name: 'Meals limit per request',
      description: 'A meal above 150 in the organization currency is flagged for the approver.',
      kind: 'category_limit_request',
      action: 'warn',
      priority: 10,
      params: { categoryId: cat.get('MEA') ?? null, limit: '150.00' },
    },
    {
      name: 'Receipt required above 75',
      description: 'Attach a receipt to any request above 75.',
      kind: 'receipt_required',
      action: 'warn',
      priority: 20,
      params: { above: '75.00' },
    },
    {
      name: 'Weekend spend',
      description: 'Expenses dated on a Saturday or Sunday are flagged.',
      kind: 'weekend_spend',
      action: 'warn',
      priority: 30,
      params: {},
    },
    {
      name: 'Possible duplicate within 7 days',
      description:
        'Same vendor and amount within 7 days with a similar description: explain why it is not a duplicate.',
      kind: 'duplicate',
      action: 'justify',
      priority: 40,
      params: { days: 7, similarity: 0.5 },
    },
    {
      name: 'Expenses older than 90 days',
      description: 'Expenses must be claimed within 90 days.',
      kind: 'max_age',
      action: 'block',
      priority: 5,
      params: { days: 90 },
    },
    {
      name: 'Large software purchases',
      description: 'Software above 5,000: explain the business need.',
      kind: 'custom',
      action: 'justify',
      priority: 50,
      params: {},
      conditions: {
        op: 'and',
        items: [
          { field: 'categoryId', operator: 'eq', value: cat.get('SFT') ?? '' },
          { field: 'amountOrg', operator: 'gt', value: '5000' },
        ],
      },
    },
  ];
  for (const [code, name, limit] of CATEGORY_LIMITS) {
    rules.push({
      name: `${name} limit per request`,
      description: `A ${name} request above ${limit} in the organization currency is flagged for the approver.`,
      kind: 'category_limit_request',
      action: 'warn',
      priority: 10,
      params: { categoryId: cat.get(code) ?? null, limit },
    });
  }
  if (logistics && blocked) {
    rules.push({
      organizationId: logistics.id,
      name: `${DEMO_POLICY_BLOCKED_VENDOR} blocked by policy`,
      description: 'Under review by procurement: no new spend with this vendor.',
      kind: 'blocked_vendor',
      action: 'block',
      priority: 1,
      params: { vendorIds: [blocked.id] },
    });
  }

  for (const [i, r] of rules.entries()) {
    const created = at(60 - i);
    const meals = r.name === 'Meals limit per request';
    const [row] = await tx
      .insert(policyRules)
      .values({
        ...r,
        version: meals ? 2 : 1,
        createdById: author,
        createdAt: created,
        updatedAt: meals ? at(30) : created,
      })
      .returning();
    const snapshot = (x: typeof row) => ({
      organizationId: x!.organizationId,
      name: x!.name,
      description: x!.description,
      kind: x!.kind,
      action: x!.action,
      priority: x!.priority,
      active: x!.active,
      effectiveFrom: x!.effectiveFrom,
      effectiveTo: x!.effectiveTo,
      params: x!.params,
      conditions: x!.conditions ?? null,
    });
    if (meals) {
      // Version 1 allowed 200; Olivia lowered it to 150 a month ago.
      await tx.insert(policyRuleVersions).values([
        {
          ruleId: row!.id,
          version: 1,
          snapshot: { ...snapshot(row), params: { ...row!.params, limit: '200.00' } },
          changedById: author,
          createdAt: created,
        },
        { ruleId: row!.id, version: 2, snapshot: snapshot(row), changedById: olivia?.id ?? author, createdAt: at(30) },
      ]);
    } else {
      await tx
        .insert(policyRuleVersions)
        .values({ ruleId: row!.id, version: 1, snapshot: snapshot(row), changedById: author, createdAt: created });
    }
  }
}
