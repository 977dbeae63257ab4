import { Ban, Check, HelpCircle, X } from 'lucide-react';
import { useId, useState } from 'react';
import { decisionInput, type Decision } from '@outlay/contracts/approvals';
import { addMoney, subtractMoney, toAmountString } from '@outlay/contracts/money';
import { type LineItem } from '@outlay/contracts/requests';
import { Checkbox, FieldError, FormServerError } from '@/components/form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { isApiError, messageOf } from '@/lib/api-error';
import { formatMoney } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useDecide } from '../api/decide-request';

export interface DecisionPanelProps {
  requestId: string;
  reference: string;
  amount: string;
  currency: string;
  /** Line items still pending (they can be rejected one by one as part of an approval). */
  lineItems: readonly LineItem[];
  /** Called after the decision was recorded, or when someone else decided first (409). */
  onDone: () => void;
  /** Why the caller may not decide (segregation of duties); the buttons are disabled and this is shown. */
  blockedReason?: string | null;
  /** The step is the "Budget overrun" one: approving may raise the lines the request goes over. */
  overrunStep?: boolean;
}

const REASON_LABEL: Record<Decision, string> = {
  approved: 'Why are these line items rejected?',
  rejected: 'Reason for rejection',
  info_requested: 'What do you need to know?',
};

