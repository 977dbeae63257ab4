import type { Consolidation } from '@outlay/contracts/consolidation';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatMoney } from '@/lib/format';
import { shortTranslation } from './amount-cell';
import { drillOf, rangeLabel } from './consolidation-table';
import type { DrillTarget } from './requests-dialog';

/** Below 640 px: one card per company, its periods as short lists, the original amounts written out. */
export function ConsolidationCards({ data, onDrill }: { data: Consolidation; onDrill: (t: DrillTarget) => void }) {
  const gc = data.groupCurrency;
  return (
    <ul className="flex flex-col gap-3" aria-label="Companies">
      {data.subsidiaries.map((s) => (
        <li key={s.organizationId}>
          <Card className="min-w-0">
            <CardHeader className="gap-1 p-4 pb-2">
              <CardTitle className="break-words text-base">
                {s.organizationName} <span className="font-normal text-muted-foreground">({s.currency})</span>
              </CardTitle>
              <p className="text-sm">
                Total {rangeLabel(data)}:{' '}
                <span className="font-semibold tabular-nums">{formatMoney(s.total.total.translated, gc)}</span>
              </p>
            </CardHeader>
            <CardContent className="flex flex-col gap-3 p-4 pt-0">
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                {data.periods.map((p, i) => {
                  const row = s.periods[i]!;
                  return (
                    <div key={p.key} className="col-span-2 grid grid-cols-subgrid border-t pt-1">
                      <dt className="text-muted-foreground">{p.label}</dt>
                      <dd className="min-w-0 text-right">
                        <span className="block font-medium tabular-nums">{formatMoney(row.total.translated, gc)}</span>
                        {s.payrollIncluded && (
                          <>
                            <span className="block text-xs tabular-nums text-muted-foreground">
                              Spend {formatMoney(row.spend.translated, gc)}
                            </span>
                            <span className="block text-xs tabular-nums text-muted-foreground">
                              Payroll {formatMoney(row.payroll.translated, gc)}
                            </span>
                          </>
                        )}
                        {shortTranslation(row.total, gc) && (
                          <span className="block break-words text-xs text-muted-foreground">
                            {shortTranslation(row.total, gc)}
                          </span>
                        )}
                      </dd>
                    </div>
                  );
                })}
              </dl>
              {s.categories.length > 0 && (
                <div className="flex flex-col gap-1">
                  <p className="text-xs font-medium text-muted-foreground">Spend by category</p>
                  <ul className="flex flex-col gap-1">
                    {s.categories.map((k) => (
                      <li key={k.categoryId ?? 'none'}>
                        <button
                          type="button"
                          className="flex w-full justify-between gap-2 rounded border px-2 py-1.5 text-left text-sm"
                          onClick={() => onDrill(drillOf(data, s, null, k))}
                        >
                          <span className="min-w-0 break-words">{k.categoryName}</span>
                          <span className="shrink-0 tabular-nums">{formatMoney(k.total.translated, gc)}</span>
                        </button>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="self-start"
                onClick={() => onDrill(drillOf(data, s, null))}
              >
                Requests of {s.organizationName}
              </Button>
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  );
}
