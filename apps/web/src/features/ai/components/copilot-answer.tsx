import { Link } from 'wouter';
import type { CopilotAnswer as CopilotAnswerData } from '@outlay/contracts/ai';
import { SpendChart } from '@/components/charts/spend-chart';
import { formatMoney, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';

function Bars({ chart }: { chart: NonNullable<CopilotAnswerData['chart']> }) {
  const max = Math.max(...chart.points.map((p) => Math.abs(Number(p.value))), 0);
  return (
    <figure className="mt-3">
      <figcaption className="mb-2 text-sm font-medium">{chart.title}</figcaption>
      <ul className="flex flex-col gap-1.5">
        {chart.points.map((p) => (
          <li
            key={p.label}
            className="grid grid-cols-[minmax(0,9rem)_1fr] items-center gap-2 text-xs sm:grid-cols-[minmax(0,14rem)_1fr]"
          >
            <span className="truncate" title={p.label}>
              {p.label}
            </span>
            <span className="flex items-center gap-2">
              <span
                className="h-3 rounded-sm bg-primary"
                style={{ width: `${max > 0 ? Math.max(2, (Math.abs(Number(p.value)) / max) * 100) : 2}%` }}
                aria-hidden="true"
              />
              <span className="shrink-0 tabular-nums text-muted-foreground">
                {chart.currency ? formatMoney(p.value, chart.currency) : formatNumber(p.value)}
              </span>
            </span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

/** One Copilot answer: its text, table (first cells link to their records), chart and links. */
export function CopilotAnswer({ answer }: { answer: CopilotAnswerData }) {
  const { table, chart, links } = answer;
  return (
    <div className="flex flex-col gap-2">
      <p className="whitespace-pre-line text-sm leading-relaxed">{answer.answer}</p>
      {answer.scope && (
        <p className="text-xs text-muted-foreground" data-testid="copilot-scope">
          Figures for: {answer.scope.label}
        </p>
      )}
      {table && table.rows.length > 0 && (
        <div
          className="max-w-full overflow-x-auto rounded-md border"
          tabIndex={0}
          role="region"
          aria-label="Answer table"
        >
          <table className="w-full text-sm">
            <thead className="bg-muted/50">
              <tr>
                {table.columns.map((c) => (
                  <th
                    key={c.label}
                    scope="col"
                    className={cn(
                      'whitespace-nowrap px-3 py-2 font-medium',
                      c.align === 'end' ? 'text-right' : 'text-left',
                    )}
                  >
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((r, i) => (
                <tr key={i} className="border-t">
                  {r.cells.map((cell, j) => (
                    <td
                      key={j}
                      className={cn(
                        'px-3 py-1.5',
                        table.columns[j]?.align === 'end' ? 'whitespace-nowrap text-right tabular-nums' : 'text-left',
                      )}
                    >
                      {j === 0 && r.href ? (
                        <Link className="underline underline-offset-2" to={r.href}>
                          {cell}
                        </Link>
                      ) : (
                        cell
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {chart && chart.points.length > 1 && chart.kind === 'months' && chart.currency && (
        <SpendChart
          title={chart.title}
          currency={chart.currency}
          data={chart.points.map((p) => ({
            month: p.label,
            approved: p.approved ?? '0',
            paid: p.paid ?? p.value,
            total: p.value,
          }))}
        />
      )}
      {chart && chart.points.length > 1 && chart.kind === 'bar' && <Bars chart={chart} />}
      {links.length > 0 && (
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label="Links">
          {links.map((l) => (
            <li key={`${l.href}-${l.label}`}>
              <Link className="font-medium text-primary underline underline-offset-2" to={l.href}>
                {l.label}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
