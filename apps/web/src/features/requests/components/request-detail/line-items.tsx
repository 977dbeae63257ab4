import type { LineItem, RequestDetail } from '@outlay/contracts/requests';
import { CardList, ListCard } from '@/components/data-table';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { formatMoney } from '@/lib/format';

const LINE_STATUS: Record<LineItem['status'], BadgeProps['variant']> = {
  pending: 'default',
  approved: 'success',
  rejected: 'danger',
};

const lineStatusLabel = (status: LineItem['status']) => status[0]!.toUpperCase() + status.slice(1);

/** The request's line items: a card each on a phone, a table from 640 px. */
export function LineItemsTable({ detail }: { detail: RequestDetail }) {
  return (
    <>
      <CardList
        items={detail.lineItems}
        label="Line items"
        getKey={(li) => li.id}
        renderCard={(li) => (
          <ListCard
            title={li.description}
            badge={<Badge variant={LINE_STATUS[li.status]}>{lineStatusLabel(li.status)}</Badge>}
            subtitle={
              <>
                {li.categoryName ?? 'No category'}
                {li.rejectionReason && <span className="block text-destructive">{li.rejectionReason}</span>}
              </>
            }
            meta={`Tax ${formatMoney(li.taxAmount, detail.currency)}`}
            amount={formatMoney(li.amount, detail.currency)}
            testId="line-item-card"
          />
        )}
      />
      <LineItemsGrid detail={detail} />
    </>
  );
}

function LineItemsGrid({ detail }: { detail: RequestDetail }) {
  return (
    // Between 640 px and a wide screen the columns may scroll sideways: the region takes focus so that arrow keys reach them.
    <div
      className="relative hidden overflow-x-auto rounded-lg border sm:block"
      tabIndex={0}
      role="region"
      aria-label="Line items"
    >
      <table className="w-full text-sm">
        <caption className="sr-only">Line items</caption>
        <thead className="bg-slate-50 text-left text-xs text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Description
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Category
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Amount
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Tax
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Status
            </th>
          </tr>
        </thead>
        <tbody>
          {detail.lineItems.map((li) => (
            <tr key={li.id} className="border-t">
              <td className="px-3 py-2">
                {li.description}
                {li.rejectionReason && <span className="block text-xs text-destructive">{li.rejectionReason}</span>}
              </td>
              <td className="px-3 py-2">{li.categoryName ?? '—'}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatMoney(li.amount, detail.currency)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatMoney(li.taxAmount, detail.currency)}</td>
              <td className="px-3 py-2">
                <Badge variant={LINE_STATUS[li.status]}>{lineStatusLabel(li.status)}</Badge>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function AllocationsList({ detail }: { detail: RequestDetail }) {
  return (
    <ul className="flex flex-col gap-2" aria-label="Cost allocation">
      {detail.allocations.map((a) => (
        <li key={a.departmentId} className="flex items-center gap-3 text-sm">
          <span className="w-40 shrink-0 truncate sm:w-56">{a.departmentName}</span>
          <span className="h-2 flex-1 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
            <span
              className="block h-full rounded-full bg-primary"
              style={{ width: `${Math.min(100, Number(a.percent))}%` }}
            />
          </span>
          <span className="w-16 text-right tabular-nums">{a.percent}%</span>
        </li>
      ))}
    </ul>
  );
}
