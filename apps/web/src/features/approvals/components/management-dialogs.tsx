import type { InFlightItem } from '@outlay/contracts/approvals';
import { ConfirmDialog } from '@/components/form';
import { ReassignDialog } from '@/components/reassign-dialog';
import { toast } from '@/components/ui/use-toast';
import { useEscalate } from '../api/escalate-step';
import { useReroute } from '../api/reroute-request';

export type ManagementAction = { kind: 'reassign' | 'escalate' | 'reroute'; item: InFlightItem } | null;

/** Reassign (from → to), escalate now, or re-route from the current workflows. */
export function ManagementDialogs({ action, onClose }: { action: ManagementAction; onClose: () => void }) {
  const escalate = useEscalate();
  const reroute = useReroute();
  if (!action) return null;
  const { item } = action;
  if (action.kind === 'reassign') return <ReassignDialog key={item.stepId} item={item} onClose={onClose} />;
  if (action.kind === 'escalate') {
    return (
      <ConfirmDialog
        open
        onOpenChange={(open) => !open && onClose()}
        destructive={false}
        title={`Escalate ${item.reference}?`}
        description={`The step “${item.stepName}” gets its fallback approver, or the next level up, now. Current approvers can still decide.`}
        confirmLabel="Escalate"
        pendingLabel="Escalating…"
        reason={{ label: 'Note', required: false, maxLength: 500 }}
        onConfirm={async (note) => {
          await escalate.mutateAsync({ stepId: item.stepId, ...(note ? { note } : {}) });
          toast({ title: 'Escalated', description: `${item.reference} was escalated.`, variant: 'success' });
        }}
      />
    );
  }
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      destructive={false}
      title={`Re-route ${item.reference}?`}
      description="The current route is replaced by a new one from today’s workflows, starting at the first step. Decisions already made stay in the history."
      confirmLabel="Re-route"
      pendingLabel="Re-routing…"
      reason={{ label: 'Note', required: false, maxLength: 500 }}
      onConfirm={async (note) => {
        await reroute.mutateAsync({ requestId: item.requestId, input: { note: note ?? null } });
        toast({ title: 'Re-routed', description: `${item.reference} follows a new route.`, variant: 'success' });
      }}
    />
  );
}
