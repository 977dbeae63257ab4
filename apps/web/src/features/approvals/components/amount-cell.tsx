import type { ApprovalItem } from '@outlay/contracts/approvals';
import { formatMoney, formatRate } from '@/lib/format';

/** Original amount, and the organization's amount with the rate when the currencies differ. */
export function AmountCell({
  item,
}: {
  item: Pick<ApprovalItem, 'amount' | 'currency' | 'amountOrg' | 'orgCurrency' | 'fxRate'>;
}) {
  const foreign = item.currency !== item.orgCurrency;
  return (
    <div className="flex flex-col items-end">
      <span className="font-medium tabular-nums">{formatMoney(item.amount, item.currency)}</span>
      {foreign && (
        <span
          className="text-xs text-muted-foreground tabular-nums"
          title={`Rate ${formatRate(item.fxRate)} ${item.orgCurrency} per ${item.currency}`}
        >
          {formatMoney(item.amountOrg, item.orgCurrency)} · rate {formatRate(item.fxRate)}
        </span>
      )}
    </div>
  );
}
