import type { RequestStatus } from '@outlay/contracts/requests';
import type { DashboardMine } from '@outlay/contracts/dashboard';
import { RequestStatusBadge } from '@/components/request-status-badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDateTime, formatMoney } from '@/lib/format';
import { CardLink } from './card-link';

const STATUS_ORDER: RequestStatus[] = [
  'draft',
  'pending',
  'info_requested',
  'approved',
  'paid',
  'rejected',
  'cancelled',
];

export function MineCard({ mine, currency }: { mine: DashboardMine; currency: string }) {
  const byStatus = new Map(mine.byStatus.map((s) => [s.status, s]));
  return (
    <Card data-testid="mine-card">
      <CardHeader>
        <CardTitle>My requests</CardTitle>
        <CardDescription>
          {mine.total} {mine.total === 1 ? 'request' : 'requests'} raised by you
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <ul className="flex flex-col gap-1 text-sm">
          {STATUS_ORDER.filter((s) => byStatus.has(s)).map((s) => (
            <li key={s} className="flex items-center justify-between gap-2">
              <span className="flex items-center gap-2">
                <RequestStatusBadge status={s} />
                <span className="tabular-nums">{byStatus.get(s)!.count}</span>
              </span>
              <span className="tabular-nums text-muted-foreground">
                {formatMoney(byStatus.get(s)!.amount, currency)}
              </span>
            </li>
          ))}
          {mine.total === 0 ? <li className="text-muted-foreground">You have not raised a request yet.</li> : null}
        </ul>
        {mine.recentDecisions.length ? (
          <div className="flex flex-col gap-2">
            <h3 className="text-sm font-semibold">Latest decisions on your requests</h3>
            <ul className="flex flex-col gap-2 text-sm">
              {mine.recentDecisions.map((dec) => (
                <li key={`${dec.requestId}-${dec.decidedAt}`} className="flex flex-col rounded-md border px-3 py-2">
                  <span>
                    <span className="font-medium">{dec.reference}</span> {dec.title}
                  </span>
                  <span className="text-xs text-muted-foreground">
                    {DECISION_WORDS[dec.decision]} {dec.stepName ? `at “${dec.stepName}”` : ''} by{' '}
                    {dec.decidedBy ?? 'Outlay'} · {formatDateTime(dec.decidedAt)}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <CardLink href="/requests">Open my requests</CardLink>
      </CardContent>
    </Card>
  );
}

const DECISION_WORDS = { approved: 'Approved', rejected: 'Rejected', info_requested: 'Information requested' } as const;
