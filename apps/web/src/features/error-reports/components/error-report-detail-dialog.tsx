import type { ReactNode } from 'react';
import { CheckCircle2, RotateCcw } from 'lucide-react';
import type { ErrorReport, ErrorReportDetail } from '@outlay/contracts/error-reports';
import { QueryState } from '@/components/query-state';
import { useHolds } from '@/components/read-only-note';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useToast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { formatDateTime, formatNumber, plural } from '@/lib/format';
import { useErrorReport } from '../api/get-error-report';
import { useReopenErrorReport } from '../api/reopen-error-report';
import { useResolveErrorReport } from '../api/resolve-error-report';
import { ErrorReportSourceBadge, ErrorReportStatusBadge } from './error-report-status-badge';
import { OccurrenceDays } from './occurrence-days';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="break-words text-sm">{children ?? <span className="text-muted-foreground">—</span>}</dd>
    </div>
  );
}

/** A stack as text in a scrolling box: never parsed as HTML, never wider than the dialog. */
function StackText({ label, text }: { label: string; text: string }) {
  return (
    <pre
      aria-label={label}
      tabIndex={0}
      className="max-h-64 overflow-auto whitespace-pre rounded-md border bg-muted/40 p-3 font-mono text-xs leading-relaxed"
      data-testid="error-report-stack"
    >
      {text}
    </pre>
  );
}

function StatusAction({ report }: { report: ErrorReportDetail }) {
  const { toast } = useToast();
  const resolve = useResolveErrorReport();
  const reopen = useReopenErrorReport();
  const failed = (error: unknown) =>
    toast({
      title: 'Could not change the error',
      description: messageOf(error, 'Please try again.'),
      variant: 'destructive',
    });
  if (report.status === 'resolved') {
    return (
      <Button
        variant="outline"
        disabled={reopen.isPending}
        onClick={() =>
          reopen.mutate(report.id, { onSuccess: () => toast({ title: 'Error reopened' }), onError: failed })
        }
      >
        <RotateCcw aria-hidden="true" />
        {reopen.isPending ? 'Reopening…' : 'Reopen'}
      </Button>
    );
  }
  return (
    <Button
      disabled={resolve.isPending}
      onClick={() =>
        resolve.mutate(report.id, {
          onSuccess: () =>
            toast({ title: 'Error resolved', description: 'If it happens again it comes back as regressed.' }),
          onError: failed,
        })
      }
    >
      <CheckCircle2 aria-hidden="true" />
      {resolve.isPending ? 'Resolving…' : 'Mark resolved'}
    </Button>
  );
}

function Details({ report }: { report: ErrorReportDetail }) {
  const hidden = report.affectedUsers - report.users.length;
  return (
    <div className="flex min-w-0 flex-col gap-5">
      {report.status === 'regressed' && report.regressedAt && (
        <Alert variant="danger">
          <span>
            <strong>Regressed:</strong> this error was marked resolved and happened again on{' '}
            {formatDateTime(report.regressedAt)}.
          </span>
        </Alert>
      )}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <Field label="Occurrences">{formatNumber(report.occurrences)}</Field>
        <Field label="People affected">
          {formatNumber(report.affectedUsers)}
          {report.anonymousOccurrences > 0 && (
            <span className="text-muted-foreground"> (+{plural(report.anonymousOccurrences, 'time')} signed out)</span>
          )}
        </Field>
        <Field label="Route">{report.route && <span className="font-mono text-xs">{report.route}</span>}</Field>
        <Field label="First seen">{formatDateTime(report.firstSeenAt)}</Field>
        <Field label="Last seen">{formatDateTime(report.lastSeenAt)}</Field>
        <Field label="Browser">{report.browser}</Field>
        {report.resolvedAt && (
          <Field label={report.status === 'resolved' ? 'Resolved' : 'Last resolved'}>
            {formatDateTime(report.resolvedAt)}
            {report.resolvedByName ? ` by ${report.resolvedByName}` : ''}
          </Field>
        )}
      </dl>

      <section className="flex flex-col gap-2" aria-labelledby="error-report-days">
        <h3 id="error-report-days" className="text-sm font-medium">
          Occurrences over time
        </h3>
        <OccurrenceDays days={report.days} />
      </section>

      <section className="flex min-w-0 flex-col gap-2" aria-labelledby="error-report-stack">
        <h3 id="error-report-stack" className="text-sm font-medium">
          Last stack trace
        </h3>
        {report.stack ? (
          <StackText label="Stack trace" text={report.stack} />
        ) : (
          <p className="text-sm text-muted-foreground">The report came without a stack trace.</p>
        )}
        {report.componentStack && (
          <details className="text-sm">
            <summary className="cursor-pointer text-muted-foreground">Component stack</summary>
            <StackText label="Component stack" text={report.componentStack.replace(/^\n/, '')} />
          </details>
        )}
      </section>

      <section className="flex flex-col gap-2" aria-labelledby="error-report-users">
        <h3 id="error-report-users" className="text-sm font-medium">
          People affected
        </h3>
        {report.users.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            {report.affectedUsers === 0 ? 'Nobody signed in has run into it.' : 'Nobody in your scope has run into it.'}
          </p>
        ) : (
          <ul className="divide-y rounded-md border" data-testid="error-report-users">
            {report.users.map((u) => (
              <li
                key={u.userId}
                className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 px-3 py-2 text-sm"
              >
                <span className="min-w-0">
                  <span className="font-medium">{u.name}</span>{' '}
                  <span className="text-muted-foreground">@{u.username}</span>
                </span>
                <span className="text-xs text-muted-foreground">
                  {plural(u.occurrences, 'time')} · last {formatDateTime(u.lastSeenAt)}
                  {u.browser ? ` · ${u.browser}` : ''}
                </span>
              </li>
            ))}
          </ul>
        )}
        {hidden > 0 && (
          <p className="text-xs text-muted-foreground">and {plural(hidden, 'more person', 'more people')}</p>
        )}
      </section>
    </div>
  );
}

/** One error group, read fresh: what happened, to whom, how often, and the last stack. */
export function ErrorReportDetailDialog({ report, onClose }: { report: ErrorReport | null; onClose: () => void }) {
  const detail = useErrorReport(report?.id ?? null);
  // A settings reader sees the details; resolving and reopening stay with errors.read.
  const canChange = useHolds('errors.read');
  return (
    <Dialog open={report !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle className="break-words pr-8 font-mono text-base leading-snug">{report?.message}</DialogTitle>
          <DialogDescription asChild>
            <div className="flex flex-wrap items-center gap-2">
              {detail.data ? (
                <ErrorReportStatusBadge status={detail.data.status} />
              ) : (
                report && <ErrorReportStatusBadge status={report.status} />
              )}
              {report && <ErrorReportSourceBadge source={report.source} />}
            </div>
          </DialogDescription>
        </DialogHeader>
        <QueryState
          query={detail}
          loadingLabel="Loading the error"
          errorMessage="Could not load the error."
          notFoundMessage="This error no longer exists: groups not seen for 90 days are removed."
          className="h-40"
        >
          {(data) => (
            <div className="flex min-w-0 flex-col gap-5">
              <Details report={data} />
              {canChange && (
                <div className="flex justify-end">
                  <StatusAction report={data} />
                </div>
              )}
            </div>
          )}
        </QueryState>
      </DialogContent>
    </Dialog>
  );
}
