import { BudgetImpact } from '@/components/budget-impact';
import { useRequestBudgetImpact } from '@/features/budgets/api/budget-impact';

/** A queue item's budget impact, compact: each line's remaining before → after, and how far over. */
export function QueueBudgetImpact({ requestId, className }: { requestId: string; className?: string }) {
  return <BudgetImpact query={useRequestBudgetImpact(requestId)} variant="compact" className={className} />;
}