/** Approve (optionally rejecting single line items), reject with a reason, or ask for information. */
export function DecisionPanel({
  requestId,
  reference,
  amount,
  currency,
  lineItems,
  onDone,
  blockedReason = null,
  overrunStep = false,
}: DecisionPanelProps) {
  const decide = useDecide();
  const [mode, setMode] = useState<Decision | null>(null);
  const [reason, setReason] = useState('');
  const [rejected, setRejected] = useState<string[]>([]);
  const [raiseLine, setRaiseLine] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const reasonId = useId();
  const pending = decide.isPending;
  const blocked = blockedReason !== null;
  const blockedId = useId();
  const open = lineItems.filter((li) => li.status === 'pending');

  const rejectedTotal = addMoney(
    ...open.filter((li) => rejected.includes(li.id)).flatMap((li) => [li.amount, li.taxAmount]),
  );
  const approvedAmount = toAmountString(subtractMoney(amount, rejectedTotal));
  const needsReason = mode === 'rejected' || mode === 'info_requested' || rejected.length > 0;

  const start = (next: Decision) => {
    setMode(next);
    setErrors({});
    setServerError(null);
    if (next !== 'approved') setRejected([]);
    if (next !== 'approved') setTimeout(() => document.getElementById(reasonId)?.focus(), 0);
  };

  const submit = async () => {
    if (!mode) return;
    const parsed = decisionInput.safeParse({
      decision: mode,
      reason: reason.trim() || undefined,
      rejectedLineItemIds: mode === 'approved' ? rejected : [],
      ...(overrunStep && mode === 'approved' ? { budgetChoice: raiseLine ? 'raise_line' : 'request_only' } : {}),
    });
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0] ?? 'form')] ??= issue.message;
      setErrors(next);
      if (next.reason) document.getElementById(reasonId)?.focus();
      return;
    }
    setErrors({});
    setServerError(null);
    try {
      const result = await decide.mutateAsync({ requestId, input: parsed.data });
      const what =
        mode === 'approved'
          ? result.status === 'approved'
            ? `${reference} is approved${result.approvedAmount && result.approvedAmount !== amount ? ` for ${formatMoney(result.approvedAmount, currency)}` : ''}.`
            : `${reference} moves on to the next approval step.`
          : mode === 'rejected'
            ? `${reference} was rejected. The requester sees your reason.`
            : `${reference} went back to the requester with your question.`;
      toast({
        title: mode === 'approved' ? 'Approved' : mode === 'rejected' ? 'Rejected' : 'Information requested',
        description: what,
        variant: 'success',
      });
      onDone();
    } catch (error) {
      if (isApiError(error) && [403, 404, 409].includes(error.status)) {
        // Someone else decided first, or the request moved on: say so and refresh the queue.
        toast({
          title: error.status === 409 ? 'Already decided' : 'Not yours to decide any more',
          description: messageOf(error, 'This approval has already been decided'),
          variant: 'warning',
        });
        onDone();
        return;
      }
      setServerError(messageOf(error, 'The decision was not recorded. Try again.'));
    }
  };

  return (
    <section aria-label={`Decision on ${reference}`} className="flex flex-col gap-3 rounded-lg border bg-muted/30 p-4">
      <h3 className="text-sm font-semibold">Your decision</h3>
      {blocked && (
        <Alert variant="warning" id={blockedId} data-testid="decision-blocked">
          <Ban aria-hidden="true" />
          <span>{blockedReason}</span>
        </Alert>
      )}
      <div
        className="flex flex-wrap gap-2"
        role="group"
        aria-label="Decision"
        aria-describedby={blocked ? blockedId : undefined}
      >
        <Button
          variant={mode === 'approved' ? 'default' : 'outline'}
          aria-pressed={mode === 'approved'}
          onClick={() => start('approved')}
          disabled={pending || blocked}
        >
          <Check aria-hidden="true" />
          Approve
        </Button>
        <Button
          variant={mode === 'rejected' ? 'destructive' : 'outline'}
          aria-pressed={mode === 'rejected'}
          onClick={() => start('rejected')}
          disabled={pending || blocked}
        >
          <X aria-hidden="true" />
          Reject
        </Button>
        <Button
          variant={mode === 'info_requested' ? 'secondary' : 'outline'}
          aria-pressed={mode === 'info_requested'}
          onClick={() => start('info_requested')}
          disabled={pending || blocked}
        >
          <HelpCircle aria-hidden="true" />
          Request information
        </Button>
      </div>

      {mode && !blocked && (
        <form
          noValidate
          className="flex flex-col gap-3"
          aria-label={mode === 'approved' ? 'Approve' : mode === 'rejected' ? 'Reject' : 'Request information'}
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <FormServerError error={serverError} />
          {mode === 'approved' && open.length > 1 && (
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium">Reject single line items (optional)</legend>
              {open.map((li) => {
                const id = `${reasonId}-li-${li.id}`;
                const checked = rejected.includes(li.id);
                return (
                  <div
                    key={li.id}
                    className={cn(
                      'flex items-center gap-2 rounded-md border bg-card px-3 py-2 text-sm',
                      checked && 'border-red-200 bg-red-50',
                    )}
                  >
                    <Checkbox
                      id={id}
                      checked={checked}
                      onCheckedChange={(on) =>
                        setRejected((prev) => (on ? [...prev, li.id] : prev.filter((x) => x !== li.id)))
                      }
                    />
                    <label htmlFor={id} className="flex flex-1 cursor-pointer flex-wrap justify-between gap-2">
                      <span>Reject “{li.description}”</span>
                      <span className="tabular-nums text-muted-foreground">
                        {formatMoney(toAmountString(addMoney(li.amount, li.taxAmount)), currency)}
                      </span>
                    </label>
                  </div>
                );
              })}
              {errors.rejectedLineItemIds && <FieldError>{errors.rejectedLineItemIds}</FieldError>}
              <p className="text-sm" aria-live="polite">
                Approved amount: <strong className="tabular-nums">{formatMoney(approvedAmount, currency)}</strong>
                {rejected.length > 0 && (
                  <span className="text-muted-foreground"> of {formatMoney(amount, currency)}</span>
                )}
              </p>
            </fieldset>
          )}

          {overrunStep && mode === 'approved' && (
            <fieldset className="flex flex-col gap-2 rounded-md border bg-card p-3 text-sm">
              <legend className="px-1 font-medium">Budget line</legend>
              <label className="flex items-start gap-2">
                <input
                  type="radio"
                  name={`${reasonId}-budget`}
                  className="mt-1"
                  checked={!raiseLine}
                  onChange={() => setRaiseLine(false)}
                />
                <span>
                  <span className="font-medium">Approve this request only</span>
                  <span className="block text-xs text-muted-foreground">
                    The line keeps its amount; later requests that go over it come back to the overrun approver.
                  </span>
                </span>
              </label>
              <label className="flex items-start gap-2">
                <input
                  type="radio"
                  name={`${reasonId}-budget`}
                  className="mt-1"
                  checked={raiseLine}
                  onChange={() => setRaiseLine(true)}
                />
                <span>
                  <span className="font-medium">Raise the line by the overrun</span>
                  <span className="block text-xs text-muted-foreground">
                    Each line the request goes over is raised by its overrun (see Budget impact), recorded in its
                    history.
                  </span>
                </span>
              </label>
            </fieldset>
          )}

          {(needsReason || mode === 'approved') && (
            <div className="flex flex-col gap-1.5">
              <Label htmlFor={reasonId}>
                {mode === 'approved' && !needsReason
                  ? overrunStep
                    ? 'Note (required for a budget overrun)'
                    : 'Note (optional)'
                  : REASON_LABEL[mode]}
                {needsReason && <span aria-hidden="true"> *</span>}
              </Label>
              <Textarea
                id={reasonId}
                rows={3}
                maxLength={2000}
                value={reason}
                onChange={(event) => {
                  setReason(event.target.value);
                  if (errors.reason && event.target.value.trim().length >= 3)
                    setErrors(({ reason: _fixed, ...rest }) => rest);
                }}
                aria-required={needsReason || undefined}
                aria-invalid={errors.reason ? true : undefined}
                aria-describedby={errors.reason ? `${reasonId}-error` : undefined}
                placeholder={
                  mode === 'info_requested'
                    ? 'e.g. Which project is this for?'
                    : mode === 'rejected'
                      ? 'e.g. Not in this quarter’s plan'
                      : undefined
                }
              />
              {errors.reason && <FieldError id={`${reasonId}-error`}>{errors.reason}</FieldError>}
            </div>
          )}

          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="ghost" onClick={() => setMode(null)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" variant={mode === 'rejected' ? 'destructive' : 'default'} disabled={pending}>
              {pending
                ? 'Recording…'
                : mode === 'approved'
                  ? rejected.length > 0
                    ? `Approve ${formatMoney(approvedAmount, currency)}`
                    : `Approve ${reference}`
                  : mode === 'rejected'
                    ? `Reject ${reference}`
                    : 'Send question'}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
