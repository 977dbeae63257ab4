import { useEffect, useRef, useState } from 'react';
import { Sankey, Tooltip } from 'recharts';
import type { FinancialFlow, FlowNode } from '@outlay/contracts/financial-flow';
import { formatMoney, plural } from '@/lib/format';
import { FLOW_KIND_COLORS } from './flow-colors';
import { foldSmallNodes, OTHER_PREFIX } from './flow-fold';

/** Drawn at least this wide: on a narrow tablet the diagram scrolls sideways inside its card (a phone stacks its columns instead). */
const MIN_WIDTH = 880;
const LABEL_CHARS = 26;

interface DrawnNode {
  name: string;
  node: FlowNode;
}
interface DrawnLink {
  source: number;
  target: number;
  value: number;
  amount: string;
}

function short(name: string): string {
  return name.length > LABEL_CHARS ? `${name.slice(0, LABEL_CHARS - 1)}…` : name;
}

interface ShapeProps {
  x: number;
  y: number;
  width: number;
  height: number;
  payload: DrawnNode;
}

function NodeShape({ x, y, width, height, payload, selected }: ShapeProps & { selected: string | null }) {
  const n = payload.node;
  // The last column's labels sit on the left of their bar, so none runs off the diagram.
  const last = n.kind === 'vendor';
  return (
    <g style={{ cursor: n.id.startsWith(OTHER_PREFIX) ? 'default' : 'pointer' }} data-node={n.id}>
      <rect
        x={x}
        y={y}
        width={width}
        height={Math.max(height, 2)}
        fill={FLOW_KIND_COLORS[n.kind]}
        stroke={selected === n.id ? '#0f172a' : 'none'}
        strokeWidth={2}
        rx={2}
      />
      <text
        x={last ? x - 6 : x + width + 6}
        y={y + height / 2}
        textAnchor={last ? 'end' : 'start'}
        dominantBaseline="middle"
        fontSize={12}
        fill="#0f172a"
      >
        <title>{n.name}</title>
        {short(n.name)}
      </text>
    </g>
  );
}

function FlowTooltip({
  active,
  payload,
  currency,
}: {
  active?: boolean;
  payload?: readonly { payload?: unknown }[];
  currency: string;
}) {
  const item = payload?.[0]?.payload as { payload?: unknown } | undefined;
  if (!active || !item) return null;
  // Recharts hands over the node or the link it drew, sometimes wrapped once more.
  const drawn = (item.payload ?? item) as Partial<DrawnNode> & {
    source?: DrawnNode;
    target?: DrawnNode;
    amount?: string;
  };
  let title: string;
  let amount: string;
  let count: number;
  if (drawn.node) {
    title = drawn.node.organizationName ? `${drawn.node.name} · ${drawn.node.organizationName}` : drawn.node.name;
    amount = drawn.node.amount;
    count = drawn.node.requestCount;
  } else if (drawn.source && drawn.target && drawn.amount) {
    title = `${drawn.source.name} → ${drawn.target.name}`;
    amount = drawn.amount;
    count = -1;
  } else return null;
  return (
    <div className="rounded-md border bg-white px-3 py-2 text-sm shadow-md">
      <p className="font-medium">{title}</p>
      <p className="tabular-nums">{formatMoney(amount, currency)}</p>
      {count >= 0 && (
        <p className="text-xs text-muted-foreground">
          {plural(count, 'request')} ·{' '}
          {drawn.node?.id.startsWith(OTHER_PREFIX) ? 'each is in the table below' : 'click for the list'}
        </p>
      )}
    </div>
  );
}

/**
 * The flow as a Sankey diagram: columns organization → department → category → vendor, a
 * band's width its amount. A node opens its requests when clicked; the table beside it offers
 * the same to the keyboard and to screen readers, so the picture itself is hidden from them.
 */
export function FlowDiagram({
  flow,
  selected,
  onSelect,
}: {
  flow: FinancialFlow;
  selected: string | null;
  onSelect: (node: FlowNode) => void;
}) {
  const { nodes: shown, links: shownLinks } = foldSmallNodes(flow);
  const index = new Map(shown.map((n, i) => [n.id, i]));
  const nodes: DrawnNode[] = shown.map((n) => ({ name: n.name, node: n }));
  const links: DrawnLink[] = shownLinks
    // Numbers only to draw; a zero band has nothing to draw.
    .map((l) => ({
      source: index.get(l.source)!,
      target: index.get(l.target)!,
      value: Number(l.amount),
      amount: l.amount,
    }))
    .filter((l) => l.value > 0);
  const flowNodes = shown;
  const perColumn = Math.max(
    ...(['organization', 'department', 'category', 'vendor'] as const).map(
      (k) => flowNodes.filter((n) => n.kind === k).length,
    ),
    1,
  );
  const height = Math.min(Math.max(perColumn * 36 + 40, 320), 1400);
  const box = useRef<HTMLDivElement>(null);
  const [boxWidth, setBoxWidth] = useState(0);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setBoxWidth(el.clientWidth));
    observer.observe(el);
    setBoxWidth(el.clientWidth);
    return () => observer.disconnect();
  }, []);
  const width = Math.max(boxWidth, MIN_WIDTH);
  return (
    <div ref={box} aria-hidden="true" className="w-full">
      <Sankey
        width={width}
        height={height}
        data={{ nodes, links }}
        nodeWidth={12}
        // The table beside it is the accessible form; the picture takes no focus.
        accessibilityLayer={false}
        nodePadding={14}
        margin={{ top: 10, right: 10, bottom: 10, left: 10 }}
        link={{ stroke: '#94a3b8', strokeOpacity: 0.35 }}
        node={(props) => <NodeShape {...(props as unknown as ShapeProps)} selected={selected} />}
        onClick={(item, type) => {
          if (type !== 'node') return;
          const drawn = (item as unknown as { payload: DrawnNode }).payload;
          if (drawn?.node && !drawn.node.id.startsWith(OTHER_PREFIX)) onSelect(drawn.node);
        }}
      >
        <Tooltip
          content={(p) => (
            <FlowTooltip
              active={p.active}
              payload={p.payload as readonly { payload?: unknown }[]}
              currency={flow.currency}
            />
          )}
        />
      </Sankey>
    </div>
  );
}

export const FLOW_DIAGRAM_MIN_WIDTH = MIN_WIDTH;
