import { dismissFindingInput, findingRuleInput, type Finding } from '@outlay/contracts/findings';
import { POLICY_ACTION_LABELS, POLICY_ACTION_VALUES } from '@outlay/contracts/policies';
import { FormDialog, FormFieldSelect, FormFieldTextarea, useZodForm } from '@/components/form';
import { useToast } from '@/components/ui/use-toast';
import { useDismissFinding } from '../api/dismiss-finding';
import { useCreateRuleFromFinding } from '../api/finding-rule';

// The finding's key comes from the dialog's subject, not from a field.
const dismissForm = dismissFindingInput.omit({ key: true });
const ruleForm = findingRuleInput.omit({ key: true });

export function DismissFindingDialog({ finding, onClose }: { finding: Finding | null; onClose: () => void }) {
  const dismiss = useDismissFinding();
  const { toast } = useToast();
  const form = useZodForm(dismissForm, { reason: '' });
  return (
    <FormDialog
      open={finding !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Dismiss the finding"
      description={`${finding?.title ?? ''}. The reason is kept with your name in the audit trail.`}
      form={form}
      submitLabel="Dismiss finding"
      pendingLabel="Dismissing…"
      onSubmit={async ({ reason }) => {
        if (!finding) return;
        await dismiss.mutateAsync({ key: finding.key, reason });
        toast({ title: 'Finding dismissed', description: finding.title });
      }}
    >
      <FormFieldTextarea
        name="reason"
        label="Reason"
        rows={3}
        maxLength={500}
        placeholder="e.g. Two separate orders, confirmed with the requester"
      />
    </FormDialog>
  );
}

const ACTION_OPTIONS = POLICY_ACTION_VALUES.map((value) => ({ value, label: POLICY_ACTION_LABELS[value] }));

export function FindingRuleDialog({ finding, onClose }: { finding: Finding | null; onClose: () => void }) {
  const create = useCreateRuleFromFinding();
  const { toast } = useToast();
  const form = useZodForm(ruleForm, { action: 'justify' });
  return (
    <FormDialog
      open={finding !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Turn into a policy rule"
      description={`${finding?.ruleSuggestion ?? ''}. You can change it on Policy Management afterwards; the finding is then dismissed.`}
      form={form}
      submitLabel="Create rule"
      pendingLabel="Creating…"
      keepValuesOnClose
      onSubmit={async ({ action }) => {
        if (!finding) return;
        const rule = await create.mutateAsync({ key: finding.key, action });
        toast({
          title: 'Policy rule created',
          description: `${rule.name} (${rule.summary}). It applies to new requests from now on.`,
        });
      }}
    >
      <FormFieldSelect name="action" label="When a request matches" options={ACTION_OPTIONS} />
    </FormDialog>
  );
}
