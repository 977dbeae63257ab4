import { ESCALATION_LADDER, type RelativeRole } from '@outlay/contracts';
import { serverFormat } from '@outlay/contracts/format';
import { fromMinorUnits } from '@outlay/contracts/money';
import { getTableColumns, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { waitingStep } from '../approval-steps.ts';
import type { Db } from '../client.ts';
import type { SeedTools } from './demo-org.ts';
import {
  approvalAssignments,
  approvalDecisions,
  approvalSteps,
  auditEvents,
  autoApprovalRules,
  categories,
  departments,
  fxRates,
  notifications,
  organizations,
  requestAllocations,
  requestComments,
  requestEvents,
  requestLineItems,
  spendingRequests,
  users,
  vendors,
  workflowSteps,
  workflows,
  type WorkflowConditions,
} from '../schema/index.ts';

/**
 * Thirteen months of spending requests in every status, with the workflows, route steps,
 * assignments, decisions, timeline and notifications the approval engine would have written
 * (docs/decisions/006). Deterministic: a seeded LCG, no
 * Math.random, ids derived from it too, so two runs give the same data. Money is exact
 * (BigInt cents, rates scaled by 1e8). No audit rows: the audit chain belongs to the API.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CHUNK = 500;

// ---------------------------------------------------------------- randomness

class Lcg {
  private state: bigint;
  constructor(seed: bigint) {
    this.state = seed;
  }
  /** 0 ≤ x < 1 (48-bit LCG, the constants of drand48). */
  next(): number {
    this.state = (this.state * 0x5deece66dn + 0xbn) & 0xffffffffffffn;
    return Number(this.state) / 2 ** 48;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  weighted<T extends string>(weights: Partial<Record<T, number>>): T {
    const entries = Object.entries(weights) as [T, number][];
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let x = this.next() * total;
    for (const [k, w] of entries) {
      x -= w;
      if (x < 0) return k;
    }
    return entries[entries.length - 1]![0];
  }
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => Math.floor(this.next() * 16).toString(16));
    hex[12] = '4';
    hex[16] = '89ab'[Math.floor(this.next() * 4)]!;
    const s = hex.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}

// ---------------------------------------------------------------- exact money

const SCALE = 100_000_000n;

/** "1.085" → 108500000n (1e8 scale). */
function scaled(rate: string): bigint {
  const [int, frac = ''] = rate.trim().split('.');
  return BigInt(int!) * SCALE + BigInt(frac.padEnd(8, '0').slice(0, 8) || '0');
}

/** Half-up division of non-negative integers. */
function divRound(a: bigint, b: bigint): bigint {
  return (2n * a + b) / (2n * b);
}

function formatRate(v: bigint): string {
  return `${v / SCALE}.${String(v % SCALE).padStart(8, '0')}`;
}

function formatMoney(cents: bigint): string {
  return fromMinorUnits(cents);
}

/** Money in the seeded texts (route reasons, workflow descriptions) as the server writes it: "€10,000.00". */
function money(amount: bigint | string, currency: string): string {
  return serverFormat.money(typeof amount === 'bigint' ? fromMinorUnits(amount) : amount, currency);
}

// ---------------------------------------------------------------- reference data

type Money = bigint;

interface UserRow {
  id: string;
  username: string;
  name: string;
  role: string;
  organizationId: string | null;
  departmentId: string | null;
  managerId: string | null;
  status: string;
}

interface DeptRow {
  id: string;
  organizationId: string;
  name: string;
  code: string;
  headUserId: string | null;
}

interface OrgRow {
  id: string;
  code: string;
  name: string;
  currency: string;
}

interface StepDef {
  position: number;
  name: string;
  approverKind: 'relative_role' | 'user';
  approverRole: RelativeRole | null;
  approverUserId: string | null;
  mode: 'any' | 'all';
  slaHours: number;
  fallbackUserId: string | null;
  balance: boolean;
}

interface WorkflowDef {
  id: string;
  organizationId: string;
  name: string;
  description: string;
  priority: number;
  conditions: WorkflowConditions;
  steps: StepDef[];
}

// Category code → [min, max] in the organization's currency units (under each category's per-request
// limit, but for Meals, where some dinners pass the 150 the policy warns above).
const AMOUNTS: Record<string, [number, number]> = {
  TRV: [180, 4800],
  MEA: [18, 240],
  SFT: [250, 19_500],
  HRD: [300, 14_500],
  OFS: [20, 950],
  TRN: [250, 7800],
  MKT: [600, 24_000],
  LOG: [1200, 48_000],
  UTL: [250, 6500],
  PRO: [1800, 39_000],
};

const TITLES: Record<string, string[]> = {
  TRV: [
    'Flights to the Rotterdam hub review',
    'Hotel for the quarterly planning offsite',
    'Client visit travel, Chicago',
    'Train tickets for the supplier audit',
    'Conference travel and accommodation',
    'Site visit travel, regional depots',
  ],
  MEA: [
    'Team lunch after the quarter close',
    'Client dinner',
    'Working lunch with the carrier',
    'Catering for the onboarding day',
    'Meals during the site audit',
  ],
  SFT: [
    'Annual route-planning software licence',
    'Analytics seats renewal',
    'Design tool licences',
    'Password manager for the team',
    'Fleet telematics subscription',
    'Cloud backup storage upgrade',
  ],
  HRD: [
    'Replacement laptops for new joiners',
    'Warehouse barcode scanners',
    'Docking stations and monitors',
    'Network switch for the depot',
    'Rugged tablets for drivers',
  ],
  OFS: [
    'Printer paper and toner',
    'Stationery restock',
    'Whiteboard markers and flipcharts',
    'Desk organisers and labels',
    'Coffee supplies for the office',
  ],
  TRN: [
    'Forklift safety certification',
    'Excel modelling course',
    'Leadership workshop',
    'First-aid training for the shift leads',
    'Negotiation skills course',
  ],
  MKT: [
    'Trade fair booth',
    'Spring campaign creative',
    'Customer newsletter design',
    'Sponsored industry webinar',
    'Product brochures print run',
  ],
  LOG: [
    'Spot freight, Long Beach to Dallas',
    'Customs brokerage for the Q3 imports',
    'Pallet rental top-up',
    'Cold-chain transport for the pilot',
    'Extra trailer capacity for peak season',
    'Fuel cards top-up',
  ],
  UTL: ['Depot electricity, extra meter', 'Water and waste services', 'Backup internet line', 'Generator servicing'],
  PRO: [
    'Audit support fees',
    'Legal review of the carrier contract',
    'Tax advisory for the new entity',
    'Consulting on the network redesign',
    'Recruitment agency fee',
  ],
};

