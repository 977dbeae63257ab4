import { Clock } from 'lucide-react';
import { REQUEST_STATUS_LABELS, type RequestStatus } from '@outlay/contracts/requests';
import type { Prediction } from '@outlay/contracts/routing';
import { STEP_MODE_LABELS } from '@outlay/contracts/workflows';
import { QueryState } from '@/components/query-state';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDateTime, formatNumber, plural } from '@/lib/format';
import { useRouteExplanation } from '../api/routing';

const STEP_STATUS: Record<string, { label: string; variant: 'default' | 'primary' | 'success' | 'danger' }> = {
  waiting: { label: 'Waiting', variant: 'default' },
  active: { label: 'Active', variant: 'primary' },
  approved: { label: 'Approved', variant: 'success' },
  rejected: { label: 'Rejected', variant: 'danger' },
  skipped: { label: 'Skipped', variant: 'default' },
};

const ASSIGNMENT_REASON: Record<string, string> = {
  workflow: 'named by the workflow',
  delegation: 'delegate',
  reassigned: 'reassigned',
  escalated: 'escalated',
  fallback: 'fallback approver',
};

function hours(h: number | null): string {
  if (h === null) return '—';
  if (h < 48) return `${formatNumber(h, 1)} ${h === 1 ? 'hour' : 'hours'}`;
  return `${formatNumber(h / 24, 1)} days`;
}

export function PredictionText({ prediction }: { prediction: Prediction }) {
  if (prediction.medianHours === null || prediction.sample === 0) {
    return <p className="text-sm text-muted-foreground">Not enough history to predict yet ({prediction.basis}).</p>;
  }
  return (
    <p className="text-sm" data-testid="prediction">
      Typically decided within <strong>{hours(prediction.medianHours)}</strong>; 9 in 10 within{' '}
      <strong>{hours(prediction.p90Hours)}</strong>.{' '}
      <span className="text-muted-foreground">
        Based on {plural(prediction.sample, 'similar request')} ({prediction.basis}).
      </span>
    </p>
  );
}

/** The route the engine chose for one request, why, and the predicted time to decision. */
export function RouteExplanationCard({ requestId }: { requestId: string }) {
  const query = useRouteExplanation(requestId);
  return (
    <QueryState
      query={query}
      loadingLabel="Loading the route"
      errorMessage="Could not load the route."
      notFoundMessage="This request does not exist or you cannot see it."
      className="min-h-40 rounded-xl border bg-card"
    >
      {(r) => (
        <Card data-testid="route-explanation">
          <CardHeader>
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-mono text-sm text-muted-foreground">{r.reference}</span>
              <Badge variant="outline">{REQUEST_STATUS_LABELS[r.status as RequestStatus] ?? r.status}</Badge>
            </div>
            <CardTitle>{r.title}</CardTitle>
            <CardDescription>
              {r.workflowName ? `Routed by the workflow “${r.workflowName}”.` : 'No workflow chose this route.'}
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-5">
            <section aria-label="Why this route">
              <h3 className="mb-1 text-sm font-semibold">Why</h3>
              {r.reasons.length === 0 ? (
                <p className="text-sm text-muted-foreground">The request has not been routed yet (it is a draft).</p>
              ) : (
                <ul className="list-disc space-y-1 pl-5 text-sm">
                  {r.reasons.map((reason, i) => (
                    <li key={i}>{reason}</li>
                  ))}
                </ul>
              )}
            </section>
            {r.steps.length > 0 && (
              <section aria-label="Steps">
                <h3 className="mb-1 text-sm font-semibold">Steps</h3>
                <ol className="flex flex-col gap-2">
                  {r.steps.map((step) => {
                    const status = STEP_STATUS[step.status] ?? STEP_STATUS.waiting!;
                    return (
                      <li key={step.id} className="rounded-md border p-3 text-sm">
                        <div className="flex flex-wrap items-center gap-2">
                          <span className="font-medium">
                            {step.position}. {step.name}
                          </span>
                          <Badge variant={status.variant}>{status.label}</Badge>
                          <span className="text-xs text-muted-foreground">
                            {STEP_MODE_LABELS[step.mode]} · SLA {step.slaHours} h
                            {step.dueAt && step.status === 'active' ? ` · due ${formatDateTime(step.dueAt)}` : ''}
                          </span>
                        </div>
                        {step.approvers.length > 0 ? (
                          <ul className="mt-1.5 flex flex-col gap-0.5">
                            {step.approvers.map((a) => (
                              <li key={`${a.userId}-${a.status}`}>
                                {a.name}{' '}
                                <span className="text-xs text-muted-foreground">
                                  ({ASSIGNMENT_REASON[a.reason] ?? a.reason}
                                  {a.originalApproverName ? ` for ${a.originalApproverName}` : ''}, {a.status})
                                </span>
                              </li>
                            ))}
                          </ul>
                        ) : (
                          <p className="mt-1.5 text-xs text-muted-foreground">
                            Approvers are resolved when the step becomes active.
                          </p>
                        )}
                      </li>
                    );
                  })}
                </ol>
              </section>
            )}
            <section
              aria-label="Predicted time to decision"
              className="flex items-start gap-2 rounded-md bg-muted/50 p-3"
            >
              <Clock className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <PredictionText prediction={r.prediction} />
            </section>
          </CardContent>
        </Card>
      )}
    </QueryState>
  );
}
