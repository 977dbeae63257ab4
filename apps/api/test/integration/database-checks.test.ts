// The database's own guard (migration 0008): impossible rows written past the API, straight
// through the database handle, are refused with SQLSTATE 23514 naming the constraint, and
// valid rows still go in. Runs on PGlite and on PostgreSQL (TEST_DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, is, sql, type SQL } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import {
  authChallenges,
  backupSchedules,
  backups,
  budgetLines,
  budgetAdjustments,
  budgetOverruns,
  customRoles,
  delegations,
  emailOutbox,
  errorReports,
  featureSuggestions,
  findingDismissals,
  findingRuns,
  findings,
  messageAttachments,
  messages,
  notificationSettings,
  organizations,
  payrollLines,
  payrollAdjustments,
  requestSuggestionModels,
  savedReports,
  schema,
  spendingRequests,
  users,
  webhookDeliveries,
  webhooks,
} from '@outlay/db';
import { enumCheckInfo } from '@outlay/db/schema/checks';
import { rowsOf } from '../../src/lib/sql.ts';
import { createTestApp, login, type TestContext } from '../helpers.ts';

let t: TestContext;

interface PgError {
  code?: string;
  constraint?: string;
  message?: string;
  cause?: unknown;
}

/** The driver's error under drizzle's wrapper; fails the test when the statement was accepted. */
async function refusal(run: () => Promise<unknown>): Promise<PgError> {
  try {
    await run();
  } catch (error) {
    let e = error as PgError | undefined;
    while (e && !e.code && e.cause) e = e.cause as PgError;
    return e ?? {};
  }
  throw new Error('the database accepted the row');
}

async function expectCheckViolation(constraint: string, run: () => Promise<unknown>) {
  const e = await refusal(run);
  expect(e.code, `${constraint}: ${e.message}`).toBe('23514');
  expect(e.constraint ?? e.message, constraint).toContain(constraint);
}

/** Changes one existing row, so every table needs at least one (see beforeAll). */
function updateOne(table: string, set: SQL) {
  const name = sql.identifier(table);
  return t.db.execute(sql`UPDATE ${name} SET ${set} WHERE ctid = (SELECT ctid FROM ${name} LIMIT 1)`);
}