const DEPT_CATEGORIES: Record<string, string[]> = {
  OPS: ['LOG', 'LOG', 'TRV', 'OFS', 'OFS', 'HRD', 'UTL', 'MEA', 'TRN', 'SFT'],
  FIN: ['PRO', 'SFT', 'TRN', 'OFS', 'TRV', 'MEA'],
  SAL: ['TRV', 'TRV', 'MEA', 'MEA', 'MKT', 'MKT', 'TRN', 'OFS'],
  IT: ['SFT', 'SFT', 'HRD', 'HRD', 'PRO', 'TRN'],
};

const REJECTIONS = [
  'Not in this quarter’s plan; resubmit in the next one',
  'Please use the framework supplier instead',
  'Duplicate of an earlier request',
  'The budget line is exhausted',
  'Not enough justification for the amount',
];
const QUESTIONS = [
  'Can you attach the supplier quote?',
  'Which cost center should carry this?',
  'Is there a cheaper option from the framework vendors?',
  'Please add the delivery date and the business reason.',
];
const COMMENTS = [
  'Quote from the vendor is in the shared folder.',
  'This replaces the item we discussed last week.',
  'Needed before the month-end close.',
  'Confirmed the price with procurement.',
  'Split with Sales as agreed.',
];
const CANCEL_NOTES = ['No longer needed', 'Raised in error', 'Covered by another request'];

// ---------------------------------------------------------------- the seed

