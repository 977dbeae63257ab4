import type { ReactNode } from 'react';
import type { AnalyticsResponse, AnalyticsTopItem } from '@outlay/contracts/analytics';
import { formatMoney, formatPercent } from '@/lib/format';
import { hours } from './analytics-kpis';

interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  right?: boolean;
}

/** A small table that stays inside its card: long names wrap, numbers keep to the right. */
function SimpleTable<T>({
  caption,
  rows,
  columns,
  rowKey,
  empty,
}: {
  caption: string;
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string;
  empty: string;
}) {
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>;
  return (
    <table className="w-full text-xs sm:text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b text-left text-muted-foreground">
          {columns.map((c, i) => (
            <th
              key={c.header}
              scope="col"
              className={`px-1.5 py-2 font-medium sm:p-2 ${c.right ? 'text-right' : ''} ${i === 0 ? '' : 'whitespace-nowrap'}`}
            >
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={rowKey(r)} className="border-b last:border-0">
            {columns.map((c, i) =>
              i === 0 ? (
                <th key={c.header} scope="row" className="px-1.5 py-2 text-left font-normal break-words sm:p-2">
                  {c.cell(r)}
                </th>
              ) : (
                // Figures never break inside: a name column next to them wraps instead.
                <td
                  key={c.header}
                  className={`px-1.5 py-2 whitespace-nowrap sm:p-2 ${c.right ? 'text-right tabular-nums' : ''}`}
                >
                  {c.cell(r)}
                </td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function TopTable({
  caption,
  items,
  currency,
}: {
  caption: string;
  items: AnalyticsTopItem[];
  currency: string;
}) {
  return (
    <SimpleTable
      caption={caption}
      rows={items}
      rowKey={(i) => i.id ?? 'none'}
      empty="No spend in this period."
      columns={[
        {
          header: 'Name',
          cell: (i) => (
            <>
              {i.name}
              {i.organizationName && <span className="block text-xs text-muted-foreground">{i.organizationName}</span>}
            </>
          ),
        },
        { header: 'Spend', right: true, cell: (i) => formatMoney(i.amount, currency) },
        { header: 'Share', right: true, cell: (i) => formatPercent(i.share) },
      ]}
    />
  );
}

type StepRow = AnalyticsResponse['cycleTime']['bySteps'][number];
type OrgRow = AnalyticsResponse['cycleTime']['byOrganization'][number];

export function CycleTables({ data }: { data: AnalyticsResponse }) {
  return (
    <div className="grid min-w-0 gap-6 lg:grid-cols-2">
      <div className="min-w-0">
        <h3 className="mb-2 text-sm font-semibold">Per approval step</h3>
        <SimpleTable<StepRow>
          caption="Cycle time per approval step: from the step becoming active to its decision"
          rows={data.cycleTime.bySteps}
          rowKey={(r) => r.step}
          empty="No step was decided in this period."
          columns={[
            { header: 'Step', cell: (r) => r.step },
            { header: 'Decided', right: true, cell: (r) => r.decisions },
            { header: 'Median', right: true, cell: (r) => hours(r.medianHours) },
            { header: '90th pct.', right: true, cell: (r) => hours(r.p90Hours) },
          ]}
        />
      </div>
      <div className="min-w-0">
        <h3 className="mb-2 text-sm font-semibold">Per organization</h3>
        <SimpleTable<OrgRow>
          caption="Cycle time per organization: from submission to the final decision"
          rows={data.cycleTime.byOrganization}
          rowKey={(r) => r.organizationId}
          empty="No request was decided in this period."
          columns={[
            { header: 'Organization', cell: (r) => r.organizationName },
            { header: 'Decided', right: true, cell: (r) => r.decisions },
            { header: 'Median', right: true, cell: (r) => hours(r.medianHours) },
            { header: '90th pct.', right: true, cell: (r) => hours(r.p90Hours) },
          ]}
        />
      </div>
      <p className="text-xs text-muted-foreground lg:col-span-2">
        Medians and 90th percentiles come from duration histograms kept as decisions are made: each is within 1% of the
        exact figure.
      </p>
    </div>
  );
}
