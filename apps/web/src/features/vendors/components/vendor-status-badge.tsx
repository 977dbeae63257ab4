import { VENDOR_STATUS_LABELS, type VendorStatus } from '@outlay/contracts/vendors';
import { Badge, type BadgeProps } from '@/components/ui/badge';

const VARIANTS: Record<VendorStatus, BadgeProps['variant']> = {
  pending_verification: 'warning',
  active: 'success',
  blocked: 'danger',
};

export function VendorStatusBadge({ status }: { status: VendorStatus }) {
  return (
    <Badge variant={VARIANTS[status]} data-testid="vendor-status">
      {VENDOR_STATUS_LABELS[status]}
    </Badge>
  );
}