export async function seedDemoRequests(tx: Db, now: Date, tools: Pick<SeedTools, 'linkAudit'> = {}): Promise<void> {
  const rnd = new Lcg(20_260_501n);
  const nowMs = now.getTime();

  const orgs: OrgRow[] = await tx
    .select({
      id: organizations.id,
      code: organizations.code,
      name: organizations.name,
      currency: organizations.currency,
    })
    .from(organizations);
  const orgById = new Map(orgs.map((o) => [o.id, o]));
  const orgByCode = new Map(orgs.map((o) => [o.code, o]));
  const groupCurrency = orgs.find((o) => o.code === 'MG')?.currency ?? 'USD';
  const userRows = await tx
    .select({
      id: users.id,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
      organizationId: users.organizationId,
      departmentId: users.departmentId,
      managerId: users.managerId,
      status: users.status,
    })
    .from(users);
  const people: UserRow[] = userRows.map((u) => ({ ...u, name: `${u.firstName} ${u.lastName}` }));
  const byUsername = new Map(people.map((u) => [u.username, u]));
  const byId = new Map(people.map((u) => [u.id, u]));
  const u = (username: string) => byUsername.get(username);
  const depts: DeptRow[] = await tx
    .select({
      id: departments.id,
      organizationId: departments.organizationId,
      name: departments.name,
      code: departments.code,
      headUserId: departments.headUserId,
    })
    .from(departments);
  const deptById = new Map(depts.map((d) => [d.id, d]));
  const deptsOfOrg = (orgId: string) => depts.filter((d) => d.organizationId === orgId);
  const cats = await tx.select({ id: categories.id, code: categories.code, name: categories.name }).from(categories);
  const catByCode = new Map(cats.map((c) => [c.code, c]));
  const catById = new Map(cats.map((c) => [c.id, c]));
  const vendorRows = await tx
    .select({
      id: vendors.id,
      organizationId: vendors.organizationId,
      status: vendors.status,
      currency: vendors.currency,
    })
    .from(vendors);
  const activeVendors = (orgId: string) =>
    vendorRows.filter((v) => v.organizationId === orgId && v.status === 'active');
  const rates = await tx
    .select({ base: fxRates.base, quote: fxRates.quote, period: fxRates.period, rate: fxRates.averageRate })
    .from(fxRates);

  // 1 unit of currency in USD for the newest period not after `period` (as lib/fx.ts does).
  const usdRate = (currency: string, period: string): bigint => {
    if (currency === 'USD') return SCALE;
    const rows = rates
      .filter((r) => r.base === currency && r.quote === 'USD')
      .sort((a, b) => (a.period < b.period ? 1 : -1));
    const row = rows.find((r) => r.period <= period) ?? rows[rows.length - 1];
    if (!row) throw new Error(`Demo seed: no FX rate for ${currency}`);
    return scaled(row.rate);
  };
  const convert = (cents: Money, from: string, to: string, at: Date): { rate: string; cents: Money } => {
    if (from === to) return { rate: '1.00000000', cents };
    const period = at.toISOString().slice(0, 7);
    const n = usdRate(from, period);
    const d = usdRate(to, period);
    return { rate: formatRate(divRound(n * SCALE, d)), cents: divRound(cents * n, d) };
  };

  // ------------------------------------------------------------ workflows
  const carla = u('carla')?.id ?? null;
  const grace = u('grace')?.id ?? null;
  const dana = u('dana')?.id ?? null;
  const adam = u('adam')?.id ?? null;
  const olivia = u('olivia')?.id ?? null;
  const step = (
    position: number,
    name: string,
    role: RelativeRole,
    slaHours: number,
    fallbackUserId: string | null = null,
  ): StepDef => ({
    position,
    name,
    approverKind: 'relative_role',
    approverRole: role,
    approverUserId: null,
    mode: 'any',
    slaHours,
    fallbackUserId,
    balance: false,
  });
  const highValueMin: Record<string, string> = {
    MG: '10000.00',
    ML: '10000.00',
    ME: '10000.00',
    MF: '8000.00',
    MT: '40000.00',
  };
  const defs: WorkflowDef[] = [];
  for (const org of orgs) {
    const min = highValueMin[org.code] ?? '10000.00';
    if (org.code === 'ML') {
      const line = step(1, 'Line manager', 'manager', 24, dana);
      const head = step(2, 'Department head', 'department_head', 48, carla);
      defs.push(
        {
          id: rnd.uuid(),
          organizationId: org.id,
          name: 'High value',
          description: `Requests of ${money(min, org.currency)} or more also go to finance and the group CFO.`,
          priority: 10,
          conditions: { minAmount: min },
          steps: [
            line,
            head,
            step(3, 'Finance review', 'subsidiary_finance_manager', 48, carla),
            step(4, 'Group CFO', 'group_cfo', 72, carla),
          ],
        },
        {
          id: rnd.uuid(),
          organizationId: org.id,
          name: 'IT purchases',
          description: 'Software and hardware: the line manager, then the technical lead.',
          priority: 50,
          conditions: { categoryIds: [catByCode.get('SFT')!.id, catByCode.get('HRD')!.id] },
          steps: [line, step(2, 'Technical review', 'subsidiary_technical', 48, adam)],
        },
        {
          id: rnd.uuid(),
          organizationId: org.id,
          name: 'Standard approval',
          description: 'Every other request: the line manager, then the head of the department.',
          priority: 100,
          conditions: {},
          steps: [line, head],
        },
      );
    } else if (org.code === 'MG') {
      const head = step(1, 'Department head', 'department_head', 48, grace);
      const cfo = step(2, 'CFO sign-off', 'cfo', 48, olivia);
      defs.push(
        {
          id: rnd.uuid(),
          organizationId: org.id,
          name: 'High value',
          description: `Group requests of ${money(min, org.currency)} or more also go to the group CEO.`,
          priority: 10,
          conditions: { minAmount: min },
          steps: [head, cfo, step(3, 'Group CEO', 'group_ceo', 72, olivia)],
        },
        {
          id: rnd.uuid(),
          organizationId: org.id,
          name: 'Standard approval',
          description: 'The head of the department, then the CFO.',
          priority: 100,
          conditions: {},
          steps: [head, cfo],
        },
      );
    } else {
      const head = step(1, 'Department approval', 'department_head', 48, grace);
      const finance = step(2, 'Finance approval', 'subsidiary_finance_manager', 48, carla);
      defs.push(
        {
          id: rnd.uuid(),
          organizationId: org.id,
          name: 'High value',
          description: `Requests of ${money(min, org.currency)} or more also go to the group CFO.`,
          priority: 10,
          conditions: { minAmount: min },
          steps: [head, finance, step(3, 'Group CFO', 'group_cfo', 72, carla)],
        },
        {
          id: rnd.uuid(),
          organizationId: org.id,
          name: 'Standard approval',
          description: 'The head of the department, then the finance manager.',
          priority: 100,
          conditions: {},
          steps: [head, finance],
        },
      );
    }
  }
  const wfCreatedAt = new Date(nowMs - 400 * DAY);
  await tx.insert(workflows).values(
    defs.map((w) => ({
      id: w.id,
      organizationId: w.organizationId,
      name: w.name,
      description: w.description,
      priority: w.priority,
      conditions: w.conditions,
      createdById: adam,
      createdAt: wfCreatedAt,
      updatedAt: wfCreatedAt,
    })),
  );
  await tx.insert(workflowSteps).values(
    defs.flatMap((w) =>
      w.steps.map((s) => ({
        workflowId: w.id,
        position: s.position,
        name: s.name,
        approverKind: s.approverKind,
        approverRole: s.approverRole,
        approverUserId: s.approverUserId,
        mode: s.mode,
        slaHours: s.slaHours,
        fallbackUserId: s.fallbackUserId,
        balance: s.balance,
      })),
    ),
  );
  const ml = orgByCode.get('ML');
  const autoRule = ml
    ? {
        id: rnd.uuid(),
        organizationId: ml.id,
        name: 'Small office supplies',
        maxAmount: '100.00',
        categoryIds: [catByCode.get('OFS')!.id],
        requireWithinBudget: true,
        requireNoFindings: true,
      }
    : null;
  if (autoRule)
    await tx.insert(autoApprovalRules).values({ ...autoRule, createdAt: wfCreatedAt, updatedAt: wfCreatedAt });

  // ------------------------------------------------------------ the engine's rules, replayed
  const active = (x: UserRow | undefined): x is UserRow => Boolean(x && x.status === 'active');
  const withRole = (role: string, filter: (x: UserRow) => boolean) =>
    people.filter((x) => x.role === role && x.status === 'active' && filter(x));

  interface Candidate {
    userId: string;
    why: string;
  }
  const candidatesFor = (role: string, req: { requester: UserRow; org: OrgRow; dept: DeptRow | null }): Candidate[] => {
    const dept = req.dept;
    if (role === 'manager') {
      const mgr = req.requester.managerId ? byId.get(req.requester.managerId) : undefined;
      if (active(mgr)) return [{ userId: mgr.id, why: 'the requester’s manager' }];
      return withRole('manager', (x) => Boolean(dept) && x.departmentId === dept!.id).map((x) => ({
        userId: x.id,
        why: `manager in ${dept!.name}`,
      }));
    }
    if (role === 'department_head') {
      const head = dept?.headUserId ? byId.get(dept.headUserId) : undefined;
      if (active(head)) return [{ userId: head.id, why: `head of ${dept!.name}` }];
      return withRole('department_head', (x) => Boolean(dept) && x.departmentId === dept!.id).map((x) => ({
        userId: x.id,
        why: `department head in ${dept!.name}`,
      }));
    }
    if (role.startsWith('subsidiary_') || role === 'accounts') {
      return withRole(role, (x) => x.organizationId === req.org.id).map((x) => ({
        userId: x.id,
        why: `${role.replace('subsidiary_', '').replace('_', ' ')} of ${req.org.name}`,
      }));
    }
    return withRole(role, () => true).map((x) => ({ userId: x.id, why: role.replace(/_/g, ' ') }));
  };

  interface Resolved {
    userId: string;
    reason: 'workflow' | 'fallback';
    why: string;
  }
  const resolve = (s: StepDef, req: { requester: UserRow; org: OrgRow; dept: DeptRow | null }): Resolved[] => {
    const notRequester = (c: Candidate) => c.userId !== req.requester.id;
    let found: Candidate[] = [];
    if (s.approverKind === 'user' && s.approverUserId)
      found = [{ userId: s.approverUserId, why: 'named approver' }].filter(notRequester);
    else if (s.approverRole) found = candidatesFor(s.approverRole, req).filter(notRequester);
    if (found.length > 0) {
      const seen = new Set<string>();
      return found
        .filter((c) => !seen.has(c.userId) && seen.add(c.userId))
        .map((c) => ({ userId: c.userId, reason: 'workflow', why: c.why }));
    }
    if (s.fallbackUserId && s.fallbackUserId !== req.requester.id && active(byId.get(s.fallbackUserId))) {
      return [{ userId: s.fallbackUserId, reason: 'fallback', why: 'the step’s fallback: nobody holds the role' }];
    }
    const ladder = s.approverRole
      ? ESCALATION_LADDER.slice(ESCALATION_LADDER.indexOf(s.approverRole as RelativeRole) + 1)
      : [];
    for (const role of [...ladder, 'cfo', 'owner']) {
      const next = candidatesFor(role, req).filter(notRequester);
      if (next.length > 0)
        return [{ userId: next[0]!.userId, reason: 'fallback', why: `escalation ladder (${role.replace(/_/g, ' ')})` }];
    }
    return [];
  };
  /** Who the escalation job adds when the step is overdue (fallback, else the ladder above, else cfo). */
  const escalationTarget = (
    s: StepDef,
    req: { requester: UserRow; org: OrgRow; dept: DeptRow | null },
    taken: Set<string>,
  ): string | null => {
    const ok = (id: string | null | undefined) =>
      Boolean(id) && id !== req.requester.id && !taken.has(id!) && active(byId.get(id!));
    if (ok(s.fallbackUserId)) return s.fallbackUserId;
    const idx = s.approverRole ? ESCALATION_LADDER.indexOf(s.approverRole as RelativeRole) : -1;
    const next = idx >= 0 ? ESCALATION_LADDER[idx + 1] : undefined;
    for (const role of [...(next ? [next] : []), 'cfo']) {
      const c = candidatesFor(role, req).find((x) => ok(x.userId));
      if (c) return c.userId;
    }
    return null;
  };

  const chooseWorkflow = (
    orgId: string,
    amountOrg: Money,
    categoryId: string,
    departmentId: string | null,
    role: string,
  ) => {
    const list = defs.filter((w) => w.organizationId === orgId).sort((a, b) => a.priority - b.priority);
    for (const w of list) {
      const c = w.conditions;
      if (c.minAmount && amountOrg < BigInt(c.minAmount.replace('.', ''))) continue;
      if (c.maxAmount && amountOrg > BigInt(c.maxAmount.replace('.', ''))) continue;
      if (c.categoryIds?.length && !c.categoryIds.includes(categoryId)) continue;
      if (c.departmentIds?.length && (!departmentId || !c.departmentIds.includes(departmentId))) continue;
      if (c.requesterRoles?.length && !c.requesterRoles.includes(role)) continue;
      return w;
    }
    return null;
  };
  const builtIn: WorkflowDef = {
    id: '',
    organizationId: '',
    name: 'Finance approval',
    description: '',
    priority: 0,
    conditions: {},
    steps: [step(1, 'Finance approval', 'subsidiary_finance_manager', 48)],
  };

  // ------------------------------------------------------------ rows
  const reqRows: (typeof spendingRequests.$inferInsert)[] = [];
  const itemRows: (typeof requestLineItems.$inferInsert)[] = [];
  const allocRows: (typeof requestAllocations.$inferInsert)[] = [];
  const commentRows: (typeof requestComments.$inferInsert)[] = [];
  const eventRows: (typeof requestEvents.$inferInsert)[] = [];
  const stepRows: (typeof approvalSteps.$inferInsert)[] = [];
  const assignRows: (typeof approvalAssignments.$inferInsert)[] = [];
  const decisionRows: (typeof approvalDecisions.$inferInsert)[] = [];
  const noteRows: (typeof notifications.$inferInsert)[] = [];

  // How long each person usually takes to decide, hours (cycle-time charts differ per approver).
  const PACE: Record<string, number> = {
    max: 0.12,
    dana: 0.3,
    felix: 0.38,
    grace: 0.42,
    carla: 0.2,
    adam: 0.15,
    henry: 0.44,
    olivia: 0.35,
    lukas: 0.22,
    klara: 0.4,
    james: 0.18,
    priya: 0.33,
    khalid: 0.26,
    aisha: 0.36,
  };
  const decideHours = (approverId: string, sla: number) => {
    const pace = PACE[byId.get(approverId)?.username ?? ''] ?? 0.3;
    // Always inside half the SLA, so history needs no reminders or escalations.
    return Math.max(0.2, sla * Math.min(0.45, pace * (0.3 + rnd.next() * 0.9)));
  };
  const notifyLink = (id: string) => `/requests?id=${id}`;
  const recent = (t: number) => nowMs - t < 45 * DAY;
  const addNote = (
    userId: string,
    type: string,
    title: string,
    body: string,
    link: string,
    requestId: string,
    at: number,
  ) => {
    if (!recent(at)) return;
    noteRows.push({
      userId,
      type,
      title,
      body,
      link,
      entityType: 'spending_request',
      entityId: requestId,
      createdAt: new Date(at),
      readAt: nowMs - at > 3 * DAY ? new Date(at + 2 * HOUR) : null,
    });
  };

  type Status = 'draft' | 'pending' | 'info_requested' | 'approved' | 'rejected' | 'cancelled' | 'paid';
  interface Plan {
    requester: UserRow;
    createdAt: number;
    status: Status;
    /** Pending / info_requested / rejected / cancelled-after-submission: the step where it stands. */
    atStep?: number;
    category?: string;
    /** Amount in organization currency units (approximate target). */
    amount?: number;
    cancelFromDraft?: boolean;
    title?: string;
  }

  let paymentNo = 0;
  const build = (plan: Plan) => {
    const requester = plan.requester;
    const org = orgById.get(requester.organizationId!)!;
    const dept = requester.departmentId ? (deptById.get(requester.departmentId) ?? null) : null;
    const deptCode = dept ? dept.code.split('-')[1]! : 'FIN';
    const catCode = plan.category ?? rnd.pick(DEPT_CATEGORIES[deptCode] ?? DEPT_CATEGORIES.FIN!);
    const cat = catByCode.get(catCode)!;
    const [lo, hi] = AMOUNTS[catCode] ?? [100, 2000];
    // Skewed towards the low end, like real spending; whole units for the larger ones.
    let units = plan.amount ?? lo + (hi - lo) * rnd.next() ** 2.2;
    if (org.currency === 'AED' && plan.amount === undefined) units *= 3.67;
    let cents = BigInt(Math.round(units * 100));
    if (cents > 50_000n) cents = (cents / 100n) * 100n;
    // Some in a foreign currency (amount picked near the same value; conversion below is exact).
    let currency = org.currency;
    if (!plan.amount && catCode !== 'OFS' && rnd.chance(0.12)) {
      currency = rnd.pick(['USD', 'EUR', 'GBP', 'AED'].filter((c) => c !== org.currency));
      const approx = Number(usdRate(org.currency, '9999-12')) / Number(usdRate(currency, '9999-12'));
      cents = BigInt(Math.max(1000, Math.round((Number(cents) * approx) / 100) * 100));
    }
    const id = rnd.uuid();
    const vendorList = activeVendors(org.id);
    const kind =
      catCode === 'MEA' || (catCode === 'TRV' && rnd.chance(0.7))
        ? 'reimbursement'
        : catCode === 'TRV' && rnd.chance(0.3)
          ? 'advance'
          : 'purchase';
    const vendorId = kind === 'reimbursement' || vendorList.length === 0 ? null : rnd.pick(vendorList).id;
    const title = plan.title ?? rnd.pick(TITLES[catCode] ?? ['Purchase']);
    const createdAt = plan.createdAt;

    // Line items on about one request in six (the amount is their total), allocations on one in ten.
    const items: { id: string; description: string; amount: Money; tax: Money }[] = [];
    if (cents >= 20_000n && rnd.chance(0.18)) {
      const n = rnd.int(2, 4);
      let left = cents;
      for (let i = 0; i < n; i++) {
        const total = i === n - 1 ? left : (cents * BigInt(rnd.int(15, 30))) / 100n;
        left -= total;
        const tax = rnd.chance(0.5) ? (total * 8n) / 108n : 0n;
        items.push({ id: rnd.uuid(), description: `${title} — part ${i + 1}`, amount: total - tax, tax });
      }
    }
    const allocations: { departmentId: string; percent: Money }[] = [];
    if (dept && rnd.chance(0.1)) {
      const others = deptsOfOrg(org.id).filter((d) => d.id !== dept.id);
      const second = rnd.pick(others);
      const share = BigInt(rnd.pick([2000, 2500, 3000, 4000, 5000]));
      allocations.push(
        { departmentId: dept.id, percent: 10_000n - share },
        { departmentId: second.id, percent: share },
      );
      if (rnd.chance(0.3)) {
        const third = rnd.pick(others.filter((d) => d.id !== second.id));
        allocations[1]!.percent = share - 1000n;
        allocations.push({ departmentId: third.id, percent: 1000n });
      }
    }

    const events: (typeof requestEvents.$inferInsert)[] = [];
    const ev = (
      type: string,
      at: number,
      actorId: string | null,
      extra: Partial<typeof requestEvents.$inferInsert> = {},
    ) => events.push({ requestId: id, type, actorId, createdAt: new Date(at), ...extra });
    ev('created', createdAt, requester.id);

    const row: typeof spendingRequests.$inferInsert = {
      id,
      organizationId: org.id,
      departmentId: dept?.id ?? null,
      requesterId: requester.id,
      categoryId: cat.id,
      vendorId,
      title,
      description: `${title}. ${cat.name} for ${dept?.name ?? org.name}.`,
      justification: rnd.chance(0.6) ? 'Needed to keep operations running to plan.' : null,
      kind,
      amount: formatMoney(cents),
      currency,
      amountOrg: '0.00', // set by fx() below
      orgCurrency: org.currency,
      amountGroup: '0.00',
      groupCurrency,
      expenseDate:
        kind === 'reimbursement' ? new Date(createdAt - rnd.int(1, 6) * DAY).toISOString().slice(0, 10) : null,
      neededBy: kind === 'purchase' ? new Date(createdAt + rnd.int(10, 40) * DAY).toISOString().slice(0, 10) : null,
      status: plan.status,
      routeReason: [],
      createdAt: new Date(createdAt),
      updatedAt: new Date(createdAt),
    };
    const fx = (at: number) => {
      const o = convert(cents, currency, org.currency, new Date(at));
      const g = convert(cents, currency, groupCurrency, new Date(at));
      row.fxRate = o.rate;
      row.amountOrg = formatMoney(o.cents);
      row.groupFxRate = g.rate;
      row.amountGroup = formatMoney(g.cents);
      return o.cents;
    };
    const itemStatus = new Map<string, { status: 'pending' | 'approved' | 'rejected'; reason: string | null }>();
    const finish = () => {
      row.updatedAt = new Date(Math.max(...events.map((e) => (e.createdAt as Date).getTime())));
      reqRows.push(row);
      items.forEach((it, i) =>
        itemRows.push({
          id: it.id,
          requestId: id,
          position: i + 1,
          description: it.description,
          categoryId: cat.id,
          amount: formatMoney(it.amount),
          taxAmount: formatMoney(it.tax),
          status: itemStatus.get(it.id)?.status ?? 'pending',
          rejectionReason: itemStatus.get(it.id)?.reason ?? null,
        }),
      );
      for (const a of allocations)
        allocRows.push({ requestId: id, departmentId: a.departmentId, percent: formatMoney(a.percent) });
      eventRows.push(...events);
    };

    const room = nowMs - createdAt;
    if (plan.status === 'draft' || (plan.status === 'cancelled' && plan.cancelFromDraft)) {
      fx(createdAt);
      if (plan.status === 'cancelled') {
        const at = createdAt + Math.min(room * 0.5, rnd.int(2, 72) * HOUR);
        row.cancelledAt = new Date(at);
        row.updatedAt = new Date(at);
        ev('cancelled', at, requester.id, { note: rnd.pick(CANCEL_NOTES) });
      }
      finish();
      return;
    }

    // Submission: FX fixed at the submission date, workflow chosen (or the auto-approval rule).
    const submitDelay = (rnd.chance(0.6) ? rnd.next() * 0.5 : rnd.next() * 30) * HOUR;
    const submittedAt = createdAt + Math.min(submitDelay, room * 0.1);
    const orgAtSubmit = fx(submittedAt);
    const reqCtx = { requester, org, dept };
    const auto = autoRule && autoRule.organizationId === org.id && catCode === 'OFS' && orgAtSubmit <= 10_000n;
    const wf = auto ? null : chooseWorkflow(org.id, orgAtSubmit, cat.id, dept?.id ?? null, requester.role);
    const route = auto ? null : (wf ?? builtIn);
    const steps = route?.steps ?? [];
    const target =
      plan.status === 'approved' || plan.status === 'paid'
        ? steps.length
        : Math.min(plan.atStep ?? rnd.int(1, steps.length), steps.length);

    // The shape first (durations after submission), then squeezed into the time available.
    const resolvedPerStep = steps.map((s) => resolve(s, reqCtx));
    const durations: number[] = [0];
    for (let i = 0; i < target; i++)
      durations.push(decideHours(resolvedPerStep[i]![0]?.userId ?? '', steps[i]!.slaHours) * HOUR);
    if (plan.status === 'pending') durations.pop();
    if (plan.status === 'cancelled' && durations.length > 1) durations[durations.length - 1] = rnd.int(1, 8) * HOUR;
    const payDelay = plan.status === 'paid' ? rnd.int(2, 12) * DAY : 0;
    const sum = durations.reduce((a, b) => a + b, 0) + payDelay;
    // Pending requests keep some time after the last activation so "waiting since" is real.
    const budget = (nowMs - submittedAt) * (plan.status === 'pending' ? 0.85 : 0.95);
    const factor = sum > budget ? budget / sum : 1;
    let t = submittedAt;
    row.submittedAt = new Date(submittedAt);
    ev('submitted', submittedAt, requester.id);

    if (auto) {
      row.status = plan.status === 'paid' ? 'paid' : 'approved';
      row.decidedAt = new Date(submittedAt);
      row.approvedAmount = row.amount;
      row.routeReason = [
        `Auto-approval rule "${autoRule.name}" applied: ${money(orgAtSubmit, org.currency)} is at most ${money(autoRule.maxAmount, org.currency)}, category ${cat.name}, within budget, no policy findings`,
      ];
      for (const it of items) itemStatus.set(it.id, { status: 'approved', reason: null });
      ev('auto_approved', submittedAt, null, { note: autoRule.name });
      addNote(
        requester.id,
        'request_approved',
        'Your request was approved automatically',
        title,
        notifyLink(id),
        id,
        submittedAt,
      );
      if (plan.status === 'paid') payOut(submittedAt + payDelay * factor);
      finish();
      return;
    }

    row.workflowId = wf?.id ?? null;
    row.workflowName = route!.name;
    const reasons: string[] = [];
    if (!wf) reasons.push(`No workflow of ${org.name} matched; the built-in route sends it to the finance manager`);
    else if (wf.conditions.minAmount)
      reasons.push(
        `Workflow "${wf.name}" (priority ${wf.priority}) matched: ${money(orgAtSubmit, org.currency)} is at least ${money(wf.conditions.minAmount, org.currency)}`,
      );
    else if (wf.conditions.categoryIds?.length)
      reasons.push(
        `Workflow "${wf.name}" (priority ${wf.priority}) matched: category ${cat.name} is one of ${wf.conditions.categoryIds.map((c) => catById.get(c)?.name).join(', ')}`,
      );
    else reasons.push(`Workflow "${wf.name}" (priority ${wf.priority}) matched: it has no conditions`);
    steps.forEach((s, i) => {
      const r = resolvedPerStep[i]!;
      reasons.push(
        `Step ${s.position} "${s.name}": ${r.map((x) => `${byId.get(x.userId)?.name}, ${x.why}`).join('; ') || 'nobody found'}`,
      );
    });
    row.routeReason = reasons;

    for (let i = 0; i < steps.length; i++) {
      const s = steps[i]!;
      const stepId = rnd.uuid();
      const srow: typeof approvalSteps.$inferInsert = {
        id: stepId,
        ...waitingStep(s, { requestId: id, position: s.position, round: 1 }),
      };
      stepRows.push(srow);
      if (i >= target) continue;
      // This step was activated at t.
      const activatedAt = t;
      srow.activatedAt = new Date(activatedAt);
      srow.dueAt = new Date(activatedAt + s.slaHours * HOUR);
      const assigned = resolvedPerStep[i]!.map((r) => ({
        id: rnd.uuid(),
        approverId: r.userId,
        reason: r.reason as 'workflow' | 'fallback' | 'escalated',
        createdAt: activatedAt,
        status: 'open' as 'open' | 'approved' | 'rejected' | 'info_requested' | 'superseded',
        decidedAt: null as number | null,
      }));
      for (const a of assigned)
        addNote(
          a.approverId,
          'approval_needed',
          'A request is waiting for your approval',
          `${title} (${byId.get(requester.id)?.name})`,
          '/approvals',
          id,
          activatedAt,
        );
      const isTarget = i === target - 1;
      const outcome: 'approved' | 'rejected' | 'info_requested' | 'cancelled' | 'open' = !isTarget
        ? 'approved'
        : plan.status === 'approved' || plan.status === 'paid'
          ? 'approved'
          : plan.status === 'rejected'
            ? 'rejected'
            : plan.status === 'info_requested'
              ? 'info_requested'
              : plan.status === 'cancelled'
                ? 'cancelled'
                : 'open';
      if (outcome === 'open') {
        // The escalation job's work so far: a reminder at half the SLA, an escalation when overdue.
        srow.status = 'active';
        row.currentStep = s.position;
        const half = activatedAt + (s.slaHours * HOUR) / 2;
        if (half <= nowMs - 60_000) {
          srow.remindedAt = new Date(half);
          ev('reminded', half, null, { stepPosition: s.position });
          for (const a of assigned)
            addNote(
              a.approverId,
              'approval_needed',
              'Reminder: a request is waiting for your approval',
              title,
              '/approvals',
              id,
              half,
            );
        }
        const due = activatedAt + s.slaHours * HOUR;
        if (due <= nowMs - 60_000) {
          const taken = new Set(assigned.map((a) => a.approverId));
          const to = escalationTarget(s, reqCtx, taken);
          if (to) {
            srow.escalatedAt = new Date(due);
            assigned.push({
              id: rnd.uuid(),
              approverId: to,
              reason: 'escalated',
              createdAt: due,
              status: 'open',
              decidedAt: null,
            });
            ev('escalated', due, null, { stepPosition: s.position, data: { approverId: to } });
            addNote(to, 'approval_escalated', 'An overdue request was escalated to you', title, '/approvals', id, due);
          }
        }
        t = nowMs;
      } else {
        const decidedAt = t + durations[i + 1]! * factor;
        const decider = assigned[0]!;
        decider.decidedAt = decidedAt;
        for (const a of assigned.slice(1)) a.status = 'superseded';
        srow.completedAt = outcome === 'info_requested' ? null : new Date(decidedAt);
        if (outcome === 'cancelled') {
          decider.status = 'superseded';
          decider.decidedAt = null;
          srow.status = 'skipped';
          row.cancelledAt = new Date(decidedAt);
          ev('cancelled', decidedAt, requester.id, { note: rnd.pick(CANCEL_NOTES) });
        } else {
          decider.status = outcome;
          const reason =
            outcome === 'rejected'
              ? rnd.pick(REJECTIONS)
              : outcome === 'info_requested'
                ? rnd.pick(QUESTIONS)
                : rnd.chance(0.3)
                  ? 'Looks good'
                  : null;
          const last = i === steps.length - 1;
          let rejectedItems: string[] = [];
          if (outcome === 'approved' && last && items.length >= 3 && rnd.chance(0.5))
            rejectedItems = [items[items.length - 1]!.id];
          decisionRows.push({
            requestId: id,
            requesterId: requester.id,
            stepId,
            assignmentId: decider.id,
            deciderId: decider.approverId,
            decision: outcome,
            reason,
            rejectedLineItemIds: rejectedItems,
            createdAt: new Date(decidedAt),
          });
          if (outcome === 'approved') {
            srow.status = 'approved';
            if (last) {
              const rejected = items.filter((it) => rejectedItems.includes(it.id));
              for (const it of items)
                itemStatus.set(
                  it.id,
                  rejectedItems.includes(it.id)
                    ? { status: 'rejected', reason: 'Not covered by this approval' }
                    : { status: 'approved', reason: null },
                );
              if (rejected.length)
                ev('line_items_rejected', decidedAt, decider.approverId, {
                  stepPosition: s.position,
                  data: { lineItemIds: rejectedItems },
                });
              row.approvedAmount = formatMoney(cents - rejected.reduce((sum, it) => sum + it.amount + it.tax, 0n));
              row.decidedAt = new Date(decidedAt);
              ev('approved', decidedAt, decider.approverId, { stepPosition: s.position, note: reason });
              addNote(
                requester.id,
                'request_approved',
                'Your request was approved',
                title,
                notifyLink(id),
                id,
                decidedAt,
              );
            } else {
              ev('step_approved', decidedAt, decider.approverId, { stepPosition: s.position, note: reason });
            }
          } else if (outcome === 'rejected') {
            srow.status = 'rejected';
            row.decidedAt = new Date(decidedAt);
            row.rejectionReason = reason;
            ev('rejected', decidedAt, decider.approverId, { stepPosition: s.position, note: reason });
            addNote(
              requester.id,
              'request_rejected',
              'Your request was rejected',
              `${title}: ${reason}`,
              notifyLink(id),
              id,
              decidedAt,
            );
          } else {
            srow.status = 'active';
            row.currentStep = s.position;
            commentRows.push({
              requestId: id,
              authorId: decider.approverId,
              kind: 'info_request',
              body: reason!,
              createdAt: new Date(decidedAt),
            });
            ev('info_requested', decidedAt, decider.approverId, { stepPosition: s.position, note: reason });
            addNote(
              requester.id,
              'request_info_requested',
              'More information is needed on your request',
              `${title}: ${reason}`,
              notifyLink(id),
              id,
              decidedAt,
            );
          }
        }
        t = decidedAt;
      }
      for (const a of assigned) {
        assignRows.push({
          id: a.id,
          stepId,
          requestId: id,
          approverId: a.approverId,
          originalApproverId: a.reason === 'escalated' ? assigned[0]!.approverId : null,
          reason: a.reason,
          status: a.status,
          createdAt: new Date(a.createdAt),
          decidedAt: a.decidedAt ? new Date(a.decidedAt) : null,
        });
      }
    }
    if (plan.status === 'paid') payOut(t + payDelay * factor);
    // A comment now and then, just after submission.
    if (rnd.chance(0.15)) {
      const at = submittedAt + Math.min(20 * 60_000, (Math.min(t, nowMs) - submittedAt) / 2);
      commentRows.push({
        requestId: id,
        authorId: requester.id,
        kind: 'comment',
        body: rnd.pick(COMMENTS),
        createdAt: new Date(at),
      });
      ev('commented', at, requester.id);
    }
    finish();

    function payOut(at: number) {
      const paidAt = Math.max(t, Math.min(at, nowMs - 60_000));
      const payer = carla ?? adam!;
      paymentNo++;
      row.paidAt = new Date(paidAt);
      row.paidById = payer;
      row.paymentDate = new Date(paidAt).toISOString().slice(0, 10);
      row.paymentReference = `PMT-${row.paymentDate.replace(/-/g, '').slice(0, 6)}-${String(paymentNo).padStart(4, '0')}`;
      ev('paid', paidAt, payer, { note: row.paymentReference });
      addNote(
        requester.id,
        'request_paid',
        'Your request was paid',
        `${title}: ${row.paymentReference}`,
        notifyLink(id),
        id,
        paidAt,
      );
    }
  };

  // ------------------------------------------------------------ what to generate
  // Every organization raises requests every month: its people, weighted, and a monthly volume.
  const VOLUME: [org: string, perMonth: [number, number], people: [string, number][]][] = [
    [
      'ML',
      [12, 18],
      [
        ['rita', 34],
        ['max', 9],
        ['dana', 7],
        ['felix', 5],
      ],
    ],
    [
      'ME',
      [5, 8],
      [
        ['nina', 14],
        ['paul', 9],
        ['marie', 3],
        ['lukas', 2],
        ['klara', 2],
      ],
    ],
    [
      'MG',
      [4, 7],
      [
        ['adam', 11],
        ['carla', 9],
      ],
    ],
    [
      'MF',
      [5, 8],
      [
        ['leo', 10],
        ['chloe', 8],
        ['hannah', 3],
        ['james', 2],
        ['priya', 2],
      ],
    ],
    [
      'MT',
      [5, 8],
      [
        ['yusuf', 12],
        ['ravi', 5],
        ['layla', 3],
        ['khalid', 2],
        ['aisha', 2],
      ],
    ],
  ];
  const pools = VOLUME.map(([code, perMonth, weights]) => ({
    perMonth,
    pool: weights
      .map(([name, w]) => [u(name), w] as const)
      .filter((x): x is [UserRow, number] => x[0]?.organizationId === orgByCode.get(code)?.id),
  })).filter((p) => p.pool.length > 0);
  const pickFrom = (pool: (readonly [UserRow, number])[]) => {
    const totalW = pool.reduce((s, [, w]) => s + w, 0);
    let x = rnd.next() * totalW;
    for (const [who, w] of pool) {
      x -= w;
      if (x < 0) return who;
    }
    return pool[0]![0];
  };
  const plans: Plan[] = [];
  const statusFor = (ageDays: number): Status =>
    ageDays > 35
      ? rnd.weighted<Status>({ paid: 56, approved: 9, rejected: 14, cancelled: 9, pending: 0.3, draft: 0.5 })
      : ageDays > 7
        ? rnd.weighted<Status>({
            paid: 30,
            approved: 30,
            rejected: 10,
            pending: 6,
            info_requested: 3,
            cancelled: 6,
            draft: 6,
          })
        : rnd.weighted<Status>({ pending: 45, draft: 20, info_requested: 8, approved: 14, rejected: 6, cancelled: 5 });
  if (pools.length > 0) {
    for (let back = 12; back >= 0; back--) {
      const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1);
      const end = Math.min(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back + 1, 1), nowMs - 30 * 60_000);
      if (end <= start) continue;
      for (const { perMonth, pool } of pools) {
        // Current month: pro rata, at least a couple.
        const full = rnd.int(perMonth[0], perMonth[1]);
        const n = back === 0 ? Math.max(2, Math.round((full * (end - start)) / (30 * DAY))) : full;
        for (let i = 0; i < n; i++) {
          const createdAt = start + Math.floor(rnd.next() * (end - start));
          const requester = pickFrom(pool);
          const status = statusFor((nowMs - createdAt) / DAY);
          plans.push({ requester, createdAt, status, cancelFromDraft: status === 'cancelled' && rnd.chance(0.4) });
        }
      }
    }
    // The demo's guaranteed scenes: queues for every approver (max, dana, felix, grace, carla and
    // the subsidiaries' heads and finance managers), overdue items, rita's request waiting for
    // information, and every status in every company.
    const ago = (days: number) => nowMs - days * DAY;
    const scene = (username: string, status: Status, days: number, extra: Partial<Plan> = {}) => {
      const who = u(username);
      if (who?.organizationId) plans.push({ requester: who, createdAt: ago(days), status, ...extra });
    };
    scene('rita', 'pending', 3.2, {
      atStep: 1,
      category: 'LOG',
      amount: 2450,
      title: 'Extra trailer capacity for peak season',
    });
    scene('rita', 'pending', 0.15, {
      atStep: 1,
      category: 'TRV',
      amount: 860,
      title: 'Train tickets for the supplier audit',
    });
    scene('rita', 'pending', 1.6, { atStep: 1, category: 'SFT', amount: 1290, title: 'Fleet telematics subscription' });
    scene('rita', 'pending', 4.5, { atStep: 2, category: 'UTL', amount: 1780, title: 'Backup internet line' });
    scene('rita', 'pending', 0.8, {
      atStep: 2,
      category: 'LOG',
      amount: 3900,
      title: 'Customs brokerage for the Q3 imports',
    });
    scene('rita', 'pending', 5.5, {
      atStep: 3,
      category: 'LOG',
      amount: 18_500,
      title: 'Cold-chain transport for the pilot',
    });
    scene('rita', 'pending', 6.5, {
      atStep: 4,
      category: 'LOG',
      amount: 26_400,
      title: 'Spot freight, Long Beach to Dallas',
    });
    scene('rita', 'info_requested', 2.1, {
      atStep: 1,
      category: 'HRD',
      amount: 2140,
      title: 'Rugged tablets for drivers',
    });
    scene('rita', 'draft', 0.3, { category: 'OFS', amount: 340, title: 'Desk organisers and labels' });
    scene('max', 'pending', 2.4, { atStep: 1, category: 'TRN', amount: 1650, title: 'Forklift safety certification' });
    scene('dana', 'pending', 1.2, { atStep: 2, category: 'LOG', amount: 5200, title: 'Pallet rental top-up' });
    scene('nina', 'pending', 0.5, { atStep: 1, category: 'TRV', amount: 1320, title: 'Client visit travel, Munich' });
    scene('nina', 'pending', 3.5, { atStep: 2, category: 'MKT', amount: 4800, title: 'Trade fair booth' });
    scene('paul', 'pending', 1.4, { atStep: 1, category: 'MEA', amount: 186, title: 'Client dinner' });
    scene('paul', 'pending', 4.2, { atStep: 3, category: 'MKT', amount: 14_500, title: 'Sponsored industry webinar' });
    scene('leo', 'pending', 0.7, {
      atStep: 1,
      category: 'LOG',
      amount: 3200,
      title: 'Cold-chain transport for the pilot',
    });
    scene('chloe', 'pending', 2.8, {
      atStep: 1,
      category: 'TRV',
      amount: 640,
      title: 'Train tickets for the supplier audit',
    });
    scene('chloe', 'pending', 1.9, { atStep: 2, category: 'HRD', amount: 2350, title: 'Rugged tablets for drivers' });
    scene('hannah', 'pending', 3.6, {
      atStep: 2,
      category: 'TRN',
      amount: 1450,
      title: 'First-aid training for the shift leads',
    });
    scene('yusuf', 'pending', 0.9, { atStep: 1, category: 'SFT', amount: 7400, title: 'Analytics seats renewal' });
    scene('yusuf', 'pending', 2.6, {
      atStep: 2,
      category: 'HRD',
      amount: 11_800,
      title: 'Docking stations and monitors',
    });
    scene('ravi', 'pending', 3.3, {
      atStep: 1,
      category: 'PRO',
      amount: 18_500,
      title: 'Consulting on the network redesign',
    });
    scene('layla', 'pending', 1.3, { atStep: 2, category: 'TRN', amount: 4200, title: 'Leadership workshop' });
    scene('adam', 'pending', 1.1, { atStep: 2, category: 'SFT', amount: 6400, title: 'Analytics seats renewal' });
    for (const [who, category] of [
      ['rita', 'LOG'],
      ['nina', 'TRV'],
      ['adam', 'SFT'],
      ['leo', 'LOG'],
      ['yusuf', 'SFT'],
    ] as const) {
      (['draft', 'pending', 'info_requested', 'approved', 'rejected', 'cancelled', 'paid'] as const).forEach(
        (status, i) =>
          scene(who, status, status === 'paid' ? 20 + i : 1 + i * 1.3, {
            category,
            atStep: status === 'pending' || status === 'info_requested' ? 1 : undefined,
          }),
      );
    }
  }
  plans.sort((a, b) => a.createdAt - b.createdAt);
  for (const plan of plans) build(plan);

  // ------------------------------------------------------------ write, in order (seq and event ids follow time)
  await bulkInsert(tx, spendingRequests, reqRows);
  await bulkInsert(tx, requestLineItems, itemRows);
  await bulkInsert(tx, requestAllocations, allocRows);
  await bulkInsert(tx, approvalSteps, stepRows);
  await bulkInsert(tx, approvalAssignments, assignRows);
  await bulkInsert(tx, approvalDecisions, decisionRows);
  await bulkInsert(tx, requestComments, commentRows);
  eventRows.sort((a, b) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime());
  await bulkInsert(tx, requestEvents, eventRows);
  await seedAuditTrail(tx, eventRows, tools);
  noteRows.sort((a, b) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime());
  await bulkInsert(tx, notifications, noteRows);
}

