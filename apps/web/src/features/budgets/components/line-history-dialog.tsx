import type { BudgetLine } from '@outlay/contracts/budgets';
import { QueryState } from '@/components/query-state';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { formatDateTime, formatMoney } from '@/lib/format';
import { useBudgetAdjustments } from '../api/budget-adjustments';

/** A budget line's history: the raises made with approved overruns (date, who, by how much, the request, why). */
export function LineHistoryDialog({ line, onClose }: { line: BudgetLine; onClose: () => void }) {
  const adjustments = useBudgetAdjustments(line.id);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[92dvh] max-w-2xl overflow-y-auto">
        <DialogHeader>
          <DialogTitle className="pr-8">History of {line.label}</DialogTitle>
          <DialogDescription>
            Budget {formatMoney(line.amount, line.currency)}. Raises made when an overrun approver approved a request
            over this line and chose to raise it.
          </DialogDescription>
        </DialogHeader>
        <QueryState
          query={adjustments}
          loadingLabel="Loading the line's history"
          errorMessage="Could not load the line's history."
        >
          {(data) =>
            data.items.length === 0 ? (
              <p className="text-sm text-muted-foreground">No adjustments: the line has its original amount.</p>
            ) : (
              <ol className="flex flex-col divide-y rounded-md border" aria-label="Budget adjustments">
                {data.items.map((a) => (
                  <li key={a.id} className="flex flex-col gap-1 p-3 text-sm" data-testid="budget-adjustment">
                    <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                      <span className="font-medium text-emerald-800 dark:text-emerald-300">
                        +{formatMoney(a.amount, a.currency)}
                      </span>
                      <span className="text-xs text-muted-foreground">{formatDateTime(a.createdAt)}</span>
                    </div>
                    <span className="text-xs text-muted-foreground">
                      {formatMoney(a.amountBefore, a.currency)} → {formatMoney(a.amountAfter, a.currency)} · by{' '}
                      {a.createdBy?.name ?? 'Unknown user'}
                      {a.requestReference && (
                        <>
                          {' '}
                          · overrun of{' '}
                          <a className="font-mono underline" href={`/requests?id=${a.requestId}`}>
                            {a.requestReference}
                          </a>
                        </>
                      )}
                    </span>
                    <span className="break-words">“{a.reason}”</span>
                  </li>
                ))}
              </ol>
            )
          }
        </QueryState>
      </DialogContent>
    </Dialog>
  );
}
