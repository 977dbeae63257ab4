import { AlarmClock, CircleCheck, Clock } from 'lucide-react';
import type { SlaState } from '@outlay/contracts/approvals';
import { Badge } from '@/components/ui/badge';

const SLA: Record<SlaState, { label: string; variant: 'success' | 'warning' | 'danger'; Icon: typeof Clock }> = {
  on_track: { label: 'On track', variant: 'success', Icon: CircleCheck },
  due_soon: { label: 'Due soon', variant: 'warning', Icon: Clock },
  overdue: { label: 'Overdue', variant: 'danger', Icon: AlarmClock },
};

export const SLA_OPTIONS = (Object.keys(SLA) as SlaState[]).map((value) => ({ value, label: SLA[value].label }));

/** The step's SLA: on track, due soon (past half of it) or overdue. */
export function SlaBadge({ state, testId = 'sla-badge' }: { state: SlaState; testId?: string }) {
  const { label, variant, Icon } = SLA[state] ?? SLA.on_track;
  return (
    <Badge variant={variant} data-testid={testId}>
      <Icon className="size-3" aria-hidden="true" />
      {label}
    </Badge>
  );
}
