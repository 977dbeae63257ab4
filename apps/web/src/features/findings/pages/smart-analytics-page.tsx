import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { FINDING_KIND_LABELS, FINDING_KIND_VALUES, type Finding, type FindingKind } from '@outlay/contracts/findings';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { SelectField } from '@/components/select-field';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/use-toast';
import { useAuth } from '@/lib/current-user';
import { messageOf } from '@/lib/api-error';
import { formatDate, formatDateTime, formatNumber, plural } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useFindings, type FindingFilters } from '../api/findings';
import { useRefreshFindings } from '../api/refresh-findings';
import { FindingCard } from '../components/finding-card';
import { DismissFindingDialog, FindingRuleDialog } from '../components/finding-dialogs';

const STATUS_OPTIONS = [
  { value: 'open', label: 'Open' },
  { value: 'dismissed', label: 'Dismissed' },
  { value: 'all', label: 'Open and dismissed' },
] as const;
const MONTH_OPTIONS = [
  { value: '3', label: 'Last 3 months' },
  { value: '6', label: 'Last 6 months' },
  { value: '12', label: 'Last 12 months' },
];

/** /smart-analytics: findings in the requests of the caller's reporting scope, each linked to its requests. */
export default function SmartAnalyticsPage() {
  const { user } = useAuth();
  const canDismiss = Boolean(user?.permissions.includes('audit.read'));
  const canMakeRule = Boolean(user?.permissions.includes('policies.manage'));
  const [filters, setFilters] = useState<FindingFilters>({ status: 'open', months: 12 });
  const findings = useFindings(filters);
  const refresh = useRefreshFindings();
  const { toast } = useToast();
  // Not disabled while it runs, so keyboard focus stays on the button.
  const refreshNow = () =>
    !refresh.isPending &&
    refresh.mutate(filters, {
      onError: (error) =>
        toast({
          title: 'Could not refresh the findings',
          description: messageOf(error, 'Please try again.'),
          variant: 'destructive',
        }),
    });
  const [dismissing, setDismissing] = useState<Finding | null>(null);
  const [ruling, setRuling] = useState<Finding | null>(null);
  const setKind = (kind: FindingKind | undefined) => setFilters((f) => ({ ...f, kind }));

  return (
    <div>
      <PageHeader
        title="Smart Analytics"
        description="Patterns in the requests you report on that deserve a look: amount outliers, likely duplicates, purchases split under an approval threshold, unusual timing and Benford deviations."
      />
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <SelectField
          id="findings-status"
          label="Findings"
          className="sm:w-52"
          value={filters.status}
          onChange={(status) => setFilters((f) => ({ ...f, status }))}
          options={STATUS_OPTIONS}
        />
        <SelectField
          id="findings-months"
          label="Period"
          className="sm:w-44"
          value={String(filters.months)}
          onChange={(m) => setFilters((f) => ({ ...f, months: Number(m) }))}
          options={MONTH_OPTIONS}
        />
      </div>
      <QueryState
        query={findings}
        loadingLabel="Looking for findings"
        errorMessage="Could not read the findings."
        className="h-48"
      >
        {(data) => (
          <div className={cn('flex flex-col gap-4', (findings.isFetching || refresh.isPending) && 'opacity-70')}>
            <div role="group" aria-label="Kind of finding" className="flex flex-wrap gap-2">
              <Button
                size="sm"
                variant={filters.kind ? 'outline' : 'default'}
                aria-pressed={!filters.kind}
                onClick={() => setKind(undefined)}
              >
                All ({formatNumber(Object.values(data.counts).reduce((s, n) => s + n, 0))})
              </Button>
              {FINDING_KIND_VALUES.map((k) => (
                <Button
                  key={k}
                  size="sm"
                  variant={filters.kind === k ? 'default' : 'outline'}
                  aria-pressed={filters.kind === k}
                  onClick={() => setKind(k)}
                >
                  {FINDING_KIND_LABELS[k]} ({formatNumber(data.counts[k])})
                </Button>
              ))}
            </div>
            <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
              <p className="text-sm text-muted-foreground" data-testid="findings-meta">
                Computed {formatDateTime(data.computedAt)} over the {formatNumber(data.requestsExamined)} requests of
                the twelve months before; findings with requests raised from {formatDate(data.from)} to{' '}
                {formatDate(data.to)}. Benford’s test ran on{' '}
                {plural(data.benfordTested, 'requester or vendor', 'requesters and vendors')} with at least{' '}
                {formatNumber(data.benfordMinCount)} amounts.
                {data.dismissedCount > 0 &&
                  ` ${data.dismissedCount === 1 ? '1 finding' : `${formatNumber(data.dismissedCount)} findings`} dismissed.`}
              </p>
              <Button
                size="sm"
                variant="outline"
                className="shrink-0 self-start"
                onClick={refreshNow}
                aria-disabled={refresh.isPending}
                aria-busy={refresh.isPending}
              >
                <RefreshCw className={cn('size-4', refresh.isPending && 'animate-spin')} aria-hidden />
                {refresh.isPending ? 'Refreshing…' : 'Refresh'}
              </Button>
            </div>
            {data.items.length === 0 ? (
              <div className="rounded-lg border border-dashed p-8 text-center">
                <p className="font-medium">
                  {filters.status === 'dismissed' ? 'No dismissed findings' : 'Nothing stands out'}
                </p>
                <p className="mt-1 text-sm text-muted-foreground">
                  {filters.status === 'dismissed'
                    ? 'Findings you dismiss are listed here with the reason.'
                    : 'No finding of this kind in the requests of the period.'}
                </p>
              </div>
            ) : (
              <div className="grid gap-4 xl:grid-cols-2">
                {data.items.map((f) => (
                  <FindingCard
                    key={f.key}
                    finding={f}
                    canDismiss={canDismiss}
                    canMakeRule={canMakeRule}
                    onDismiss={setDismissing}
                    onMakeRule={setRuling}
                  />
                ))}
              </div>
            )}
          </div>
        )}
      </QueryState>
      <DismissFindingDialog finding={dismissing} onClose={() => setDismissing(null)} />
      <FindingRuleDialog finding={ruling} onClose={() => setRuling(null)} />
    </div>
  );
}
