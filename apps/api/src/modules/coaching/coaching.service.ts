import Decimal from 'decimal.js';
import {
  COACHING_MIN_PEERS,
  FINDING_KIND_LABELS,
  POLICY_ACTION_LABELS,
  requestReference,
  serverFormat,
  type Coaching,
  type CoachingMedianWithheld,
  type PolicyAction,
} from '@outlay/contracts';
import { roundToCurrency } from '@outlay/contracts/money';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { groupCurrency } from '../../lib/fx.ts';
import { addMonths, monthsOf } from '../../lib/months.ts';
import { findingsAbout } from '../findings/index.ts';
import { inForce, summarize, allRules } from '../policies/index.ts';
import * as repo from './coaching.repository.ts';

const MONTHS = 12;

/** The caller's own coaching over the last twelve months: only their requests, whatever their role. */
export async function myCoaching(ctx: Ctx): Promise<Coaching> {
  const auth = requireAuth(ctx);
  const to = ctx.now.toISOString().slice(0, 7);
  const from = addMonths(to, -(MONTHS - 1));
  const start = new Date(`${from}-01T00:00:00Z`);

  const own = new Map((await repo.ownMonths(ctx.db, auth.userId, start)).map((m) => [m.month, m]));
  const found = await findingsAbout(ctx, MONTHS);
  const analyticsByMonth = new Map<string, number>();
  for (const f of found) {
    const month = [...f.requests].sort((a, b) => b.day.localeCompare(a.day))[0]!.day.slice(0, 7);
    analyticsByMonth.set(month, (analyticsByMonth.get(month) ?? 0) + 1);
  }
  const months = monthsOf(from, to).map((month) => ({
    month,
    requests: own.get(month)?.requests ?? 0,
    flagged: own.get(month)?.flagged ?? 0,
    analytics: analyticsByMonth.get(month) ?? 0,
  }));

  const returnedRows = await repo.returned(ctx.db, auth.userId, start, 20);
  const hits = await repo.policyHits(ctx.db, auth.userId, start);

  // Spend: mine against the median person of my department (group currency).
  const currency = await groupCurrency(ctx.db);
  const mine = roundToCurrency(new Decimal(await repo.ownSpend(ctx.db, auth.userId, start)), currency);
  let departmentMedian: string | null = null;
  let departmentMedianWithheld: CoachingMedianWithheld | null = 'no_department';
  let departmentName: string | null = null;
  let departmentPeople = 0;
  if (auth.departmentId) {
    const people = await repo.departmentSpend(ctx.db, auth.departmentId, start);
    departmentPeople = people.length;
    departmentName = await repo.departmentName(ctx.db, auth.departmentId);
    // A median of a handful of people is a figure about each of them: over three it is the middle
    // colleague's exact twelve months. None is computed below COACHING_MIN_PEERS.
    departmentMedianWithheld = people.length < COACHING_MIN_PEERS ? 'too_few_people' : null;
    if (departmentMedianWithheld === null) {
      // The median of exact amounts: the middle one, or the mean of the two middle ones, in decimals.
      const sorted = people.map((p) => new Decimal(p.amount)).sort((a, b) => a.comparedTo(b));
      const mid = Math.floor(sorted.length / 2);
      const m = sorted.length % 2 ? sorted[mid]! : sorted[mid - 1]!.plus(sorted[mid]!).div(2);
      departmentMedian = roundToCurrency(m, currency);
    }
  }

  const tips: Coaching['tips'] = [];
  // The rules that flagged my requests, most often first, in the rule's own words.
  const rules = (await allRules(ctx.db)).filter((r) => auth.organizationId && inForce(r, auth.organizationId, ctx.now));
  const ruleById = new Map(rules.map((r) => [r.id, r]));
  for (const h of hits.slice(0, 3)) {
    const rule = ruleById.get(h.ruleId);
    const what = rule ? summarize(rule) : h.message;
    tips.push({
      title: h.ruleName,
      body: `${what}. ${POLICY_ACTION_LABELS[h.action as PolicyAction] ?? 'Flagged'} when it applies: check this before you submit, and attach what it asks for.`,
      basis: `${serverFormat.number(h.count)} of your requests ${h.count === 1 ? 'was' : 'were'} flagged by it`,
    });
  }
  const kinds = new Set(found.map((f) => f.draft.kind));
  const count = (kind: string) => found.filter((f) => f.draft.kind === kind).length;
  if (kinds.has('duplicate')) {
    tips.push({
      title: 'Check before raising a request again',
      body: 'Two of your requests had the same vendor and amount within a week. Look in My Requests first; if the first one is waiting, add a comment to it instead of raising another.',
      basis: `${serverFormat.plural(count('duplicate'), 'likely duplicate')} found`,
    });
  }
  if (kinds.has('split')) {
    const first = found.find((f) => f.draft.kind === 'split')!;
    tips.push({
      title: 'One purchase, one request',
      body: `Requests just under an approval threshold in quick succession look like one purchase split to avoid approval (${first.draft.title.toLowerCase()}). Raise the whole amount once: it is routed to the right approver.`,
      basis: `${serverFormat.plural(count('split'), 'split purchase')} found`,
    });
  }
  if (kinds.has('timing')) {
    const weekend = rules.find((r) => r.kind === 'weekend_spend');
    tips.push({
      title: 'Date expenses on the day they happened',
      body: `Many of your requests are dated on weekends or public holidays.${weekend ? ` Policy: ${summarize(weekend)}.` : ''} If the work really happened then, say so in the justification.`,
      basis: FINDING_KIND_LABELS.timing,
    });
  }
  if (kinds.has('outlier')) {
    tips.push({
      title: 'Explain the unusually large ones',
      body: 'Some of your requests are far above what your organization usually spends in their category. A justification and a quote up front save a round trip with the approver.',
      basis: `${serverFormat.plural(count('outlier'), 'amount outlier')} found`,
    });
  }
  const reasons = returnedRows.filter((r) => r.reason);
  if (reasons.length > 0) {
    const top = [
      ...reasons.reduce((m, r) => m.set(r.reason!, (m.get(r.reason!) ?? 0) + 1), new Map<string, number>()),
    ].sort((a, b) => b[1] - a[1])[0]!;
    tips.push({
      title: 'Why requests came back',
      body: `The reason approvers gave most often: “${top[0]}”. Read it before the next request of the same kind.`,
      basis: `${serverFormat.plural(returnedRows.length, 'request')} rejected or sent back in twelve months`,
    });
  }
  if (departmentMedian && new Decimal(mine).gt(new Decimal(departmentMedian).mul(2))) {
    tips.push({
      title: 'Your spend is well above your department’s median',
      body: `${serverFormat.money(mine, currency)} approved in twelve months against a median of ${serverFormat.money(departmentMedian, currency)} in ${departmentName ?? 'your department'}. That may be your job; if not, ask whether a framework contract or a shared budget fits better.`,
      basis: `${departmentPeople} people in ${departmentName ?? 'your department'}`,
    });
  }
  if (tips.length === 0) {
    for (const r of rules.slice(0, 3))
      tips.push({ title: r.name, body: `${summarize(r)}.`, basis: 'A policy in force in your organization' });
  }

  return {
    from,
    to,
    months,
    findings: found.map((f) => ({
      kind: f.draft.kind,
      title: f.draft.title,
      detail: f.draft.detail,
      requests: f.requests.slice(0, 20).map((r) => ({ id: r.id, reference: requestReference(r.seq), title: r.title })),
    })),
    returned: returnedRows.map((r) => ({
      id: r.id,
      reference: requestReference(r.seq),
      title: r.title,
      decision: r.decision,
      reason: r.reason,
      decidedAt: r.decidedAt.toISOString(),
      deciderName: r.deciderName,
    })),
    spend: { currency, mine, departmentMedian, departmentMedianWithheld, departmentName, departmentPeople },
    tips,
  };
}
