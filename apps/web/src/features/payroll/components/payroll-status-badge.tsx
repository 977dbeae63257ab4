import { PAYROLL_RUN_STATUS_LABELS, type PayrollRunStatus } from '@outlay/contracts/payroll';
import { Badge, type BadgeProps } from '@/components/ui/badge';

const VARIANT: Record<PayrollRunStatus, BadgeProps['variant']> = {
  draft: 'default',
  submitted: 'warning',
  approved: 'primary',
  paid: 'success',
};

export function PayrollStatusBadge({ status }: { status: PayrollRunStatus }) {
  return <Badge variant={VARIANT[status]}>{PAYROLL_RUN_STATUS_LABELS[status]}</Badge>;
}
