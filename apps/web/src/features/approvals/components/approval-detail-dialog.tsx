import type { ApprovalItem } from '@outlay/contracts/approvals';
import { BudgetImpact } from '@/components/budget-impact';
import { RequestDetailView, useRequestDetail } from '@/features/requests';
import { useRequestBudgetImpact } from '@/features/budgets';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { AmountCell } from './amount-cell';
import { DecisionPanel } from './decision-panel';
import { SlaBadge } from './sla-badge';

/** One queue item opened: the request with its history, and the decision buttons. */
export function ApprovalDetailDialog({ item, onClose }: { item: ApprovalItem | null; onClose: () => void }) {
  const detail = useRequestDetail(item?.requestId ?? null);
  const budget = useRequestBudgetImpact(item?.requestId ?? null);
  return (
    <Dialog open={Boolean(item)} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[92dvh] max-w-3xl overflow-y-auto p-4 sm:p-6">
        {item && (
          <div className="flex min-w-0 flex-col gap-4">
            <DialogHeader>
              <DialogTitle className="break-words pr-6">
                <span className="font-mono text-base text-muted-foreground">{item.reference}</span> {item.title}
              </DialogTitle>
              <DialogDescription>
                Step {item.stepPosition} of {item.stepCount} · {item.stepName}
                {item.onBehalfOf ? ` · on behalf of ${item.onBehalfOf.name}` : ''}
              </DialogDescription>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <SlaBadge state={item.slaState} />
                <div className="text-sm">
                  <AmountCell item={item} />
                </div>
              </div>
            </DialogHeader>
            <BudgetImpact query={budget} />
            <DecisionPanel
              requestId={item.requestId}
              reference={item.reference}
              amount={detail.data?.amount ?? item.amount}
              currency={detail.data?.currency ?? item.currency}
              lineItems={detail.data?.lineItems ?? []}
              blockedReason={item.decidable ? null : item.blockedReason}
              // While the overrun decision is pending, the request waits at the "Budget overrun" step.
              overrunStep={detail.data?.overrunStatus === 'pending'}
              onDone={onClose}
            />
            <RequestDetailView requestId={item.requestId} />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
