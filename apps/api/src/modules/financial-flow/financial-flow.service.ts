// Financial flow: organization → department → category → vendor for a period, in the group
// currency. Every aggregate row is translated exactly at its month's average rate before it is
// grouped, and each node, link and the total is rounded once (lib/spend.ts, docs/decisions/029):
// the total is the spend of the same filter on every screen to the cent, and a column adds up to
// it within half a cent per node.
import {
  DEFAULT_FLOW_STATUSES,
  FLOW_NONE_LABELS,
  requestReference,
  type FinancialFlow,
  type FlowLink,
  type FlowNode,
  type FlowNodeKind,
  type FlowRequestPage,
  type FlowStatus,
} from '@outlay/contracts';
import { compareMoney } from '@outlay/contracts/money';
import { requireAuth, type Ctx } from '../../lib/context.ts';
import { FxCache, groupCurrency } from '../../lib/fx.ts';
import { page } from '../../lib/lists.ts';
import { reportPeriod } from '../../lib/months.ts';
import { scopeCondition } from '../../lib/scope.ts';
import { exactRows, spendRows, spendScopeColumns, sumIn, type SpendRow } from '../../lib/spend.ts';
import { spendingRequests, type Db } from '@outlay/db';
import type { SQL } from 'drizzle-orm';
import * as repo from './financial-flow.repository.ts';

/** The longest period one diagram covers, in months. */
export const FLOW_MAX_MONTHS = 36;

interface FlowFilter {
  from?: string;
  to?: string;
  status?: FlowStatus[];
  organizationId?: string;
  departmentId?: string;
  categoryId?: string;
}

/**
 * The aggregate rows of a flow: approved and paid by the month of their decision, pending by
 * the month of submission (a pending request has no decision month yet).
 */
export async function flowRows(
  db: Db,
  scope: SQL | undefined,
  f: {
    from: string;
    to: string;
    statuses: readonly FlowStatus[];
    organizationId?: string;
    departmentId?: string;
    categoryId?: string;
  },
): Promise<SpendRow[]> {
  const common = {
    from: f.from,
    to: f.to,
    organizationIds: f.organizationId ? [f.organizationId] : undefined,
    departmentIds: f.departmentId ? [f.departmentId] : undefined,
    categoryIds: f.categoryId ? [f.categoryId] : undefined,
  };
  const decided = f.statuses.filter((s) => s !== 'pending');
  const [done, waiting] = await Promise.all([
    decided.length ? spendRows(db, scope, { ...common, monthOf: 'decided', statuses: decided }) : [],
    f.statuses.includes('pending')
      ? spendRows(db, scope, { ...common, monthOf: 'submitted', statuses: ['pending'] })
      : [],
  ]);
  return [...done, ...waiting];
}

const LEVELS: FlowNodeKind[] = ['organization', 'department', 'category', 'vendor'];
const nodeId = (kind: FlowNodeKind, id: string | null) => `${kind}:${id ?? 'none'}`;
const recordOf = (r: SpendRow, kind: FlowNodeKind): string | null =>
  kind === 'organization'
    ? r.organizationId
    : kind === 'department'
      ? r.departmentId
      : kind === 'category'
        ? r.categoryId
        : r.vendorId;

interface Tally {
  amounts: string[];
  requestCount: number;
}
function tally(map: Map<string, Tally>, key: string, amount: string, n: number) {
  const t = map.get(key) ?? { amounts: [], requestCount: 0 };
  t.amounts.push(amount);
  t.requestCount += n;
  map.set(key, t);
}