/** What each timeline event leaves in the audit trail (the engine audits the same changes). */
const AUDITED: Record<string, { action: string; status?: string }> = {
  created: { action: 'request.created', status: 'draft' },
  submitted: { action: 'request.submitted', status: 'pending' },
  auto_approved: { action: 'request.approved', status: 'approved' },
  step_approved: { action: 'request.step_approved' },
  line_items_rejected: { action: 'request.step_approved' },
  approved: { action: 'request.approved', status: 'approved' },
  rejected: { action: 'request.rejected', status: 'rejected' },
  info_requested: { action: 'request.info_requested', status: 'info_requested' },
  cancelled: { action: 'request.cancelled', status: 'cancelled' },
  paid: { action: 'request.paid', status: 'paid' },
  reminded: { action: 'request.reminded' },
  escalated: { action: 'request.escalated' },
};

/**
 * The history's audit trail, hash-linked with the server's own rule (tools.linkAudit) so
 * "verify integrity" holds over it; marked as demo history in its metadata.
 */
async function seedAuditTrail(
  tx: Db,
  events: (typeof requestEvents.$inferInsert)[],
  tools: Pick<SeedTools, 'linkAudit'>,
): Promise<void> {
  if (!tools.linkAudit) return;
  const rows = events.flatMap((e) => {
    const audited = AUDITED[e.type];
    if (!audited) return [];
    return [
      {
        occurredAt: e.createdAt as Date,
        actorId: e.actorId ?? null,
        action: audited.action,
        entityType: 'spending_request',
        entityId: e.requestId,
        ip: null,
        userAgent: null,
        before: null,
        after: audited.status ? { status: audited.status } : null,
        metadata: {
          source: 'demo history',
          ...(e.stepPosition ? { step: e.stepPosition } : {}),
          ...(e.note ? { note: e.note } : {}),
        },
      },
    ];
  });
  const [last] = await tx
    .select({ hash: auditEvents.hash })
    .from(auditEvents)
    .orderBy(sql`${auditEvents.id} DESC`)
    .limit(1);
  await bulkInsert(tx, auditEvents, tools.linkAudit(last?.hash ?? null, rows));
}

/**
 * Inserts rows in chunks through one JSON parameter per chunk (json_populate_recordset): on
 * PGlite this is several times faster than thousands of bind parameters. Columns left out of
 * every row keep their defaults (seq, ids); a column given in some rows is NULL in the others.
 */
async function bulkInsert<T extends PgTable>(tx: Db, table: T, rows: T['$inferInsert'][]): Promise<void> {
  if (rows.length === 0) return;
  const columns = getTableColumns(table) as Record<string, { name: string }>;
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r as object)))].filter((k) => k in columns);
  const names = keys.map((k) => `"${columns[k]!.name}"`).join(', ');
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK).map((r) => {
      const o: Record<string, unknown> = {};
      for (const k of keys) o[columns[k]!.name] = (r as Record<string, unknown>)[k] ?? null;
      return o;
    });
    await tx.execute(
      sql`INSERT INTO ${table} (${sql.raw(names)}) SELECT ${sql.raw(names)} FROM json_populate_recordset(NULL::${table}, ${JSON.stringify(chunk)}::json)`,
    );
  }
}
