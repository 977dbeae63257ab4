import {
  ERROR_REPORT_SOURCE_LABELS,
  ERROR_REPORT_STATUS_LABELS,
  type ErrorReportSource,
  type ErrorReportStatus,
} from '@outlay/contracts/error-reports';
import { Badge, type BadgeProps } from '@/components/ui/badge';

const VARIANTS: Record<ErrorReportStatus, BadgeProps['variant']> = {
  open: 'warning',
  regressed: 'danger',
  resolved: 'success',
};

export function ErrorReportStatusBadge({ status }: { status: ErrorReportStatus }) {
  return (
    <Badge variant={VARIANTS[status]} data-testid="error-report-status">
      {ERROR_REPORT_STATUS_LABELS[status]}
    </Badge>
  );
}

export function ErrorReportSourceBadge({ source }: { source: ErrorReportSource }) {
  return <Badge variant={source === 'server' ? 'purple' : 'outline'}>{ERROR_REPORT_SOURCE_LABELS[source]}</Badge>;
}