export async function financialFlow(ctx: Ctx, query: FlowFilter): Promise<FinancialFlow> {
  const auth = requireAuth(ctx);
  const scope = scopeCondition(auth, 'reports.read', spendScopeColumns);
  const { from, to } = reportPeriod(query, ctx.now, FLOW_MAX_MONTHS);
  const statuses = query.status ?? [...DEFAULT_FLOW_STATUSES];
  const currency = await groupCurrency(ctx.db);
  const rows = await exactRows(
    new FxCache(ctx.db),
    await flowRows(ctx.db, scope, { ...query, from, to, statuses }),
    currency,
  );

  const nodes = new Map<string, Tally>();
  const links = new Map<string, Tally>();
  for (const r of rows) {
    const path = LEVELS.map((kind) => nodeId(kind, recordOf(r, kind)));
    path.forEach((id, i) => {
      tally(nodes, id, r.translated, r.requestCount);
      if (i > 0) tally(links, `${path[i - 1]}>${id}`, r.translated, r.requestCount);
    });
  }

  const ids = {
    organization: [] as string[],
    department: [] as string[],
    category: [] as string[],
    vendor: [] as string[],
  };
  for (const id of nodes.keys()) {
    const [kind, record] = id.split(':') as [FlowNodeKind, string];
    if (record !== 'none') ids[kind].push(record);
  }
  const names = await repo.namesOf(ctx.db, ids);
  const nameOf = (id: string): { name: string; organizationName: string | null } => {
    const [kind, record] = id.split(':') as [FlowNodeKind, string];
    if (record === 'none')
      return { name: FLOW_NONE_LABELS[kind as Exclude<FlowNodeKind, 'organization'>], organizationName: null };
    const named = names[kind].get(record);
    return { name: named?.name ?? 'Unknown', organizationName: named?.organizationName ?? null };
  };

  const byAmount = (a: { amount: string }, b: { amount: string }) => compareMoney(b.amount, a.amount);
  const outNodes: FlowNode[] = [...nodes.entries()]
    .map(([id, t]) => ({
      id,
      kind: id.split(':')[0] as FlowNodeKind,
      ...nameOf(id),
      amount: sumIn(t.amounts, currency),
      requestCount: t.requestCount,
    }))
    .sort((a, b) => LEVELS.indexOf(a.kind) - LEVELS.indexOf(b.kind) || byAmount(a, b) || a.name.localeCompare(b.name));
  const order = new Map(outNodes.map((n, i) => [n.id, i]));
  const outLinks: FlowLink[] = [...links.entries()]
    .map(([key, t]) => {
      const [source, target] = key.split('>') as [string, string];
      return { source, target, amount: sumIn(t.amounts, currency), requestCount: t.requestCount };
    })
    .sort((a, b) => order.get(a.source)! - order.get(b.source)! || order.get(a.target)! - order.get(b.target)!);

  return {
    from,
    to,
    statuses,
    currency,
    total: sumIn(
      rows.map((r) => r.translated),
      currency,
    ),
    requestCount: rows.reduce((n, r) => n + r.requestCount, 0),
    nodes: outNodes,
    links: outLinks,
  };
}

export async function flowRequests(
  ctx: Ctx,
  query: FlowFilter & {
    node: string;
    page: number;
    pageSize: number;
    sort?: string;
    order: 'asc' | 'desc';
    q?: string;
  },
): Promise<FlowRequestPage> {
  const auth = requireAuth(ctx);
  const scope = scopeCondition(auth, 'reports.read', {
    organizationId: spendingRequests.organizationId,
    departmentId: spendingRequests.departmentId,
  });
  const { from, to } = reportPeriod(query, ctx.now, FLOW_MAX_MONTHS);
  const statuses = query.status ?? [...DEFAULT_FLOW_STATUSES];
  const [kind, record] = query.node.toLowerCase().split(':') as [FlowNodeKind, string];
  const { rows, total } = await repo.flowRequests(
    ctx.db,
    {
      scope,
      from,
      to,
      statuses,
      organizationId: query.organizationId,
      departmentId: query.departmentId,
      categoryId: query.categoryId,
      node: { kind, id: record === 'none' ? null : record },
    },
    query,
  );
  const currency = await groupCurrency(ctx.db);
  const fx = new FxCache(ctx.db);
  const items = await Promise.all(
    rows.map(async (r) => ({
      id: r.id,
      reference: requestReference(r.seq),
      title: r.title,
      status: r.status,
      month: r.month,
      organizationName: r.organizationName,
      departmentName: r.departmentName,
      categoryName: r.categoryName,
      vendorName: r.vendorName,
      amount: r.amount,
      currency: r.currency.trim(),
      amountGroup: await fx.amount(r.amountOrg, r.orgCurrency.trim(), currency, `${r.month}-01`),
    })),
  );
  return { ...page(items, total, query), currency };
}
