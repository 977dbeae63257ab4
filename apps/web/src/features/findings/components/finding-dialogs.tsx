import { useState, type FormEvent } from 'react';
import { POLICY_ACTION_LABELS, POLICY_ACTION_VALUES, type Finding, type PolicyAction } from '@outlay/contracts';
import { SelectField } from '@/components/select-field';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { useToast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { useDismissFinding } from '../api/dismiss-finding';
import { useCreateRuleFromFinding } from '../api/finding-rule';

export function DismissFindingDialog({ finding, onClose }: { finding: Finding | null; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const dismiss = useDismissFinding();
  const { toast } = useToast();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!finding) return;
    setError(null);
    if (reason.trim().length < 3) {
      setError('Say why (at least 3 characters)');
      return;
    }
    try {
      await dismiss.mutateAsync({ key: finding.key, reason: reason.trim() });
      toast({ title: 'Finding dismissed', description: finding.title });
      setReason('');
      onClose();
    } catch (err) {
      setError(messageOf(err, 'Could not dismiss the finding.'));
    }
  };
  return (
    <Dialog open={finding !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Dismiss the finding</DialogTitle>
          <DialogDescription>{finding?.title}. The reason is kept with your name in the audit trail.</DialogDescription>
        </DialogHeader>
        <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-3" noValidate>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="dismiss-reason">Reason</Label>
            <Textarea
              id="dismiss-reason"
              rows={3}
              maxLength={500}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'dismiss-error' : undefined}
              placeholder="e.g. Two separate orders, confirmed with the requester"
            />
          </div>
          {error && (
            <p id="dismiss-error" role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={dismiss.isPending}>
              {dismiss.isPending ? 'Dismissing…' : 'Dismiss finding'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

const ACTION_OPTIONS = POLICY_ACTION_VALUES.map((value) => ({ value, label: POLICY_ACTION_LABELS[value] }));

export function FindingRuleDialog({ finding, onClose }: { finding: Finding | null; onClose: () => void }) {
  const [action, setAction] = useState<PolicyAction>('justify');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateRuleFromFinding();
  const { toast } = useToast();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!finding) return;
    setError(null);
    try {
      const rule = await create.mutateAsync({ key: finding.key, action });
      toast({ title: 'Policy rule created', description: `${rule.name} (${rule.summary}). It applies to new requests from now on.` });
      onClose();
    } catch (err) {
      setError(messageOf(err, 'Could not create the rule.'));
    }
  };
  return (
    <Dialog open={finding !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Turn into a policy rule</DialogTitle>
          <DialogDescription>{finding?.ruleSuggestion}. You can change it on Policy Management afterwards; the finding is then dismissed.</DialogDescription>
        </DialogHeader>
        <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-3">
          <SelectField id="rule-action" label="When a request matches" value={action} onChange={setAction} options={ACTION_OPTIONS} />
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Creating…' : 'Create rule'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
