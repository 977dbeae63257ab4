import { useCallback } from 'react';
import { updatePayableInput, type PayableDetail } from '@outlay/contracts/payables';
import { FormDialog, FormFieldText, useVersionedEdit, useZodForm } from '@/components/form';
import { QueryState } from '@/components/query-state';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useToast } from '@/components/ui/use-toast';
import { formatDate, formatMovedFrom } from '@/lib/format';
import { fetchPayable, usePayable } from '../api/payable';
import { useUpdatePayable } from '../api/update-payable';

const toValues = (p: PayableDetail) => ({ invoiceNumber: p.invoiceNumber ?? '', invoiceDate: p.invoiceDate });

function InvoiceForm({
  payable,
  open,
  onOpenChange,
}: {
  payable: PayableDetail;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { toast } = useToast();
  const update = useUpdatePayable();
  const form = useZodForm(updatePayableInput, toValues(payable));
  const load = useCallback(() => fetchPayable(payable.id), [payable.id]);
  const versioned = useVersionedEdit({ record: payable, form, load, toValues });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Invoice details"
      description={`${payable.requestReference} · ${payable.vendorName}. The due date follows the vendor's payment terms from the invoice date, on a business day of the organization's country.`}
      form={form}
      submitLabel="Save invoice"
      pendingLabel="Saving…"
      onReload={versioned.reload}
      onSubmit={async (input) => {
        const next = await update.mutateAsync({ id: payable.id, input, headers: versioned.headers() });
        versioned.saved(next);
        const moved = formatMovedFrom(next.dueDateAdjustedFrom, next.dueDateAdjustedReason);
        toast({ title: 'Invoice saved', description: `Due ${formatDate(next.dueDate)}${moved ? `, ${moved}` : ''}` });
      }}
    >
      <FormFieldText name="invoiceNumber" label="Invoice number" placeholder="e.g. INV-2026-0142" />
      <FormFieldText name="invoiceDate" label="Invoice date" type="date" required />
    </FormDialog>
  );
}

/** The invoice number and date of a payable, entered when the invoice arrives. */
export function InvoiceDialog({
  payableId,
  open,
  onOpenChange,
}: {
  payableId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const query = usePayable(payableId, open);
  if (query.data)
    return <InvoiceForm key={query.data.id} payable={query.data} open={open} onOpenChange={onOpenChange} />;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Invoice details</DialogTitle>
          <DialogDescription>Loading the invoice…</DialogDescription>
        </DialogHeader>
        <QueryState query={query} loadingLabel="Loading the invoice" errorMessage="Could not load the invoice.">
          {() => null}
        </QueryState>
      </DialogContent>
    </Dialog>
  );
}
