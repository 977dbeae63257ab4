import { useState } from 'react';
import { FINDING_KIND_LABELS, FINDING_SEVERITY_LABELS, type Finding } from '@outlay/contracts/findings';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDate, formatDateTime, formatMoney } from '@/lib/format';

const SEVERITY_VARIANT = { high: 'danger', medium: 'warning', low: 'default' } as const;
const FIRST = 5;

/** One finding: why, its requests (links), and what can be done with it. */
export function FindingCard({
  finding,
  canDismiss,
  canMakeRule,
  onDismiss,
  onMakeRule,
}: {
  finding: Finding;
  canDismiss: boolean;
  canMakeRule: boolean;
  onDismiss: (f: Finding) => void;
  onMakeRule: (f: Finding) => void;
}) {
  const [all, setAll] = useState(false);
  const shown = all ? finding.requests : finding.requests.slice(0, FIRST);
  const titleId = `finding-${finding.key.replace(/[^a-zA-Z0-9_-]/g, '-')}`;
  return (
    <article
      aria-labelledby={titleId}
      data-testid="finding"
      className="flex min-w-0 flex-col gap-3 rounded-lg border bg-card p-4 shadow-xs"
    >
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={SEVERITY_VARIANT[finding.severity]}>{FINDING_SEVERITY_LABELS[finding.severity]}</Badge>
        <Badge variant="outline">{FINDING_KIND_LABELS[finding.kind]}</Badge>
        {finding.organizationName && <span className="text-xs text-muted-foreground">{finding.organizationName}</span>}
        {finding.total && (
          <span className="ml-auto text-sm font-medium tabular-nums">
            {formatMoney(finding.total.amount, finding.total.currency)}
          </span>
        )}
      </div>
      <div className="min-w-0">
        <h2 id={titleId} className="font-semibold break-words">
          {finding.title}
        </h2>
        <p className="mt-1 text-sm break-words text-muted-foreground">{finding.detail}</p>
      </div>
      <div>
        <p className="mb-1 text-xs font-medium text-muted-foreground">
          {finding.requestCount === 1 ? '1 request' : `${finding.requestCount} requests`}
          {finding.requestCount > finding.requests.length ? ` (the newest ${finding.requests.length} listed)` : ''}
        </p>
        <ul className="flex flex-col divide-y rounded-md border text-sm">
          {shown.map((r) => (
            <li key={r.id} className="flex flex-col gap-0.5 px-3 py-2">
              <div className="flex items-baseline justify-between gap-3">
                <a
                  href={`/requests?id=${encodeURIComponent(r.id)}`}
                  className="font-medium text-primary underline-offset-2 hover:underline"
                >
                  {r.reference}
                </a>
                <span className="tabular-nums">{formatMoney(r.amount, r.currency)}</span>
              </div>
              <span className="break-words">{r.title}</span>
              <span className="text-xs text-muted-foreground">
                {r.requesterName}
                {r.vendorName ? ` · ${r.vendorName}` : ''} · {formatDate(r.date)}
              </span>
            </li>
          ))}
        </ul>
        {finding.requests.length > FIRST && (
          <Button
            variant="link"
            size="sm"
            className="h-auto px-0"
            aria-expanded={all}
            onClick={() => setAll((v) => !v)}
          >
            {all ? 'Show fewer' : `Show all ${finding.requests.length}`}
          </Button>
        )}
      </div>
      {finding.dismissal ? (
        <p className="rounded-md bg-muted/50 px-3 py-2 text-sm" data-testid="dismissal">
          Dismissed by {finding.dismissal.dismissedByName} on {formatDateTime(finding.dismissal.dismissedAt)}: “
          {finding.dismissal.reason}”
        </p>
      ) : (
        (canDismiss || (canMakeRule && finding.ruleSuggestion)) && (
          <div className="flex flex-wrap gap-2">
            {canMakeRule && finding.ruleSuggestion && (
              <Button size="sm" onClick={() => onMakeRule(finding)}>
                Turn into a policy rule
              </Button>
            )}
            {canDismiss && (
              <Button size="sm" variant="outline" onClick={() => onDismiss(finding)}>
                Dismiss
              </Button>
            )}
          </div>
        )
      )}
    </article>
  );
}
