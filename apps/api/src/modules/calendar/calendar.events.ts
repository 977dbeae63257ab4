// The dates a person's calendar holds, read from the records they stand for within what the
// person may see right now. The feed and the screen's preview both come from here.
import {
  PAYROLL_RUN_STATUS_LABELS,
  REQUEST_STATUS_LABELS,
  budgetPeriodLabel,
  movedDateNote,
  periodBounds,
  requestReference,
  serverFormat,
  type CalendarEvent,
} from '@outlay/contracts';
import { budgetLines, payrollRuns, type Db } from '@outlay/db';
import type { AuthInfo } from '../../lib/context.ts';
import { scopeCondition, scopeOf } from '../../lib/scope.ts';
import * as repo from './calendar.repository.ts';

const DAY_MS = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

export function windowOf(now: Date, pastDays: number, futureDays: number): repo.Window {
  const from = new Date(now.getTime() - pastDays * DAY_MS);
  const to = new Date(now.getTime() + futureDays * DAY_MS);
  return { from, to, fromDate: isoDay(from), toDate: isoDay(to) };
}

const uidOf = (kind: CalendarEvent['kind'], id: string) => `${kind}-${id}@outlay`;

/** Payroll runs are read by those who prepare them and those who approve them, each in their scope. */
function payrollScope(auth: AuthInfo) {
  const manage = scopeOf(auth, 'payroll.manage');
  const approve = scopeOf(auth, 'payroll.approve');
  if (!manage && !approve) return null;
  const permission = manage === 'group' || !approve ? 'payroll.manage' : 'payroll.approve';
  return { condition: scopeCondition(auth, permission, { organizationId: payrollRuns.organizationId }) };
}

function budgetScope(auth: AuthInfo) {
  if (!scopeOf(auth, 'budgets.read')) return null;
  return {
    condition: scopeCondition(auth, 'budgets.read', {
      organizationId: budgetLines.organizationId,
      departmentId: budgetLines.departmentId,
    }),
  };
}

/** A pay date that moved to a business day says from when and why. */
function paysOn(
  run: { payDate: string | null; payDateAdjustedFrom: string | null; payDateAdjustedReason: string | null },
  fmt: typeof serverFormat,
): string[] {
  const note = movedDateNote(run.payDateAdjustedFrom, run.payDateAdjustedReason, (d) => fmt.date(d));
  return note ? [`Pays on ${fmt.date(run.payDate)}, ${note}.`] : [];
}

/** Every event of the person's calendar in the window, sorted by when it happens. */
export async function eventsFor(db: Db, auth: AuthInfo, window: repo.Window): Promise<CalendarEvent[]> {
  const events: CalendarEvent[] = [];
  const fmt = serverFormat;

  if (scopeOf(auth, 'approvals.act')) {
    for (const a of await repo.dueApprovals(db, { userId: auth.userId, window })) {
      const reference = requestReference(a.seq);
      events.push({
        uid: uidOf('approval', a.stepId),
        kind: 'approval',
        title: `${reference} ${a.title}`,
        description: [
          `${a.stepName} of ${reference} "${a.title}" is waiting for your decision.`,
          `Requested by ${`${a.requesterFirstName} ${a.requesterLastName}`.trim()} for ${fmt.money(a.amount, a.currency)}.`,
          `Due ${fmt.dateTime(a.dueAt!)} (UTC).`,
        ].join('\n'),
        start: new Date(a.dueAt!).toISOString(),
        allDay: false,
        path: '/approvals',
      });
    }
  }

  const payroll = payrollScope(auth);
  if (payroll) {
    for (const run of await repo.payrollDates(db, { scope: payroll.condition, window })) {
      const month = fmt.month(run.period);
      events.push({
        uid: uidOf('payroll', run.id),
        kind: 'payroll',
        title: `${run.organizationName} · ${month}`,
        description: [
          `Payroll of ${run.organizationName} for ${month} (period ends ${fmt.date(periodBounds(run.period).end)}).`,
          `Status: ${PAYROLL_RUN_STATUS_LABELS[run.status]}. Net pay ${fmt.money(run.netTotal, run.currency)}.`,
          ...paysOn(run, fmt),
        ].join('\n'),
        start: run.payDate!,
        allDay: true,
        path: `/payroll?run=${run.id}`,
      });
    }
  }

  const budgets = budgetScope(auth);
  if (budgets) {
    for (const line of await repo.budgetPeriodEnds(db, { scope: budgets.condition, window })) {
      const where = [line.organizationName, line.departmentName, line.categoryName].filter(Boolean).join(' · ');
      const period = budgetPeriodLabel(line.periodType, line.periodStart, line.fiscalYearStartMonth);
      events.push({
        uid: uidOf('budget', line.id),
        kind: 'budget',
        title: `${where} (${period})`,
        description: `The ${period} budget of ${where}, ${fmt.money(line.amount, line.currency)}, ends on ${fmt.date(line.periodEnd)}.`,
        start: line.periodEnd,
        allDay: true,
        path: '/budget-vs-actual',
      });
    }
  }

  for (const r of await repo.neededByDates(db, { userId: auth.userId, window })) {
    const reference = requestReference(r.seq);
    events.push({
      uid: uidOf('request', r.id),
      kind: 'request',
      title: `${reference} ${r.title}`,
      description: `Your request ${reference} "${r.title}" (${fmt.money(r.amount, r.currency)}, ${REQUEST_STATUS_LABELS[r.status].toLowerCase()}) is needed by ${fmt.date(r.neededBy!)}.`,
      start: r.neededBy!,
      allDay: true,
      path: `/requests?id=${r.id}`,
    });
  }

  // All-day dates sort at the start of their day, before that day's deadlines.
  const at = (e: CalendarEvent) => (e.allDay ? `${e.start}T00:00:00.000Z` : e.start);
  return events.sort((a, b) => at(a).localeCompare(at(b)) || a.uid.localeCompare(b.uid));
}
