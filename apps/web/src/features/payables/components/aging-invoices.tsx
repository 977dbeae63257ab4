import { useState } from 'react';
import { AGING_BUCKET_LABELS, type AgingInvoice } from '@outlay/contracts/payables';
import { QueryState } from '@/components/query-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { capitalize, formatDate, formatMoney, formatMovedFrom, formatNumber, plural } from '@/lib/format';
import { useAgingVendor } from '../api/aging-vendor';
import type { AgingParams } from '../api/aging';
import { InvoiceDialog } from './invoice-dialog';
import { RecordPaymentDialog } from './record-payment-dialog';

function daysText(inv: AgingInvoice, basis: AgingParams['basis']): string {
  if (basis === 'invoice')
    return inv.daysPastDue <= 0 ? 'Invoiced today or later' : `${plural(inv.daysPastDue, 'day')} since the invoice`;
  if (inv.daysPastDue < 0) return `Due in ${plural(-inv.daysPastDue, 'day')}`;
  if (inv.daysPastDue === 0) return 'Due today';
  return `${plural(inv.daysPastDue, 'day')} past due`;
}

/** Why the due date is not the invoice date plus the terms: they ended on a weekend or a holiday of the organization's country. */
function MovedFrom({ inv }: { inv: AgingInvoice }) {
  const moved = formatMovedFrom(inv.dueDateAdjustedFrom, inv.dueDateAdjustedReason);
  return moved ? <span className="block text-xs text-muted-foreground">{capitalize(moved)}</span> : null;
}

function RateText({ inv, groupCurrency }: { inv: AgingInvoice; groupCurrency: string }) {
  if (inv.currency === groupCurrency) return <span className="text-muted-foreground">—</span>;
  return (
    <span>
      1 {inv.currency} = {formatNumber(inv.rate, 6)} {groupCurrency}
    </span>
  );
}

function PayButton({
  inv,
  onPay,
  onInvoice,
}: {
  inv: AgingInvoice;
  onPay: (inv: AgingInvoice) => void;
  onInvoice: (inv: AgingInvoice) => void;
}) {
  if (!inv.canPay) return null;
  const name = inv.invoiceNumber ?? inv.requestReference;
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <Button size="sm" variant="ghost" onClick={() => onInvoice(inv)} aria-label={`Invoice details of ${name}`}>
        Invoice
      </Button>
      <Button size="sm" variant="outline" onClick={() => onPay(inv)} aria-label={`Record payment for ${name}`}>
        Record payment
      </Button>
    </div>
  );
}

/**
 * One vendor's open invoices on the day, fetched when the row opens: each in its own currency,
 * the month's rate and the group amount, with the payment dialog for those who may pay.
 */
