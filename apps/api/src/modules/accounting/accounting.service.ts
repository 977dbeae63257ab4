// The accounting journal: what Outlay has booked (approved spend, its payments, payroll) as
// balanced double-entry transactions in each organization's currency, for the ledger.
import Decimal from 'decimal.js';
import { organizations, payrollRuns, spendingRequests } from '@outlay/db';
import { JOURNAL_ACCOUNTS, requestReference } from '@outlay/contracts';
import { minorUnit } from '@outlay/contracts/money';
import { AppError } from '../../lib/app-error.ts';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { organizationInScope, requirePermission, scopeCondition } from '../../lib/scope.ts';
import * as repo from './accounting.repository.ts';

const PERMISSION = 'reports.read' as const;

export interface Posting {
  account: string;
  /** Positive: debit; negative: credit. Exact, in `currency`. */
  amount: Decimal;
  currency: string;
}

export interface JournalEntry {
  date: string;
  reference: string;
  description: string;
  organizationCode: string;
  organizationName: string;
  postings: Posting[];
}

/** Account names: a colon separates levels and two spaces end the name, so neither may come from data. */
function accountPart(value: string): string {
  return (
    value
      .replace(/[\p{Cc}:;]/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim() || 'Unnamed'
  );
}

export function expenseAccount(glAccount: string | null, categoryName: string | null): string {
  if (!glAccount && !categoryName) return 'Expenses:Uncategorized';
  return `Expenses:${accountPart([glAccount, categoryName].filter(Boolean).join(' '))}`;
}

/** One-line text for a description (no comment marks, no line breaks). */
function oneLine(value: string): string {
  return value
    .replace(/[\p{Cc};|]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The journal needs whole organizations (payroll is an organization's figure): callers who read
 * reports for their organization or the group get it, a department's reader does not.
 */
async function organizationsFor(ctx: Ctx, organizationId: string | undefined) {
  const auth = requireAuth(ctx);
  const scope = requirePermission(auth, PERMISSION);
  if (scope !== 'group' && scope !== 'organization') {
    throw new AppError('FORBIDDEN', {
      message: 'The accounting journal covers whole organizations; your reports cover your department only',
    });
  }
  const all = await repo.organizationsIn(
    ctx.db,
    scopeCondition(auth, PERMISSION, { organizationId: organizations.id }),
  );
  if (!organizationId) return all;
  const chosen = all.filter((o) => o.id === organizationId);
  if (chosen.length === 0 || !organizationInScope(auth, PERMISSION, organizationId))
    throw new AppError('NOT_FOUND', { message: 'Organization not found' });
  return chosen;
}

export async function journalEntries(
  ctx: Ctx,
  query: { from: string; to: string; organizationId?: string },
): Promise<JournalEntry[]> {
  const auth = requireAuth(ctx);
  const orgs = await organizationsFor(ctx, query.organizationId);
  const byId = new Map(orgs.map((o) => [o.id, o]));
  const range = { from: query.from, to: query.to, organizationIds: orgs.map((o) => o.id) };
  if (range.organizationIds.length === 0) return [];
  const [requests, runs] = await Promise.all([
    repo.requestsInRange(
      ctx.db,
      scopeCondition(auth, PERMISSION, { organizationId: spendingRequests.organizationId }),
      range,
    ),
    repo.runsInRange(ctx.db, scopeCondition(auth, PERMISSION, { organizationId: payrollRuns.organizationId }), range),
  ]);
  const inRange = (day: string | null): day is string => day !== null && day >= query.from && day <= query.to;
  const entries: JournalEntry[] = [];
  for (const r of requests) {
    const org = byId.get(r.organizationId)!;
    const amount = new Decimal(r.amountOrg);
    const reference = requestReference(r.seq);
    const who = r.vendorName ? `${oneLine(r.vendorName)} · ` : '';
    const base = { reference, organizationCode: org.code, organizationName: org.name };
    if (inRange(r.decidedDay)) {
      entries.push({
        ...base,
        date: r.decidedDay,
        description: `${who}${oneLine(r.title)}`,
        postings: [
          { account: expenseAccount(r.glAccount, r.categoryName), amount, currency: r.orgCurrency },
          { account: JOURNAL_ACCOUNTS.payable, amount: amount.neg(), currency: r.orgCurrency },
        ],
      });
    }
    if (r.status === 'paid' && inRange(r.paidDay)) {
      entries.push({
        ...base,
        date: r.paidDay,
        description: `Payment · ${who}${oneLine(r.title)}`,
        postings: [
          { account: JOURNAL_ACCOUNTS.payable, amount, currency: r.orgCurrency },
          { account: JOURNAL_ACCOUNTS.bank, amount: amount.neg(), currency: r.orgCurrency },
        ],
      });
    }
  }
  for (const run of runs) {
    const org = byId.get(run.organizationId)!;
    const base = {
      reference: `PAYROLL-${org.code}-${run.period}`,
      organizationCode: org.code,
      organizationName: org.name,
    };
    const cost = new Decimal(run.employerCostTotal);
    const net = new Decimal(run.netTotal);
    const tax = new Decimal(run.incomeTax);
    const pension = new Decimal(run.pension);
    if (inRange(run.periodEnd)) {
      // Whatever the lines do not name (other deductions) is still owed to someone: it keeps the entry balanced.
      const other = cost.minus(net).minus(tax).minus(pension);
      const postings: Posting[] = [
        { account: JOURNAL_ACCOUNTS.payroll, amount: cost, currency: run.currency },
        { account: JOURNAL_ACCOUNTS.salariesPayable, amount: net.neg(), currency: run.currency },
      ];
      if (!tax.isZero())
        postings.push({ account: JOURNAL_ACCOUNTS.incomeTax, amount: tax.neg(), currency: run.currency });
      if (!pension.isZero())
        postings.push({ account: JOURNAL_ACCOUNTS.pension, amount: pension.neg(), currency: run.currency });
      if (!other.isZero())
        postings.push({ account: 'Liabilities:Payroll Withholdings', amount: other.neg(), currency: run.currency });
      entries.push({
        ...base,
        date: run.periodEnd,
        description: `Payroll ${run.period} · ${run.employeeCount} employees`,
        postings,
      });
    }
    if (run.status === 'paid' && inRange(run.paidDay)) {
      entries.push({
        ...base,
        date: run.paidDay,
        description: `Salaries paid · payroll ${run.period}`,
        postings: [
          { account: JOURNAL_ACCOUNTS.salariesPayable, amount: net, currency: run.currency },
          { account: JOURNAL_ACCOUNTS.bank, amount: net.neg(), currency: run.currency },
        ],
      });
    }
  }
  entries.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.reference.localeCompare(b.reference)));
  return entries;
}

/** An amount with exactly the currency's ISO 4217 minor unit (JPY 1200, USD 12.50, BHD 1.250). */
export function journalAmount(amount: Decimal, currency: string): string {
  return amount.toFixed(minorUnit(currency), Decimal.ROUND_HALF_UP);
}

/** Plain-text accounting (hledger / ledger): declarations, then one transaction per entry, tagged with its organization. */
export function toLedger(entries: JournalEntry[], query: { from: string; to: string }, now: Date): string {
  const currencies = [...new Set(entries.flatMap((e) => e.postings.map((p) => p.currency)))].sort();
  const accounts = [...new Set(entries.flatMap((e) => e.postings.map((p) => p.account)))].sort();
  const out: string[] = [
    `; Outlay accounting journal ${query.from} to ${query.to}, written ${now.toISOString()}`,
    "; Amounts in each organization's currency; every transaction carries its organization (tag org).",
    'decimal-mark .',
    '',
    // hledger wants a decimal mark in the sample even for a currency without decimals (1000. JPY).
    ...currencies.map((c) => `commodity ${minorUnit(c) === 0 ? '1000.' : journalAmount(new Decimal(1000), c)} ${c}`),
    '',
    ...accounts.map((a) => `account ${a}`),
    '',
  ];
  for (const e of entries) {
    out.push(`${e.date} * (${e.reference}) ${e.description}  ; org:${e.organizationCode}`);
    const width = Math.max(...e.postings.map((p) => p.account.length)) + 4;
    for (const p of e.postings)
      out.push(`    ${p.account.padEnd(width)}${journalAmount(p.amount, p.currency).padStart(16)} ${p.currency}`);
    out.push('');
  }
  return out.join('\n');
}

export interface JournalCsvRow {
  date: string;
  reference: string;
  description: string;
  organization: string;
  account: string;
  debit: string;
  credit: string;
  currency: string;
}

export function toCsvRows(entries: JournalEntry[]): JournalCsvRow[] {
  return entries.flatMap((e) =>
    e.postings.map((p) => ({
      date: e.date,
      reference: e.reference,
      description: e.description,
      organization: e.organizationCode,
      account: p.account,
      debit: p.amount.isPositive() && !p.amount.isZero() ? journalAmount(p.amount, p.currency) : '',
      credit: p.amount.isNegative() ? journalAmount(p.amount.neg(), p.currency) : '',
      currency: p.currency,
    })),
  );
}
