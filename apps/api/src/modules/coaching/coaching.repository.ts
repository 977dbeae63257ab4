// The caller's own requests over the window (by the requester index), the decisions that sent
// them back, and the spend of the people of their department (a department's requests over the
// window, by the department index): bounded by one person or one department.
import { sql } from 'drizzle-orm';
import type { Db } from '@outlay/db';
import { rowsOf } from '../../lib/sql.ts';

export interface OwnMonthRow {
  month: string;
  requests: number;
  flagged: number;
}

export async function ownMonths(db: Db, userId: string, start: Date): Promise<OwnMonthRow[]> {
  return rowsOf<OwnMonthRow>(
    await db.execute(sql`
      SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, count(*)::int AS requests,
             count(*) FILTER (WHERE jsonb_array_length(policy_findings) > 0)::int AS flagged
        FROM spending_requests
       WHERE requester_id = ${userId} AND created_at >= ${start.toISOString()} AND status <> 'draft'
       GROUP BY 1`),
  ).map((r) => ({ month: String(r.month), requests: Number(r.requests), flagged: Number(r.flagged) }));
}

export interface PolicyHitRow {
  ruleId: string;
  ruleName: string;
  kind: string;
  action: string;
  message: string;
  count: number;
}

/** The policy findings recorded on the caller's requests at submission, by rule. */
export async function policyHits(db: Db, userId: string, start: Date): Promise<PolicyHitRow[]> {
  return rowsOf<PolicyHitRow>(
    await db.execute(sql`
      SELECT f->>'ruleId' AS "ruleId", max(f->>'ruleName') AS "ruleName", max(f->>'kind') AS kind, max(f->>'action') AS action,
             max(f->>'message') AS message, count(*)::int AS count
        FROM spending_requests r CROSS JOIN LATERAL jsonb_array_elements(r.policy_findings) f
       WHERE r.requester_id = ${userId} AND r.created_at >= ${start.toISOString()} AND r.status <> 'draft'
       GROUP BY 1 ORDER BY count(*) DESC`),
  ).map((r) => ({ ...r, count: Number(r.count) }));
}

export interface ReturnedRow {
  id: string;
  seq: number;
  title: string;
  decision: 'rejected' | 'info_requested';
  reason: string | null;
  decidedAt: Date;
  deciderName: string;
}

export async function returned(db: Db, userId: string, start: Date, limit: number): Promise<ReturnedRow[]> {
  return rowsOf<ReturnedRow>(
    await db.execute(sql`
      SELECT r.id, r.seq, r.title, d.decision, d.reason, d.created_at AS "decidedAt", u.first_name || ' ' || u.last_name AS "deciderName"
        FROM spending_requests r
        JOIN approval_decisions d ON d.request_id = r.id AND d.decision IN ('rejected', 'info_requested')
        JOIN users u ON u.id = d.decider_id
       WHERE r.requester_id = ${userId} AND r.created_at >= ${start.toISOString()}
       ORDER BY d.created_at DESC LIMIT ${limit}`),
  ).map((r) => ({ ...r, seq: Number(r.seq), decidedAt: new Date(r.decidedAt) }));
}

/** Each person's approved and paid spend (group currency, fixed at submission) in a department, decided in the window. */
export async function departmentSpend(
  db: Db,
  departmentId: string,
  start: Date,
): Promise<{ requesterId: string; amount: string }[]> {
  return rowsOf<{ requesterId: string; amount: string }>(
    await db.execute(sql`
      SELECT requester_id AS "requesterId",
             sum(CASE WHEN approved_amount IS NOT NULL AND approved_amount <> amount THEN round(approved_amount * group_fx_rate, 2) ELSE amount_group END)::text AS amount
        FROM spending_requests
       WHERE department_id = ${departmentId} AND created_at >= ${start.toISOString()} AND status IN ('approved', 'paid')
       GROUP BY requester_id`),
  );
}

export async function departmentName(db: Db, id: string): Promise<string | null> {
  const [row] = rowsOf<{ name: string }>(await db.execute(sql`SELECT name FROM departments WHERE id = ${id}`));
  return row?.name ?? null;
}

export async function ownSpend(db: Db, userId: string, start: Date): Promise<string> {
  const [row] = rowsOf<{ amount: string | null }>(
    await db.execute(sql`
      SELECT sum(CASE WHEN approved_amount IS NOT NULL AND approved_amount <> amount THEN round(approved_amount * group_fx_rate, 2) ELSE amount_group END)::text AS amount
        FROM spending_requests WHERE requester_id = ${userId} AND created_at >= ${start.toISOString()} AND status IN ('approved', 'paid')`),
  );
  return row?.amount ?? '0';
}
