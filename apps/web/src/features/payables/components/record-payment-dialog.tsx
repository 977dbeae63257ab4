import { useMemo } from 'react';
import { recordPaymentInput, type AgingInvoice } from '@outlay/contracts/payables';
import { FormDialog, FormFieldMoney, FormFieldText, useZodForm } from '@/components/form';
import { useToast } from '@/components/ui/use-toast';
import { formatMoney } from '@/lib/format';
import { useRecordPayment } from '../api/record-payment';

const today = () => new Date().toISOString().slice(0, 10);

/**
 * A payment against one invoice: the amount starts at the open balance, a smaller one leaves the
 * rest open, and the payment that settles the invoice marks its request paid.
 */
export function RecordPaymentDialog({
  invoice,
  open,
  onOpenChange,
}: {
  invoice: AgingInvoice;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { toast } = useToast();
  const record = useRecordPayment();
  // A new key each time the dialog opens: a retried save of this payment is recorded once.
  const key = useMemo(() => (open ? crypto.randomUUID() : ''), [open]);
  const form = useZodForm(recordPaymentInput, { paymentDate: today(), amount: invoice.openAmount, reference: '' });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Record a payment${invoice.invoiceNumber ? ` for ${invoice.invoiceNumber}` : ''}`}
      description={`${invoice.requestReference} · ${formatMoney(invoice.openAmount, invoice.currency)} open. A smaller amount leaves the rest open; paying it all marks the request paid.`}
      form={form}
      submitLabel="Record payment"
      pendingLabel="Recording…"
      onSubmit={async (input) => {
        const next = await record.mutateAsync({ payableId: invoice.payableId, input, key });
        toast({
          title: next.status === 'settled' ? 'Invoice paid in full' : 'Payment recorded',
          description:
            next.status === 'settled'
              ? `${next.requestReference} is now paid`
              : `${formatMoney(next.openAmount, next.currency)} still open`,
        });
      }}
    >
      <FormFieldMoney name="amount" label={`Amount (${invoice.currency})`} required currency={invoice.currency} />
      <FormFieldText name="paymentDate" label="Payment date" type="date" required />
      <FormFieldText name="reference" label="Payment reference" required placeholder="e.g. PMT-2026-0142" />
    </FormDialog>
  );
}
