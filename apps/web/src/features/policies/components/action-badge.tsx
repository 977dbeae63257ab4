import { POLICY_ACTION_LABELS, type PolicyAction } from '@outlay/contracts/policies';
import { Badge } from '@/components/ui/badge';

const ACTION_VARIANT: Record<PolicyAction, 'warning' | 'purple' | 'danger'> = {
  warn: 'warning',
  justify: 'purple',
  block: 'danger',
};

export function PolicyActionBadge({ action }: { action: PolicyAction }) {
  return (
    <Badge variant={ACTION_VARIANT[action]}>{action === 'block' ? 'Blocked' : POLICY_ACTION_LABELS[action]}</Badge>
  );
}
