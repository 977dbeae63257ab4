import { FLOW_NODE_KIND_VALUES, type FinancialFlow, type FlowNode } from '@outlay/contracts/financial-flow';
import { parseMoney } from '@outlay/contracts/money';
import { CardList, ListCard } from '@/components/data-table';
import { formatMoney, formatPercent, plural } from '@/lib/format';
import { FLOW_KIND_COLORS, FLOW_KIND_PLURALS } from './flow-colors';
import { foldSmallNodes, OTHER_PREFIX } from './flow-fold';

/** The node's share of the flow's total, in percent (0 when the total is nothing). */
function shareOf(node: FlowNode, total: string): string {
  const whole = parseMoney(total);
  return whole.lte(0) ? '0' : parseMoney(node.amount).div(whole).mul(100).toFixed(1);
}

/**
 * The diagram on a phone: its four columns (organizations, departments, categories, vendors)
 * stacked, each node a card with its amount and its share of the total as a bar in the column's
 * colour, the same nodes as the diagram draws. A card opens the node's requests, as a click on
 * a bar of the diagram does.
 */
export function FlowColumns({ flow, onSelect }: { flow: FinancialFlow; onSelect: (node: FlowNode) => void }) {
  const { nodes } = foldSmallNodes(flow);
  return (
    <div className="flex min-w-0 flex-col gap-4" data-testid="flow-columns">
      {FLOW_NODE_KIND_VALUES.map((kind) => {
        const column = nodes.filter((n) => n.kind === kind);
        if (column.length === 0) return null;
        return (
          <div key={kind} className="flex min-w-0 flex-col gap-2">
            <h3 className="flex items-center gap-2 text-sm font-semibold">
              <span
                className="inline-block size-3 rounded-sm"
                style={{ background: FLOW_KIND_COLORS[kind] }}
                aria-hidden="true"
              />
              {FLOW_KIND_PLURALS[kind]}
            </h3>
            <CardList
              className=""
              items={column}
              label={FLOW_KIND_PLURALS[kind]}
              getKey={(n) => n.id}
              renderCard={(n) => {
                const share = shareOf(n, flow.total);
                const folded = n.id.startsWith(OTHER_PREFIX);
                return (
                  <ListCard
                    title={n.name}
                    subtitle={folded ? 'Each of them is in the table of flows' : (n.organizationName ?? undefined)}
                    onOpen={folded ? undefined : () => onSelect(n)}
                    openLabel={`${n.name}: show its requests`}
                    meta={
                      <span className="flex items-center gap-2 whitespace-nowrap">
                        <span className="h-1.5 w-10 shrink-0 overflow-hidden rounded-full bg-muted" aria-hidden="true">
                          <span
                            className="block h-full rounded-full"
                            style={{ width: `${share}%`, background: FLOW_KIND_COLORS[kind] }}
                          />
                        </span>
                        {formatPercent(share)} · {plural(n.requestCount, 'request')}
                      </span>
                    }
                    amount={formatMoney(n.amount, flow.currency)}
                    testId="flow-column-node"
                  />
                );
              }}
            />
          </div>
        );
      })}
    </div>
  );
}
