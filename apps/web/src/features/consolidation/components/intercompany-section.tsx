import type { Consolidation } from '@outlay/contracts/consolidation';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatMoney } from '@/lib/format';
import { AmountCell, shortTranslation } from './amount-cell';
import { rangeLabel } from './consolidation-table';

/** Spend between group companies: shown apart, and taken out of the consolidated total. */
export function IntercompanySection({ data }: { data: Consolidation }) {
  const gc = data.groupCurrency;
  return (
    <Card>
      <CardHeader className="gap-1">
        <CardTitle className="text-base" id="intercompany-title">
          Intercompany eliminations
        </CardTitle>
        <p className="text-sm text-muted-foreground">
          Requests whose vendor is another group company. They are in each company&apos;s spend above and taken out of
          the consolidated total:{' '}
          <span className="font-medium text-foreground">{formatMoney(data.totals.overall.eliminations, gc)}</span> in{' '}
          {rangeLabel(data)}.
        </p>
      </CardHeader>
      <CardContent className="p-0 sm:p-6 sm:pt-0">
        {data.intercompany.length === 0 ? (
          <p className="px-6 pb-6 text-sm text-muted-foreground sm:p-0">No intercompany spend in this range.</p>
        ) : (
          <>
            <div className="hidden overflow-x-auto sm:block">
              <table className="w-full text-sm" aria-labelledby="intercompany-title">
                <thead className="border-b text-xs text-muted-foreground">
                  <tr>
                    <th scope="col" className="p-2 text-left font-medium">
                      Paid by → to
                    </th>
                    {data.periods.map((p) => (
                      <th key={p.key} scope="col" className="whitespace-nowrap p-2 text-right font-medium">
                        {p.label}
                      </th>
                    ))}
                    <th scope="col" className="p-2 text-right font-medium">
                      Total
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.intercompany.map((ic) => (
                    <tr
                      key={`${ic.organizationId}-${ic.counterpartyOrganizationId}`}
                      className="border-b last:border-0"
                    >
                      <th scope="row" className="p-2 text-left font-normal">
                        {ic.organizationName} → {ic.counterpartyName}
                      </th>
                      {ic.periods.map((p, i) => (
                        <td key={p.period} className="p-2 text-right">
                          <AmountCell
                            cell={p.amount}
                            groupCurrency={gc}
                            label={`${ic.organizationName} to ${ic.counterpartyName}, ${data.periods[i]!.label}`}
                          />
                        </td>
                      ))}
                      <td className="p-2 text-right">
                        <AmountCell
                          cell={ic.total}
                          groupCurrency={gc}
                          label={`${ic.organizationName} to ${ic.counterpartyName}, ${rangeLabel(data)}`}
                          strong
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <ul className="divide-y sm:hidden">
              {data.intercompany.map((ic) => (
                <li
                  key={`${ic.organizationId}-${ic.counterpartyOrganizationId}`}
                  className="flex flex-col gap-0.5 px-6 py-3 text-sm"
                >
                  <span className="break-words font-medium">
                    {ic.organizationName} → {ic.counterpartyName}
                  </span>
                  <span className="tabular-nums">{formatMoney(ic.total.translated, gc)}</span>
                  {shortTranslation(ic.total, gc) && (
                    <span className="break-words text-xs text-muted-foreground">{shortTranslation(ic.total, gc)}</span>
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
      </CardContent>
    </Card>
  );
}
