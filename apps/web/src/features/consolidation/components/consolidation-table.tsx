import { Fragment, useState } from 'react';
import { ChevronDown, ChevronRight } from 'lucide-react';
import type { Consolidation, ConsolidationPeriod, ConsolidationSubsidiary } from '@outlay/contracts/consolidation';
import { formatMoney } from '@/lib/format';
import { AmountCell } from './amount-cell';
import type { DrillTarget } from './requests-dialog';

const LINES = [
  ['spend', 'Spend'],
  ['payroll', 'Payroll cost'],
  ['total', 'Total'],
] as const;

export function rangeLabel(c: Consolidation): string {
  const first = c.periods[0];
  const last = c.periods[c.periods.length - 1];
  if (!first || !last) return '';
  return first.key === last.key ? first.label : `${first.label} – ${last.label}`;
}

export function drillOf(
  c: Consolidation,
  s: ConsolidationSubsidiary,
  period: ConsolidationPeriod | null,
  category?: { categoryId: string | null; categoryName: string },
): DrillTarget {
  return {
    organizationId: s.organizationId,
    organizationName: s.organizationName,
    categoryId: category?.categoryId,
    categoryName: category?.categoryName,
    from: period?.from ?? c.from,
    to: period?.to ?? c.to,
    periodLabel: period?.label ?? rangeLabel(c),
  };
}

/**
 * Companies × periods (from 640 px): each company's spend, payroll and total; a company opens
 * onto its categories, and a spend figure onto its requests. Totals before and after the
 * intercompany eliminations close the table.
 */
export function ConsolidationTable({ data, onDrill }: { data: Consolidation; onDrill: (t: DrillTarget) => void }) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const gc = data.groupCurrency;
  const cols = data.periods.length + 2;
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <div className="relative overflow-x-auto rounded-lg border" data-testid="consolidation-table">
      <table className="w-full text-sm">
        <caption className="sr-only">
          Spend and payroll cost per company and period in {gc}; focus an amount for its original currency and rate
        </caption>
        <thead className="border-b bg-muted/40 text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="sticky left-0 z-10 min-w-56 bg-muted p-3 text-left font-medium">
              Company
            </th>
            {data.periods.map((p) => (
              <th key={p.key} scope="col" className="whitespace-nowrap p-3 text-right font-medium">
                {p.label}
              </th>
            ))}
            <th scope="col" className="p-3 text-right font-medium">
              Total
            </th>
          </tr>
        </thead>
        {data.subsidiaries.map((s) => {
          const expanded = open.has(s.organizationId);
          return (
            <tbody key={s.organizationId} className="border-b">
              <tr className="bg-muted/20">
                <th scope="rowgroup" colSpan={cols} className="sticky left-0 p-0 text-left">
                  <button
                    type="button"
                    className="flex w-full items-center gap-2 p-3 text-left font-semibold hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                    aria-expanded={expanded}
                    onClick={() => toggle(s.organizationId)}
                  >
                    {expanded ? (
                      <ChevronDown className="size-4" aria-hidden />
                    ) : (
                      <ChevronRight className="size-4" aria-hidden />
                    )}
                    {s.organizationName}
                    <span className="font-normal text-muted-foreground">
                      ({s.currency}) · {expanded ? 'hide categories' : 'show categories'}
                    </span>
                  </button>
                </th>
              </tr>
              {LINES.filter(([key]) => key !== 'payroll' || s.payrollIncluded).map(([key, label]) => (
                <Fragment key={key}>
                  <tr className={key === 'total' ? 'font-medium' : undefined}>
                    <th scope="row" className="sticky left-0 bg-background p-3 pl-9 text-left font-normal">
                      {label}
                    </th>
                    {s.periods.map((p, i) => (
                      <td key={p.period} className="p-3 text-right">
                        <AmountCell
                          cell={p[key]}
                          groupCurrency={gc}
                          label={`${s.organizationName} ${label.toLowerCase()}, ${data.periods[i]!.label}`}
                          strong={key === 'total'}
                        />
                      </td>
                    ))}
                    <td className="p-3 text-right">
                      <AmountCell
                        cell={s.total[key]}
                        groupCurrency={gc}
                        label={`${s.organizationName} ${label.toLowerCase()}, ${rangeLabel(data)}`}
                        strong
                      />
                    </td>
                  </tr>
                  {key === 'spend' &&
                    expanded &&
                    (s.categories.length === 0 ? (
                      <tr>
                        <td colSpan={cols} className="p-3 pl-14 text-muted-foreground">
                          No approved or paid spend in this range.
                        </td>
                      </tr>
                    ) : (
                      s.categories.map((k) => (
                        <tr key={k.categoryId ?? 'none'} className="text-muted-foreground">
                          <th scope="row" className="sticky left-0 bg-background p-2 pl-14 text-left font-normal">
                            <button
                              type="button"
                              className="text-left hover:underline"
                              onClick={() => onDrill(drillOf(data, s, null, k))}
                            >
                              {k.glAccount ? `${k.glAccount} ` : ''}
                              {k.categoryName}
                            </button>
                          </th>
                          {k.periods.map((p, i) => (
                            <td key={p.period} className="p-2 text-right">
                              <AmountCell
                                cell={p.spend}
                                groupCurrency={gc}
                                label={`${s.organizationName} ${k.categoryName}, ${data.periods[i]!.label}`}
                              />
                            </td>
                          ))}
                          <td className="p-2 text-right">
                            <AmountCell
                              cell={k.total}
                              groupCurrency={gc}
                              label={`${s.organizationName} ${k.categoryName}, ${rangeLabel(data)}`}
                            />
                          </td>
                        </tr>
                      ))
                    ))}
                  {key === 'spend' && expanded && s.categories.length > 0 && (
                    <tr>
                      <td colSpan={cols} className="p-2 pl-14">
                        <button
                          type="button"
                          className="text-sm text-primary hover:underline"
                          onClick={() => onDrill(drillOf(data, s, null))}
                        >
                          All requests of {s.organizationName} in {rangeLabel(data)}
                        </button>
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          );
        })}
        <tfoot className="text-sm">
          <TotalRow
            label="Before elimination"
            values={[...data.totals.periods.map((p) => p.beforeElimination), data.totals.overall.beforeElimination]}
            currency={gc}
          />
          <TotalRow
            label="Intercompany eliminations"
            values={[...data.totals.periods.map((p) => p.eliminations), data.totals.overall.eliminations]}
            currency={gc}
            negate
          />
          <TotalRow
            label="Consolidated total"
            values={[...data.totals.periods.map((p) => p.consolidated), data.totals.overall.consolidated]}
            currency={gc}
            strong
          />
        </tfoot>
      </table>
    </div>
  );
}

function TotalRow({
  label,
  values,
  currency,
  negate,
  strong,
}: {
  label: string;
  values: string[];
  currency: string;
  negate?: boolean;
  strong?: boolean;
}) {
  return (
    <tr className={strong ? 'border-t-2 bg-muted/40 font-semibold' : 'border-t bg-muted/20 font-medium'}>
      <th scope="row" className="sticky left-0 bg-muted p-3 text-left">
        {label}
      </th>
      {values.map((v, i) => (
        <td key={i} className="p-3 text-right tabular-nums">
          {formatMoney(negate && v !== '0.00' ? `-${v}` : v, currency)}
        </td>
      ))}
    </tr>
  );
}