export function AgingInvoices({
  vendorId,
  vendorName,
  params,
  groupCurrency,
  layout,
}: {
  vendorId: string;
  vendorName: string;
  params: AgingParams;
  groupCurrency: string;
  layout: 'table' | 'cards';
}) {
  const query = useAgingVendor(vendorId, params, true);
  const [paying, setPaying] = useState<AgingInvoice | null>(null);
  const [invoicing, setInvoicing] = useState<AgingInvoice | null>(null);
  return (
    <>
      <QueryState
        query={query}
        loadingLabel={`Loading the invoices of ${vendorName}`}
        errorMessage="Could not load the invoices."
        notFoundMessage="Nothing of theirs is open on this day."
        compact
      >
        {(data) =>
          layout === 'table' ? (
            <table className="w-full text-sm">
              <caption className="sr-only">Open invoices of {vendorName}</caption>
              <thead>
                <tr className="text-left text-xs text-muted-foreground">
                  <th scope="col" className="p-2 font-medium">
                    Invoice
                  </th>
                  <th scope="col" className="p-2 font-medium">
                    Invoice date
                  </th>
                  <th scope="col" className="p-2 font-medium">
                    Due
                  </th>
                  <th scope="col" className="p-2 font-medium">
                    Age
                  </th>
                  <th scope="col" className="p-2 text-right font-medium">
                    Open
                  </th>
                  <th scope="col" className="p-2 text-right font-medium">
                    Rate
                  </th>
                  <th scope="col" className="p-2 text-right font-medium">
                    Open ({groupCurrency})
                  </th>
                  <th scope="col" className="p-2">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.invoices.map((inv) => (
                  <tr key={inv.payableId} className="border-t">
                    <td className="p-2">
                      <span className="font-medium">{inv.invoiceNumber ?? 'Invoice not yet received'}</span>
                      <span className="block text-xs text-muted-foreground">
                        {inv.requestReference} · {inv.requestTitle}
                      </span>
                    </td>
                    <td className="p-2 tabular-nums">{formatDate(inv.invoiceDate)}</td>
                    <td className="p-2 tabular-nums">
                      {formatDate(inv.dueDate)}
                      <MovedFrom inv={inv} />
                    </td>
                    <td className="p-2">
                      <Badge
                        variant={
                          inv.bucket === 'current'
                            ? 'success'
                            : inv.bucket === 'over_90' || inv.bucket === 'days_61_90'
                              ? 'danger'
                              : 'warning'
                        }
                      >
                        {AGING_BUCKET_LABELS[inv.bucket]}
                      </Badge>
                      <span className="block text-xs text-muted-foreground">{daysText(inv, params.basis)}</span>
                    </td>
                    <td className="p-2 text-right tabular-nums">
                      {formatMoney(inv.openAmount, inv.currency)}
                      {inv.paidAmount !== '0.00' && (
                        <span className="block text-xs text-muted-foreground">
                          {formatMoney(inv.paidAmount, inv.currency)} paid
                        </span>
                      )}
                    </td>
                    <td className="p-2 text-right text-xs tabular-nums">
                      <RateText inv={inv} groupCurrency={groupCurrency} />
                    </td>
                    <td className="p-2 text-right font-medium tabular-nums">
                      {formatMoney(inv.openAmountGroup, groupCurrency)}
                    </td>
                    <td className="p-2 text-right">
                      <PayButton inv={inv} onPay={setPaying} onInvoice={setInvoicing} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <ul className="flex flex-col gap-2" aria-label={`Open invoices of ${vendorName}`}>
              {data.invoices.map((inv) => (
                <li key={inv.payableId}>
                  <Card className="flex flex-col gap-1 p-3 text-sm">
                    <div className="flex items-start justify-between gap-2">
                      <span className="min-w-0 break-words font-medium">
                        {inv.invoiceNumber ?? 'Invoice not yet received'}
                      </span>
                      <Badge
                        variant={
                          inv.bucket === 'current'
                            ? 'success'
                            : inv.bucket === 'over_90' || inv.bucket === 'days_61_90'
                              ? 'danger'
                              : 'warning'
                        }
                      >
                        {AGING_BUCKET_LABELS[inv.bucket]}
                      </Badge>
                    </div>
                    <span className="break-words text-xs text-muted-foreground">
                      {inv.requestReference} · {inv.requestTitle}
                    </span>
                    <span className="text-xs text-muted-foreground">
                      Due {formatDate(inv.dueDate)} · {daysText(inv, params.basis)}
                    </span>
                    <MovedFrom inv={inv} />
                    <div className="flex items-baseline justify-between gap-2">
                      <span className="tabular-nums">{formatMoney(inv.openAmount, inv.currency)}</span>
                      <span className="font-medium tabular-nums">
                        {formatMoney(inv.openAmountGroup, groupCurrency)}
                      </span>
                    </div>
                    {inv.currency !== groupCurrency && (
                      <span className="text-xs text-muted-foreground">
                        <RateText inv={inv} groupCurrency={groupCurrency} />
                      </span>
                    )}
                    {inv.canPay && (
                      <div className="pt-1">
                        <PayButton inv={inv} onPay={setPaying} onInvoice={setInvoicing} />
                      </div>
                    )}
                  </Card>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      {paying && (
        <RecordPaymentDialog key={paying.payableId} invoice={paying} open onOpenChange={(o) => !o && setPaying(null)} />
      )}
      {invoicing && (
        <InvoiceDialog
          key={invoicing.payableId}
          payableId={invoicing.payableId}
          open
          onOpenChange={(o) => !o && setInvoicing(null)}
        />
      )}
    </>
  );
}
