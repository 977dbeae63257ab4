import { useState } from 'react';
import type { FinancialFlow, FlowNode } from '@outlay/contracts/financial-flow';
import { FLOW_NODE_KIND_LABELS } from '@outlay/contracts/financial-flow';
import { Button } from '@/components/ui/button';
import { formatMoney, plural } from '@/lib/format';

const FIRST_ROWS = 25;

function NodeButton({ node, onSelect }: { node: FlowNode; onSelect: (node: FlowNode) => void }) {
  return (
    <>
      <Button
        variant="link"
        className="h-auto min-w-0 p-0 text-left whitespace-normal"
        onClick={() => onSelect(node)}
        aria-label={`${node.name}: show its requests`}
      >
        {node.name}
      </Button>
      {node.organizationName && <span className="text-xs text-muted-foreground"> · {node.organizationName}</span>}
    </>
  );
}

/**
 * Every band of the diagram as a row (from, to, amount), for the keyboard and screen readers;
 * a name opens the requests behind that node. Cards on a phone.
 */
export function FlowTable({ flow, onSelect }: { flow: FinancialFlow; onSelect: (node: FlowNode) => void }) {
  const byId = new Map(flow.nodes.map((n) => [n.id, n]));
  const [all, setAll] = useState(false);
  const every = flow.links.map((l) => ({ link: l, source: byId.get(l.source)!, target: byId.get(l.target)! }));
  // A group's year holds hundreds of flows: the first ones, then all on demand.
  const rows = all ? every : every.slice(0, FIRST_ROWS);
  return (
    <>
      <table className="hidden w-full text-sm sm:table">
        <caption className="sr-only">Each flow of the diagram with its amount in {flow.currency}</caption>
        <thead>
          <tr className="border-b text-left text-muted-foreground">
            <th scope="col" className="p-2 font-medium">
              From
            </th>
            <th scope="col" className="p-2 font-medium">
              To
            </th>
            <th scope="col" className="p-2 text-right font-medium">
              Requests
            </th>
            <th scope="col" className="p-2 text-right font-medium">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ link, source, target }) => (
            <tr key={`${link.source}>${link.target}`} className="border-b last:border-0">
              <td className="p-2">
                <span className="block text-xs text-muted-foreground">{FLOW_NODE_KIND_LABELS[source.kind]}</span>
                <NodeButton node={source} onSelect={onSelect} />
              </td>
              <td className="p-2">
                <span className="block text-xs text-muted-foreground">{FLOW_NODE_KIND_LABELS[target.kind]}</span>
                <NodeButton node={target} onSelect={onSelect} />
              </td>
              <td className="p-2 text-right tabular-nums">{link.requestCount}</td>
              <td className="p-2 text-right tabular-nums">{formatMoney(link.amount, flow.currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="flex flex-col gap-2 sm:hidden" aria-label={`Each flow with its amount in ${flow.currency}`}>
        {rows.map(({ link, source, target }) => (
          <li
            key={`${link.source}>${link.target}`}
            className="flex min-w-0 flex-col gap-1 rounded-lg border p-3 text-sm"
          >
            <span className="min-w-0 break-words">
              <NodeButton node={source} onSelect={onSelect} /> <span aria-label="to">→</span>{' '}
              <NodeButton node={target} onSelect={onSelect} />
            </span>
            <span className="flex justify-between gap-2 text-muted-foreground">
              <span>{plural(link.requestCount, 'request')}</span>
              <span className="font-medium text-foreground tabular-nums">
                {formatMoney(link.amount, flow.currency)}
              </span>
            </span>
          </li>
        ))}
      </ul>
      {every.length > rows.length && (
        <Button variant="outline" size="sm" className="mt-3" onClick={() => setAll(true)}>
          Show all {every.length} flows
        </Button>
      )}
    </>
  );
}
