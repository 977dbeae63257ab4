import { BudgetImpact } from '@/components/budget-impact';
import { useRequestBudgetImpact } from '@/features/budgets';

/**
 * A queue item's budget impact, compact: a line per budget line with a meter, what is left after
 * the request or how far over it goes. The row names the organization, so the lines leave it off.
 */
export function QueueBudgetImpact({
  requestId,
  organizationName,
  className,
}: {
  requestId: string;
  organizationName?: string;
  className?: string;
}) {
  return (
    <BudgetImpact
      query={useRequestBudgetImpact(requestId)}
      variant="compact"
      knownPrefix={organizationName}
      className={className}
    />
  );
}