async function count(table: string): Promise<number> {
  return rowsOf<{ n: number }>(await t.db.execute(sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`))[0]!.n;
}

const tables = Object.values(schema as Record<string, unknown>).filter((x): x is PgTable => is(x, PgTable));
const allChecks = tables.flatMap((table) =>
  getTableConfig(table).checks.map((c) => ({ table: getTableConfig(table).name, check: c })),
);
const enumChecks = allChecks.flatMap(({ table, check }) => {
  const info = enumCheckInfo(check);
  return info ? [{ table, name: check.name, column: info.column.name, values: info.values }] : [];
});

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('valid rows still go in', () => {
  // The demo seed leaves these tables empty; one valid row each, so every check below has a row to test.
  it('accepts a well-formed row in each table the seed leaves empty', async () => {
    const [adam] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'adam'));
    const [max] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'max'));
    const [request] = await t.db
      .select({ id: spendingRequests.id, organizationId: spendingRequests.organizationId })
      .from(spendingRequests)
      .limit(1);
    const now = new Date();
    await t.db.insert(customRoles).values({ name: 'Auditor (checks)', permissions: [], scope: 'organization' });
    await t.db.insert(authChallenges).values({
      userId: adam!.id,
      purpose: 'two_factor',
      tokenHash: 'checks-test',
      expiresAt: new Date(now.getTime() + 60_000),
    });
    await t.db.insert(delegations).values({
      delegatorId: max!.id,
      delegateId: adam!.id,
      // A delegation may start and end at the same moment: start ≤ end, not start < end.
      startsAt: now,
      endsAt: now,
      createdById: max!.id,
    });
    await t.db
      .insert(budgetOverruns)
      .values({ requestId: request!.id, organizationId: request!.organizationId, lines: [], status: 'pending' });
    const [line] = await t.db
      .select({ id: budgetLines.id, organizationId: budgetLines.organizationId, currency: budgetLines.currency })
      .from(budgetLines)
      .limit(1);
    await t.db.insert(budgetAdjustments).values({
      budgetLineId: line!.id,
      organizationId: line!.organizationId,
      currency: line!.currency,
      amount: '0.01',
      amountBefore: '100.00',
      amountAfter: '100.01',
      reason: 'Checks',
    });
    await t.db
      .insert(emailOutbox)
      .values({ toAddress: 'adam@example.com', subject: 'Checks', body: 'Body', status: 'queued' });
    await t.db.insert(notificationSettings).values({ userId: adam!.id, digest: 'weekly' });
    const [payrollLine] = await t.db
      .select({ runId: payrollLines.runId, employeeId: payrollLines.employeeId })
      .from(payrollLines)
      .limit(1);
    await t.db.insert(payrollAdjustments).values({
      runId: payrollLine!.runId,
      employeeId: payrollLine!.employeeId,
      kind: 'bonus',
      amount: '10.00',
      reason: 'Checks',
    });
    await t.db.insert(savedReports).values({ ownerId: adam!.id, name: 'Checks', definition: {} });
    await t.db
      .insert(errorReports)
      .values({ fingerprint: 'checks', source: 'client', message: 'Checks', firstSeenAt: now, lastSeenAt: now });
    await t.db
      .insert(featureSuggestions)
      .values({ authorId: adam!.id, title: 'Checks', description: 'A suggestion for the checks' });
    const [hook] = await t.db
      .insert(webhooks)
      .values({
        userId: adam!.id,
        url: 'https://example.com/hook',
        events: ['request.paid'],
        secretSealed: 'v1:checks',
      })
      .returning({ id: webhooks.id });
    await t.db.insert(webhookDeliveries).values({ webhookId: hook!.id, eventType: 'request.paid', payload: {} });
    await t.db
      .insert(backups)
      .values({ name: 'checks', status: 'ready', trigger: 'manual', fileName: 'checks.jsonl.gz', sizeBytes: 0 });
    await t.db.insert(backupSchedules).values({ frequency: 'weekly', retention: 365 });
    await t.db.insert(requestSuggestionModels).values({ organizationId: request!.organizationId, trainedOn: 0 });
    const [message] = await t.db
      .select({ id: messages.id, conversationId: messages.conversationId })
      .from(messages)
      .limit(1);
    await t.db.insert(messageAttachments).values({
      messageId: message!.id,
      conversationId: message!.conversationId,
      fileName: 'checks.pdf',
      contentType: 'application/pdf',
      size: 1,
      sha256: 'checks',
      storageKey: 'conversations/checks',
      uploadedById: adam!.id,
    });
    await t.db
      .insert(findingDismissals)
      .values({ key: 'duplicate:checks', kind: 'duplicate', reason: 'Checks', dismissedById: adam!.id });
    await t.db
      .insert(findingRuns)
      .values({ organizationId: request!.organizationId, computedAt: now, requestsExamined: 0, benfordTested: 0 });
    await t.db.insert(findings).values({
      organizationId: request!.organizationId,
      key: `outlier:${request!.id}`,
      kind: 'outlier',
      severity: 'low',
      title: 'Checks',
      detail: 'Checks',
      score: 3.6,
      requestIds: [request!.id],
      requestCount: 1,
      newestDay: now.toISOString().slice(0, 10),
    });
    for (const table of new Set(allChecks.map((c) => c.table))) expect(await count(table), table).toBeGreaterThan(0);
  });

  it('accepts a request copied from a seeded one, and a zero amount', async () => {
    const [row] = await t.db.select().from(spendingRequests).where(eq(spendingRequests.status, 'approved')).limit(1);
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    const { id, seq, ...copy } = row!;
    const [inserted] = await t.db.insert(spendingRequests).values(copy).returning({ id: spendingRequests.id });
    expect(inserted!.id).not.toBe(id);
    // Approved exactly the amount: the bound is inclusive.
    await t.db
      .update(spendingRequests)
      .set({ approvedAmount: copy.amount })
      .where(eq(spendingRequests.id, inserted!.id));
    const [zero] = await t.db
      .insert(spendingRequests)
      .values({ ...copy, amount: '0.00', amountOrg: '0.00', amountGroup: '0.00', approvedAmount: '0.00' })
      .returning({ amount: spendingRequests.amount });
    expect(zero!.amount).toBe('0.00');
  });
});

describe('impossible rows are refused with 23514', () => {
  it('has an enum check for the columns the contracts list', () => {
    expect(enumChecks.length).toBeGreaterThanOrEqual(28);
  });

  it.each(enumChecks.map((c) => [c.name, c] as const))('%s refuses a value outside its list', async (_name, c) => {
    const bogus = 'not_a_listed_value';
    expect(c.values).not.toContain(bogus);
    await expectCheckViolation(c.name, () => updateOne(c.table, sql`${sql.identifier(c.column)} = ${bogus}`));
    // Nor a listed value in another case: the lists are exact.
    await expectCheckViolation(c.name, () =>
      updateOne(c.table, sql`${sql.identifier(c.column)} = ${c.values[0]!.toUpperCase()}`),
    );
  });

  it('refuses a new request with a negative amount', async () => {
    const [row] = await t.db.select().from(spendingRequests).limit(1);
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    const { id, seq, ...copy } = row!;
    await expectCheckViolation('spending_requests_amount_check', () =>
      t.db.insert(spendingRequests).values({ ...copy, amount: '-5.00', approvedAmount: null }),
    );
  });

  it('refuses an approved amount above the amount', async () => {
    const [row] = await t.db
      .select({ id: spendingRequests.id, amount: spendingRequests.amount })
      .from(spendingRequests)
      .limit(1);
    await expectCheckViolation('spending_requests_approved_within_amount_check', () =>
      t.db
        .update(spendingRequests)
        .set({ approvedAmount: sql`${spendingRequests.amount} + 0.01` })
        .where(eq(spendingRequests.id, row!.id)),
    );
  });

  it('refuses a lowercase currency', async () => {
    await expectCheckViolation('organizations_currency_check', () =>
      t.db.update(organizations).set({ currency: 'usd' }).where(eq(organizations.code, 'MG')),
    );
  });

  it('refuses a budget period that ends before it starts', async () => {
    const [line] = await t.db.select({ id: budgetLines.id }).from(budgetLines).limit(1);
    await expectCheckViolation('budget_lines_period_check', () =>
      t.db
        .update(budgetLines)
        .set({ periodEnd: sql`${budgetLines.periodStart} - 1` })
        .where(eq(budgetLines.id, line!.id)),
    );
  });

  // Every other check, one impossible value each (a new check without a case here fails the last test).
  const cases: [constraint: string, table: string, set: SQL][] = [
    ['organizations_fiscal_year_start_month_check', 'organizations', sql`fiscal_year_start_month = 13`],
    ['organizations_country_check', 'organizations', sql`country = 'de'`],
    ['fx_rates_base_check', 'fx_rates', sql`base = 'usd'`],
    ['fx_rates_quote_check', 'fx_rates', sql`quote = 'E1R'`],
    ['fx_rates_average_rate_check', 'fx_rates', sql`average_rate = 0`],
    ['fx_rates_closing_rate_check', 'fx_rates', sql`closing_rate = -1`],
    ['vendors_currency_check', 'vendors', sql`currency = 'Usd'`],
    ['spending_requests_amount_org_check', 'spending_requests', sql`amount_org = -1`],
    ['spending_requests_amount_group_check', 'spending_requests', sql`amount_group = -1`],
    ['spending_requests_approved_amount_check', 'spending_requests', sql`approved_amount = -1`],
    ['spending_requests_currency_check', 'spending_requests', sql`currency = 'eur'`],
    ['spending_requests_org_currency_check', 'spending_requests', sql`org_currency = 'US'`],
    ['spending_requests_group_currency_check', 'spending_requests', sql`group_currency = 'US1'`],
    ['spending_requests_fx_rate_check', 'spending_requests', sql`fx_rate = 0`],
    ['spending_requests_group_fx_rate_check', 'spending_requests', sql`group_fx_rate = -1`],
    ['request_line_items_amount_check', 'request_line_items', sql`amount = -1`],
    ['request_line_items_tax_amount_check', 'request_line_items', sql`tax_amount = -0.01`],
    ['request_allocations_percent_check', 'request_allocations', sql`percent = 0`],
    ['auto_approval_rules_max_amount_check', 'auto_approval_rules', sql`max_amount = -1`],
    ['delegations_period_check', 'delegations', sql`ends_at = starts_at - interval '1 second'`],
    ['budget_lines_currency_check', 'budget_lines', sql`currency = 'gbp'`],
    ['budget_lines_amount_check', 'budget_lines', sql`amount = -0.01`],
    ['budget_adjustments_amount_check', 'budget_adjustments', sql`amount = 0`],
    ['budget_adjustments_currency_check', 'budget_adjustments', sql`currency = 'usd'`],
    [
      'policy_rules_effective_period_check',
      'policy_rules',
      sql`effective_from = '2026-02-01', effective_to = '2026-01-31'`,
    ],
    ['employees_currency_check', 'employees', sql`currency = 'usd'`],
    ['employees_base_salary_check', 'employees', sql`base_salary = -0.01`],
    ['employees_income_tax_rate_check', 'employees', sql`income_tax_rate = 100.01`],
    ['employees_employee_pension_rate_check', 'employees', sql`employee_pension_rate = -1`],
    ['employees_employer_pension_rate_check', 'employees', sql`employer_pension_rate = 101`],
    ['employees_dates_check', 'employees', sql`end_date = start_date - 1`],
    ['payroll_runs_currency_check', 'payroll_runs', sql`currency = 'eur'`],
    ['payroll_runs_period_check', 'payroll_runs', sql`period = '2026-13'`],
    // Four eyes: the approver is the submitter.
    [
      'payroll_runs_four_eyes_check',
      'payroll_runs',
      sql`submitted_by_id = (SELECT id FROM users ORDER BY id LIMIT 1), approved_by_id = (SELECT id FROM users ORDER BY id LIMIT 1)`,
    ],
    // A pay date moved to a business day moves forward, and says why.
    [
      'payroll_runs_pay_date_adjusted_check',
      'payroll_runs',
      sql`pay_date_adjusted_from = pay_date + 1, pay_date_adjusted_reason = 'Christmas Day'`,
    ],
    ['payroll_lines_days_check', 'payroll_lines', sql`days_worked = days_in_period + 1`],
    ['payroll_adjustments_amount_check', 'payroll_adjustments', sql`amount = 0`],
    ['payroll_adjustments_reason_check', 'payroll_adjustments', sql`reason = '   '`],
    ['payables_currency_check', 'payables', sql`currency = 'Eur'`],
    ['payables_paid_amount_check', 'payables', sql`paid_amount = -0.01`],
    ['payables_paid_within_amount_check', 'payables', sql`paid_amount = amount + 0.01`],
    ['payables_due_after_invoice_check', 'payables', sql`due_date = invoice_date - 1`],
    [
      'payables_due_date_adjusted_check',
      'payables',
      sql`due_date_adjusted_from = due_date - 1, due_date_adjusted_reason = NULL`,
    ],
    ['payable_payments_amount_check', 'payable_payments', sql`amount = 0`],
    ['error_reports_occurrences_check', 'error_reports', sql`occurrences = -1`],
    ['backups_size_check', 'backups', sql`size_bytes = -1`],
    ['backup_schedules_single_row', 'backup_schedules', sql`id = 2`],
    ['backup_schedules_retention_check', 'backup_schedules', sql`retention = 0`],
    ['request_suggestion_models_trained_on_check', 'request_suggestion_models', sql`trained_on = -1`],
    ['findings_request_count_check', 'findings', sql`request_count = -1`],
    ['finding_runs_requests_examined_check', 'finding_runs', sql`requests_examined = -1`],
    ['finding_runs_benford_tested_check', 'finding_runs', sql`benford_tested = -1`],
    // An announcement names exactly whom it addresses.
    ['announcements_audience_target_check', 'announcements', sql`audience = 'department', department_id = null`],
    ['announcements_body_length_check', 'announcements', sql`body = ''`],
    // A direct conversation has its pair key, a group none.
    [
      'conversations_direct_key_check',
      'conversations',
      sql`direct_key = CASE WHEN kind = 'direct' THEN null ELSE 'a:b' END`,
    ],
    ['messages_body_length_check', 'messages', sql`body = repeat('x', 4001)`],
    ['message_attachments_size_check', 'message_attachments', sql`size = 0`],
  ];

  it.each(cases)('%s', async (constraint, table, set) => {
    await expectCheckViolation(constraint, () => updateOne(table, set));
  });

  it('refuses a share above 100%', async () => {
    await expectCheckViolation('request_allocations_percent_check', () =>
      updateOne('request_allocations', sql`percent = 100.01`),
    );
  });

  it('tests every check of the schema', () => {
    const tested = new Set([
      ...enumChecks.map((c) => c.name),
      ...cases.map((c) => c[0]),
      'spending_requests_amount_check',
      'spending_requests_approved_within_amount_check',
      'organizations_currency_check',
      'budget_lines_period_check',
    ]);
    expect(allChecks.map((c) => c.check.name).filter((name) => !tested.has(name))).toEqual([]);
  });

  it('left every seeded row as it was (each refused statement changed nothing)', async () => {
    const [bad] = rowsOf<{ n: number }>(
      await t.db.execute(
        sql`SELECT count(*)::int AS n FROM spending_requests WHERE amount < 0 OR approved_amount > amount OR currency !~ '^[A-Z]{3}$'`,
      ),
    );
    expect(bad!.n).toBe(0);
  });
});

// What a person types never reaches these checks: the contracts refuse it first, as a 400 with
// the field's message, not a 500 from a constraint.
describe('the API refuses such input before the database sees it', () => {
  it('answers 400 with the field for each impossible value', async () => {
    const carla = await login(t.app, 'carla');
    const adam = await login(t.app, 'adam');
    const max = await login(t.app, 'max');
    const [org] = await t.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.code, 'ML'));
    const [dana] = await t.db.select({ id: users.id }).from(users).where(eq(users.username, 'dana'));
    const line = {
      organizationId: org!.id,
      periodType: 'month',
      periodStart: '2026-01-01',
      currency: 'USD',
      amount: '100.00',
    };
    const soon = Date.now() + 3_600_000;
    const calls = [
      { who: carla, url: '/api/budgets/lines', payload: { ...line, currency: 'usd' }, field: 'currency' },
      { who: carla, url: '/api/budgets/lines', payload: { ...line, amount: '-5.00' }, field: 'amount' },
      {
        who: adam,
        url: '/api/fx-rates',
        payload: { base: 'EUR', quote: 'USD', period: '2026-01', averageRate: '0', closingRate: '1.1' },
        field: 'averageRate',
      },
      {
        who: max,
        url: '/api/delegations',
        payload: {
          delegateId: dana!.id,
          startsAt: new Date(soon + 3_600_000).toISOString(),
          endsAt: new Date(soon).toISOString(),
        },
        field: 'endsAt',
      },
      {
        who: adam,
        url: '/api/policies',
        payload: {
          name: 'Reversed dates',
          kind: 'weekend_spend',
          action: 'warn',
          effectiveFrom: '2026-02-01',
          effectiveTo: '2026-01-31',
        },
        field: 'effectiveTo',
      },
    ];
    for (const c of calls) {
      const res = await t.app.inject({ method: 'POST', url: c.url, headers: c.who.headers, payload: c.payload });
      expect(res.statusCode, `${c.url} ${res.body}`).toBe(400);
      expect(res.json().code, c.url).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(res.json().details), c.url).toContain(c.field);
    }
  });
});
