import { CheckCircle2, Circle, CircleDot, CircleSlash, XCircle } from 'lucide-react';
import { type ReactNode } from 'react';
import type { RequestDetail, RouteStep } from '@outlay/contracts/requests';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';

const STEP_STATUS: Record<RouteStep['status'], { label: string; variant: BadgeProps['variant']; icon: ReactNode }> = {
  waiting: {
    label: 'Waiting',
    variant: 'default',
    icon: <Circle className="size-5 text-slate-400" aria-hidden="true" />,
  },
  active: {
    label: 'In progress',
    variant: 'warning',
    icon: <CircleDot className="size-5 text-amber-600" aria-hidden="true" />,
  },
  approved: {
    label: 'Approved',
    variant: 'success',
    icon: <CheckCircle2 className="size-5 text-emerald-600" aria-hidden="true" />,
  },
  rejected: {
    label: 'Rejected',
    variant: 'danger',
    icon: <XCircle className="size-5 text-red-600" aria-hidden="true" />,
  },
  skipped: {
    label: 'Skipped',
    variant: 'outline',
    icon: <CircleSlash className="size-5 text-slate-400" aria-hidden="true" />,
  },
};

const ASSIGNMENT_STATUS: Record<
  RouteStep['approvers'][number]['status'],
  { label: string; variant: BadgeProps['variant'] }
> = {
  open: { label: 'Waiting for decision', variant: 'warning' },
  approved: { label: 'Approved', variant: 'success' },
  rejected: { label: 'Rejected', variant: 'danger' },
  info_requested: { label: 'Asked for information', variant: 'purple' },
  superseded: { label: 'No longer needed', variant: 'outline' },
};

const REASON_TEXT: Record<RouteStep['approvers'][number]['reason'], string> = {
  workflow: '',
  delegation: 'delegate',
  reassigned: 'reassigned',
  escalated: 'escalated',
  fallback: 'fallback approver',
};

export function RouteSection({ detail }: { detail: RequestDetail }) {
  if (detail.steps.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        {detail.status === 'draft'
          ? 'The approval route is chosen when the request is submitted.'
          : 'No approval steps (the request did not need a route).'}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-3">
      {detail.workflowName && (
        <p className="text-sm text-muted-foreground">
          Workflow: <span className="font-medium text-foreground">{detail.workflowName}</span>
        </p>
      )}
      <ol className="flex flex-col gap-2" aria-label="Approval route">
        {detail.steps.map((step) => {
          const s = STEP_STATUS[step.status];
          return (
            <li
              key={step.id}
              className={cn(
                'flex gap-3 rounded-lg border p-3',
                step.status === 'active' && 'border-amber-300 bg-amber-50/50',
              )}
            >
              <span className="mt-0.5">{s.icon}</span>
              <div className="flex min-w-0 flex-1 flex-col gap-1.5">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium">
                    {step.position}. {step.name}
                  </span>
                  <Badge variant={s.variant}>{s.label}</Badge>
                  <span className="text-xs text-muted-foreground">
                    {step.mode === 'all' ? 'Everyone must approve' : 'Any one approver'}
                  </span>
                </div>
                {step.dueAt && step.status === 'active' && (
                  <span className="text-xs text-muted-foreground">Due {formatDateTime(step.dueAt)}</span>
                )}
                {step.approvers.length > 0 && (
                  <ul className="flex flex-col gap-1">
                    {step.approvers.map((a, i) => {
                      const st = ASSIGNMENT_STATUS[a.status];
                      const reason = REASON_TEXT[a.reason];
                      return (
                        <li
                          key={`${a.userId}-${i}`}
                          className={cn(
                            'flex flex-wrap items-center gap-x-2 gap-y-1 text-sm',
                            a.status === 'superseded' && 'text-muted-foreground',
                          )}
                        >
                          <span className="font-medium">{a.name}</span>
                          {a.originalApproverName && (
                            <span className="text-xs text-muted-foreground">on behalf of {a.originalApproverName}</span>
                          )}
                          {reason && !a.originalApproverName && (
                            <span className="text-xs text-muted-foreground">({reason})</span>
                          )}
                          <Badge variant={st.variant}>{st.label}</Badge>
                        </li>
                      );
                    })}
                  </ul>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      {detail.routeReason.length > 0 && (
        <details className="rounded-md bg-slate-50 p-3 text-sm">
          <summary className="cursor-pointer font-medium">Why this route</summary>
          <ul className="mt-2 list-disc pl-5 text-muted-foreground">
            {detail.routeReason.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
