// The monthly history of what each budget line counts (budgets/budgets.consumption.ts): committed
// and actual requests by submitted month from the spend_monthly aggregate, and approved and paid
// payroll for the lines that count it, never a scan of the requests. Amounts in the line's currency where it is the organization's or the request's own;
// other currencies come back per month and currency for the service to convert.
import { sql } from 'drizzle-orm';
import type { Db } from '@outlay/db';
import { rowsOf } from '../../lib/sql.ts';

export interface MonthRow {
  lineId: string;
  month: string;
  /** Set when the amount is already in the line's currency. */
  direct: string | null;
  amount: string;
  currency: string;
}

export async function monthlyHistory(
  db: Db,
  lineIds: readonly string[],
  from: string,
  to: string,
): Promise<MonthRow[]> {
  if (lineIds.length === 0) return [];
  const ids = sql.join(
    lineIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  return rowsOf<MonthRow>(
    await db.execute(sql`
      WITH l AS (SELECT id, organization_id, department_id, category_id, counts_payroll, trim(currency) AS currency FROM budget_lines WHERE id IN (${ids}))
      SELECT l.id AS "lineId", s.submitted_month::text AS month,
             CASE WHEN l.currency = trim(s.org_currency) THEN sum(s.amount_org)::text WHEN l.currency = trim(s.currency) THEN sum(s.amount)::text END AS direct,
             sum(s.amount)::text AS amount, trim(s.currency) AS currency
        FROM l JOIN spend_monthly s
          ON s.organization_id = l.organization_id
         AND (l.department_id IS NULL OR s.department_id = l.department_id)
         AND (l.category_id IS NULL OR s.category_id = l.category_id)
       WHERE s.status IN ('pending', 'info_requested', 'approved', 'paid')
         AND s.submitted_month BETWEEN ${from} AND ${to}
       GROUP BY l.id, l.currency, s.submitted_month, s.org_currency, s.currency
      UNION ALL
      SELECT l.id, pr.period::text,
             CASE WHEN l.currency = trim(pr.currency) THEN sum(pl.employer_cost)::text END,
             sum(pl.employer_cost)::text, trim(pr.currency)
        FROM l
        JOIN payroll_runs pr ON pr.organization_id = l.organization_id AND pr.status IN ('approved', 'paid') AND pr.period BETWEEN ${from} AND ${to}
        JOIN payroll_lines pl ON pl.run_id = pr.id AND (l.department_id IS NULL OR pl.department_id = l.department_id)
       WHERE l.counts_payroll
       GROUP BY l.id, l.currency, pr.period, pr.currency`),
  ).map((r) => ({ ...r, month: String(r.month).trim() }));
}
