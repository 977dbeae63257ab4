import type { FinancialFlow, FlowNode } from '@outlay/contracts/financial-flow';
import { addMoney, toAmountString } from '@outlay/contracts/money';
import { FLOW_KIND_PLURALS } from './flow-colors';

/** Nodes a column shows before the rest fold into one "Other …" node (the table lists them all). */
const PER_COLUMN = 12;
export const OTHER_PREFIX = 'other:';

/**
 * A year of a group has more vendors and departments than a diagram can label: each column
 * keeps its largest nodes and folds the rest into one "N other vendors" node, amounts added
 * exactly. Folded nodes open no request list; the table below has each of them. The diagram
 * and its phone form (the columns stacked as cards) show the same nodes.
 */
export function foldSmallNodes(flow: FinancialFlow): { nodes: FlowNode[]; links: FinancialFlow['links'] } {
  const into = new Map<string, string>();
  const nodes: FlowNode[] = [];
  for (const kind of ['organization', 'department', 'category', 'vendor'] as const) {
    const column = flow.nodes.filter((n) => n.kind === kind);
    nodes.push(...column.slice(0, PER_COLUMN));
    const rest = column.slice(PER_COLUMN);
    if (rest.length === 0) continue;
    const id = `${OTHER_PREFIX}${kind}`;
    for (const n of rest) into.set(n.id, id);
    nodes.push({
      id,
      kind,
      name: `${rest.length} other ${FLOW_KIND_PLURALS[kind].toLowerCase()}`,
      organizationName: null,
      amount: toAmountString(addMoney(...rest.map((n) => n.amount))),
      requestCount: rest.reduce((c, n) => c + n.requestCount, 0),
    });
  }
  const links = new Map<string, FinancialFlow['links'][number]>();
  for (const l of flow.links) {
    const source = into.get(l.source) ?? l.source;
    const target = into.get(l.target) ?? l.target;
    const key = `${source}>${target}`;
    const seen = links.get(key);
    links.set(
      key,
      seen
        ? {
            ...seen,
            amount: toAmountString(addMoney(seen.amount, l.amount)),
            requestCount: seen.requestCount + l.requestCount,
          }
        : { ...l, source, target },
    );
  }
  return { nodes, links: [...links.values()] };
}
