import { useQueryClient } from '@tanstack/react-query';
import { payRequestInput, respondInput } from '@outlay/contracts/requests';
import { FormDialog, FormFieldText, FormFieldTextarea, useZodForm } from '@/components/form';
import { formatMoney, todayIso } from '@/lib/format';
import { invalidateRequests } from '@/features/requests/api/keys';
import { payRequest } from '@/features/requests/api/pay-request';
import { respondToRequest } from '@/features/requests/api/respond-to-request';

export interface PayRequestDialogProps {
  request: {
    id: string;
    reference: string;
    title: string;
    amount: string;
    currency: string;
    approvedAmount: string | null;
  } | null;
  onOpenChange: (open: boolean) => void;
  onPaid?: () => void;
}

/** "Mark paid": the payment date (today by default) and the bank's reference. */
export function PayRequestDialog({ request, onOpenChange, onPaid }: PayRequestDialogProps) {
  const queryClient = useQueryClient();
  const form = useZodForm(payRequestInput, { paymentDate: todayIso(), paymentReference: '' });
  const amount = request ? (request.approvedAmount ?? request.amount) : null;
  return (
    <FormDialog
      open={Boolean(request)}
      onOpenChange={onOpenChange}
      title={request ? `Mark ${request.reference} paid` : 'Mark paid'}
      description={request ? `${request.title} · ${formatMoney(amount, request.currency)}` : undefined}
      form={form}
      submitLabel="Mark paid"
      pendingLabel="Recording…"
      onSubmit={async (values) => {
        if (!request) return;
        await payRequest(request.id, values);
        await invalidateRequests(queryClient);
        onPaid?.();
      }}
    >
      <FormFieldText name="paymentDate" label="Payment date" type="date" required />
      <FormFieldText
        name="paymentReference"
        label="Payment reference"
        placeholder="e.g. bank transfer ID"
        required
        autoComplete="off"
      />
    </FormDialog>
  );
}

export interface RespondDialogProps {
  requestId: string;
  question: string | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDone?: () => void;
}

/** The requester's answer to "information requested"; the request goes back to the same step. */
export function RespondDialog({ requestId, question, open, onOpenChange, onDone }: RespondDialogProps) {
  const queryClient = useQueryClient();
  const form = useZodForm(respondInput, { message: '' });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Answer and resubmit"
      description={
        question
          ? `The approver asked: “${question}”`
          : 'Answer the approver; the request returns to the same approval step.'
      }
      form={form}
      submitLabel="Send answer"
      pendingLabel="Sending…"
      onSubmit={async (values) => {
        await respondToRequest(requestId, values.message);
        await invalidateRequests(queryClient);
        onDone?.();
      }}
    >
      <FormFieldTextarea name="message" label="Your answer" rows={4} required />
    </FormDialog>
  );
}
