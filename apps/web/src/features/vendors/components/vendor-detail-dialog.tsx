import type { ReactNode } from 'react';
import type { Vendor, VendorDetail } from '@outlay/contracts/vendors';
import { QueryState } from '@/components/query-state';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { formatDateTime, formatMoney } from '@/lib/format';
import { useVendor } from '../api/vendor';
import { PendingBankChange } from './pending-bank-change';
import { VendorStatusBadge } from './vendor-status-badge';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="break-words text-sm">{children ?? <span className="text-muted-foreground">—</span>}</dd>
    </div>
  );
}

/** Spend to date and what is approved but not yet paid, in the organization's currency. */
export function VendorSpend({ vendor }: { vendor: Pick<Vendor, 'spendToDate' | 'openBalance' | 'spendCurrency'> }) {
  return (
    <div className="flex flex-col gap-2 rounded-lg border bg-muted/40 p-3">
      <dl className="grid grid-cols-2 gap-3" aria-label="Spend">
        <div className="flex flex-col gap-0.5">
          <dt className="text-xs text-muted-foreground">Spend to date</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="vendor-spend-to-date">
            {formatMoney(vendor.spendToDate, vendor.spendCurrency)}
          </dd>
        </div>
        <div className="flex flex-col gap-0.5">
          <dt className="text-xs text-muted-foreground">Open balance</dt>
          <dd className="text-lg font-semibold tabular-nums" data-testid="vendor-open-balance">
            {formatMoney(vendor.openBalance, vendor.spendCurrency)}
          </dd>
        </div>
      </dl>
      <p className="text-xs text-muted-foreground">
        Approved and paid requests with this vendor; the open balance is approved but not yet paid.
      </p>
    </div>
  );
}

function Details({ vendor }: { vendor: VendorDetail }) {
  const last = vendor.lastStatusChange;
  return (
    <div className="flex flex-col gap-4">
      <PendingBankChange vendor={vendor} />
      <VendorSpend vendor={vendor} />
      <dl className="grid gap-3 sm:grid-cols-2">
        <Field label="Status">
          <VendorStatusBadge status={vendor.status} />
        </Field>
        <Field label="Tax ID">{vendor.taxId}</Field>
        <Field label="Currency">{vendor.currency}</Field>
        <Field label="Payment terms">
          {vendor.paymentTermsDays === 0 ? 'On receipt' : `${vendor.paymentTermsDays} days`}
        </Field>
        <Field label="Contact">{vendor.contactName}</Field>
        <Field label="E-mail">{vendor.email}</Field>
        <Field label="Phone">{vendor.phone}</Field>
        <Field label="Bank account">{vendor.bankAccountMasked ?? 'None on file'}</Field>
        <Field label="Address">{vendor.address}</Field>
        {last && (
          <Field label="Last status change">
            {formatDateTime(last.at)}
            {last.actorName ? ` by ${last.actorName}` : ''}
            {last.reason ? `: ${last.reason}` : ''}
          </Field>
        )}
      </dl>
    </div>
  );
}

/** One vendor's details with its spend, read fresh from the server. */
export function VendorDetailDialog({ vendor, onClose }: { vendor: Vendor | null; onClose: () => void }) {
  const detail = useVendor(vendor?.id ?? null);
  return (
    <Dialog open={vendor !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle className="break-words pr-8">{vendor?.name}</DialogTitle>
          <DialogDescription>{vendor?.organizationName}</DialogDescription>
        </DialogHeader>
        <QueryState
          query={detail}
          loadingLabel="Loading the vendor"
          errorMessage="Could not load the vendor."
          notFoundMessage="This vendor no longer exists or is out of your scope."
          className="h-40"
        >
          {(data) => <Details vendor={data} />}
        </QueryState>
      </DialogContent>
    </Dialog>
  );
}
