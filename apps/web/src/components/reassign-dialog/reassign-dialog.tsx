import { TriangleAlert } from 'lucide-react';
import { reassignInput, type InFlightItem } from '@outlay/contracts/approvals';
import { FormDialog, FormFieldSelect, FormFieldTextarea, useZodForm } from '@/components/form';
import { FormFieldApprover } from '@/components/approver-picker';
import { QueryError } from '@/components/query-state';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { useInFlightOfRequest, useReassign } from './api';

/** What the dialog needs of a step in flight (an `InFlightItem` has it all). */
export type ReassignTarget = Pick<
  InFlightItem,
  'stepId' | 'reference' | 'stepName' | 'stepPosition' | 'stepCount' | 'approvers'
>;

/** Reassign one approver's item on a step in flight to another person (approvals.manage; audited). */
export function ReassignDialog({ item, onClose }: { item: ReassignTarget; onClose: () => void }) {
  const reassign = useReassign();
  const form = useZodForm(reassignInput, { fromUserId: item.approvers[0]?.id ?? '', toUserId: '', note: '' });
  const from = form.watch('fromUserId');
  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`Reassign ${item.reference}`}
      description={`Step ${item.stepPosition} of ${item.stepCount} · ${item.stepName}. The new approver is notified; the change is audited.`}
      form={form}
      submitLabel="Reassign"
      pendingLabel="Reassigning…"
      onSubmit={async (values) => {
        await reassign.mutateAsync({ stepId: item.stepId, input: { ...values, note: values.note || undefined } });
        const fromName = item.approvers.find((a) => a.id === values.fromUserId)?.name;
        toast({
          title: 'Reassigned',
          description: `${item.reference} moved from ${fromName ?? 'its approver'} to the new approver.`,
          variant: 'success',
        });
      }}
    >
      <FormFieldSelect
        name="fromUserId"
        label="Take it from"
        required
        options={item.approvers.map((a) => ({ value: a.id, label: a.name }))}
        placeholder="Choose the current approver"
      />
      <FormFieldApprover
        name="toUserId"
        label="Give it to"
        required
        exclude={from ? [from] : []}
        placeholder="Search approvers…"
      />
      <FormFieldTextarea name="note" label="Note (optional)" maxLength={500} />
    </FormDialog>
  );
}

/**
 * The same dialog started from a request (e.g. a row of /requests-management): finds the
 * request's step in flight first, and says so when the request no longer waits at one.
 */
export function ReassignRequestDialog({
  request,
  onClose,
}: {
  request: { id: string; reference: string };
  onClose: () => void;
}) {
  const step = useInFlightOfRequest(request);
  const item = step.data;
  if (item && item.approvers.length > 0) return <ReassignDialog key={item.stepId} item={item} onClose={onClose} />;
  let problem: string | null = null;
  if (item === null) problem = `${request.reference} is no longer waiting at an approval step.`;
  else if (item)
    problem = `Nobody holds step ${item.stepPosition} · ${item.stepName} of ${request.reference}: escalate it from Approvals Management instead.`;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Reassign {request.reference}</DialogTitle>
          <DialogDescription>Finding the step the request is waiting at…</DialogDescription>
        </DialogHeader>
        {step.isError ? (
          <QueryError error={step.error} message="The approval step could not be loaded." onRetry={step.refetch} />
        ) : problem ? (
          <Alert variant="warning" role="alert">
            <TriangleAlert aria-hidden="true" />
            <span>{problem}</span>
          </Alert>
        ) : (
          <div className="flex justify-center py-6">
            <Spinner label="Loading the approval step" />
          </div>
        )}
        <div className="flex justify-end">
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
