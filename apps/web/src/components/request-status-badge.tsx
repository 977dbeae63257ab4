import { REQUEST_STATUS_LABELS, type RequestStatus } from '@outlay/contracts/request-statuses';
import { Badge, type BadgeProps } from '@/components/ui/badge';

const VARIANTS: Record<RequestStatus, BadgeProps['variant']> = {
  draft: 'default',
  pending: 'warning',
  info_requested: 'purple',
  approved: 'success',
  rejected: 'danger',
  cancelled: 'outline',
  paid: 'primary',
};

/** A request's status in words, coloured by state (used in lists and the detail). */
export function RequestStatusBadge({ status, className }: { status: RequestStatus; className?: string }) {
  return (
    <Badge variant={VARIANTS[status] ?? 'default'} className={className} data-testid="request-status">
      {REQUEST_STATUS_LABELS[status] ?? status}
    </Badge>
  );
}
